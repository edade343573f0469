"""The watch side's feeds (hub/watch/feeds.py): a table feed whose first read fails (the store cut at
that moment) is not left half-loaded. Before, it stayed in `TableFeeds.feeds` with `ready` never
set, and every later watcher of `table:{id}` and every tablet of the table waited on it for good
(tests/faults/test_store_outage.py met it as a 15 s silence after a PostgreSQL cut)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from hub.store import catalog
from hub.watch import feeds as feeds_mod
from hub.watch.feeds import TableFeeds


class Matches:
    """The match side, unused here: the tables hold no match."""

    async def load(self, mid: str) -> None:
        raise AssertionError(f"no match should be loaded ({mid})")


class Store:
    """catalog.get_table / current_match_id: the table exists; the first `fail` reads of its
    current match fail as a cut store does, each after `gate` opens (so a second load can wait)."""

    def __init__(self, fail: int) -> None:
        self.fail = fail
        self.reads = 0
        self.gate = asyncio.Event()

    async def get_table(self, engine: Any, table_id: str) -> object:
        return object()

    async def current_match_id(self, engine: Any, table_id: str) -> str | None:
        self.reads += 1
        await self.gate.wait()
        if self.reads <= self.fail:
            raise OperationalError("SELECT", {}, ConnectionRefusedError(111, "Connection refused"))
        return None


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> Store:
    s = Store(fail=1)
    monkeypatch.setattr(catalog, "get_table", s.get_table)
    monkeypatch.setattr(catalog, "current_match_id", s.current_match_id)
    assert feeds_mod.catalog is catalog  # the module reads through the names patched here
    return s


def _tables() -> TableFeeds:
    return TableFeeds(engine=None, matches=Matches(), spawn=lambda coro: None)  # type: ignore[arg-type]


async def test_a_failed_first_read_leaves_no_half_loaded_feed(store: Store) -> None:
    tables = _tables()
    store.gate.set()
    with pytest.raises(OperationalError):
        await tables.load("t1")
    assert "t1" not in tables.feeds
    feed = await asyncio.wait_for(tables.load("t1"), 2)  # the store is back: served
    assert feed is not None and feed.ready.is_set() and feed.current is None
    assert tables.feeds["t1"] is feed and store.reads == 2


async def test_a_load_waiting_on_a_failed_one_reads_again_instead_of_waiting_for_good(store: Store) -> None:
    tables = _tables()
    first = asyncio.ensure_future(tables.load("t1"))
    await asyncio.sleep(0)  # the first load made the feed and is reading
    assert "t1" in tables.feeds and store.reads == 1
    second = asyncio.ensure_future(tables.load("t1"))  # waits on the first's feed
    await asyncio.sleep(0)
    store.gate.set()
    with pytest.raises(OperationalError):
        await first
    feed = await asyncio.wait_for(second, 2)
    assert feed is not None and tables.feeds["t1"] is feed and store.reads == 2


async def test_the_waiting_load_meets_the_store_still_down(store: Store) -> None:
    store.fail = 2
    tables = _tables()
    first = asyncio.ensure_future(tables.load("t1"))
    await asyncio.sleep(0)
    second = asyncio.ensure_future(tables.load("t1"))
    await asyncio.sleep(0)
    store.gate.set()
    for task in (first, second):
        with pytest.raises(OperationalError):
            await asyncio.wait_for(task, 2)
    assert "t1" not in tables.feeds


async def test_a_tournament_feed_whose_first_read_failed_is_read_again_by_those_waiting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for `tournament:{tid}` (hub/watch/tournament_feeds.py): the first read fails, the
    load waiting on it reads again and is served; the failed feed is gone."""
    from hub.watch.tournament_feeds import TournamentFeeds

    async def exists(engine: Any, tid: str) -> dict[str, Any]:
        return {"id": tid}

    monkeypatch.setattr(catalog, "get_tournament", exists)
    tours = TournamentFeeds(engine=None, matches=None, metrics=None, spawn=lambda coro: None)  # type: ignore[arg-type]
    gate, reads = asyncio.Event(), []

    async def reload(tour: Any) -> None:  # stands for the store's reads
        reads.append(tour)
        await gate.wait()
        if len(reads) == 1:
            raise OperationalError("SELECT", {}, ConnectionRefusedError(111, "Connection refused"))
        tour.ready.set()

    monkeypatch.setattr(tours, "_reload", reload)
    first = asyncio.ensure_future(tours.load("tour1"))
    for _ in range(3):
        await asyncio.sleep(0)
    assert len(reads) == 1
    second = asyncio.ensure_future(tours.load("tour1"))
    for _ in range(3):
        await asyncio.sleep(0)
    gate.set()
    with pytest.raises(OperationalError):
        await first
    feed = await asyncio.wait_for(second, 2)
    assert feed is reads[1] and feed is not reads[0] and tours.feeds["tour1"] is feed
