"""Crash safety: tablets drive matches over the table socket while the hub is SIGKILLed at random
(seeded) moments and restarted. Tablets resend every unanswered command with the same id. At the end,
every acknowledged command is in the store exactly once, at the version it was acknowledged with, and
the projection's version is the stream's last version.

Runs against real `cuehub serve` processes on SQLite (a file; WAL, synchronous=FULL) and on
PostgreSQL (a fresh HUB_DATABASE_SCHEMA). Figures are printed (run with -s to see them).
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from spine_helpers import PG_URL, require_pg
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from tests.frames import auth_frame
from tests.hubproc import HubProcess, pg_execute

SEED = int(os.environ.get("CUEHUB_FAULT_SEED", "8"))
KILLS = int(os.environ.get("CUEHUB_FAULT_KILLS", "6"))


# --- plausible commands from the projection (wpa_nine and golden_nine) -------------------------


def next_command(m: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    if m["status"] == "finished":
        return None
    rack = m["rack"]
    ids = [p["id"] for p in m["players"]]
    pending = rack.get("pending")
    if pending:
        return {"kind": "decision", "player": pending["player"], "choice": pending["options"][0]}
    if m["status"] == "scheduled" or rack["phase"] == "lag":
        return {"kind": "start", "breaker": rng.choice(ids)}
    on = sorted(rack["on_table"])
    shooter = rack["shooter"]
    if rack["phase"] == "break":
        pocketed = [b for b in on if b != 9][: rng.choice([0, 0, 1, 2])]
        cmd = {"kind": "shot", "player": shooter, "first_contact": on[0], "pocketed": pocketed, "rail": True}
        if m["discipline"] == "golden_nine":
            cmd["break_crossings"] = 5
        else:
            cmd["break_rails"] = 5
        return cmd
    lowest = on[0]
    if rng.random() < 0.55:  # pot the lowest ball
        return {"kind": "shot", "player": shooter, "first_contact": lowest, "pocketed": [lowest], "rail": True}
    return {"kind": "shot", "player": shooter, "first_contact": lowest, "pocketed": [], "rail": True}


# --- tablets ------------------------------------------------------------------------------------


@dataclass
class Ledger:
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # command id -> (match id, version)
    rejected: collections.Counter = field(default_factory=collections.Counter)
    sent: int = 0
    resent: int = 0
    reconnects: int = 0


class Tablet:
    def __init__(self, name: str, hub: HubProcess, table_id: str, token: str, mid: str, rng: random.Random,
                 ledger: Ledger) -> None:
        self.name, self.hub, self.table_id, self.token, self.mid = name, hub, table_id, token, mid
        self.rng, self.ledger = rng, ledger
        self.pending: dict[str, Any] | None = None
        self.n = 0

    async def run(self, stop: asyncio.Event) -> None:
        while True:
            if stop.is_set() and self.pending is None:
                return
            try:
                await self._session(stop)
                return
            except (TimeoutError, OSError, WebSocketException, httpx.HTTPError):
                self.ledger.reconnects += 1
                await asyncio.sleep(0.05 + self.rng.random() * 0.2)

    async def _session(self, stop: asyncio.Event) -> None:
        url = f"{self.hub.ws_base}/ws/tables/{self.table_id}"
        async with connect(url, open_timeout=3, close_timeout=0.5) as ws:
            await ws.send(json.dumps(auth_frame(self.token)))
            ready = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert ready["type"] == "ready", ready
            proj = ready["match"]
            while True:
                if self.pending is None:
                    if stop.is_set():
                        return
                    cmd = next_command(proj, self.rng)
                    if cmd is None:
                        return
                    self.n += 1
                    self.pending = {"id": f"{self.name}-{self.n}-{uuid.uuid4().hex[:6]}", "match_id": self.mid,
                                    "expected_version": proj["version"], "command": cmd}
                    self.ledger.sent += 1
                else:
                    self.ledger.resent += 1
                await ws.send(json.dumps(self.pending))
                answer = None
                while answer is None:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "state" and msg["match"]["id"] == self.mid:
                        if msg["match"]["version"] > proj["version"]:
                            proj = msg["match"]
                    elif msg["type"] in ("ack", "reject") and msg["id"] == self.pending["id"]:
                        answer = msg
                cid = self.pending["id"]
                if answer["type"] == "ack":
                    first = self.ledger.acked.setdefault(cid, (self.mid, answer["version"]))
                    assert first == (self.mid, answer["version"]), f"{cid} acked twice with different versions"
                    self.pending = None
                    while proj["version"] < answer["version"]:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if msg["type"] == "state" and msg["match"]["id"] == self.mid:
                            proj = msg["match"] if msg["match"]["version"] > proj["version"] else proj
                else:
                    self.ledger.rejected[answer["error"]["code"]] += 1
                    self.pending = None
                    async with httpx.AsyncClient(timeout=5) as http:
                        r = await http.get(f"{self.hub.base}/api/matches/{self.mid}")
                        r.raise_for_status()
                        proj = r.json()


# --- the run ------------------------------------------------------------------------------------


async def _killer(hub: HubProcess, rng: random.Random, kills: int, figures: dict[str, Any]) -> None:
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(0.2, 1.5))
        hub.kill()
        figures["kills"] += 1
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        t0 = time.monotonic()
        await asyncio.to_thread(hub.start)
        figures["restart_s"].append(round(time.monotonic() - t0, 2))
    await asyncio.sleep(0.5)


def crash_run(hub: HubProcess, seed: int, kills: int) -> dict[str, Any]:
    rng = random.Random(seed)
    hub.start()
    t = hub.admin_post("/api/tournaments", {"name": "Crash Open"})
    tablets_spec = []
    for i, (discipline, fmt) in enumerate([("wpa_nine", {"race_to": 99}), ("golden_nine", {"racks": 99}),
                                           ("wpa_nine", {"race_to": 99})]):
        tb = hub.admin_post(f"/api/tournaments/{t['id']}/tables", {"name": f"T{i + 1}"})
        m = hub.admin_post("/api/matches", {
            "tournament_id": t["id"], "table_id": tb["id"], "discipline": discipline,
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": fmt})
        tablets_spec.append((tb, m["id"]))
    # Two tablets on the first table (they race: version_conflict rejects), one on each other table.
    tablets_spec.insert(1, tablets_spec[0])

    ledger = Ledger()
    figures: dict[str, Any] = {"kills": 0, "restart_s": []}

    async def main() -> None:
        stop = asyncio.Event()
        tablets = [Tablet(f"tab{i}", hub, tb["id"], tb["token"], mid, random.Random(rng.random()), ledger)
                   for i, (tb, mid) in enumerate(tablets_spec)]
        tasks = [asyncio.create_task(tab.run(stop)) for tab in tablets]
        await _killer(hub, rng, kills, figures)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert all(tab.pending is None for tab in tablets)

    t0 = time.monotonic()
    asyncio.run(main())
    figures["seconds"] = round(time.monotonic() - t0, 1)

    # One more kill and a cold start: everything below is read from the store through a fresh fold.
    hub.kill()
    hub.start()
    mids = sorted({mid for _, mid in tablets_spec})
    found = 0
    for mid in mids:
        events = hub.get(f"/api/matches/{mid}/events")["events"]
        proj = hub.get(f"/api/matches/{mid}")
        versions = [e["version"] for e in events]
        assert versions == list(range(1, len(events) + 1)), "gaps or duplicates in the stream"
        assert proj["version"] == (versions[-1] if versions else 0)
        stored = collections.Counter(e["command_id"] for e in events if e["command_id"] is not None)
        assert all(n == 1 for n in stored.values()), "a command id stored twice"
        at = {e["command_id"]: e["version"] for e in events}
        mine = {cid: v for cid, (m, v) in ledger.acked.items() if m == mid}
        for cid, version in mine.items():
            assert at.get(cid) == version, f"acknowledged {cid} at v{version}, store has {at.get(cid)}"
        # Every stored command was acknowledged (unanswered ones were resent until answered).
        assert set(stored) == set(mine)
        found += len(mine)
    figures.update(acked=len(ledger.acked), found=found, sent=ledger.sent, resent=ledger.resent,
                   reconnects=ledger.reconnects, rejected=dict(ledger.rejected), hub_starts=hub.starts)
    return figures


def _report(store: str, figures: dict[str, Any]) -> None:
    print(f"\n[crash-safety {store}] seed={SEED} kills={figures['kills']} acked={figures['acked']} "
          f"found={figures['found']} sent={figures['sent']} resent={figures['resent']} "
          f"reconnects={figures['reconnects']} rejects={figures['rejected']} "
          f"restart_s={figures['restart_s']} run_s={figures['seconds']}")


def test_crash_safety_sqlite(tmp_path):
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path)
    try:
        figures = crash_run(hub, SEED, KILLS)
    finally:
        hub.stop()
    _report("sqlite", figures)
    assert figures["kills"] == KILLS and figures["acked"] == figures["found"] > 0


def test_crash_safety_postgres(tmp_path):
    require_pg()
    schema = "crash_" + uuid.uuid4().hex[:10]
    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")
    pg_execute(dsn, f'CREATE SCHEMA "{schema}"')
    hub = HubProcess(PG_URL, tmp_path, schema=schema)
    try:
        figures = crash_run(hub, SEED + 1, KILLS)
    finally:
        hub.stop()
        pg_execute(dsn, f'DROP SCHEMA "{schema}" CASCADE')
    _report("postgres", figures)
    assert figures["kills"] == KILLS and figures["acked"] == figures["found"] > 0


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-s", "-q"])
