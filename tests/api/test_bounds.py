"""Bounds in one process: the command budget per table (HTTP and sockets share it), refusals
remembered within bounds, the strict parser on /ws/watch (SQLite and PostgreSQL), bounded log lines,
and the token checked in the storing transaction. Real processes: tests/faults/test_bounds_procs.py."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer, envelope, make_match, make_table
from starlette.websockets import WebSocketDisconnect

from hub.app import create_app
from hub.guards.rate import TableRate
from hub.ops.logbudget import LogBudget
from hub.settings import Settings
from hub.store.db import make_engine
from hub.store.schema import rejections
from tests.frames import auth_frame

BREAK_SHOT = {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [], "rail": True, "break_crossings": 5}


def _count_refusals(settings: Settings, mid: str) -> int:
    async def run() -> int:
        engine = make_engine(settings)
        try:
            async with engine.connect() as conn:
                n = await conn.scalar(
                    sa.select(sa.func.count()).select_from(rejections).where(rejections.c.match_id == mid)
                )
            return int(n or 0)
        finally:
            await engine.dispose()

    return asyncio.run(run())


# --- the budget ------------------------------------------------------------------------------


def test_table_rate_bucket_is_per_table() -> None:
    now = [0.0]
    rate = TableRate(2.0, 3, clock=lambda: now[0])
    assert [rate.take("t1") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rate.take("t1") == pytest.approx(0.5)
    assert rate.take("t2") == 0.0  # another table: its own budget
    now[0] = 0.5
    assert rate.take("t1") == 0.0 and rate.take("t1") > 0


def test_http_commands_429_with_retry_after_and_shared_with_the_socket(sqlite_settings: Settings) -> None:
    # A token every 10 s: a loaded machine (1 s between the last command and the socket's frame,
    # seen under load at 1/s) cannot refill the budget within the test.
    settings = sqlite_settings.with_(table_rate_per_s=0.1, table_rate_burst=5)
    with TestClient(create_app(settings)) as c:
        table, other = make_table(c), make_table(c)
        mid, other_mid = make_match(c, table)["id"], make_match(c, other)["id"]
        codes = []
        for i in range(20):
            r = c.post(f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid=f"x{i}"),
                       headers=bearer(table["token"]))
            codes.append(r.status_code)
            if r.status_code == 429:
                assert r.json()["error"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        assert codes.count(429) >= 14 and codes.count(429) + codes.count(409) == 20
        assert _count_refusals(settings, mid) == 20 - codes.count(429)  # 429s are not remembered
        # The table's socket spends from the same budget: its first frame is rate_limited.
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ws.send_json(auth_frame(table["token"]))
            assert ws.receive_json()["type"] == "ready"
            ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}, cid="s1"))
            got = ws.receive_json()
            assert got["type"] == "reject" and got["error"]["code"] == "rate_limited"
        # Another table is not touched.
        r = c.post(f"/api/matches/{other_mid}/commands", json=envelope(other_mid, {"kind": "start", "breaker": "a"}),
                   headers=bearer(other["token"]))
        assert r.status_code == 200
        # A wrong token costs the table nothing (checked before the budget).
        assert c.post(f"/api/matches/{other_mid}/commands", json=envelope(other_mid, BREAK_SHOT),
                      headers=bearer("nope")).status_code in (401, 403)


# --- refusals within bounds ----------------------------------------------------------------


def test_refusals_kept_per_match_and_reloaded_within_the_bound(sqlite_settings: Settings) -> None:
    settings = sqlite_settings.with_(refusals_per_match=5, table_rate_burst=1000)
    with TestClient(create_app(settings)) as c:
        table = make_table(c)
        mid = make_match(c, table)["id"]
        for i in range(30):
            r = c.post(f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid=f"r{i:02d}"),
                       headers=bearer(table["token"]))
            assert r.status_code == 409
        assert _count_refusals(settings, mid) == 5
    with TestClient(create_app(settings)) as c:  # a restart reloads at most the bound
        r = c.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}),
                   headers=bearer(table["token"]))
        assert r.status_code == 200
        live = c.app.state.services.writer.cache._live[mid]
        assert sorted(live.rejects) == [f"r{i}" for i in range(25, 30)]
        # A remembered id keeps its first answer even though it would be accepted now ...
        r = c.post(
            f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid="r29"), headers=bearer(table["token"])
        )
        assert r.status_code == 409
        # ... and one forgotten beyond the bound is judged afresh (the documented contract).
        r = c.post(
            f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid="r00"), headers=bearer(table["token"])
        )
        assert r.status_code == 200


def test_refusals_expire_after_the_ttl(sqlite_settings: Settings) -> None:
    settings = sqlite_settings.with_(refusal_ttl_s=0.3, table_rate_burst=1000)
    with TestClient(create_app(settings)) as c:
        table = make_table(c)
        mid = make_match(c, table)["id"]
        for i in range(3):
            c.post(
                f"/api/matches/{mid}/commands",
                json=envelope(mid, BREAK_SHOT, cid=f"a{i}"),
                headers=bearer(table["token"]),
            )
        assert _count_refusals(settings, mid) == 3
        time.sleep(0.5)
        c.post(f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid="b"), headers=bearer(table["token"]))
        assert _count_refusals(settings, mid) == 1  # pruned on write


def test_a_refusal_stored_elsewhere_is_the_answer(sqlite_settings: Settings) -> None:
    """Two apps on one store (two processes' writers): an id refused by one is not accepted by the
    other, whose memory of refusals is older (the append's transaction checks the store)."""
    with TestClient(create_app(sqlite_settings)) as a, TestClient(create_app(sqlite_settings)) as b:
        table = make_table(a)
        mid = make_match(a, table)["id"]
        assert b.get(f"/api/matches/{mid}").status_code == 200  # b has the match in memory, no refusals
        r = a.post(
            f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid="X"), headers=bearer(table["token"])
        )
        assert r.status_code == 409
        first = r.json()
        # b stores the start itself (so its memory is current) and then gets X: the first answer.
        assert b.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}),
                      headers=bearer(table["token"])).status_code == 200
        r = b.post(
            f"/api/matches/{mid}/commands", json=envelope(mid, BREAK_SHOT, cid="X"), headers=bearer(table["token"])
        )
        assert (r.status_code, r.json()) == (409, first)
        assert b.get(f"/api/matches/{mid}").json()["version"] == 1


# --- the token, checked where events are stored ----------------------------------------------


def test_rotation_elsewhere_refuses_the_next_command_at_once(sqlite_settings: Settings) -> None:
    """The token rotated by another process (here: another app on the same store, so no in-process
    close): the socket's next command is not stored and the socket is closed 4401, without waiting
    for the periodic recheck."""
    with TestClient(create_app(sqlite_settings)) as a, TestClient(create_app(sqlite_settings)) as b:
        table = make_table(a)
        mid = make_match(a, table)["id"]
        with a.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ws.send_json(auth_frame(table["token"]))
            assert ws.receive_json()["type"] == "ready"
            assert b.post(f"/api/tables/{table['table_id']}/token", headers=admin()).status_code == 200
            ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}, cid="late"))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()  # not an ack: the close
            assert closed.value.code == 4401
        assert a.get(f"/api/matches/{mid}").json()["version"] == 0


# --- /ws/watch: the strict parser, bounded logs (SQLite and PostgreSQL) ------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def any_settings(request: pytest.FixtureRequest) -> Settings:
    return request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")


@pytest.fixture
def wc(any_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(any_settings)) as c:
        yield c


def _error(ws: Any) -> dict[str, Any]:
    got = ws.receive_json()
    assert got["type"] == "error", got
    return got["error"]


def test_watch_refuses_nul_surrogates_and_deep_nesting_and_stays_open(
    wc: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(wc)
    mid = make_match(wc, table)["id"]
    caplog.set_level(logging.INFO)
    with wc.websocket_connect("/ws/watch") as ws:
        for _ in range(90):  # within the 100 error answers a minute that close a socket (1008)
            ws.send_text('{"type":"subscribe","channel":"match:\\u0000"}')
            assert _error(ws)["code"] == "bad_message"
        ws.send_text('{"type":"subscribe","channel":"match:\\ud800"}')
        err = _error(ws)
        assert err["code"] == "bad_message" and "surrogate" in err["message"]
        ws.send_text("[" * 2040 + "]" * 2040)  # within the 4 KB frame cap, deeper than the parser goes
        err = _error(ws)
        assert err["code"] == "bad_message" and "nested" in err["message"], err
        ws.send_text('{"type":"subscribe","channel":"match:' + mid + '"}')  # still open and useful
        assert ws.receive_json()["type"] == "snapshot"
    noisy = [r for r in caplog.records if r.name.startswith("hub.") and r.levelno >= logging.WARNING]
    assert not any(r.exc_info for r in noisy) and len(noisy) <= 5


def test_log_budget_bounds_lines_per_key() -> None:
    now = [0.0]
    budget = LogBudget(lines=3, window_s=10.0, clock=lambda: now[0])
    allowed = [budget.allow("c1") for _ in range(100)]
    assert allowed[:3] == [0, 0, 0] and allowed[3:] == [None] * 97
    assert budget.allow("c2") == 0
    now[0] = 11.0
    assert budget.allow("c1") == 97  # the next line says how many were dropped


def test_subscribe_failures_log_a_few_bounded_lines(
    sqlite_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        subs = c.app.state.services.watch.subscriptions

        async def broken(*_: Any) -> Any:
            raise RuntimeError("x" * 5000)

        subs.subscribe_match = broken
        caplog.set_level(logging.WARNING)
        with c.websocket_connect("/ws/watch") as ws:
            for i in range(50):
                ws.send_text(f'{{"type":"subscribe","channel":"match:m{i}"}}')
                assert _error(ws)["code"] == "unavailable"
    lines = [r for r in caplog.records if r.name == "hub.watch.subscriptions"]
    assert len(lines) == 5 and all(len(r.getMessage()) < 500 and not r.exc_info for r in lines)



# --- the connection guard (hub/ops/ports.py) --------------------------------------------------------


class _Proto:
    def __init__(self, idle: bool = True) -> None:
        self._idle, self.closed = idle, False

    def idle(self) -> bool:
        return self._idle

    def shed(self) -> None:
        self.closed = True


class _Transport:
    def __init__(self) -> None:
        self.closing = False

    def is_closing(self) -> bool:
        return self.closing


def test_connection_guard_sheds_the_idle_longest_and_never_busy_or_upgraded() -> None:
    from hub.ops.ports import SHED_BATCH, ConnectionGuard

    guard = ConnectionGuard(ceiling=40)
    busy = [_Proto(idle=False) for _ in range(5)]
    idle = [_Proto() for _ in range(20)]
    upgraded = [_Transport() for _ in range(14)]
    for p in busy + idle:
        assert guard.opened(p)
    for t in upgraded:
        guard.upgrade(_Proto(), t)
    guard.active(idle[0])  # heard from lately: the last idle one to go
    newcomer = _Proto()
    assert guard.opened(newcomer) and not newcomer.closed
    shed = [p for p in idle if p.closed]
    assert len(shed) == SHED_BATCH  # 40 open at the ceiling of 40: a batch goes, the longest idle first
    assert shed == idle[1:SHED_BATCH + 1] and not any(p.closed for p in busy)
    for p in shed:
        guard.closed(p)
    # Nothing idle left to shed and the ceiling reached: the new connection is dropped.
    full = ConnectionGuard(ceiling=8)
    for _ in range(7):
        full.opened(_Proto(idle=False))
    late = _Proto()
    assert not full.opened(late) and late.closed and full.dropped == 1
    # Upgraded sockets that have closed no longer count.
    guard2 = ConnectionGuard(ceiling=8)
    gone = [_Transport() for _ in range(7)]
    for t in gone:
        guard2.upgrade(_Proto(), t)
        t.closing = True
    fresh = _Proto()
    assert guard2.opened(fresh) and not fresh.closed and len(guard2) == 1
