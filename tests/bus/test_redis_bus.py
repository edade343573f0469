"""redis://: several hub processes serving watchers of one match; resync after Redis drops us."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from bus_helpers import kill_clients
from fastapi.testclient import TestClient
from spine_helpers import ADMIN, PG_URL, make_match, make_table
from watch_helpers import Play, recv, sub
from websockets.asyncio.client import connect

from hub.app import create_app
from hub.bus import redis_bus
from hub.settings import Settings
from tests.frames import subscribe_frame
from tests.hubproc import HubProcess
from tests.services import wait_until_async

ROOT = Path(__file__).resolve().parents[2]


async def test_redis_bus_round_trip(bus_url: str) -> None:
    a, b = redis_bus.RedisBus(bus_url), redis_bus.RedisBus(bus_url)
    got_a: list[bytes | None] = []
    got_b: list[bytes | None] = []
    await a.start(got_a.append)
    await b.start(got_b.append)
    try:
        for i in range(50):
            a.publish(b"a%d" % i)
        deadline = time.monotonic() + 5
        while len(got_b) < 50 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert got_b == [b"a%d" % i for i in range(50)]  # in order, exactly once
        assert got_a == got_b  # local delivery at once, no echo from Redis
    finally:
        await a.close()
        await b.close()


# --- two apps in one test process, one PostgreSQL schema, one Redis channel -----------------


@pytest.fixture
def two_apps(pg_schema: str, bus_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    settings = Settings(database_url=PG_URL, database_schema=pg_schema, admin_token=ADMIN, bus_url=bus_url)
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings.with_(auto_migrate=False))) as b:
        yield a, b


def test_watcher_on_another_process_and_resync_after_redis_drops_it(
    two_apps: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_apps
    table = make_table(a)
    mid = make_match(a, table)["id"]
    play = Play(a, table, mid)  # every command goes through process A
    monkeypatch.setattr(redis_bus, "RECONNECT_S", (1.0,))  # B stays away long enough to miss some
    gateway_b = b.app.state.services.watch
    with b.websocket_connect("/ws/watch") as ws:
        sub(ws, f"match:{mid}")
        assert recv(ws)["version"] == 0
        play.start()
        assert recv(ws)["version"] == 1
        assert kill_clients(f"cuehub-sub-{gateway_b.bus.origin.hex()}") == 1
        missed = [play.shot() for _ in range(3)]  # published while B is not subscribed
        got = [recv(ws) for _ in range(3)]
        assert [m["version"] for m in got] == missed == [2, 3, 4]
        assert gateway_b.bus.reconnects >= 1 and gateway_b.resyncs >= 1
        play.shot()  # and live again afterwards
        assert recv(ws)["version"] == 5
    assert got[-1]["data"]["version"] == 4


# --- two real hub processes ------------------------------------------------------------------


@pytest.fixture
def two_hubs(pg_schema: str, bus_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    env = {"HUB_DATABASE_SCHEMA": pg_schema, "HUB_ADMIN_TOKEN": ADMIN, "HUB_BUS_URL": bus_url}
    a = HubProcess(PG_URL, tmp_path, command="app", name="hub-a", env=env)
    b = HubProcess(PG_URL, tmp_path, command="app", name="hub-b", env={**env, "HUB_AUTO_MIGRATE": "0"})
    try:
        a.start()  # migrates the schema first
        b.start()
        yield f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"
    finally:
        b.stop()
        a.stop()


async def _collect(url: str, channel: str, until: int, out: list[dict[str, Any]]) -> None:
    async with connect(url) as ws:
        await ws.send(json.dumps(subscribe_frame(channel)))
        while not out or out[-1]["version"] < until:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), 15)))


async def test_two_hub_processes_serve_one_match(two_hubs: tuple[str, str]) -> None:
    host_a, host_b = two_hubs
    http_a = httpx.Client(base_url=f"http://{host_a}")
    table = make_table(http_a)  # type: ignore[arg-type]
    mid = make_match(http_a, table)["id"]  # type: ignore[arg-type]
    play = Play(http_a, table, mid)
    n = 30
    got: dict[str, list[dict[str, Any]]] = {k: [] for k in ("a", "b", "b2", "tb")}
    tasks = [
        asyncio.create_task(_collect(f"ws://{host_a}/ws/watch", f"match:{mid}", n, got["a"])),
        asyncio.create_task(_collect(f"ws://{host_b}/ws/watch", f"match:{mid}", n, got["b"])),
        asyncio.create_task(_collect(f"ws://{host_b}/ws/watch", f"match:{mid}", n, got["b2"])),
        asyncio.create_task(_collect(f"ws://{host_b}/ws/watch", f"table:{table['table_id']}", n, got["tb"])),
    ]
    await wait_until_async(lambda: all(got.values()), 15, "every watcher's snapshot")
    await asyncio.to_thread(play.start)
    for _ in range(n - 1):
        await asyncio.to_thread(play.shot)
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    final = play.projection()
    for key, msgs in got.items():
        assert msgs[0]["type"] == "snapshot", key
        versions = [m["version"] for m in msgs]
        assert versions == list(range(versions[0], n + 1)), (key, versions)  # in order, each once
        assert msgs[-1]["data"] == final, key
    http_a.close()
