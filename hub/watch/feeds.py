"""The match: and table: feeds of the watch core: what each process knows of every match it serves.

Per match (`MatchFeed`) the latest projection and a ring of recent updates (for `since`): HISTORY
updates of a match being played, and of finished matches only the `max_finished` that finished
last (HUB_FINISHED_MATCH_CACHE, as the writer's cache): each update holds the whole projection, so
a long event day would otherwise keep a few KB for every event of every match it played. A `since`
older than the ring is served from the store.
Versions are checked on arrival: a duplicate is dropped, a gap makes the feed reread the missing
events from the store before it goes on, so each process delivers every version once, in order.

Per table (`TableFeed`) the match it holds now: a `table:` channel follows it to the next match,
and its watchers get the updates of whatever match that is. Tablet sockets of this process follow
their table the same way (`TableFeeds.tablets`, `WatchCore.follow_table`): they hear every version of
its match in order, whichever process stored it; what a resync (a gap, a bus loss)
rereads reaches them as one state, the latest (a state is the whole match).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.matches.cache import MAX_FINISHED
from hub.ops.metrics import Metrics
from hub.rules.interface import MatchRules
from hub.store import catalog
from hub.store.db import now_ms
from hub.watch.history import dumps, replay, short_form
from hub.watch.watcher import SNAP, UPD, Conn, Item
from hub.wire.watch import message

HISTORY = 256  # recent updates kept per match for `since`
IDLE_FEEDS = 1024  # matches tracked without watchers before the oldest are forgotten
SNAP_REUSE_MS = 100  # a snapshot text is shared this long after it is built (its server_time stays true)
RESYNC_REPLAY = 2000  # versions a resync replays to watchers as updates; beyond, a fresh snapshot

Spawn = Callable[[Awaitable[Any]], None]
T = TypeVar("T")


async def first_read(feeds: MutableMapping[str, Any], key: str, feed: Any, read: Awaitable[T]) -> T:
    """`read`, the first read from the store of `feed` (put in `feeds` under `key` before it, so
    that loads meanwhile wait on its `ready` instead of reading too). Never left half-loaded: if the
    read fails (the store cut at that moment), the feed is dropped and those waiting are woken to
    read again, each meeting the store itself. Kept with `ready` never set, it would keep every later
    watcher (and tablet) of it waiting for good."""
    try:
        return await read
    except BaseException:
        if feeds.get(key) is feed:
            del feeds[key]
        feed.ready.set()
        raise


@dataclass(slots=True)
class Step:
    version: int
    data: str
    event: str
    undo: bool


@dataclass(eq=False)
class MatchFeed:
    mid: str
    table_id: str = ""
    version: int = -1
    data: str = "null"  # the projection at `version`, JSON
    short: dict[str, Any] | None = None
    ring: deque[Step] = field(default_factory=lambda: deque(maxlen=HISTORY))
    watchers: set[Conn] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    loading: bool = False
    pending: list[tuple[dict[str, Any], str, str]] = field(default_factory=list)
    snap_cache: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    def snapshot_text(self, channel: str) -> str:
        # Shared by the watchers that join within SNAP_REUSE_MS of its build (a crowd opening the
        # page at once), built again after: its server_time sets the screens' clock offset, and a
        # text kept while a quiet match does not change would be minutes old (a shot clock drawn
        # against it shows minutes instead of seconds).
        cached = self.snap_cache.get(channel)
        now = now_ms()
        if cached is None or cached[0] != self.version or now - cached[1] > SNAP_REUSE_MS:
            text = message("snapshot", channel, self.version, self.data)
            cached = self.snap_cache[channel] = (self.version, now, text)
        return cached[2]


@dataclass(eq=False)
class TableFeed:
    table_id: str
    current: str | None = None
    watchers: set[Conn] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    switched_while_loading: str | None = None


class MatchFeeds:
    """match:{mid} channels, and the match side of table: channels (`tables` is set by the WatchCore)."""

    def __init__(self, engine: AsyncEngine, rules: MatchRules, metrics: Metrics, spawn: Spawn) -> None:
        self.engine = engine
        self.rules = rules
        self.metrics = metrics
        self.spawn = spawn
        self.feeds: OrderedDict[str, MatchFeed] = OrderedDict()
        self.tables: TableFeeds | None = None
        self.resyncs = 0  # store rereads (gaps and bus reconnects); tests read it
        # Finished matches whose ring is kept, the one that finished last at the end; beyond
        # `max_finished` the oldest's ring is emptied (the store serves its `since`).
        self.max_finished = MAX_FINISHED
        self._finished_rings: OrderedDict[str, None] = OrderedDict()
        # True while the bus may be losing messages (its subscription down or silent): a new
        # subscriber is then served from the store, not from what this process last heard.
        self.stale: Callable[[], bool] = lambda: False

    def get(self, mid: str) -> MatchFeed | None:
        return self.feeds.get(mid)

    # --- bus messages ----------------------------------------------------------------------------

    def on_message(self, head: dict[str, Any], data: str, event: str) -> None:
        mid = head["m"]
        feed = self.feeds.get(mid)
        if feed is None:
            # First sight of this match: its latest state is this message (a baseline).
            feed = MatchFeed(mid, head["tb"])
            self.feeds[mid] = feed
            self._evict()
            self._set(feed, head, data, event, fan_out=False)
            feed.ready.set()
            self._tell_tablets(feed, feed.version, data)  # a tablet gets every state, the first seen too
        elif feed.loading:
            feed.pending.append((head, data, event))
        else:
            self.feeds.move_to_end(mid)
            self._apply(feed, head, data, event)

    def _apply(self, feed: MatchFeed, head: dict[str, Any], data: str, event: str) -> None:
        v = head["v"]
        if v <= feed.version:
            return  # a duplicate (the store resync got it first)
        if v > feed.version + 1 and feed.version >= 0:
            feed.loading = True
            feed.pending.append((head, data, event))
            self.metrics.bus_resyncs.inc(cause="gap")
            self.spawn(self._resync(feed))
            return
        self._set(feed, head, data, event, fan_out=True)

    def _set(self, feed: MatchFeed, head: dict[str, Any], data: str, event: str, fan_out: bool,
             forced: bool = False, tablets: bool = True) -> None:
        v = head["v"]
        feed.table_id = head["tb"]
        feed.version, feed.data, feed.short = v, data, head.get("short")
        feed.snap_cache.clear()
        if event != "null":
            feed.ring.append(Step(v, data, event, bool(head.get("undo"))))
            self._bound_rings(feed)
        if fan_out:
            self._fan_out(feed, v, data, event, head.get("at"), forced, tablets)

    def _bound_rings(self, feed: MatchFeed) -> None:
        """Keep the rings of the `max_finished` matches that finished last; empty the others'."""
        finished = self._finished_rings
        if (feed.short or {}).get("status") != "finished":
            finished.pop(feed.mid, None)  # playing (again, after an undo): HISTORY bounds its ring
            return
        finished[feed.mid] = None
        finished.move_to_end(feed.mid)
        while len(finished) > self.max_finished:
            mid, _ = finished.popitem(last=False)
            old = self.feeds.get(mid)
            if old is not None:
                old.ring.clear()

    def ring_steps(self) -> int:
        """Updates held in every ring (tests, diagnostics)."""
        return sum(len(feed.ring) for feed in self.feeds.values())

    def _fan_out(self, feed: MatchFeed, v: int, data: str, event: str, at: int | None = None,
                 forced: bool = False, tablets: bool = True) -> None:
        handed = False
        if feed.watchers:
            ch = "match:" + feed.mid
            item = Item(UPD, ch, feed.mid, v, message("update", ch, v, data, event), forced=forced)
            for conn in feed.watchers:
                conn.push(item)
            handed = True
        table = None if self.tables is None else self.tables.get(feed.table_id)
        if table is not None and table.current == feed.mid and table.watchers:
            ch = "table:" + table.table_id
            item = Item(UPD, ch, feed.mid, v, message("update", ch, v, data, event), forced=forced)
            for conn in table.watchers:
                conn.push(item)
            handed = True
        if tablets:
            self._tell_tablets(feed, v, data)
        if handed and isinstance(at, int):
            # Once per change (not per watcher): stored -> handed to the last of its watchers.
            self.metrics.fanout_since(at)

    def _tell_tablets(self, feed: MatchFeed, v: int, data: str) -> None:
        for tablet in list((self.tables.tablets.get(feed.table_id) if self.tables is not None else None) or ()):
            tablet.changed(feed.mid, v, data)

    def _snapshot_all(self, feed: MatchFeed) -> None:
        """Every watcher of the match (and of its table) to its latest snapshot, tablets to its state."""
        for conn in feed.watchers:
            conn.push(Item(SNAP, "match:" + feed.mid, forced=True))
        table = None if self.tables is None else self.tables.get(feed.table_id)
        if table is not None and table.current == feed.mid:
            for conn in table.watchers:
                conn.push(Item(SNAP, "table:" + table.table_id, forced=True))
        self._tell_tablets(feed, feed.version, feed.data)

    def _held(self) -> set[str | None]:
        return set() if self.tables is None else self.tables.held()

    def _evict(self) -> None:
        if len(self.feeds) <= IDLE_FEEDS:
            return
        held = self._held()
        for mid in list(self.feeds)[: len(self.feeds) - IDLE_FEEDS]:
            feed = self.feeds[mid]
            if not feed.watchers and mid not in held and not feed.loading:
                del self.feeds[mid]
                self._finished_rings.pop(mid, None)

    # --- the store ---------------------------------------------------------------------------

    async def _resync(self, feed: MatchFeed) -> None:
        """Fill a gap from the store, then apply what arrived meanwhile."""
        self.resyncs += 1
        try:
            while True:
                r = await replay(self.engine, self.rules, feed.mid, max(feed.version, 0))
                if r is not None:
                    # What was missed goes to the watchers as updates, each version once and in
                    # order, as a `since` replay does (forced: not counted against a watcher's live
                    # limit, so a resync never looks like a slow watcher); beyond RESYNC_REPLAY
                    # versions they get the latest snapshot instead.
                    steps = [step for step in r.steps if step.version > feed.version]
                    replayed = len(steps) <= RESYNC_REPLAY
                    for step in steps:
                        step_head = {"m": feed.mid, "t": r.row.tournament_id, "tb": r.row.table_id,
                                     "v": step.version, "undo": step.undo, "short": None}
                        self._set(feed, step_head, step.data, step.event, fan_out=replayed, forced=True, tablets=False)
                    if steps and not replayed:
                        self._snapshot_all(feed)
                    elif steps:  # a tablet's `state` is the whole match: the latest one is enough
                        self._tell_tablets(feed, feed.version, feed.data)
                    feed.short = short_form(r.projection) if r.version == feed.version else feed.short
                    self._bound_rings(feed)
                pending, feed.pending = feed.pending, []
                gap = False
                for head, data, event in pending:
                    if head["v"] <= feed.version:
                        continue
                    if head["v"] > feed.version + 1:
                        gap = True
                        feed.pending = [(h, d, e) for h, d, e in pending if h["v"] > feed.version]
                        break
                    self._set(feed, head, data, event, fan_out=True)
                if not gap:
                    return
                await asyncio.sleep(0.05)  # the store had not caught up yet
        finally:
            feed.loading = False

    async def refresh(self, feed: MatchFeed) -> None:
        """Catch `feed` up with the store now (while the bus is stale), its watchers with it."""
        if not feed.loading and self.feeds.get(feed.mid) is feed:
            feed.loading = True
            await self._resync(feed)

    def resync_all(self) -> None:
        """The bus lost messages: reread every match anyone watches; forget the others."""
        held = self._held()
        for mid, feed in list(self.feeds.items()):
            if feed.loading:
                continue
            if not feed.watchers and mid not in held:
                del self.feeds[mid]  # reloaded from the store when next watched
                self._finished_rings.pop(mid, None)
                continue
            feed.loading = True
            self.spawn(self._resync(feed))

    async def load(self, mid: str) -> MatchFeed | None:
        feed = self.feeds.get(mid)
        if feed is None:
            feed = MatchFeed(mid)
            feed.loading = True
            self.feeds[mid] = feed
            r = await first_read(self.feeds, mid, feed, replay(self.engine, self.rules, mid, None))
            if r is None:
                self.feeds.pop(mid, None)
                feed.ready.set()
                return None
            feed.table_id, feed.version = r.row.table_id, r.version
            feed.data, feed.short = dumps(r.projection), short_form(r.projection)
            pending, feed.pending = feed.pending, []
            feed.loading = False
            for head, data, event in pending:
                self._apply(feed, head, data, event)
            feed.ready.set()
            self._evict()
        await feed.ready.wait()
        return feed if self.feeds.get(mid) is feed else await self.load(mid)

    def snapshot(self, mid: str, channel: str) -> tuple[str | None, int, str] | None:
        feed = self.feeds.get(mid)
        return None if feed is None else (feed.mid, feed.version, feed.snapshot_text(channel))


class TableFeeds:
    """table:{id} channels: which match each watched table holds, followed to the next one."""

    def __init__(self, engine: AsyncEngine, matches: MatchFeeds, spawn: Spawn) -> None:
        self.engine = engine
        self.matches = matches
        self.spawn = spawn
        self.feeds: dict[str, TableFeed] = {}
        # Tablet sockets following a table (hub/api/table_socket.py), whichever process stored the
        # change: objects with changed(match_id, version, projection_json) and switched(match_id).
        self.tablets: dict[str, set[Any]] = {}

    def get(self, table_id: str) -> TableFeed | None:
        return self.feeds.get(table_id)

    def held(self) -> set[str | None]:
        """The matches some watched table holds now (kept loaded even without match: watchers)."""
        return {t.current for t in self.feeds.values()}

    async def load(self, table_id: str) -> TableFeed | None:
        table = self.feeds.get(table_id)
        if table is None:
            row = await catalog.get_table(self.engine, table_id)
            if row is None:
                return None
            table = self.feeds.get(table_id)
            if table is None:
                table = self.feeds[table_id] = TableFeed(table_id)
                await first_read(self.feeds, table_id, table, self._reload(table))
                table.ready.set()
        await table.ready.wait()
        return table if self.feeds.get(table_id) is table else await self.load(table_id)

    async def _reload(self, table: TableFeed) -> None:
        table.switched_while_loading = None
        mid = await catalog.current_match_id(self.engine, table.table_id)
        if table.switched_while_loading is not None:
            mid = table.switched_while_loading
        if mid is not None:
            await self.matches.load(mid)
        if not table.ready.is_set():
            table.current = mid
        elif mid != table.current:
            self.switch(table, mid)

    def reload(self, table_id: str) -> None:
        """The table's current match may have changed (a move, a cancel): read it again."""
        table = self.feeds.get(table_id)
        if table is not None and table.ready.is_set():
            self.spawn(self._reload(table))

    def on_new_match(self, table_id: str, mid: str) -> None:
        table = self.feeds.get(table_id)
        if table is not None:
            self.switch(table, mid)

    def switch(self, table: TableFeed, mid: str | None) -> None:
        if not table.ready.is_set():
            table.switched_while_loading = mid
            return
        table.current = mid
        for conn in table.watchers:
            conn.push(Item(SNAP, "table:" + table.table_id))
        for tablet in list(self.tablets.get(table.table_id, ())):
            tablet.switched(mid)

    def resync_all(self) -> None:
        for table in list(self.feeds.values()):
            if table.ready.is_set():
                self.spawn(self._reload(table))

    def snapshot(self, table_id: str, channel: str) -> tuple[str | None, int, str] | None:
        table = self.feeds.get(table_id)
        if table is None:
            return None
        feed = None if table.current is None else self.matches.get(table.current)
        if feed is None:
            return (None, 0, message("snapshot", channel, 0, "null"))
        return (feed.mid, feed.version, feed.snapshot_text(channel))

    def forget_unwatched(self, table_id: str) -> None:
        table = self.feeds.get(table_id)
        if table is not None and not table.watchers and table_id not in self.tablets:
            self.feeds.pop(table_id, None)
