"""Big events on a real `cuehub serve` process (SQLite): what a 1,024-player draw costs the rest.

- making a 2,046-match double elimination does not stall the hub: another tournament's tablet keeps
  getting its acks within its usual time while the draw is made and its first matches called;
- a stroke on one table of a 1,024-player single elimination costs each `tournament:` watcher at
  most 1 KB (the update carries that table's entry, not the 300 KB projection), and the watcher's
  copy, the snapshot with every update applied, is the hub's projection;
- the public GET of such an event is bounded: the draw's matches come in pages.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hub.rules.disciplines import traits_of
from hub.tools.strokes import next_command
from tests.frames import auth_frame, subscribe_frame
from tests.hubproc import ADMIN, HubProcess
from tests.watch.tournament_view import TournamentView

AUTH = {"Authorization": f"Bearer {ADMIN}"}
WPA = {"discipline": "wpa_nine", "format": {"race_to": 3}, "options": {}}


@pytest.fixture(scope="module")
def hub_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubProcess]:
    d: Path = tmp_path_factory.mktemp("big")
    h = HubProcess(f"sqlite+aiosqlite:///{d / 'hub.db'}", d)
    h.start()
    try:
        yield h
    finally:
        h.stop()


def event(base: str, players: int, tables: int) -> tuple[str, list[dict[str, Any]]]:
    """A tournament with `players` players and `tables` tables: (id, tables with their tokens)."""
    with httpx.Client(base_url=base, headers=AUTH, timeout=60) as c:
        tid = c.post("/api/tournaments", json={"name": f"Open {players}"}).json()["id"]
        made = [c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i + 1}"}).json() for i in range(tables)]
        for start in range(0, players, 512):
            batch = [{"name": f"Player {i}"} for i in range(start, min(players, start + 512))]
            assert c.post(f"/api/tournaments/{tid}/players", json={"players": batch}).status_code == 201
    return tid, made


class Tablet:
    """One table's socket: commands sent one at a time, each ack's round trip timed."""

    def __init__(self, ws_base: str, table: dict[str, Any]) -> None:
        self.url = f"{ws_base}/ws/tables/{table['id']}"
        self.token = table["token"]
        self.match: dict[str, Any] | None = None
        self.acks_ms: list[float] = []

    async def __aenter__(self) -> Tablet:
        self.ws = await websockets.connect(self.url, max_size=None)
        await self.ws.send(json.dumps(auth_frame(self.token)))
        ready = json.loads(await self.ws.recv())
        assert ready["type"] == "ready", ready
        self.match = ready["match"]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def send(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.match is not None
        cid = str(uuid.uuid4())
        t0 = time.perf_counter()
        await self.ws.send(json.dumps({"id": cid, "match_id": self.match["id"], "command": command}))
        answer = None
        while answer is None or (self.match or {}).get("version", -1) < answer.get("version", 0):
            msg = json.loads(await self.ws.recv())
            if msg.get("id") == cid and msg["type"] in ("ack", "reject"):
                answer = msg
                self.acks_ms.append((time.perf_counter() - t0) * 1000)
                if msg["type"] == "reject":
                    raise AssertionError(msg)
            elif msg["type"] == "state":
                self.match = msg["match"]
        return answer

    async def stroke(self, rng: random.Random) -> None:
        assert self.match is not None
        cmd, _label, _pause = next_command(self.match, rng, traits_of(self.match["discipline"]).to_json())
        assert cmd is not None, self.match
        await self.send(cmd)


def test_making_a_big_draw_does_not_stall_other_tables(hub_process: HubProcess) -> None:
    other, other_tables = event(hub_process.base, 0, 1)
    r = httpx.post(f"{hub_process.base}/api/matches", headers=AUTH, json={
        "tournament_id": other, "table_id": other_tables[0]["id"], **WPA,
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
    assert r.status_code == 201, r.text
    big, _ = event(hub_process.base, 1024, 16)

    async def run() -> tuple[list[float], list[float], float]:
        async with Tablet(hub_process.ws_base, other_tables[0]) as tablet:
            await tablet.send({"kind": "start", "breaker": "a"})
            for i in range(30):  # the usual time of an ack on this hub now
                await tablet.send({"kind": "pause" if i % 2 == 0 else "resume"})
            before = list(tablet.acks_ms)
            tablet.acks_ms.clear()
            done = asyncio.Event()

            async def keep_playing() -> None:
                i = 0
                while not done.is_set():
                    await tablet.send({"kind": "pause" if i % 2 == 0 else "resume"})
                    i += 1

            player = asyncio.create_task(keep_playing())
            t0 = time.perf_counter()
            async with httpx.AsyncClient(base_url=hub_process.base, headers=AUTH, timeout=120) as c:
                made = await c.post(f"/api/tournaments/{big}/draw",
                                    json={"type": "double_elimination", "seed": 3, "match": WPA})
            took = time.perf_counter() - t0
            done.set()
            await player
            assert made.status_code == 201, made.text
            page = made.json()["draw"]["matches_page"]
            assert page["total"] == 2046 and page["next"] == page["limit"]
            return before, tablet.acks_ms, took

    before, during, took = asyncio.run(run())
    assert len(during) >= 5, f"only {len(during)} acks while the draw was made in {took:.2f} s"
    usual = statistics.median(before)
    # No stall: the slowest ack while the draw and its first calls were made stays near the usual
    # one (the whole draw derived on the event loop at each of its events held every other table
    # for 0.3-0.9 s here). The floor of 300 ms is for this box shared with other work.
    assert max(during) < max(20 * usual, 300.0), (usual, sorted(during)[-5:], took)


def test_a_stroke_on_a_big_event_costs_each_watcher_under_a_kilobyte(hub_process: HubProcess) -> None:
    tid, tables = event(hub_process.base, 1024, 4)
    r = httpx.post(f"{hub_process.base}/api/tournaments/{tid}/draw", headers=AUTH, timeout=120,
                   json={"type": "single_elimination", "seed": 5, "match": WPA})
    assert r.status_code == 201, r.text

    async def run() -> tuple[TournamentView, list[int], int]:
        async with websockets.connect(f"{hub_process.ws_base}/ws/watch", max_size=None) as watcher:
            await watcher.send(json.dumps(subscribe_frame(f"tournament:{tid}")))
            snapshot = await watcher.recv()
            view = TournamentView()
            view.take(json.loads(snapshot))
            assert len(view.proj["draw"]["matches"]) == 1023  # type: ignore[index]
            sizes: list[int] = []
            rng = random.Random(1)
            async with Tablet(hub_process.ws_base, tables[0]) as tablet:
                assert tablet.match is not None and tablet.match["draw"]["tournament_id"] == tid
                first = tablet.match["players"][0]["id"]
                await tablet.send({"kind": "start", "breaker": first})
                for _ in range(12):
                    await tablet.stroke(rng)
                    if tablet.match["status"] == "finished":
                        break
                version = tablet.match["version"]
                # Every update the strokes made, until the one with the table's latest version.
                while True:
                    raw = await asyncio.wait_for(watcher.recv(), 10)
                    msg = json.loads(raw)
                    view.take(msg)
                    if msg.get("type") == "update" and msg.get("match_id") == tablet.match["id"]:
                        sizes.append(len(raw.encode("utf-8") if isinstance(raw, str) else raw))
                    entry = next(t for t in view.proj["tables"] if t["id"] == tables[0]["id"])  # type: ignore[index]
                    if entry["match"] and entry["match"]["version"] >= version:
                        break
            return view, sizes, len(snapshot)

    view, sizes, snapshot_bytes = asyncio.run(run())
    assert view.gaps == 0 and len(sizes) >= 5, (view.gaps, sizes)
    assert snapshot_bytes > 100_000  # the whole projection: the reason updates must not be it
    assert max(sizes) <= 1024, sizes
    whole = httpx.get(f"{hub_process.base}/api/tournaments/{tid}", params={"matches_limit": 1024}, timeout=30).json()
    del whole["draw"]["matches_page"]
    # The snapshot with every delta applied is the hub's projection.
    assert {k: v for k, v in view.proj.items() if k != "version"} == {k: v for k, v in whole.items() if k != "version"}


def test_the_get_of_a_big_event_is_paged(hub_process: HubProcess) -> None:
    tid, _ = event(hub_process.base, 1024, 2)
    assert httpx.post(f"{hub_process.base}/api/tournaments/{tid}/draw", headers=AUTH, timeout=120,
                      json={"type": "single_elimination", "seed": 9, "match": WPA}).status_code == 201
    with httpx.Client(base_url=hub_process.base, timeout=30) as c:
        t0 = time.perf_counter()
        first = c.get(f"/api/tournaments/{tid}")
        took = time.perf_counter() - t0
        assert first.status_code == 200 and took < 1.0, took
        page = first.json()["draw"]["matches_page"]
        assert page == {"offset": 0, "limit": 256, "total": 1023, "next": 256}
        assert len(first.content) < 400_000 and len(first.json()["players"]) == 1024
        keys: list[str] = []
        offset: int | None = 0
        while offset is not None:
            body = c.get(f"/api/tournaments/{tid}", params={"matches_offset": offset, "matches_limit": 400}).json()
            keys += [m["key"] for m in body["draw"]["matches"]]
            offset = body["draw"]["matches_page"]["next"]
        assert len(keys) == len(set(keys)) == 1023
        for bad in ({"matches_limit": 0}, {"matches_limit": 5000}, {"matches_offset": -1}, {"matches_limit": "x"}):
            r = c.get(f"/api/tournaments/{tid}", params=bad)
            assert r.status_code == 422 and r.json()["error"]["code"], (bad, r.text)
