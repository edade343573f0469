"""hub/matches/presence.py and hub/store/presence.py: who is at each table, in this process and (through
the store) in the others."""

from __future__ import annotations

from pathlib import Path

import pytest
from spine_helpers import ADMIN

from hub.matches.presence import PRESENT_MS, REMOTE_PRESENT_MS, Presence
from hub.settings import Settings
from hub.store import catalog
from hub.store import presence as store
from hub.store.db import make_engine, migrate


class Clock:
    def __init__(self) -> None:
        self.t = 5_000_000

    def __call__(self) -> int:
        return self.t


@pytest.fixture
async def engine(tmp_path: Path):
    eng = make_engine(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", admin_token=ADMIN))
    await migrate(eng)
    yield eng
    await eng.dispose()


async def tables(engine, n: int) -> list[str]:
    t = await catalog.create_tournament(engine, "Open")
    return [(await catalog.create_table(engine, t["id"], f"T{i}"))["id"] for i in range(n)]


async def test_a_pinging_tablet_is_present_while_heard(engine) -> None:
    (tb,) = await tables(engine, 1)
    clock = Clock()
    p = Presence(engine, now=clock, holder="me")
    assert p.attendance(tb).known is False  # never had a tablet: driven over HTTP
    tablet = p.open(tb)
    p.heard(tablet, ping=True)
    seen = p.attendance(tb)
    assert seen.known and seen.present and seen.heard_at == clock.t
    clock.t += PRESENT_MS
    assert p.attendance(tb).present
    clock.t += 1
    seen = p.attendance(tb)
    assert not seen.present and seen.quiet_for(clock.t) == PRESENT_MS + 1
    p.heard(tablet)  # any frame counts
    assert p.attendance(tb).present
    p.close(tablet)
    seen = p.attendance(tb)
    assert seen.known and not seen.present and p.tables_here() == []


async def test_a_socket_that_never_pings_is_present_while_open(engine) -> None:
    (tb,) = await tables(engine, 1)
    clock = Clock()
    p = Presence(engine, now=clock, holder="me")
    tablet = p.open(tb)
    clock.t += 60_000
    seen = p.attendance(tb)
    assert seen.present and seen.heard_at == clock.t and p.tables_here() == [tb]
    p.close(tablet)
    clock.t += 10
    seen = p.attendance(tb)
    assert not seen.present and seen.heard_at == clock.t - 10  # heard until it closed


async def test_other_processes_rows(engine) -> None:
    tb1, tb2 = await tables(engine, 2)
    clock = Clock()
    here, there = Presence(engine, now=clock, holder="A"), Presence(engine, now=clock, holder="B")
    tablet = there.open(tb1)
    there.heard(tablet, ping=True)
    await there._write()
    seen = await here.attendance_now(tb1)
    assert seen.known and seen.present and seen.heard_at == clock.t
    assert (await here.attendance_now(tb2)).known is False
    clock.t += REMOTE_PRESENT_MS + 1  # B stopped writing (its process died)
    seen = here.attendance(tb1)
    assert seen.known and not seen.present
    # A's own rows are not read back as another process's.
    mine = here.open(tb2)
    here.heard(mine, ping=True)
    await here._write()
    assert await store.read(engine, except_holder="A") == {tb1: clock.t - REMOTE_PRESENT_MS - 1}


async def test_rows_survive_a_restart_and_compaction_keeps_the_latest(engine) -> None:
    (tb,) = await tables(engine, 1)
    await store.record(engine, "old1", {tb: 1_000})
    await store.record(engine, "old2", {tb: 2_000})
    await store.record(engine, "old2", {tb: 3_000})  # a holder's row is updated, not added
    await store.compact(engine, before=10_000)
    assert await store.read(engine) == {tb: 3_000}
    clock = Clock()
    p = Presence(engine, now=clock, holder="new")
    await p.start()
    try:
        seen = p.attendance(tb)
        assert seen.known and not seen.present and seen.heard_at == 3_000  # a restarted hub hears nobody
    finally:
        await p.stop()
