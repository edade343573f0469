"""The desk's storage (PROTOCOL.md section 8) on a SQLite file and on PostgreSQL: sessions, pairing
codes spent exactly once, per-tablet table tokens ended by a rotation, the throttle's counters."""

from __future__ import annotations

import asyncio

import pytest

from hub.store import catalog, pairing, sessions, throttle
from hub.store.db import make_engine, migrate, now_ms
from hub.store.throttle import Counter

LIFE = sessions.Lifetime(idle_ms=60_000, max_ms=600_000)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_settings(request):
    return request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")


@pytest.fixture
async def engine(db_settings):
    eng = make_engine(db_settings)
    await migrate(eng)
    yield eng
    await eng.dispose()


async def _table(engine) -> dict:
    t = await catalog.create_tournament(engine, "T")
    return await catalog.create_table(engine, t["id"], "Table 1")


# --- sessions -----------------------------------------------------------------------------------


async def test_session_lives_until_signed_out(engine):
    value, expires = await sessions.open_session(engine, "h" * 64, LIFE)
    assert expires > now_ms() and len(value) >= 40
    assert await sessions.use_session(engine, value, "h" * 64, LIFE) == expires
    assert await sessions.use_session(engine, value + "x", "h" * 64, LIFE) is None
    # Opened with another admin token: not a session of this one.
    assert await sessions.use_session(engine, value, "k" * 64, LIFE) is None
    assert await sessions.end_session(engine, value) is True
    assert await sessions.use_session(engine, value, "h" * 64, LIFE) is None
    assert await sessions.end_session(engine, value) is False


async def test_session_value_is_stored_hashed(engine):
    import sqlalchemy as sa

    from hub.store.schema import desk_sessions

    value, _ = await sessions.open_session(engine, "h" * 64, LIFE)
    async with engine.connect() as conn:
        stored = (await conn.execute(sa.select(desk_sessions.c.token_hash))).scalars().all()
    assert stored == [catalog.token_hash(value)]


async def test_session_expires_when_unused(engine, monkeypatch):
    # The store's clock, not the machine's: a loaded machine cannot stretch the 150 ms.
    short = sessions.Lifetime(idle_ms=150, max_ms=10_000)
    clock = [1_000_000]
    monkeypatch.setattr(sessions, "now_ms", lambda: clock[0])
    value, _ = await sessions.open_session(engine, "h" * 64, short)
    clock[0] += 140
    assert await sessions.use_session(engine, value, "h" * 64, short) is not None
    clock[0] += 110  # 250 ms unused since it opened (no slide within SLIDE_EVERY_MS)
    assert await sessions.use_session(engine, value, "h" * 64, short) is None


async def test_session_expiry_slides_but_not_past_its_maximum(engine, monkeypatch):
    life = sessions.Lifetime(idle_ms=1_000, max_ms=1_500)
    clock = [1_000_000]
    monkeypatch.setattr(sessions, "now_ms", lambda: clock[0])
    value, expires = await sessions.open_session(engine, "h" * 64, life)
    assert expires == 1_001_000
    clock[0] += sessions.SLIDE_EVERY_MS  # past the slide interval, the session is long dead:
    assert await sessions.use_session(engine, value, "h" * 64, life) is None
    value, _ = await sessions.open_session(engine, "h" * 64, life)
    monkeypatch.setattr(sessions, "SLIDE_EVERY_MS", 100)
    clock[0] += 800
    assert (
        await sessions.use_session(engine, value, "h" * 64, life) == clock[0] + 1_000 - 300
    )  # capped at created + max
    clock[0] += 650
    assert await sessions.use_session(engine, value, "h" * 64, life) is not None  # slid: still alive
    clock[0] += 100
    assert await sessions.use_session(engine, value, "h" * 64, life) is None  # the maximum


# --- pairing codes and per-tablet tokens -------------------------------------------------------


async def test_code_pairs_one_tablet_once(engine):
    tb = await _table(engine)
    card = await pairing.new_card(engine, tb["id"], 60_000)
    code, expires = card.code, card.expires_at
    assert len(code) == 6 and code.isdigit() and expires > now_ms()
    paired = await pairing.spend_code(engine, code)
    assert paired is not None and paired.table_id == tb["id"] and paired.name == "Table 1"
    assert await pairing.spend_code(engine, code) is None  # spent
    row = await catalog.table_by_token(engine, paired.token)
    assert row is not None and row.id == tb["id"]
    # The row carries the table's own token hash (what a socket re-checks against).
    assert row.token_hash == catalog.token_hash(tb["token"])
    assert (await catalog.table_by_token(engine, tb["token"])).id == tb["id"]
    assert await catalog.count_table_tokens(engine, tb["id"]) == 1


async def test_two_tablets_racing_with_one_code_one_wins(engine):
    tb = await _table(engine)
    code = (await pairing.new_card(engine, tb["id"], 60_000)).code
    results = await asyncio.gather(*(pairing.spend_code(engine, code) for _ in range(6)))
    winners = [r for r in results if r is not None]
    assert len(winners) == 1
    assert await catalog.count_table_tokens(engine, tb["id"]) == 1


async def test_expired_code_is_refused(engine):
    tb = await _table(engine)
    code = (await pairing.new_card(engine, tb["id"], 30)).code
    await asyncio.sleep(0.08)
    assert await pairing.spend_code(engine, code) is None


async def test_several_tablets_keep_their_tokens_until_a_rotation_ends_them_all(engine):
    tb = await _table(engine)
    tokens = []
    for _ in range(3):
        code = (await pairing.new_card(engine, tb["id"], 60_000)).code
        tokens.append((await pairing.spend_code(engine, code)).token)
    assert len(set(tokens)) == 3
    for token in tokens:
        assert (await catalog.table_by_token(engine, token)).id == tb["id"]
    unused = (await pairing.new_card(engine, tb["id"], 60_000)).code
    rotated = await catalog.rotate_table_token(engine, tb["id"])
    for token in [*tokens, tb["token"]]:
        assert await catalog.table_by_token(engine, token) is None
    assert (await catalog.table_by_token(engine, rotated["token"])).id == tb["id"]
    assert await pairing.spend_code(engine, unused) is None  # a rotation ends the unused codes too
    assert await catalog.count_table_tokens(engine, tb["id"]) == 0


async def test_a_tablet_token_opens_only_its_table(engine):
    a, b = await _table(engine), await _table(engine)
    code = (await pairing.new_card(engine, a["id"], 60_000)).code
    token = (await pairing.spend_code(engine, code)).token
    assert (await catalog.table_by_token(engine, token)).id == a["id"] != b["id"]
    await catalog.rotate_table_token(engine, b["id"])  # another table's rotation changes nothing here
    assert (await catalog.table_by_token(engine, token)).id == a["id"]


async def test_rename_table(engine):
    tb = await _table(engine)
    row = await catalog.rename_table(engine, tb["id"], "Diamond 1")
    assert row.name == "Diamond 1" and (await catalog.get_table(engine, tb["id"])).name == "Diamond 1"
    assert await catalog.rename_table(engine, "nope", "x") is None


# --- throttle counters --------------------------------------------------------------------------


async def test_throttle_counter_compare_and_set(engine):
    assert await throttle.load(engine, "k") is None
    assert await throttle.save(engine, "k", None, Counter(1, 0, 10))
    assert not await throttle.save(engine, "k", None, Counter(1, 0, 10))  # already there
    seen = await throttle.load(engine, "k")
    assert seen == Counter(1, 0, 10, 1)
    assert await throttle.save(engine, "k", seen, Counter(2, 5, 11))
    assert not await throttle.save(engine, "k", seen, Counter(3, 5, 12))  # stale version
    assert (await throttle.load(engine, "k")).attempts == 2
    await throttle.sweep(engine, 11)
    assert await throttle.load(engine, "k") is not None
    await throttle.sweep(engine, 12)
    assert await throttle.load(engine, "k") is None
    await throttle.save(engine, "k", None, Counter(1, 0, 10))
    await throttle.clear(engine, "k")
    assert await throttle.load(engine, "k") is None
