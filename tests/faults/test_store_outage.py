"""Store outage on a real `cuehub serve`: commands fail with the retryable 503 `unavailable` (HTTP)
or a 1011 close (table socket), nothing is half-written, and after the store returns a retry with
the same command id is stored exactly once and the stream is intact.

PostgreSQL: the hub's schema is renamed away (every statement fails) and back.
SQLite: another connection holds an exclusive lock on the file (writers time out: "database is locked").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from spine_helpers import PG_URL, require_pg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.hubproc import HubProcess, pg_execute

PG_DSN = PG_URL.replace("postgresql+asyncpg", "postgresql")


def _cmd(hub: HubProcess, token: str, mid: str, cid: str, command: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{hub.base}/api/matches/{mid}/commands", timeout=30,
                      json={"id": cid, "match_id": mid, "command": command},
                      headers={"Authorization": f"Bearer {token}"})


async def _socket_command(hub: HubProcess, table_id: str, token: str, env: dict[str, Any]) -> Any:
    """Send one envelope over the table socket: the answer, or ("closed", code)."""
    async with connect(f"{hub.ws_base}/ws/tables/{table_id}", open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        try:
            ready = json.loads(await asyncio.wait_for(ws.recv(), 15))
            if ready["type"] != "ready":
                return ready
            await ws.send(json.dumps(env))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] in ("ack", "reject"):
                    return msg
        except ConnectionClosed as closed:
            return ("closed", closed.rcvd.code if closed.rcvd else None)


def outage_run(hub: HubProcess, outage: Callable[[], contextlib.AbstractContextManager[None]]) -> dict[str, Any]:
    hub.start()
    t = hub.admin_post("/api/tournaments", {"name": "Outage"})
    tb = hub.admin_post(f"/api/tournaments/{t['id']}/tables", {"name": "T1"})
    m = hub.admin_post("/api/matches", {"tournament_id": t["id"], "table_id": tb["id"], "discipline": "wpa_nine",
                                        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                                        "format": {"race_to": 5}})
    mid, token = m["id"], tb["token"]
    assert _cmd(hub, token, mid, "c1", {"kind": "start", "breaker": "a"}).status_code == 200
    brk = {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "rail": True, "break_rails": 5}
    assert _cmd(hub, token, mid, "c2", brk).status_code == 200
    before = hub.get(f"/api/matches/{mid}/events")["events"]
    proj_before = hub.get(f"/api/matches/{mid}")
    shot = {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [1], "rail": True}
    figures: dict[str, Any] = {}
    with outage():
        r = _cmd(hub, token, mid, "c3", shot)
        figures["http"] = (r.status_code, r.json())
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "unavailable" and "retry" in r.json()["error"]["message"]
        answer = asyncio.run(_socket_command(hub, tb["id"], token, {"id": "c3", "match_id": mid, "command": shot}))
        figures["socket"] = answer
        assert answer == ("closed", 1011), answer
        r = _cmd(hub, token, mid, "c3", shot)  # a second try during the outage: still retryable
        assert r.status_code == 503
    # Back: nothing was half-written, the retry with the same id is stored once.
    assert hub.get(f"/api/matches/{mid}/events")["events"] == before
    assert hub.get(f"/api/matches/{mid}") == proj_before
    r = _cmd(hub, token, mid, "c3", shot)
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    assert version == len(before) + 1
    assert _cmd(hub, token, mid, "c3", shot).json()["version"] == version  # idempotent
    answer = asyncio.run(_socket_command(hub, tb["id"], token, {"id": "c3", "match_id": mid, "command": shot}))
    assert answer == {"type": "ack", "id": "c3", "version": version}
    after = hub.get(f"/api/matches/{mid}/events")["events"]
    assert after[:-1] == before and after[-1]["command_id"] == "c3" and len(after) == len(before) + 1
    assert hub.get(f"/api/matches/{mid}")["version"] == version
    # And the same holds for a cold start from the store.
    hub.kill()
    hub.start()
    assert hub.get(f"/api/matches/{mid}/events")["events"] == after
    return figures


def test_postgres_outage(tmp_path):
    require_pg()
    schema = "outage_" + uuid.uuid4().hex[:10]
    pg_execute(PG_DSN, f'CREATE SCHEMA "{schema}"')
    hub = HubProcess(PG_URL, tmp_path, schema=schema)

    @contextlib.contextmanager
    def outage() -> Iterator[None]:
        pg_execute(PG_DSN, f'ALTER SCHEMA "{schema}" RENAME TO "{schema}_gone"')
        try:
            yield
        finally:
            pg_execute(PG_DSN, f'ALTER SCHEMA "{schema}_gone" RENAME TO "{schema}"')

    try:
        figures = outage_run(hub, outage)
    finally:
        hub.stop()
        pg_execute(PG_DSN, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    print(f"\n[store-outage postgres] during: HTTP {figures['http']}, socket {figures['socket']}")


def test_sqlite_locked(tmp_path):
    db = tmp_path / "hub.db"
    hub = HubProcess(f"sqlite+aiosqlite:///{db}", tmp_path)

    @contextlib.contextmanager
    def outage() -> Iterator[None]:
        lock = sqlite3.connect(db, timeout=1, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            lock.execute("ROLLBACK")
            lock.close()

    try:
        figures = outage_run(hub, outage)
    finally:
        hub.stop()
    print(f"\n[store-outage sqlite] during: HTTP {figures['http']}, socket {figures['socket']}")
