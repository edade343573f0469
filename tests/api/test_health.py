"""Liveness and readiness (hub/api/health.py) with the database really gone.

The hub reaches PostgreSQL through a TCP relay that the test can cut: with the relay cut,
`/healthz` (alive: the process answers) stays 200 at once, `/readyz` (ready: the store and the
bus answer) turns 503 naming the store, and both are back to 200 when the database returns.
On SQLite, a file another connection holds locked still reads but cannot be written: `/readyz`
turns 503 on its write probe alone.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from services import free_port, pg_execute
from spine_helpers import ADMIN, PG_URL, require_pg

from hub.api import health
from hub.app import create_app
from hub.settings import Settings
from hub.store import db

PG_DSN = PG_URL.replace("postgresql+asyncpg", "postgresql")


class Relay:
    """A TCP relay 127.0.0.1:port -> 127.0.0.1:5432 in a thread of its own; `cut()` closes the
    listener and every relayed connection (the database is gone), `restore()` listens again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: asyncio.AbstractServer | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.restore()

    def _run(self, coro):  # noqa: ANN001, ANN202
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", 5432)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    def restore(self) -> None:
        async def start() -> None:
            self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
        self._run(start())

    def cut(self) -> None:
        async def stop() -> None:
            assert self.server is not None
            self.server.close()
            for w in list(self.writers):
                w.transport.abort()
            self.writers.clear()
        self._run(stop())

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def relayed_hub() -> Iterator[tuple[TestClient, Relay]]:
    require_pg()
    schema = "t_" + uuid.uuid4().hex[:12]
    pg_execute(PG_DSN, f'CREATE SCHEMA "{schema}"')
    relay = Relay()
    url = PG_URL.replace("127.0.0.1:5432", f"127.0.0.1:{relay.port}")
    assert url != PG_URL
    try:
        with TestClient(create_app(Settings(database_url=url, database_schema=schema, admin_token=ADMIN))) as c:
            yield c, relay
    finally:
        relay.close()
        pg_execute(PG_DSN, f'DROP SCHEMA "{schema}" CASCADE')


def _until(check, timeout: float = 15.0) -> bool:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def test_liveness_stays_up_and_readiness_goes_down_with_the_database(relayed_hub: tuple[TestClient, Relay]) -> None:
    hub, relay = relayed_hub
    assert hub.get("/healthz").json() == {"status": "ok"}
    assert hub.get("/readyz").json() == {"status": "ready", "checks": {"store": "ok", "bus": "ok"}}

    relay.cut()
    t0 = time.monotonic()
    live = hub.get("/healthz")
    assert live.status_code == 200 and time.monotonic() - t0 < 1.0  # no database round trip in it
    ready = hub.get("/readyz")
    assert ready.status_code == 503, ready.text
    body = ready.json()
    assert body["status"] == "unavailable" and body["checks"]["store"].startswith("unreachable")
    assert body["checks"]["bus"] == "ok"
    # A read needs the database: a clear 503, not a 500 (and /healthz still says the process is fine).
    r = hub.get("/api/tournaments")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    assert hub.get("/healthz").status_code == 200

    relay.restore()
    assert _until(lambda: hub.get("/readyz").status_code == 200), hub.get("/readyz").text
    assert hub.get("/api/tournaments").status_code == 200


def test_readiness_needs_a_write_not_only_a_read(sqlite_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    # SQLite's lock wait shorter than in production (10 s), still longer than the probe's limit:
    # the probe answers at its own deadline while its write still waits out the lock.
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 3_000)
    with TestClient(create_app(sqlite_settings)) as hub:
        assert hub.get("/readyz").status_code == 200
        path = sqlite_settings.database_url.split("///", 1)[1]
        holder = sqlite3.connect(path, timeout=1)
        try:
            holder.execute("BEGIN EXCLUSIVE")  # WAL: others still read, nobody else writes
            with monkeypatch.context() as locked:
                locked.setattr(health, "READY_TIMEOUT_S", 0.5)
                assert health.READY_TIMEOUT_S * 1000 < db.BUSY_TIMEOUT_MS
                t0 = time.monotonic()
                r = hub.get("/readyz")
                took = time.monotonic() - t0
            assert r.status_code == 503, r.text
            assert took < db.BUSY_TIMEOUT_MS / 1000 - 1, took  # at the probe's deadline, not after the lock wait
            assert r.json()["checks"]["store"].startswith("unreachable")
            assert hub.get("/healthz").status_code == 200
            assert hub.get("/api/tournaments").status_code == 200  # reads go on
        finally:
            holder.rollback()
            holder.close()
        assert _until(lambda: hub.get("/readyz").status_code == 200)


def test_readiness_asks_the_bus_its_own_health(sqlite_settings: Settings) -> None:
    """A bus with `health()` (None: healthy, else why) is asked, not pinged from outside."""
    with TestClient(create_app(sqlite_settings)) as hub:
        bus = hub.app.state.services.watch.bus
        bus.health = lambda: "subscription lost"  # type: ignore[attr-defined]
        try:
            r = hub.get("/readyz")
            assert r.status_code == 503 and r.json()["checks"] == {
                "store": "ok",
                "bus": "unreachable: subscription lost",
            }
            bus.health = lambda: None  # type: ignore[attr-defined]
            assert hub.get("/readyz").status_code == 200
        finally:
            del bus.health
