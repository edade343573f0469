"""The watch gateway's core: channels, history, per-watcher queues. No socket code here.

    writer Change ──(queue, pump task)──▶ bus payload ──▶ bus ──▶ every process's Gateway.on_bus
                                                                    │
                       MatchFeed (match:{mid}) ─ TableFeed (table:{id}) ─ TournamentFeed (tournament:{tid})
                                                                    │ one text per change and channel
                                                                    ▼
                                               Conn (one per socket): bounded queue → sender

Two fronts share this core (and, in one process, one Gateway object): the FastAPI endpoint
(watch.py, an awaited ASGI send per message, queued per watcher) and the websockets server
(gateway.py: a socket whose queue is empty gets each update handed to its outbox without
awaiting, the frame built once per change and shared by every watcher, the frames of one round
written together; only a watcher whose write buffer is full is queued).

A bus payload is  header JSON \\n projection JSON \\n event JSON ; the projection and event are
serialised once, in the process that stored the change, and spliced into each channel's message.

Per match the gateway keeps the latest projection and a ring of recent updates (for `since`).
Versions are checked on arrival: a duplicate is dropped, a gap makes the feed reread the missing
events from the store before it goes on, so each process delivers every version once, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.bus import Bus
from hub.realtime.history import dumps, replay, short_form
from hub.store import catalog
from hub.metrics import Metrics, metrics_of
from hub.store.db import now_ms
from hub.writer import Change, MatchWriter

log = logging.getLogger(__name__)

CLOSE_STUCK = 4408
QUEUE_LIMIT = 64  # live messages waiting per watcher; beyond, the watcher skips to snapshots
STUCK_S = 10.0  # a watcher that overflows while one send has been waiting this long is closed (4408)
HISTORY = 256  # recent updates kept per match for `since`
MAX_REPLAY = 2000  # a `since` further back than this gets a snapshot instead
MAX_SUBSCRIPTIONS = 32  # per connection
IDLE_FEEDS = 1024  # matches tracked without watchers before the oldest are forgotten
MAX_FRAME = 4096  # a watcher's messages are small

SNAP, UPD, ERR = 0, 1, 2


def message(kind: str, channel: str, version: int, data: str, event: str | None = None, extra: str = "") -> str:
    """One snapshot/update text; `data` and `event` are JSON already (spliced, not re-serialised)."""
    head = f'{{"type":"{kind}","channel":{dumps(channel)},"version":{version},"server_time":{now_ms()}{extra},"data":{data}'
    return head + ("}" if event is None else f',"event":{event}}}')


def error_text(code: str, msg: str, channel: Any = None) -> str:
    body: dict[str, Any] = {"type": "error", "error": {"code": code, "message": msg}}
    if isinstance(channel, str):
        body["channel"] = channel
    return dumps(body)


# --- one socket ------------------------------------------------------------------------------


@dataclass(slots=True)
class Item:
    kind: int
    channel: str
    key: str | None = None  # the match an update belongs to
    version: int = 0
    text: str | None = None
    forced: bool = False  # replays and errors: not counted against the live limit
    frame: bytes | None = None  # `text` as one WebSocket frame, built once by the first front that needs it


@dataclass(slots=True)
class Sub:
    """One subscription of one socket: what was last sent on it, and what waits for a replay.
    (Plain fields, not a (match, version) tuple per update: nothing the garbage collector tracks
    is allocated per watcher per update, so a busy fan-out does not feed it long-lived objects.)"""

    pending: list[Item] | None = None  # live updates held back while a `since` replay is read
    key: str | None = None  # the match (or tournament) last sent on this channel
    version: int | None = None  # ... and its version; None: nothing sent yet (updates wait for a snapshot)


class Conn:
    """One watcher socket: its subscriptions and its bounded outbox, drained by `run`.

    A front whose socket can take a message without awaiting overrides `write_now`; then a message
    is written at once whenever nothing is queued ahead of it, and queued (for `run`) otherwise.
    With `lazy` the sender task exists only while something is queued (an idle watcher costs no
    task)."""

    __slots__ = ("gateway", "_send", "_close", "subs", "queue", "forced", "wake", "send_started",
                 "closing", "overflows", "task", "sending")
    lazy = False

    def __init__(self, gateway: "Gateway", send: Callable[[str], Awaitable[None]],
                 close: Callable[[int], Awaitable[None]]) -> None:
        self.gateway = gateway
        self._send = send
        self._close = close
        self.subs: dict[str, Sub] = {}
        # Created on first use: an idle watcher of the gateway never needs them (about 1.6 KB).
        self.queue: deque[Item] | None = None
        self.forced = 0
        self.wake: asyncio.Event | None = None
        self.send_started = 0.0
        self.closing: int | None = None
        self.overflows = 0
        self.task: asyncio.Task[None] | None = None
        self.sending = False

    def push(self, item: Item) -> None:
        if self.closing is not None:
            return
        if item.kind == UPD:
            sub = self.subs.get(item.channel)
            if sub is None:
                return
            if sub.pending is not None and not item.forced:
                sub.pending.append(item)
                return
        if not self.queue and not self.sending and self.write_now(item):
            return
        if not item.forced and self.queue is not None and len(self.queue) - self.forced >= QUEUE_LIMIT:
            self._overflow()
            return
        if item.forced:
            self.forced += 1
        if self.queue is None:
            self.queue = deque()
        self.queue.append(item)
        self._kick()

    def write_now(self, item: Item) -> bool:
        """Hand `item` to the socket without awaiting; False to queue it for the sender instead."""
        return False

    def _kick(self) -> None:
        if self.wake is not None:
            self.wake.set()
        if self.lazy and (self.task is None or self.task.done()):
            self.start()

    def _overflow(self) -> None:
        """Too far behind: drop what is queued and send each channel's latest snapshot instead;
        if nothing was sent for STUCK_S, give up on the socket (4408)."""
        self.queue = deque()
        self.forced = 0
        self._kick()
        if self.sending and time.monotonic() - self.send_started > STUCK_S:
            self.gateway.metrics.slow_watcher("closed")
            self.closing = CLOSE_STUCK
            if self.task is not None and self.sending:
                self.task.cancel()  # its send is stuck on a peer that does not read
            return
        self.overflows += 1
        self.gateway.metrics.slow_watcher("snapshot")
        for ch, sub in self.subs.items():
            if sub.pending is None:
                self.queue.append(Item(SNAP, ch))

    def _resolve(self, item: Item) -> str | None:
        """The text to send for a queued item, or None to skip it (stale, or already covered)."""
        if item.kind == ERR:
            return item.text
        sub = self.subs.get(item.channel)
        if sub is None:
            return None
        if item.kind == SNAP:
            snap = self.gateway.snapshot(item.channel)
            if snap is None:
                return None
            sub.key, sub.version, text = snap
            return text
        if sub.version is None or sub.key != item.key or item.version <= sub.version:
            return None
        sub.version = item.version
        return item.text

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self.run())
        return self.task

    async def run(self) -> None:
        """The sender: one message at a time, in queue order."""
        try:
            while True:
                while not self.queue and self.closing is None:
                    if self.lazy:
                        self.task = None
                        return
                    if self.wake is None:
                        self.wake = asyncio.Event()
                    self.wake.clear()
                    await self.wake.wait()
                if self.closing is not None:
                    break
                item = self.queue.popleft()  # type: ignore[union-attr]  # not empty, so not None
                if item.forced:
                    self.forced -= 1
                text = self._resolve(item)
                if text is None:
                    continue
                self.sending, self.send_started = True, time.monotonic()
                await self._send(text)
                self.sending = False
        except asyncio.CancelledError:
            if self.closing is None:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        with contextlib.suppress(Exception, asyncio.TimeoutError):
            await asyncio.wait_for(self._close(self.closing), 2)

    def error(self, code: str, msg: str, channel: Any = None) -> None:
        self.push(Item(ERR, "", text=error_text(code, msg, channel), forced=True))


# --- feeds -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Step:
    version: int
    data: str
    event: str
    undo: bool


@dataclass(eq=False)
class MatchFeed:
    mid: str
    tid: str = ""
    table_id: str = ""
    version: int = -1
    data: str = "null"  # the projection at `version`, JSON
    short: dict[str, Any] | None = None
    ring: deque[Step] = field(default_factory=lambda: deque(maxlen=HISTORY))
    watchers: set[Conn] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    loading: bool = False
    pending: list[tuple[dict[str, Any], str, str]] = field(default_factory=list)
    snap_cache: dict[str, tuple[int, str]] = field(default_factory=dict)


@dataclass(eq=False)
class TableFeed:
    table_id: str
    tid: str = ""
    current: str | None = None
    watchers: set[Conn] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    switched_while_loading: str | None = None


@dataclass(eq=False)
class TournamentFeed:
    tid: str
    version: int = 0
    proj: dict[str, Any] = field(default_factory=dict)
    mversions: dict[str, int] = field(default_factory=dict)
    watchers: set[Conn] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    loading: bool = False
    dirty: bool = False
    text: tuple[int, str] | None = None


class Gateway:
    """`writer` None: a gateway process that only serves watchers, fed by the bus (no changes of
    its own to publish). `metrics` defaults to the writer's."""

    def __init__(self, engine: AsyncEngine, rules: ModuleType, writer: MatchWriter | None, bus: Bus,
                 metrics: Metrics | None = None) -> None:
        self.engine = engine
        self.rules = rules
        self.writer = writer
        self.bus = bus
        self.metrics = metrics if metrics is not None else metrics_of(writer)
        self.matches: OrderedDict[str, MatchFeed] = OrderedDict()
        self.tables: dict[str, TableFeed] = {}
        self.tournaments: dict[str, TournamentFeed] = {}
        self.conns: set[Conn] = set()
        self._changes: deque[Change] = deque()
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pump: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.resyncs = 0  # store rereads (gaps and bus reconnects); tests read it

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        await self.bus.start(self.on_bus)
        if self.writer is not None:
            self._pump = asyncio.create_task(self._pump_changes(), name="watch-pump")
            self._unsubscribe = self.writer.subscribe(self.on_change)

    async def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        for task in [self._pump, *self._tasks]:
            if task is not None:
                task.cancel()
        for task in [self._pump, *self._tasks]:
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.bus.close()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("watch task failed", exc_info=task.exception())

    # --- writer -> bus -----------------------------------------------------------------------

    def on_change(self, change: Change) -> None:
        """The writer's listener: only queue (serialising happens in the pump task)."""
        self._changes.append(change)
        self._wake.set()

    async def _pump_changes(self) -> None:
        while True:
            while not self._changes:
                self._wake.clear()
                await self._wake.wait()
            change = self._changes.popleft()
            try:
                self.bus.publish(self.payload(change))
            except Exception:
                log.exception("could not publish %s v%s", change.match_id, change.version)

    @staticmethod
    def payload(change: Change) -> bytes:
        event = change.event
        header = {
            "m": change.match_id, "t": change.tournament_id, "tb": change.table_id, "v": change.version,
            "new": event is None, "undo": bool(event and event.get("kind") == "undo"),
            "at": event.get("at") if event else None,  # stored at (ms): the fan-out latency metric
            "short": short_form(change.projection),
        }
        return "\n".join((dumps(header), dumps(change.projection), dumps(event))).encode("utf-8")

    # --- bus -> feeds ------------------------------------------------------------------------

    def on_bus(self, payload: bytes | None) -> None:
        if payload is None:
            self._spawn(self.resync_all())
            return
        try:
            head_s, data, event = payload.decode("utf-8").split("\n", 2)
            head = json.loads(head_s)
        except Exception:
            log.warning("malformed bus payload dropped")
            return
        self.on_message(head, data, event)

    def on_message(self, head: dict[str, Any], data: str, event: str) -> None:
        mid = head["m"]
        feed = self.matches.get(mid)
        if feed is None:
            # First sight of this match: its latest state is this message (a baseline).
            feed = MatchFeed(mid, head["t"], head["tb"])
            self.matches[mid] = feed
            self._evict()
            self._set(feed, head, data, event, fan_out=False)
            feed.ready.set()
        elif feed.loading:
            feed.pending.append((head, data, event))
        else:
            self.matches.move_to_end(mid)
            self._apply(feed, head, data, event)
        if head.get("new"):
            table = self.tables.get(head["tb"])
            if table is not None:
                self._switch(table, mid)
        tour = self.tournaments.get(head["t"])
        if tour is not None:
            self._tournament_change(tour, head, event)

    def _apply(self, feed: MatchFeed, head: dict[str, Any], data: str, event: str) -> None:
        v = head["v"]
        if v <= feed.version:
            return  # a duplicate (the store resync got it first)
        if v > feed.version + 1 and feed.version >= 0:
            feed.loading = True
            feed.pending.append((head, data, event))
            self._spawn(self._resync(feed))
            return
        self._set(feed, head, data, event, fan_out=True)

    def _set(self, feed: MatchFeed, head: dict[str, Any], data: str, event: str, fan_out: bool) -> None:
        v = head["v"]
        feed.tid, feed.table_id = head["t"], head["tb"]
        feed.version, feed.data, feed.short = v, data, head.get("short")
        feed.snap_cache.clear()
        if event != "null":
            feed.ring.append(Step(v, data, event, bool(head.get("undo"))))
        if fan_out:
            self._fan_out(feed, v, data, event, head.get("at"))

    def _fan_out(self, feed: MatchFeed, v: int, data: str, event: str, at: int | None = None) -> None:
        handed = False
        if feed.watchers:
            ch = "match:" + feed.mid
            item = Item(UPD, ch, feed.mid, v, message("update", ch, v, data, event))
            for conn in feed.watchers:
                conn.push(item)
            handed = True
        table = self.tables.get(feed.table_id)
        if table is not None and table.current == feed.mid and table.watchers:
            ch = "table:" + table.table_id
            item = Item(UPD, ch, feed.mid, v, message("update", ch, v, data, event))
            for conn in table.watchers:
                conn.push(item)
            handed = True
        if handed and isinstance(at, int):
            # Once per change (not per watcher): stored -> handed to the last of its watchers.
            self.metrics.fanout_since(at)

    def _evict(self) -> None:
        if len(self.matches) <= IDLE_FEEDS:
            return
        held = {t.current for t in self.tables.values()}
        for mid in list(self.matches)[: len(self.matches) - IDLE_FEEDS]:
            feed = self.matches[mid]
            if not feed.watchers and mid not in held and not feed.loading:
                del self.matches[mid]

    async def _resync(self, feed: MatchFeed) -> None:
        """Fill a gap from the store, then apply what arrived meanwhile."""
        self.resyncs += 1
        try:
            while True:
                r = await replay(self.engine, self.rules, feed.mid, max(feed.version, 0))
                if r is not None:
                    for step in r.steps:
                        if step.version > feed.version:
                            head = {"m": feed.mid, "t": r.row.tournament_id, "tb": r.row.table_id, "v": step.version,
                                    "undo": step.undo, "short": None}
                            self._set(feed, head, step.data, step.event, fan_out=True)
                    feed.short = short_form(r.projection) if r.version == feed.version else feed.short
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

    async def resync_all(self) -> None:
        """The bus lost messages: reread every channel anyone watches from the store."""
        held = {t.current for t in self.tables.values()}
        for mid, feed in list(self.matches.items()):
            if feed.loading:
                continue
            if not feed.watchers and mid not in held:
                del self.matches[mid]  # reloaded from the store when next watched
                continue
            feed.loading = True
            self._spawn(self._resync(feed))
        for table in list(self.tables.values()):
            if table.ready.is_set():
                self._spawn(self._reload_table(table))
        for tour in list(self.tournaments.values()):
            self._spawn(self._reload_tournament(tour))

    # --- loading -----------------------------------------------------------------------------

    async def match_feed(self, mid: str) -> MatchFeed | None:
        feed = self.matches.get(mid)
        if feed is None:
            feed = MatchFeed(mid)
            feed.loading = True
            self.matches[mid] = feed
            try:
                r = await replay(self.engine, self.rules, mid, None)
            except BaseException:
                self.matches.pop(mid, None)
                feed.ready.set()
                raise
            if r is None:
                self.matches.pop(mid, None)
                feed.ready.set()
                return None
            feed.tid, feed.table_id, feed.version = r.row.tournament_id, r.row.table_id, r.version
            feed.data, feed.short = dumps(r.projection), short_form(r.projection)
            pending, feed.pending = feed.pending, []
            feed.loading = False
            for head, data, event in pending:
                self._apply(feed, head, data, event)
            feed.ready.set()
            self._evict()
        await feed.ready.wait()
        return feed if self.matches.get(mid) is feed else await self.match_feed(mid)

    async def table_feed(self, table_id: str) -> TableFeed | None:
        table = self.tables.get(table_id)
        if table is None:
            row = await catalog.get_table(self.engine, table_id)
            if row is None:
                return None
            table = self.tables.get(table_id)
            if table is None:
                table = self.tables[table_id] = TableFeed(table_id, row.tournament_id)
                await self._reload_table(table)
                table.ready.set()
        await table.ready.wait()
        return table

    async def _reload_table(self, table: TableFeed) -> None:
        table.switched_while_loading = None
        mid = await catalog.current_match_id(self.engine, table.table_id)
        if table.switched_while_loading is not None:
            mid = table.switched_while_loading
        if mid is not None:
            await self.match_feed(mid)
        if not table.ready.is_set():
            table.current = mid
        elif mid != table.current:
            self._switch(table, mid)

    def _switch(self, table: TableFeed, mid: str | None) -> None:
        if not table.ready.is_set():
            table.switched_while_loading = mid
            return
        table.current = mid
        for conn in table.watchers:
            conn.push(Item(SNAP, "table:" + table.table_id))

    async def tournament_feed(self, tid: str) -> TournamentFeed | None:
        tour = self.tournaments.get(tid)
        if tour is None:
            if await catalog.get_tournament(self.engine, tid) is None:
                return None
            tour = self.tournaments.get(tid)
            if tour is None:
                tour = self.tournaments[tid] = TournamentFeed(tid)
                await self._reload_tournament(tour)
        await tour.ready.wait()
        return tour

    async def _reload_tournament(self, tour: TournamentFeed) -> None:
        if tour.loading:
            tour.dirty = True
            return
        tour.loading = True
        try:
            while True:
                tour.dirty = False
                info = await catalog.get_tournament(self.engine, tour.tid)
                tables, mversions = [], {}
                for row in await catalog.list_tables(self.engine, tour.tid):
                    mid = await catalog.current_match_id(self.engine, row.id)
                    feed = None if mid is None else await self.match_feed(mid)
                    if feed is not None:
                        mversions[mid] = feed.version
                    tables.append({"id": row.id, "name": row.name, "match": None if feed is None else feed.short})
                version = await catalog.tournament_version(self.engine, tour.tid)
                if tour.dirty:
                    continue  # a change came in while reading: read again
                changed = tour.proj.get("tables") != tables or not tour.ready.is_set()
                tour.version = max(version, tour.version + (1 if changed else 0))
                tour.proj = {**(info or {}), "version": tour.version, "tables": tables}
                tour.mversions.update(mversions)
                tour.text = None
                if tour.ready.is_set() and changed:
                    for conn in tour.watchers:
                        conn.push(Item(SNAP, "tournament:" + tour.tid))
                tour.ready.set()
                return
        finally:
            tour.loading = False

    def _tournament_change(self, tour: TournamentFeed, head: dict[str, Any], event: str) -> None:
        mid, v = head["m"], head["v"]
        if tour.loading or not tour.ready.is_set():
            tour.dirty = True
            return
        if v <= tour.mversions.get(mid, -1):
            return
        tour.mversions[mid] = v
        entry = next((t for t in tour.proj.get("tables", []) if t["id"] == head["tb"]), None)
        if entry is None:  # a table this process has not seen yet
            self._spawn(self._reload_tournament(tour))
            return
        short = head.get("short")
        if short is not None and (head.get("new") or entry["match"] is None or entry["match"].get("id") == mid):
            entry["match"] = short
        tour.version += 1
        tour.proj["version"] = tour.version
        tour.text = None
        if tour.watchers:
            ch = "tournament:" + tour.tid
            text = message("update", ch, tour.version, dumps(tour.proj), event, extra=f',"match_id":{dumps(mid)}')
            item = Item(UPD, ch, tour.tid, tour.version, text)
            for conn in tour.watchers:
                conn.push(item)
            if isinstance(head.get("at"), int):
                self.metrics.fanout_since(head["at"])

    # --- snapshots ---------------------------------------------------------------------------

    def snapshot(self, channel: str) -> tuple[str | None, int, str] | None:
        """(match or tournament key, version, text) of a channel's latest state."""
        kind, _, ident = channel.partition(":")
        if kind == "match":
            feed = self.matches.get(ident)
            return None if feed is None else (feed.mid, feed.version, self._feed_snapshot(feed, channel))
        if kind == "table":
            table = self.tables.get(ident)
            if table is None:
                return None
            feed = None if table.current is None else self.matches.get(table.current)
            if feed is None:
                return (None, 0, message("snapshot", channel, 0, "null"))
            return (feed.mid, feed.version, self._feed_snapshot(feed, channel))
        if kind == "tournament":
            tour = self.tournaments.get(ident)
            if tour is None:
                return None
            if tour.text is None or tour.text[0] != tour.version:
                tour.text = (tour.version, dumps(tour.proj))
            return (tour.tid, tour.version, message("snapshot", channel, tour.version, tour.text[1]))
        return None

    @staticmethod
    def _feed_snapshot(feed: MatchFeed, channel: str) -> str:
        # Built once per version and channel, shared by every watcher that needs it (server_time
        # is then that of the first build, a few ms at most before the others).
        cached = feed.snap_cache.get(channel)
        if cached is None or cached[0] != feed.version:
            cached = feed.snap_cache[channel] = (feed.version, message("snapshot", channel, feed.version, feed.data))
        return cached[1]

    # --- client messages ---------------------------------------------------------------------

    def connect(self, conn: Conn) -> None:
        self.conns.add(conn)
        self.metrics.watchers.set(len(self.conns))

    def disconnect(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self.metrics.watchers.set(len(self.conns))
        for ch in list(conn.subs):
            self._detach(conn, ch)
        conn.subs.clear()

    def _detach(self, conn: Conn, channel: str) -> None:
        kind, _, ident = channel.partition(":")
        holder = {"match": self.matches, "table": self.tables, "tournament": self.tournaments}.get(kind, {})
        feed = holder.get(ident)
        if feed is not None:
            feed.watchers.discard(conn)
        if kind == "tournament" and feed is not None and not feed.watchers:
            self.tournaments.pop(ident, None)
        if kind == "table" and feed is not None and not feed.watchers:
            self.tables.pop(ident, None)

    async def handle(self, conn: Conn, text: str) -> None:
        """One frame from a watcher. Anything wrong answers an error message, never a crash."""
        if len(text) > MAX_FRAME:
            conn.error("bad_message", f"message over {MAX_FRAME} bytes")
            return
        try:
            msg = json.loads(text)
        except ValueError:
            conn.error("bad_message", "malformed JSON")
            return
        if not isinstance(msg, dict):
            conn.error("bad_message", "a message is a JSON object")
            return
        kind, channel = msg.get("type"), msg.get("channel")
        if kind not in ("subscribe", "unsubscribe"):
            conn.error("bad_message", "type must be subscribe or unsubscribe")
            return
        if not isinstance(channel, str) or not channel:
            conn.error("bad_message", "channel must be a string like match:<id>")
            return
        if kind == "unsubscribe":
            if conn.subs.pop(channel, None) is not None:
                self._detach(conn, channel)
            return
        since = msg.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int) or since < 0):
            conn.error("bad_message", "since must be a version (an integer >= 0)", channel)
            return
        if channel not in conn.subs and len(conn.subs) >= MAX_SUBSCRIPTIONS:
            conn.error("too_many_subscriptions", f"at most {MAX_SUBSCRIPTIONS} channels per connection", channel)
            return
        prefix, _, ident = channel.partition(":")
        try:
            if prefix == "match" and ident:
                ok = await self._subscribe_match(conn, channel, ident, since)
            elif prefix == "table" and ident:
                ok = self._subscribe_latest(conn, channel, await self.table_feed(ident))
            elif prefix == "tournament" and ident:
                ok = self._subscribe_latest(conn, channel, await self.tournament_feed(ident))
            else:
                conn.error("unknown_channel", "channels are match:<id>, table:<id> or tournament:<id>", channel)
                return
        except Exception:
            log.exception("subscribe %s failed", channel)
            conn.subs.pop(channel, None)
            self._detach(conn, channel)
            conn.error("unavailable", "the hub could not read this channel now; try again", channel)
            return
        if not ok:
            conn.error("unknown_channel", f"no such {prefix}: {ident!r}", channel)

    def _attach(self, conn: Conn, channel: str, watchers: set[Conn]) -> Sub:
        if conn.subs.get(channel) is None:
            conn.subs[channel] = Sub()
        watchers.add(conn)
        return conn.subs[channel]

    def _subscribe_latest(self, conn: Conn, channel: str, feed: TableFeed | TournamentFeed | None) -> bool:
        """table: and tournament: channels: no `since`, always a fresh snapshot first."""
        if feed is None:
            return False
        self._attach(conn, channel, feed.watchers).version = None
        conn.push(Item(SNAP, channel))
        return True

    async def _subscribe_match(self, conn: Conn, channel: str, mid: str, since: int | None) -> bool:
        feed = await self.match_feed(mid)
        if feed is None:
            return False
        while feed.loading:  # a resync is filling a gap: serve after it
            await asyncio.sleep(0.01)
        sub = self._attach(conn, channel, feed.watchers)
        if since is None or since > feed.version or feed.version - since > MAX_REPLAY:
            sub.version = None
            conn.push(Item(SNAP, channel))
            return True
        sub.key, sub.version = mid, since
        if since == feed.version:
            return True
        steps = [s for s in feed.ring if s.version > since]
        if feed.ring and feed.ring[0].version <= since + 1 and not any(s.undo for s in steps):
            for s in steps:
                conn.push(Item(UPD, channel, mid, s.version, message("update", channel, s.version, s.data, s.event),
                               forced=True))
            return True
        # Older than the ring, or an undo since then (replayed with today's voided flags): the store.
        sub.pending = []
        try:
            r = await replay(self.engine, self.rules, mid, since)
        except BaseException:
            sub.pending = None
            raise
        for s in (r.steps if r is not None else []):
            conn.push(Item(UPD, channel, mid, s.version, message("update", channel, s.version, s.data, s.event),
                           forced=True))
        held, sub.pending = sub.pending or [], None
        for item in held:
            conn.push(item)
        return True
