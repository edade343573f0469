"""Server clocks (hub/matches/clocks.py): real time on short clocks through the real app, and an injected
time (FakeTime) for the races, the restarts and the long default clocks."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import ADMIN, PG_URL, bearer, envelope, make_match, make_table, require_pg

import hub.rules as rules
from hub.app import create_app
from hub.matches.clocks import MATCH, SHOT, ClockService, Due, next_due
from hub.matches.writer import Ack, MatchWriter, Rejected
from hub.settings import Settings
from hub.store import catalog
from hub.store import match_events as store
from hub.store.db import make_engine, migrate
from tests.frames import auth_frame
from tests.services import wait_until

# --- helpers ---------------------------------------------------------------------------------


def send(c: TestClient, table: dict[str, Any], mid: str, command: dict[str, Any]) -> dict[str, Any]:
    r = c.post(f"/api/matches/{mid}/commands", json=envelope(mid, command), headers=bearer(table["token"]))
    assert r.status_code == 200, r.text
    return r.json()


def events(c: TestClient, mid: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/matches/{mid}/events")
    assert r.status_code == 200, r.text
    return r.json()["events"]


def kinds(c: TestClient, mid: str) -> list[str]:
    return [e["kind"] for e in events(c, mid)]


def wait_for(check: Callable[[], Any], timeout: float = 5.0) -> Any:
    return wait_until(check, timeout, interval=0.02)


def proj(c: TestClient, mid: str) -> dict[str, Any]:
    return c.get(f"/api/matches/{mid}").json()


def shot(player: str, first: int | None, pocketed: list[int] | None = None, **kw: Any) -> dict[str, Any]:
    return {"kind": "shot", "player": player, "first_contact": first, "pocketed": pocketed or [], **kw}


@pytest.fixture
def app_client(sqlite_settings: Settings) -> Iterator[TestClient]:
    """The hub with the real rules and its clocks."""
    with TestClient(create_app(sqlite_settings)) as c:
        yield c


# --- real time, through the app ----------------------------------------------------------------


def test_break_clock_expiry_is_a_time_foul(app_client):
    c = app_client
    table = make_table(c)
    m = make_match(c, table, options={"shot_clock": {"break_s": 0.3, "shot_s": 30, "first_shot_s": 30}})
    mid = m["id"]
    send(c, table, mid, {"kind": "start", "breaker": "a"})
    p = proj(c, mid)
    assert p["clock"]["shot"]["limit_s"] == 0.3 and p["clock"]["shot"]["player"] == "a"
    evs = wait_for(lambda: (e := events(c, mid)) and len(e) >= 2 and e)
    assert [e["kind"] for e in evs] == ["start", "clock_expired"]
    assert evs[1]["data"]["player"] == "a" and evs[1]["at"] >= evs[0]["at"] + 300
    p = proj(c, mid)
    assert p["last"]["fouls"] == ["time"] and p["last"]["kind"] == "clock_expired"
    assert p["rack"]["shooter"] == "b" and p["rack"]["ball_in_hand"] == "anywhere"
    assert p["players"][1]["score"] == 1
    assert p["clock"]["shot"]["player"] == "b" and p["clock"]["shot"]["limit_s"] == 30
    # The expired timer is gone once b's is armed (its 30 s are far off): it cannot fire again.
    clocks = c.app.state.services.clocks
    wait_for(lambda: (due := clocks.armed(mid)) is not None and due.player == "b")
    assert kinds(c, mid) == ["start", "clock_expired"]  # fired once


def test_extension_moves_the_deadline(app_client):
    c = app_client
    table = make_table(c)
    clock = {"break_s": 30, "first_shot_s": 0.8, "shot_s": 0.8, "extension_s": 0.4}
    mid = make_match(c, table, options={"shot_clock": clock})["id"]
    send(c, table, mid, {"kind": "start", "breaker": "a"})
    send(c, table, mid, shot("a", 1, [2], break_crossings=4))
    send(c, table, mid, {"kind": "extension", "player": "a"})
    p = proj(c, mid)
    assert p["clock"]["shot"]["extended"] is True
    evs = wait_for(lambda: (e := events(c, mid)) and len(e) >= 4 and e)
    assert [e["kind"] for e in evs] == ["start", "shot", "extension", "clock_expired"]
    assert evs[3]["at"] >= evs[1]["at"] + 1200
    assert proj(c, mid)["rack"]["shooter"] == "b"


async def test_no_expiry_while_paused(fake_time_hub):
    """On the fake clock: an hour passes on a paused break clock and nothing is stored; resumed, the
    clock runs out after what remained of it, not before."""
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(options={"shot_clock": {"break_s": 0.8, "shot_s": 30}})
    await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    await fake.advance(300)
    p = await fake_time_hub.send(mid, {"kind": "pause"})
    assert p["clock"]["shot"]["running"] is False and fake_time_hub.clocks.armed(mid) is None
    remaining = p["clock"]["shot"]["remaining_ms"]
    assert remaining == 500
    await fake.advance(3_600_000)
    assert await fake_time_hub.kinds(mid) == ["start", "pause"]
    await fake_time_hub.send(mid, {"kind": "resume"})
    await fake.advance(remaining - 1)
    assert await fake_time_hub.kinds(mid) == ["start", "pause", "resume"]
    await fake.advance(1)
    assert await fake_time_hub.kinds(mid) == ["start", "pause", "resume", "clock_expired"]


def test_decision_stops_the_clock(app_client):
    # A weak break called as a foul: the opponent has to choose; no clock runs for a decision.
    c = app_client
    table = make_table(c)
    mid = make_match(c, table, options={"shot_clock": {"break_s": 30, "shot_s": 0.2, "first_shot_s": 0.2}})["id"]
    send(c, table, mid, {"kind": "start", "breaker": "a"})
    send(c, table, mid, shot("a", 1, [], break_crossings=1))  # loss of chance: b decides
    p = proj(c, mid)
    assert p["rack"]["phase"] == "decision" and p["clock"]["shot"] is None
    time.sleep(0.4)
    assert kinds(c, mid) == ["start", "shot"]


def test_tablet_socket_gets_the_expiry_with_server_time(app_client):
    c = app_client
    table = make_table(c)
    mid = make_match(c, table, options={"shot_clock": {"break_s": 0.3, "shot_s": 30}})["id"]
    with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json(auth_frame(table["token"]))
        ready = ws.receive_json()
        assert ready["type"] == "ready" and isinstance(ready["server_time"], int)
        ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}))
        msgs = [ws.receive_json() for _ in range(3)]  # ack + state (start), then state (expiry)
        states = [m for m in msgs if m["type"] == "state"]
        assert len(states) == 2 and all(isinstance(s["server_time"], int) for s in states)
        deadline = states[0]["match"]["clock"]["shot"]["deadline"]
        assert states[1]["match"]["last"]["kind"] == "clock_expired"
        assert states[1]["server_time"] >= deadline


def test_restart_fires_a_missed_deadline_once(sqlite_settings):
    clock = {"break_s": 1.0, "first_shot_s": 30, "shot_s": 30}
    with TestClient(create_app(sqlite_settings)) as c:
        table = make_table(c)
        mid = make_match(c, table, options={"shot_clock": clock})["id"]
        send(c, table, mid, {"kind": "start", "breaker": "a"})
        deadline = proj(c, mid)["clock"]["shot"]["deadline"]
    while time.time() * 1000 <= deadline + 250:  # the deadline passes (well) while the hub is down
        time.sleep(0.02)
    with TestClient(create_app(sqlite_settings)) as c:
        started = int(time.time() * 1000)
        evs = wait_for(lambda: (e := events(c, mid)) and len(e) >= 2 and e, timeout=2)
        assert [e["kind"] for e in evs] == ["start", "clock_expired"]
        assert evs[1]["at"] > deadline + 200 and evs[1]["at"] - started < 1000
    with TestClient(create_app(sqlite_settings)) as c:  # and it is not fired again
        time.sleep(0.2)
        assert kinds(c, mid) == ["start", "clock_expired"]
        assert proj(c, mid)["clock"]["shot"]["player"] == "b"


def test_timed_match_tie_goes_to_the_extra_rack(app_client):
    c = app_client
    table = make_table(c)
    mid = make_match(c, table, format={"minutes": 0.01})["id"]  # 600 ms
    send(c, table, mid, {"kind": "start", "breaker": "a"})
    p = proj(c, mid)
    # RULES.md: the match clock starts with the first break; timed: break_s 30
    assert p["clock"]["match"]["running"] is False and p["clock"]["shot"]["limit_s"] == 30
    send(c, table, mid, shot("a", 1, [], break_crossings=5))  # legal, nothing down: b to the table
    assert proj(c, mid)["clock"]["match"]["running"] is True
    evs = wait_for(lambda: (e := events(c, mid)) and len(e) >= 3 and e)
    assert [e["kind"] for e in evs] == ["start", "shot", "match_time_expired"]
    assert evs[2]["at"] >= evs[1]["at"] + 600
    p = proj(c, mid)
    assert p["status"] == "live" and p["rack"]["extra"] is True and p["rack"]["phase"] == "lag"
    assert p["clock"]["match"]["running"] is False and p["clock"]["shot"] is None
    time.sleep(0.3)
    assert kinds(c, mid) == ["start", "shot", "match_time_expired"]
    send(c, table, mid, {"kind": "lag", "winner": "b"})
    send(c, table, mid, {"kind": "decision", "player": "b", "choice": "break"})
    send(c, table, mid, shot("b", 1, [9], break_crossings=4))
    p = proj(c, mid)
    assert p["status"] == "finished" and p["winner"] == "b" and p["result"]["reason"] == "time"


# --- injected time ---------------------------------------------------------------------------


class FakeTime:
    """now() in server ms and a sleep() that only ends when advance() passes its end."""

    def __init__(self, t: int = 1_000_000_000) -> None:
        self.t = t
        self._sleepers: list[tuple[int, asyncio.Future[None]]] = []

    def now(self) -> int:
        return self.t

    async def sleep(self, seconds: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.t + max(1, round(seconds * 1000)), fut))
        await fut

    async def advance(self, ms: int) -> None:
        self.t += ms
        for end, fut in list(self._sleepers):
            if end <= self.t:
                self._sleepers.remove((end, fut))
                if not fut.done():
                    fut.set_result(None)
        await settle()


async def settle(rounds: int = 30) -> None:
    """Let the timers, the writer and the store (aiosqlite threads) run."""
    for _ in range(rounds):
        await asyncio.sleep(0.005)


async def pg_schema_settings(request: pytest.FixtureRequest) -> Settings:
    """A fresh PostgreSQL schema for an async test (the conftest fixture runs its own loop)."""
    require_pg()
    import asyncpg

    schema = "t_" + uuid.uuid4().hex[:12]
    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()

    def drop() -> None:
        async def run() -> None:
            conn = await asyncpg.connect(dsn)
            try:
                await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
            finally:
                await conn.close()

        import threading

        thread = threading.Thread(target=lambda: asyncio.run(run()))
        thread.start()
        thread.join(10)

    request.addfinalizer(drop)
    return Settings(database_url=PG_URL, database_schema=schema, admin_token=ADMIN)


class Hub:
    """One hub process without HTTP: a writer and its clocks on the shared SQLite file."""

    def __init__(self, db: Path | Settings, fake: FakeTime) -> None:
        if isinstance(db, Settings):
            self.settings = db
        else:
            self.settings = Settings(database_url=f"sqlite+aiosqlite:///{db}", admin_token=ADMIN)
        self.fake = fake
        self.engine = make_engine(self.settings)
        self.writer = MatchWriter(self.engine, rules, clock=fake.now)
        self.clocks = ClockService(self.writer, self.engine, now=fake.now, sleep=fake.sleep, retry_s=0.05)

    async def start(self) -> Hub:
        await migrate(self.engine)
        await self.clocks.start()
        return self

    async def stop(self) -> None:
        await self.clocks.stop()
        await self.engine.dispose()

    async def new_match(self, **body: Any) -> str:
        t = await catalog.create_tournament(self.engine, "Open")
        tb = await catalog.create_table(self.engine, t["id"], "T1")
        discipline = body.pop("discipline", "golden_nine")
        players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
        if discipline == "chase_nine":
            players.append({"id": "c", "name": "C"})
        payload = {"discipline": discipline, "players": players, "format": {"racks": 5}, **body}
        p = await self.writer.create_match(payload, tournament_id=t["id"], table_id=tb["id"])
        return p["id"]

    async def send(self, mid: str, command: dict[str, Any]) -> dict[str, Any]:
        answer = await self.writer.submit(mid, None, command)
        assert isinstance(answer, Ack), answer
        await settle(3)
        return await self.writer.projection(mid)

    async def kinds(self, mid: str) -> list[str]:
        return [e.kind for e in await store.read_events(self.engine, mid)]


# A timed match always has a shot clock; these tests watch the match clock alone.
LONG_SHOT_CLOCK = {"shot_clock": {"break_s": 600, "shot_s": 600, "first_shot_s": 600}}


@pytest.fixture
async def fake_time_hub(tmp_path: Path):
    fake = FakeTime()
    h = await Hub(tmp_path / "hub.db", fake).start()
    yield h
    await h.stop()


async def test_stroke_that_arrives_first_wins(fake_time_hub):
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(options={"shot_clock": {"break_s": 10, "shot_s": 20}})
    p = await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    deadline = p["clock"]["shot"]["deadline"]
    assert fake_time_hub.clocks.armed(mid) == Due(SHOT, deadline, "a")
    # The deadline passes and, before the timer gets to store anything, a's stroke is stored.
    fake.t = deadline + 1
    stroke = asyncio.create_task(fake_time_hub.writer.submit(mid, "s1", shot("a", 1, [2], break_crossings=4)))
    await fake.advance(0)
    assert isinstance(await stroke, Ack)
    await settle()
    assert await fake_time_hub.kinds(mid) == ["start", "shot"]  # no clock_expired for a turn that ended
    assert not fake_time_hub.clocks.fired
    p = await fake_time_hub.writer.projection(mid)
    assert fake_time_hub.clocks.armed(mid) == Due(SHOT, p["clock"]["shot"]["deadline"], "a")  # a shoots on
    await fake.advance(20_000)
    assert await fake_time_hub.kinds(mid) == ["start", "shot", "clock_expired"]


async def test_expiry_loses_to_a_stroke_stored_while_it_fires(fake_time_hub):
    """The timer's command armed at version v reaches the writer after a stroke made v+1."""
    mid = await fake_time_hub.new_match(options={"shot_clock": {"break_s": 10}})
    p = await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    await fake_time_hub.send(mid, shot("a", 1, [2], break_crossings=4))
    answer = await fake_time_hub.writer.submit_server(mid, {"kind": "clock_expired", "player": "a"}, p["version"])
    assert isinstance(answer, Rejected) and answer.code == "version_conflict"
    assert await fake_time_hub.kinds(mid) == ["start", "shot"]


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
async def test_two_hub_processes_fire_once(db, tmp_path, request):
    """Two writers with their clocks on one database (as two hub processes): one expiry is stored."""
    where: Path | Settings = tmp_path / "hub.db"
    if db == "postgresql":
        where = await pg_schema_settings(request)
    fake = FakeTime()
    one = await Hub(where, fake).start()
    mid = await one.new_match(options={"shot_clock": {"break_s": 10, "shot_s": 20}})
    await one.send(mid, {"kind": "start", "breaker": "a"})
    two = await Hub(where, fake).start()  # re-arms the same match from the store
    try:
        assert one.clocks.armed(mid) == two.clocks.armed(mid) is not None
        await fake.advance(10_000)
        await settle(60)
        assert await one.kinds(mid) == ["start", "clock_expired"]
        assert len(one.clocks.fired) + len(two.clocks.fired) == 1
        # The loser refolded and armed the next turn (b), like the winner.
        p = await (two if one.clocks.fired else one).writer.projection(mid)
        assert p["version"] == 2 and p["clock"]["shot"]["player"] == "b"
        assert one.clocks.armed(mid) == two.clocks.armed(mid) == Due(SHOT, p["clock"]["shot"]["deadline"], "b")
    finally:
        await two.stop()
        await one.stop()


async def test_chase_nine_defaults(fake_time_hub):
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(discipline="chase_nine", options={"shot_clock": {}})
    p = await fake_time_hub.send(mid, {"kind": "start", "order": ["a", "b", "c"]})
    assert p["clock"]["shot"]["limit_s"] == 45  # the break: shot_s
    p = await fake_time_hub.send(mid, shot("a", 1, [1]))
    assert p["clock"]["shot"] == {**p["clock"]["shot"], "player": "a", "limit_s": 60, "extended": False}
    assert p["clock"]["shot"]["deadline"] == fake.t + 60_000
    assert all(pl["extensions_left"] == 0 for pl in p["players"])
    answer = await fake_time_hub.writer.submit(mid, None, {"kind": "extension", "player": "a"})
    assert isinstance(answer, Rejected) and answer.code == "not_allowed"
    await fake.advance(59_999)
    assert await fake_time_hub.kinds(mid) == ["start", "shot"]
    await fake.advance(1)
    assert await fake_time_hub.kinds(mid) == ["start", "shot", "clock_expired"]
    p = await fake_time_hub.writer.projection(mid)
    assert p["last"]["fouls"] == ["time"] and p["rack"]["shooter"] == "b"
    assert p["clock"]["shot"]["limit_s"] == 45 and p["clock"]["shot"]["deadline"] == fake.t + 45_000


async def test_timed_match_ends_on_points(fake_time_hub):
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(format={"minutes": 1}, options=LONG_SHOT_CLOCK)
    await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    await fake.advance(5_000)
    p = await fake_time_hub.send(mid, shot("a", 3, [], rail=True))  # a foul on the break: b +1; the match clock starts
    assert p["players"][1]["score"] == 1
    assert fake_time_hub.clocks.armed(mid) == Due(MATCH, p["clock"]["match"]["deadline"])
    assert p["clock"]["match"]["deadline"] == fake.t + 60_000
    await fake.advance(60_000)
    assert await fake_time_hub.kinds(mid) == ["start", "shot", "match_time_expired"]
    p = await fake_time_hub.writer.projection(mid)
    assert p["status"] == "finished" and p["winner"] == "b" and p["result"]["reason"] == "time"
    assert fake_time_hub.clocks.armed(mid) is None


async def test_timed_match_pause_stops_the_match_clock(fake_time_hub):
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(format={"minutes": 1}, options=LONG_SHOT_CLOCK)
    await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    await fake_time_hub.send(mid, shot("a", 1, [2], break_crossings=4))  # the first break starts the match clock
    await fake.advance(20_000)
    p = await fake_time_hub.send(mid, {"kind": "pause"})
    assert p["clock"]["match"]["running"] is False and fake_time_hub.clocks.armed(mid) is None
    await fake.advance(3_600_000)
    assert await fake_time_hub.kinds(mid) == ["start", "shot", "pause"]
    p = await fake_time_hub.send(mid, {"kind": "resume"})
    assert p["clock"]["match"]["deadline"] == fake.t + 40_000
    await fake.advance(40_000)
    assert await fake_time_hub.kinds(mid) == ["start", "shot", "pause", "resume", "match_time_expired"]


async def test_match_zero_passed_under_a_late_stroke_still_ends_the_match(tmp_path):
    """Down hub: the match clock's zero passes, then a stroke is stored (the clock stops at 0);
    the restarted clocks store match_time_expired at once."""
    fake = FakeTime()
    one = await Hub(tmp_path / "hub.db", fake).start()
    mid = await one.new_match(format={"minutes": 1})
    await one.send(mid, {"kind": "start", "breaker": "a"})
    await one.send(mid, shot("a", 1, [], break_crossings=5))  # the first break starts the match clock
    await one.clocks.stop()  # the clocks of that process are gone; its writer still takes strokes
    await fake.advance(61_000)
    p = await one.send(mid, shot("b", 3, [], rail=True))
    assert p["clock"]["match"]["remaining_ms"] == 0 and p["clock"]["match"]["running"] is False
    assert p["status"] == "live"
    assert next_due(p) == Due(MATCH, 0)
    await one.engine.dispose()
    two = await Hub(tmp_path / "hub.db", fake).start()
    try:
        await settle()
        assert await two.kinds(mid) == ["start", "shot", "shot", "match_time_expired"]
        p = await two.writer.projection(mid)  # b's late stroke was a foul: a +1
        assert p["status"] == "finished" and p["result"]["reason"] == "time" and p["winner"] == "a"
    finally:
        await two.stop()


async def test_undo_of_an_expiry_rearms_the_clock(fake_time_hub):
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(options={"shot_clock": {"break_s": 10, "shot_s": 20}})
    await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    await fake.advance(10_000)
    assert await fake_time_hub.kinds(mid) == ["start", "clock_expired"]
    await fake.advance(1_000)
    p = await fake_time_hub.send(mid, {"kind": "undo"})
    assert p["clock"]["shot"]["player"] == "a" and p["clock"]["shot"]["deadline"] == fake.t + 10_000
    await fake.advance(10_000)
    assert await fake_time_hub.kinds(mid) == ["start", "clock_expired", "undo", "clock_expired"]


async def test_a_failed_store_is_tried_again(fake_time_hub, monkeypatch):
    from sqlalchemy.exc import OperationalError

    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(options={"shot_clock": {"break_s": 10, "shot_s": 20}})
    await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    real = fake_time_hub.writer.submit_server
    calls: list[int] = []

    async def flaky(match_id: str, command: dict[str, Any], expected_version: int) -> Any:
        calls.append(expected_version)
        if len(calls) == 1:
            raise OperationalError("INSERT", {}, Exception("database is gone"))
        return await real(match_id, command, expected_version)

    monkeypatch.setattr(fake_time_hub.writer, "submit_server", flaky)
    await fake.advance(10_000)
    assert await fake_time_hub.kinds(mid) == ["start"] and calls == [1]
    await fake.advance(50)  # retry_s
    await settle()
    assert await fake_time_hub.kinds(mid) == ["start", "clock_expired"] and calls == [1, 1]


async def test_chinese_eight_timeout_stops_the_clock_until_resume(fake_time_hub):
    fake = fake_time_hub.fake
    mid = await fake_time_hub.new_match(discipline="chinese_eight", format={"race_to": 6},
                              options={"shot_clock": {"break_s": 10, "shot_s": 20}})
    await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    await fake.advance(4_000)
    p = await fake_time_hub.send(mid, {"kind": "timeout", "player": "b"})
    assert p["clock"]["shot"] == {**p["clock"]["shot"], "running": False, "remaining_ms": 6_000}
    assert fake_time_hub.clocks.armed(mid) is None
    await fake.advance(600_000)
    assert await fake_time_hub.kinds(mid) == ["start", "timeout"]
    await fake_time_hub.send(mid, {"kind": "resume"})
    await fake.advance(5_999)
    assert await fake_time_hub.kinds(mid) == ["start", "timeout", "resume"]
    await fake.advance(1)
    assert await fake_time_hub.kinds(mid) == ["start", "timeout", "resume", "clock_expired"]


async def test_no_clock_no_timer(fake_time_hub):
    mid = await fake_time_hub.new_match()
    p = await fake_time_hub.send(mid, {"kind": "start", "breaker": "a"})
    assert p["clock"] == {"shot": None, "match": None} and fake_time_hub.clocks.armed(mid) is None


def test_next_due_picks_the_earlier_and_the_match_clock_on_a_tie():
    p = {"status": "live", "rack": {"extra": False}, "clock": {
        "shot": {"player": "a", "running": True, "deadline": 500},
        "match": {"running": True, "deadline": 500, "remaining_ms": 10}}}
    assert next_due(p) == Due(MATCH, 500)
    p["clock"]["shot"]["deadline"] = 499
    assert next_due(p) == Due(SHOT, 499, "a")
    p["clock"]["shot"] = {"player": "a", "running": False, "remaining_ms": 3}
    p["clock"]["match"] = {"running": False, "deadline": None, "remaining_ms": 0}
    assert next_due(p) == Due(MATCH, 0)
    p["rack"]["extra"] = True
    assert next_due(p) is None
    assert next_due({**p, "status": "finished"}) is None
    assert next_due({"status": "live"}) is None  # a projection without clocks (fake rules)


def test_official_timeout_after_a_rack_won_on_the_break():
    """RULES.md, timed match: the match clock stops at the end of every timeout_every_racks-th rack
    until the next rack's break. hub/rules/engine.py _apply sets `official_timeout = False` after
    any break stroke, *after* the stroke has ended the rack and core began the next one (which set
    it True), so a golden break (small gold on the break) never starts the official timeout and the
    match clock keeps running. A rack won in play does stop it (checked first, below)."""
    from hub.rules import Event, decide, evolve, initial, projection, validate_setup

    def play(commands: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"discipline": "golden_nine", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                "format": {"minutes": 10}, "options": {"match_clock": {"timeout_every_racks": 1}}}
        st = initial(validate_setup(body, match_id="m", tournament_id="t", table_id="tb"))
        for n, command in enumerate(commands, 1):
            kind, data = decide(st, command)
            st = evolve(st, Event(n, kind, data, 1_000_000 + n * 1000, None, False))
        return projection(st)

    start = {"kind": "start", "breaker": "a"}
    in_play = play([start, shot("a", 1, [2], break_crossings=4), shot("a", 1, [9])])
    assert in_play["rack"]["number"] == 2 and in_play["clock"]["match"]["official_timeout"] is True
    on_break = play([start, shot("a", 1, [9], break_crossings=4)])
    assert on_break["rack"]["number"] == 2 and on_break["racks"][0]["win_type"] == "small_gold"
    assert on_break["clock"]["match"]["official_timeout"] is True
    assert on_break["clock"]["match"]["running"] is False


# --- tablets: no time foul on a table whose tablet nobody hears -----------------------------

from hub.matches.presence import Presence, restore  # noqa: E402


class TabletHub(Hub):
    """A Hub whose clocks ask presence (no startup grace: the tests control time)."""

    def __init__(self, db: Path | Settings, fake: FakeTime, holder: str) -> None:
        super().__init__(db, fake)
        self.presence = Presence(self.engine, self.writer, now=fake.now, beat_s=0.02, holder=holder)
        self.clocks = ClockService(self.writer, self.engine, now=fake.now, sleep=fake.sleep, retry_s=0.05,
                                   presence=self.presence, grace_s=3.0, startup_grace_s=0)

    async def start(self) -> TabletHub:
        await migrate(self.engine)
        await self.presence.start()
        await self.clocks.start()
        return self

    async def stop(self) -> None:
        await self.clocks.stop()
        await self.presence.stop()
        await self.engine.dispose()

    async def table_of(self, mid: str) -> str:
        return (await self.writer.projection(mid))["table_id"]


@pytest.fixture
async def thub(tmp_path: Path):
    h = await TabletHub(tmp_path / "hub.db", FakeTime(), "A").start()
    yield h
    await h.stop()


async def test_a_quiet_tablet_pauses_the_clock_and_its_return_resumes_it(thub):
    fake = thub.fake
    mid = await thub.new_match(options={"shot_clock": {"break_s": 20, "shot_s": 20}})
    tablet = thub.presence.open(await thub.table_of(mid))
    thub.presence.heard(tablet, ping=True)
    p = await thub.send(mid, {"kind": "start", "breaker": "a"})
    deadline = p["clock"]["shot"]["deadline"]
    heard_at = fake.t + 1_000
    await fake.advance(1_000)
    thub.presence.heard(tablet, ping=True)  # the last ping before the link goes dead
    for _ in range(4):
        await fake.advance(1_000)
    await settle(20)
    assert await thub.kinds(mid) == ["start", "link_lost"]
    p = await thub.writer.projection(mid)
    assert p["clock"]["shot"] == {**p["clock"]["shot"], "running": False, "reason": "link",
                                  "remaining_ms": deadline - heard_at}
    await fake.advance(600_000)  # nobody at the table: nothing more, ever
    assert await thub.kinds(mid) == ["start", "link_lost"]
    thub.presence.heard(tablet, ping=True)  # the same socket carries pings again
    await settle(20)
    assert await thub.kinds(mid) == ["start", "link_lost", "link_restored"]
    p = await thub.writer.projection(mid)
    assert p["clock"]["shot"]["deadline"] == fake.t + deadline - heard_at
    for _ in range(20):
        thub.presence.heard(tablet, ping=True)
        await fake.advance(1_000)
    await settle(20)
    assert await thub.kinds(mid) == ["start", "link_lost", "link_restored", "clock_expired"]


async def test_a_deadline_in_a_short_silence_waits_and_fires_when_the_tablet_answers(thub):
    fake = thub.fake
    mid = await thub.new_match(options={"shot_clock": {"break_s": 5, "shot_s": 20}})
    tablet = thub.presence.open(await thub.table_of(mid))
    thub.presence.heard(tablet, ping=True)
    await thub.send(mid, {"kind": "start", "breaker": "a"})
    await fake.advance(2_500)
    thub.presence.heard(tablet, ping=True)
    await fake.advance(2_500)  # the deadline: quiet for 2.5 s (away, but within the grace)
    await settle()
    assert await thub.kinds(mid) == ["start"]
    await fake.advance(250)
    thub.presence.heard(tablet, ping=True)  # back within the grace: time is called after all
    await fake.advance(250)
    await settle()
    assert await thub.kinds(mid) == ["start", "clock_expired"]


async def test_a_stroke_entered_before_the_deadline_takes_back_a_time_foul_stored_after_it(thub):
    fake = thub.fake
    mid = await thub.new_match(options={"shot_clock": {"break_s": 5, "shot_s": 20}})
    tablet = thub.presence.open(await thub.table_of(mid))
    p = await thub.send(mid, {"kind": "start", "breaker": "a"})  # a socket that does not ping
    entered = p["clock"]["shot"]["deadline"] - 300
    await fake.advance(5_000)
    assert await thub.kinds(mid) == ["start", "clock_expired"]
    # The stroke was entered 0.3 s before the deadline and reaches the hub after the expiry.
    answer = await thub.writer.submit(mid, "late", {"kind": "shot", "first_contact": 1, "pocketed": [2],
                                                    "break_crossings": 4, "entered_at": entered})
    assert isinstance(answer, Ack)
    evs = await store.read_events(thub.engine, mid)
    assert [(e.kind, e.voided) for e in evs] == [("start", False), ("clock_expired", True), ("shot", False)]
    p = await thub.writer.projection(mid)
    assert p["rack"]["shooter"] == "a" and [x["score"] for x in p["players"]] == [0, 0]
    thub.presence.close(tablet)


async def test_a_restarted_hub_hears_nobody_and_collects_no_time_fouls(tmp_path):
    fake = FakeTime()
    one = await TabletHub(tmp_path / "hub.db", fake, "A").start()
    mid = await one.new_match(options={"shot_clock": {"break_s": 20, "shot_s": 20}})
    tablet = one.presence.open(await one.table_of(mid))
    one.presence.heard(tablet, ping=True)
    await one.send(mid, {"kind": "start", "breaker": "a"})
    await fake.advance(50)
    heard_at = fake.t
    one.presence.heard(tablet, ping=True)
    await settle()  # the beat writes it
    await one.stop()  # the hub dies; its sockets with it
    await fake.advance(120_000)  # the deadline passes while it is down
    two = await TabletHub(tmp_path / "hub.db", fake, "B").start()
    try:
        await settle(40)
        assert await two.kinds(mid) == ["start", "link_lost"]
        p = await two.writer.projection(mid)
        assert p["link"] == {"lost": True, "since": heard_at}
        assert p["clock"]["shot"]["remaining_ms"] == 20_000 - (heard_at - (fake.t - 120_050))
        await fake.advance(3_600_000)
        assert await two.kinds(mid) == ["start", "link_lost"]
        # The tablet comes back (a new socket): the link is restored before its `ready`.
        back = two.presence.open(p["table_id"])
        p = await restore(two.writer, await two.writer.projection(mid))
        assert p["link"]["lost"] is False and p["clock"]["shot"]["running"] is True
        two.presence.close(back)
    finally:
        await two.stop()


async def test_a_tablet_on_another_process_counts(tmp_path):
    """One table, its tablet on process B; process A's clock asks the store and calls time."""
    fake = FakeTime()
    a = await TabletHub(tmp_path / "hub.db", fake, "A").start()
    b = await TabletHub(tmp_path / "hub.db", fake, "B").start()
    try:
        mid = await a.new_match(options={"shot_clock": {"break_s": 5, "shot_s": 20}})
        tablet = b.presence.open(await a.table_of(mid))
        await a.send(mid, {"kind": "start", "breaker": "a"})
        await b.clocks.stop()  # only A's clock runs
        for _ in range(5):
            b.presence.heard(tablet, ping=True)
            await settle(5)  # B's beat writes what it heard
            await fake.advance(1_000)
        await settle(40)
        assert await a.kinds(mid) == ["start", "clock_expired"]
        b.presence.close(tablet)  # the tablet is gone from B too: A pauses the next turn
        await settle(5)
        for _ in range(8):
            await fake.advance(1_000)
        await settle(40)
        assert await a.kinds(mid) == ["start", "clock_expired", "link_lost"]
    finally:
        await b.stop()
        await a.stop()
