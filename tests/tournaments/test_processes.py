"""Whole draws on real `cuehub serve` processes on PostgreSQL: after the draw, no admin call is made;
the hub calls every match to a free table and the simulated tablets only play what they are given.

- one process: a 16-player double elimination on 4 tables, played to its champion;
- two processes on PostgreSQL + Redis, the tablets split between them: no match called twice, no
  table given two matches, the same champion logic;
- a process killed with SIGKILL in the middle of the draw, started again: the draw resumes and ends
  exactly (every stored result stands, nothing is called twice).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from spine_helpers import PG_URL

from hub.tools.simulate import DrawPlan, DrawSimulator
from tests.frames import subscribe_frame
from tests.hubproc import ADMIN, HubProcess
from tests.services import require_redis

REDIS_URL = os.environ.get("HUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PLAN = DrawPlan("double_elimination", players=16, tables=4, discipline="wpa_nine", length=2, seed=7)
SPEED = 100.0


def hub(tmp_path: Path, schema: str, name: str, **env: str) -> HubProcess:
    d = tmp_path / name
    d.mkdir()
    return HubProcess(PG_URL, d, schema=schema, env=env)


def play(base: str, table_urls: list[str], plan: DrawPlan = PLAN, seed: int = 1,
         during: Any = None) -> DrawSimulator:
    """Set up and play a draw with the simulator (in this thread's own event loop)."""
    sim = DrawSimulator(base, ADMIN, plan, table_urls=table_urls, speed=SPEED, seed=seed)

    async def run() -> None:
        await sim.setup()
        task = asyncio.create_task(sim.run())
        if during is not None:
            await asyncio.get_running_loop().run_in_executor(None, during, sim)
        await asyncio.wait_for(task, 600)

    asyncio.run(run())
    return sim


def check_double_elimination(base: str, tid: str) -> dict[str, Any]:
    t = httpx.get(f"{base}/api/tournaments/{tid}", timeout=10).json()
    draw = t["draw"]
    assert draw["status"] == "finished" and draw["champion"], draw["status"]
    losses: Counter[str] = Counter()
    for m in draw["matches"]:
        assert m["status"] in ("finished", "walkover", "bye"), m
        if m["status"] in ("finished", "walkover"):
            losses.update(p for p in m["players"] if p and p != m["winner"])
    players = {p["id"] for p in t["players"]}
    assert losses[draw["champion"]] <= 1
    assert all(losses[p] == 2 for p in players - {draw["champion"]}), losses
    statuses = {p["id"]: p["status"] for p in t["players"]}
    assert statuses[draw["champion"]] == "champion"
    assert {s for p, s in statuses.items() if p != draw["champion"]} == {"eliminated"}
    # Every finished draw match was played exactly once, by the match its key records.
    played = [m for m in httpx.get(f"{base}/api/matches?status=finished", timeout=10).json()["matches"]
              if (m.get("draw") or {}).get("tournament_id") == tid]
    keys = Counter(m["draw"]["key"] for m in played)
    assert all(n == 1 for n in keys.values()), keys
    assert set(keys) == {m["key"] for m in draw["matches"] if m["status"] == "finished"}
    assert {m["id"] for m in played} == {m["match_id"] for m in draw["matches"] if m["status"] == "finished"}
    assert not httpx.get(f"{base}/api/matches?status=live", timeout=10).json()["matches"]
    assert {tb["status"] for tb in t["tables"]} == {"free"}
    return t


def test_sixteen_player_double_elimination_on_four_tables(tmp_path: Path, pg_schema: str) -> None:
    h = hub(tmp_path, pg_schema, "a")
    h.start()
    try:
        sim = play(h.base, [h.base])
        assert sim.finished and not sim.stats.errors, sim.stats.errors
        t = check_double_elimination(h.base, sim.tournament["id"])  # type: ignore[index]
        assert sim.champion == t["draw"]["champion"]
        # 30 or 31 matches (the reset), every one created by the hub, none by an admin call
        assert sim.stats.matches_created == sim.stats.matches_finished == sum(
            m["status"] == "finished" for m in t["draw"]["matches"])
    finally:
        h.stop()


def test_two_processes_on_redis_agree(tmp_path: Path, pg_schema: str) -> None:
    require_redis()
    channel = f"cuehub-test-{uuid.uuid4().hex[:8]}"
    env = {"HUB_BUS_URL": f"{REDIS_URL}?channel={channel}"}
    a, b = hub(tmp_path, pg_schema, "a", **env), hub(tmp_path, pg_schema, "b", **env)
    a.start()
    b.start()
    try:
        sim = play(a.base, [a.base, b.base], seed=2)
        assert sim.finished and not sim.stats.errors, sim.stats.errors
        check_double_elimination(a.base, sim.tournament["id"])  # type: ignore[index]
        check_double_elimination(b.base, sim.tournament["id"])  # type: ignore[index]
    finally:
        a.stop()
        b.stop()


def test_sigkill_in_the_middle_of_a_draw(tmp_path: Path, pg_schema: str) -> None:
    h = hub(tmp_path, pg_schema, "a")
    h.start()
    killed = threading.Event()

    def kill_midway(sim: DrawSimulator) -> None:
        deadline = time.monotonic() + 300
        while sim.stats.matches_finished < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        before = httpx.get(f"{h.base}/api/tournaments/{sim.tournament['id']}", timeout=10).json()  # type: ignore[index]
        h.kill()
        killed.set()
        time.sleep(1.0)
        h.start()
        after = httpx.get(f"{h.base}/api/tournaments/{sim.tournament['id']}", timeout=10).json()  # type: ignore[index]
        # Nothing stored before the kill is lost: every result seen then is still there, as it was.
        done = {m["key"]: m["winner"] for m in before["draw"]["matches"] if m["status"] == "finished"}
        now = {m["key"]: m for m in after["draw"]["matches"]}
        assert all(now[k]["status"] == "finished" and now[k]["winner"] == w for k, w in done.items())

    try:
        sim = play(h.base, [h.base], seed=3, during=kill_midway)
        assert killed.is_set()
        assert sim.finished, sim.stats.errors
        check_double_elimination(h.base, sim.tournament["id"])  # type: ignore[index]
    finally:
        h.stop()


def test_a_watcher_on_the_other_process_follows_the_deltas(tmp_path: Path, pg_schema: str) -> None:
    """The Redis bus carries what changed in the draw (not the whole of it): a `tournament:`
    watcher on process B, while process A and B's tablets play a whole draw, keeps a copy from B's
    deltas that equals B's snapshot at the end, with no gap on the way."""
    import json

    from websockets.sync.client import connect

    from tests.watch.tournament_view import TournamentView

    require_redis()
    channel = f"cuehub-test-{uuid.uuid4().hex[:8]}"
    env = {"HUB_BUS_URL": f"{REDIS_URL}?channel={channel}"}
    a, b = hub(tmp_path, pg_schema, "a", **env), hub(tmp_path, pg_schema, "b", **env)
    a.start()
    b.start()
    seen: dict[str, Any] = {}

    def watch_on_b(sim: DrawSimulator) -> None:
        ch = f"tournament:{sim.tournament['id']}"  # type: ignore[index]
        view = TournamentView()
        with connect(f"{b.ws_base}/ws/watch", max_size=None) as ws:
            ws.send(json.dumps(subscribe_frame(ch)))
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                proj = view.take(json.loads(ws.recv(timeout=60)))
                assert view.gaps == 0
                if proj and proj["draw"] and proj["draw"]["status"] == "finished":
                    break
            for _ in range(20):  # what is still on its way, then B's snapshot at the same version
                with connect(f"{b.ws_base}/ws/watch", max_size=None) as fresh:
                    fresh.send(json.dumps(subscribe_frame(ch)))
                    snap = json.loads(fresh.recv(timeout=10))
                while view.proj is not None and view.proj["version"] < snap["version"]:
                    view.take(json.loads(ws.recv(timeout=10)))
                if view.proj is not None and view.proj["version"] == snap["version"]:
                    break
            seen.update(view=view.proj, snapshot=snap["data"], updates=view.updates, gaps=view.gaps)

    try:
        sim = play(a.base, [a.base, b.base], seed=4, during=watch_on_b)
        assert sim.finished and not sim.stats.errors, sim.stats.errors
        assert seen["gaps"] == 0 and seen["updates"] > 50, seen["updates"]
        assert seen["view"] == seen["snapshot"]
    finally:
        a.stop()
        b.stop()
