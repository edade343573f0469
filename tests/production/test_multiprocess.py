"""Two real hub processes on PostgreSQL and the Redis bus (the production shape).

- A match driven through process A is seen by a watcher on process B: every update, in order,
  no gaps, ending on the projection A serves.
- A short shot clock armed in both processes fires exactly once: one `clock_expired` in the
  store, and the processes' `cuehub_clock_firings_total` add up to one stored, the rest superseded.

Real `cuehub serve` subprocesses (`python -m hub.cli serve`) on free loopback ports, a fresh
PostgreSQL schema migrated first by `cuehub migrate` (as deploy/ does), HUB_AUTO_MIGRATE=false.
Without PostgreSQL or Redis the tests skip locally and fail when CI is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from spine_helpers import ADMIN, PG_URL

from tests.frames import subscribe_frame
from tests.hubproc import HubProcess
from tests.rules.random_play import random_command
from tests.services import require_redis

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("HUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
AUTH = {"Authorization": f"Bearer {ADMIN}"}




class Hub(HubProcess):
    """`cuehub serve` on PostgreSQL and the bus, launched at once; ready once /readyz is 200 (the
    store and the bus reached)."""

    def __init__(self, name: str, env: dict[str, str], logdir: Path) -> None:
        super().__init__(None, logdir, name=f"hub-{name}", env=env, ready="/readyz")
        self.launch()

    def total(self, name: str) -> float:
        return self.metric_total(name)

    def metric(self, name: str, **labels: str) -> float:
        from tests.production.test_observability import sample

        return sample(httpx.get(self.url + "/metrics", timeout=5).text, name, **labels)


@pytest.fixture
def hub_env(pg_schema: str) -> dict[str, str]:
    require_redis()
    env = {
        **os.environ,
        "HUB_DATABASE_URL": PG_URL, "HUB_DATABASE_SCHEMA": pg_schema, "HUB_BUS_URL": REDIS_URL,
        "HUB_ADMIN_TOKEN": ADMIN, "HUB_AUTO_MIGRATE": "false",
        # its own Redis channels: another run on the same Redis (a second CI job) never cross-talks
        "HUB_DEPLOYMENT": f"multi-{pg_schema[-12:]}",
    }
    r = subprocess.run([sys.executable, "-m", "hub.cli", "migrate"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return env


@pytest.fixture
def start_hub(hub_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    hubs: list[Hub] = []

    def start(name: str) -> Hub:
        hub = Hub(name, hub_env, tmp_path)
        hubs.append(hub)
        hub.wait_ready()
        return hub

    yield start
    for hub in hubs:
        hub.stop()


def setup_match(hub: Hub, **body: Any) -> dict[str, Any]:
    with httpx.Client(base_url=hub.url, headers=AUTH, timeout=10) as c:
        tid = c.post("/api/tournaments", json={"name": "Final"}).json()["id"]
        table = c.post(f"/api/tournaments/{tid}/tables", json={"name": "TV table"}).json()
        r = c.post("/api/matches", json={
            "tournament_id": tid, "table_id": table["id"], "discipline": "golden_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 5}, **body})
        assert r.status_code == 201, r.text
        return {"tid": tid, "table": table, "match": r.json()}


def command(hub: Hub, setup: dict[str, Any], cmd: dict[str, Any], cid: str) -> httpx.Response:
    mid = setup["match"]["id"]
    return httpx.post(f"{hub.url}/api/matches/{mid}/commands", timeout=10,
                      headers={"Authorization": f"Bearer {setup['table']['token']}"},
                      json={"id": cid, "match_id": mid, "command": cmd})


def test_a_watcher_on_process_b_sees_every_update_from_process_a_in_order(start_hub: Any) -> None:
    import websockets

    a, b = start_hub("a"), start_hub("b")
    setup = setup_match(a)
    mid = setup["match"]["id"]

    async def run() -> tuple[list[dict[str, Any]], int]:
        ws_url = b.url.replace("http", "ws") + "/ws/watch"
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps(subscribe_frame(f"match:{mid}")))
            snap = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert snap["type"] == "snapshot" and snap["version"] == 0, snap

            # Drive the match through A (HTTP), legal and illegal commands alike.
            rnd = random.Random(7)
            last = 0
            for n in range(80):
                proj = httpx.get(f"{a.url}/api/matches/{mid}", timeout=10).json()
                if proj["status"] == "finished":
                    break
                r = await asyncio.to_thread(command, a, setup, random_command(proj, rnd), f"c{n}")
                if r.status_code == 200:
                    last = r.json()["version"]
            assert last >= 20, f"only {last} commands accepted"

            updates: list[dict[str, Any]] = []
            while not updates or updates[-1]["version"] < last:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "update":
                    updates.append(msg)
                else:
                    raise AssertionError(f"unexpected {msg['type']} on a watcher that keeps up: {msg}")
            return updates, last

    updates, last = asyncio.run(run())
    assert [u["version"] for u in updates] == list(range(1, last + 1))
    assert all(u["channel"] == f"match:{mid}" for u in updates)
    stored = httpx.get(f"{b.url}/api/matches/{mid}/events?since=0", timeout=10).json()["events"]
    assert [(e["version"], e["kind"]) for e in stored] == [(u["event"]["version"], u["event"]["kind"]) for u in updates]
    assert updates[-1]["data"] == httpx.get(f"{a.url}/api/matches/{mid}", timeout=10).json()
    # A counted every accepted command (each stored one version); B none.
    assert a.total("cuehub_commands_accepted_total") == last
    assert b.total("cuehub_commands_accepted_total") == 0


def test_a_short_shot_clock_fires_exactly_once_across_two_processes(start_hub: Any) -> None:
    a = start_hub("a")
    setup = setup_match(a, options={"shot_clock": {"shot_s": 4, "break_s": 4, "first_shot_s": 4}})
    mid = setup["match"]["id"]
    assert command(a, setup, {"kind": "start", "breaker": "a"}, "start").status_code == 200
    # The deadline is read before B starts: on a loaded machine B's start can outlast the 4 s clock,
    # and a read after it would see the next shot's deadline.
    deadline = httpx.get(f"{a.url}/api/matches/{mid}", timeout=10).json()["clock"]["shot"]["deadline"]
    # B starts after the clock was armed: it arms the same deadline from the stored projection.
    b = start_hub("b")

    t_end = time.time() + 15
    events: list[dict[str, Any]] = []
    while time.time() < t_end:
        events = httpx.get(f"{b.url}/api/matches/{mid}/events?since=0", timeout=10).json()["events"]
        if len(events) >= 2:
            break
        time.sleep(0.1)
    # Stop the next clock (4 s after the expiry) from running during the checks.
    assert command(a, setup, {"kind": "pause"}, "pause").status_code == 200
    assert time.time() * 1000 >= deadline - 50
    time.sleep(1.0)  # let a late duplicate firing (if any) try its luck

    events = httpx.get(f"{a.url}/api/matches/{mid}/events?since=0", timeout=10).json()["events"]
    kinds = [e["kind"] for e in events]
    assert kinds == ["start", "clock_expired", "pause"], kinds
    assert events[1]["data"].get("player") == "a"
    stored = sum(h.metric("cuehub_clock_firings_total", kind="clock_expired", outcome="stored") for h in (a, b))
    superseded = sum(h.metric("cuehub_clock_firings_total", kind="clock_expired", outcome="superseded") for h in (a, b))
    assert stored == 1, (stored, superseded)
    assert superseded <= 1
