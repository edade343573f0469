"""One command budget per table across hub processes (hub/guards/rate.py): two real `cuehub serve`
processes on PostgreSQL and the Redis bus spend one bucket per table, so commands sent to both at
once get what one process would admit, not twice that; and a process whose Redis does not answer
falls back to its own bucket instead of holding commands up."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from spine_helpers import ADMIN, PG_URL

from hub.guards.rate import RedisTableRate
from tests.production.test_multiprocess import REDIS_URL, ROOT, Hub, setup_match
from tests.services import free_port, require_redis

RATE, BURST, SENT = 0.5, 10, 60


@pytest.fixture
def two_hubs(pg_schema: str, tmp_path: Path):
    require_redis()
    env = {**os.environ, "HUB_DATABASE_URL": PG_URL, "HUB_DATABASE_SCHEMA": pg_schema, "HUB_BUS_URL": REDIS_URL,
           "HUB_ADMIN_TOKEN": ADMIN, "HUB_AUTO_MIGRATE": "false", "HUB_DEPLOYMENT": f"budget-{uuid.uuid4().hex[:8]}",
           "HUB_TABLE_RATE": str(RATE), "HUB_TABLE_BURST": str(BURST)}
    r = subprocess.run([sys.executable, "-m", "hub.cli", "migrate"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    hubs = [Hub(name, env, tmp_path) for name in ("a", "b")]
    try:
        for hub in hubs:
            hub.wait_ready(timeout=90)  # a loaded CI box starts a hub slowly
        yield hubs
    finally:
        for hub in hubs:
            hub.stop()


def test_two_processes_share_one_budget_per_table(two_hubs: list[Hub]) -> None:
    a, b = two_hubs
    setup = setup_match(a)
    mid, token = setup["match"]["id"], setup["table"]["token"]
    # The same command again and again: each admitted one gets the first answer, nothing more is stored.
    envelope = {"id": "c1", "match_id": mid, "command": {"kind": "start", "breaker": "a"}}

    def send(i: int) -> tuple[str, int]:
        hub = (a, b)[i % 2]
        r = httpx.post(f"{hub.url}/api/matches/{mid}/commands", json=envelope, timeout=10,
                       headers={"Authorization": f"Bearer {token}"})
        return hub.name, r.status_code

    t0 = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(SENT)))
    took = time.monotonic() - t0
    admitted = [name for name, status in answers if status == 200]
    refused = [name for name, status in answers if status == 429]
    assert len(admitted) + len(refused) == SENT, answers
    # One bucket: the burst plus what refilled meanwhile. Two buckets would have let 2 * BURST through.
    assert BURST <= len(admitted) <= BURST + RATE * took + 1, (len(admitted), took)
    assert len(admitted) < 2 * BURST
    assert set(refused) == {h.name for h in two_hubs}  # both processes refuse from the shared bucket
    r = httpx.get(f"{b.url}/api/matches/{mid}", timeout=10)
    assert r.json()["version"] == 1  # admitted 10+ times, stored once


async def test_without_redis_a_process_keeps_its_own_budget(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    rate = RedisTableRate(f"redis://127.0.0.1:{free_port()}/0", "nobody", 1.0, 2, clock=lambda: now[0])
    try:
        with caplog.at_level(logging.WARNING, "hub.guards.rate"):
            assert [await rate.take("t1") for _ in range(3)] == [0.0, 0.0, 1.0]  # its own burst of 2
            now[0] += 0.5  # within FALLBACK_S: Redis is not asked again; the bucket refilled half a token
            assert await rate.take("t1") == pytest.approx(0.5)
        assert sum("Redis did not answer" in m for m in caplog.messages) == 1
    finally:
        await rate.close()
