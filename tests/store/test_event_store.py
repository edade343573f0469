"""The store on real databases: a SQLite file and PostgreSQL (fresh schema per test)."""

from __future__ import annotations

import asyncio

import fake_rules
import pytest

from hub.matches.writer import Ack, MatchWriter, Rejected
from hub.rules.events import Event
from hub.settings import Settings
from hub.store import catalog
from hub.store import match_events as store
from hub.store.db import make_engine, migrate


@pytest.fixture(params=["sqlite", "postgresql"])
def db_settings(request, tmp_path) -> Settings:
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_settings")
    return request.getfixturevalue("pg_settings")


@pytest.fixture
async def engine(db_settings):
    eng = make_engine(db_settings)
    await migrate(eng)
    await migrate(eng)  # a second upgrade is a no-op
    yield eng
    await eng.dispose()


async def _match(engine) -> tuple[str, MatchWriter]:
    t = await catalog.create_tournament(engine, "T")
    tb = await catalog.create_table(engine, t["id"], "1")
    writer = MatchWriter(engine, fake_rules)
    body = {"discipline": "golden_nine", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
    proj = await writer.create_match(body, tournament_id=t["id"], table_id=tb["id"])
    return proj["id"], writer


async def test_same_version_one_wins(engine):
    mid, _ = await _match(engine)
    e1 = Event(version=1, kind="start", data={"breaker": "a"}, at=1, command_id="c1")
    e2 = Event(version=1, kind="start", data={"breaker": "b"}, at=1, command_id="c2")
    results = await asyncio.gather(
        store.append(engine, mid, e1, status="live"), store.append(engine, mid, e2, status="live"),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "VersionConflict"]
    stored = await store.read_events(engine, mid)
    assert len(stored) == 1 and stored[0].version == 1


async def test_duplicate_command_id_is_refused_by_the_schema(engine):
    mid, _ = await _match(engine)
    await store.append(engine, mid, Event(1, "start", {"breaker": "a"}, 1, "c1"), status="live")
    with pytest.raises(store.DuplicateCommand) as exc:
        await store.append(engine, mid, Event(2, "shot", {"player": "a"}, 2, "c1"), status="live")
    assert exc.value.version == 1


async def test_two_writers_race(engine):
    """Two hub processes (two writers) on one database: one command wins, the other is refused."""
    mid, w1 = await _match(engine)
    w2 = MatchWriter(engine, fake_rules)
    assert await w1.submit(mid, "start", {"kind": "start", "breaker": "a"}) == Ack(1)
    await w2.projection(mid)  # both now hold version 1 in memory
    a, b = await asyncio.gather(
        w1.submit(mid, "x", {"kind": "shot", "player": "a"}, expected_version=1),
        w2.submit(mid, "y", {"kind": "shot", "player": "a"}, expected_version=1),
    )
    assert sorted([type(a).__name__, type(b).__name__]) == ["Ack", "Rejected"]
    loser = a if isinstance(a, Rejected) else b
    assert loser.code == "version_conflict"
    assert [e.command_id for e in await store.read_events(engine, mid)] == ["start", "x" if isinstance(a, Ack) else "y"]
    # The loser re-read the stream: its next command goes through on the right version.
    w_loser = w1 if isinstance(a, Rejected) else w2
    assert await w_loser.submit(mid, "z", {"kind": "shot", "player": "b"}) == Ack(3)


async def test_a_stale_writer_judges_a_command_on_the_stored_state(engine):
    """Without expected_version, a command sent to a process whose memory is behind the store
    (another process wrote since) is decided on the stored state, not refused for the race."""
    mid, w1 = await _match(engine)
    w2 = MatchWriter(engine, fake_rules)
    assert await w1.submit(mid, "start", {"kind": "start", "breaker": "a"}) == Ack(1)
    await w2.projection(mid)
    assert await w1.submit(mid, "x", {"kind": "shot", "player": "a"}) == Ack(2)
    assert await w2.submit(mid, "y", {"kind": "shot", "player": "b"}) == Ack(3)
    assert (await w2.projection(mid))["version"] == 3 and (await w1.projection(mid))["version"] == 3


async def test_retry_through_another_writer_gets_the_first_ack(engine):
    mid, w1 = await _match(engine)
    w2 = MatchWriter(engine, fake_rules)
    await w2.projection(mid)
    assert await w1.submit(mid, "c", {"kind": "start", "breaker": "a"}) == Ack(1)
    # w2's memory is stale (version 0); the schema catches the duplicate id.
    assert await w2.submit(mid, "c", {"kind": "start", "breaker": "a"}) == Ack(1)
    assert len(await store.read_events(engine, mid)) == 1


async def test_undo_voids_its_target_atomically(engine):
    mid, w = await _match(engine)
    await w.submit(mid, "1", {"kind": "start", "breaker": "a"})
    await w.submit(mid, "2", {"kind": "shot", "player": "a"})
    assert await w.submit(mid, "3", {"kind": "undo"}) == Ack(3)
    stored = await store.read_events(engine, mid)
    assert [(e.kind, e.voided) for e in stored] == [("start", False), ("shot", True), ("undo", False)]
    fresh = MatchWriter(engine, fake_rules)
    assert await fresh.projection(mid) == await w.projection(mid)


async def test_server_command_armed_at_an_old_version_changes_nothing(engine):
    mid, w = await _match(engine)
    await w.submit(mid, "1", {"kind": "start", "breaker": "a"})
    await w.submit(mid, "2", {"kind": "shot", "player": "a"})
    r = await w.submit_server(mid, {"kind": "clock_expired", "player": "a"}, expected_version=1)
    assert isinstance(r, Rejected) and r.code == "version_conflict"
    assert await w.submit_server(mid, {"kind": "clock_expired", "player": "b"}, expected_version=2) == Ack(3)
    assert (await store.read_events(engine, mid))[-1].command_id is None


async def test_one_open_match_per_table_in_the_schema(engine):
    t = await catalog.create_tournament(engine, "T")
    tb = await catalog.create_table(engine, t["id"], "1")
    kw = dict(tournament_id=t["id"], table_id=tb["id"], discipline="golden_nine", setup={}, status="scheduled")
    await catalog.insert_match(engine, match_id="m1", **kw)
    with pytest.raises(catalog.TableBusy):
        await catalog.insert_match(engine, match_id="m2", **kw)


async def test_tokens_are_stored_hashed(engine):
    t = await catalog.create_tournament(engine, "T")
    tb = await catalog.create_table(engine, t["id"], "1")
    row = await catalog.get_table(engine, tb["id"])
    assert row.token_hash == catalog.token_hash(tb["token"]) and tb["token"] not in row.token_hash
    assert (await catalog.table_by_token(engine, tb["token"])).id == tb["id"]
    assert await catalog.table_by_token(engine, "nope") is None


async def test_admin_token_generated_once(engine):
    digest, token = await catalog.ensure_admin_token(engine, None)
    assert token and digest == catalog.token_hash(token)
    assert await catalog.ensure_admin_token(engine, None) == (digest, None)
    configured, none = await catalog.ensure_admin_token(engine, "env-token")
    assert configured == catalog.token_hash("env-token") and none is None


async def test_a_stroke_on_a_fresh_match_does_not_read_the_stores_head(engine):
    """The hot path: a command judged on memory is stored without first asking for the head (the
    schema catches a stale memory); a refusal is only given after checking it."""
    from sqlalchemy import event as sa_event

    mid, w = await _match(engine)
    assert await w.submit(mid, "1", {"kind": "start", "breaker": "a"}) == Ack(1)
    statements: list[str] = []

    def seen(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        statements.append(statement.lower())

    sa_event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        assert await w.submit(mid, "2", {"kind": "shot", "player": "a"}) == Ack(2)
        heads_on_accept = sum("max(" in s for s in statements)
        statements.clear()
        refused = await w.submit(mid, "3", {"kind": "start", "breaker": "a"})
        heads_on_refusal = sum("max(" in s for s in statements)
    finally:
        sa_event.remove(engine.sync_engine, "before_cursor_execute", seen)
    assert heads_on_accept == 0
    assert isinstance(refused, Rejected) and heads_on_refusal == 1


async def test_the_writer_keeps_a_bounded_number_of_matches_and_refolds_the_others(engine, monkeypatch):
    import hub.matches.cache as cache_mod

    monkeypatch.setattr(cache_mod, "MAX_LIVE", 3)
    t = await catalog.create_tournament(engine, "T")
    w = MatchWriter(engine, fake_rules)
    body = {"discipline": "golden_nine", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
    mids = []
    for i in range(6):
        tb = await catalog.create_table(engine, t["id"], str(i))
        mids.append((await w.create_match(body, tournament_id=t["id"], table_id=tb["id"]))["id"])
        assert await w.submit(mids[-1], f"s{i}", {"kind": "start", "breaker": "a"}) == Ack(1)
        assert len(w.cache) <= 3
    first = mids[0]
    assert first not in w.cache  # forgotten...
    assert await w.submit(first, "s0", {"kind": "start", "breaker": "a"}) == Ack(1)  # ...its ids are not
    refused = await w.submit(first, "again", {"kind": "start", "breaker": "a"})
    assert isinstance(refused, Rejected) and refused.code == "already_started"
    assert await w.submit(first, "shot", {"kind": "shot", "player": "a"}) == Ack(2)
    assert (await w.projection(first))["version"] == 2 and len(w.cache) <= 3
    for mid in mids[1:3]:  # forgotten too, and refolded on demand, refusals included
        assert await w.submit(mid, "again", {"kind": "start", "breaker": "a"}) == Rejected(
            refused.code, refused.message
        )
    assert await w.submit(first, "again", {"kind": "start", "breaker": "a"}) == refused  # the stored refusal
