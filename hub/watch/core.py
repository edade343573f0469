"""The watch gateway's core: channels, history, per-watcher queues. No socket code here.

    writer Change ──(queue, pump task)──▶ bus payload (hub/wire/bus.py) ──▶ bus ──▶ every process's WatchCore.on_bus
                                                                              │
            feeds.MatchFeeds (match:{mid}) ─ feeds.TableFeeds (table:{id}) ─ tournament_feed.TournamentFeeds
                                                                              │ one text per change and channel
                                                                              ▼
                                                   conn.Conn (one per socket): bounded queue → sender

The parts: `conn` (one socket: its subscriptions and bounded outbox), `feeds` and
`tournament_feed` (the feeds per channel kind: what this process knows of each match, table and
tournament, and who watches them), `wire` (the bus payload), `subscriptions` (the client-message
side: subscribe / unsubscribe frames), and `WatchCore` here, which wires them to the writer and
the bus.

Two fronts share this core (and, in one process, one WatchCore object): the FastAPI endpoint
(watch.py, an awaited ASGI send per message, queued per watcher; the fallback under other
servers) and the websockets front (gateway.py: what `cuehub serve` gives /ws/watch on its own
port through fastws.py, and `cuehub gateway` on a port of its own; a socket whose queue is empty
gets each update handed to its outbox without awaiting, the frame built once per change and
shared by every watcher, the frames of one round written together; only a watcher whose write
buffer is full is queued). Their API here:
`connect(conn)`, `handle(conn, text)`, `disconnect(conn)` and the `Conn` class.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.bus import Bus
from hub.matches.writer import Change, MatchWriter, TableNotice
from hub.ops.metrics import Metrics, metrics_of
from hub.rules.interface import MatchRules
from hub.tournaments.writer import TournamentChange, TournamentWriter
from hub.watch.budgets import SNAPSHOTS_PER_ADDRESS
from hub.watch.feeds import MatchFeeds, TableFeeds
from hub.watch.subscriptions import MAX_SUBSCRIPTIONS, Subscriptions
from hub.watch.tournament_feeds import TournamentFeeds
from hub.watch.watcher import CLOSE_STUCK, QUEUE_LIMIT, Conn, Item
from hub.wire import bus as bus_payload
from hub.wire.watch import message

# What the fronts and the tests take from here (the rest lives in the parts' own modules).
__all__ = ["CLOSE_STUCK", "MAX_SUBSCRIPTIONS", "QUEUE_LIMIT", "Conn", "Item", "WatchCore", "message"]

log = logging.getLogger(__name__)


class WatchCore:
    """`writer` None: a gateway process that only serves watchers, fed by the bus (no changes of
    its own to publish). `metrics` defaults to the writer's."""

    def __init__(self, engine: AsyncEngine, rules: MatchRules, writer: MatchWriter | None, bus: Bus,
                 metrics: Metrics | None = None, tournaments: TournamentWriter | None = None,
                 snapshots_per_address: int = SNAPSHOTS_PER_ADDRESS) -> None:
        self.engine = engine
        self.rules = rules
        self.writer = writer
        self.tournaments = tournaments
        self.bus = bus
        self.metrics = metrics if metrics is not None else metrics_of(writer)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.match_feeds = MatchFeeds(engine, rules, self.metrics, self._spawn)
        self.table_feeds = TableFeeds(engine, self.match_feeds, self._spawn)
        self.match_feeds.tables = self.table_feeds
        self.tournament_feeds = TournamentFeeds(engine, self.match_feeds, self.metrics, self._spawn)
        self.subscriptions = Subscriptions(engine, rules, self.metrics, self.match_feeds, self.table_feeds,
                                           self.tournament_feeds, snapshots_per_address)
        self._changes: deque[Change | TournamentChange | TableNotice] = deque()
        self._wake = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        self._unsubscribe: list[Callable[[], None]] = []

    @property
    def conns(self) -> set[Conn]:
        return self.subscriptions.conns

    @property
    def resyncs(self) -> int:
        """Store rereads (gaps and bus reconnects); tests read it."""
        return self.match_feeds.resyncs

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        if hasattr(self.bus, "on_event"):
            self.bus.on_event = self._on_bus_event
        await self.bus.start(self.on_bus)
        self._bus_state()
        if self.writer is not None:
            self._pump = asyncio.create_task(self._pump_changes(), name="watch-pump")
            self._unsubscribe = [self.writer.subscribe(self.on_change, "watch"),
                                 self.writer.subscribe_tables(self.on_change)]
            if self.tournaments is not None:
                self._unsubscribe.append(self.tournaments.subscribe(self.on_change))

    async def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
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

    def on_change(self, change: Change | TournamentChange | TableNotice) -> None:
        """The writers' listener (matches, tables, tournaments): only queue, in the order they were
        stored (serialising happens in the pump task)."""
        self._changes.append(change)
        self._wake.set()

    async def _pump_changes(self) -> None:
        while True:
            while not self._changes:
                self._wake.clear()
                await self._wake.wait()
            change = self._changes.popleft()
            try:
                if isinstance(change, Change):
                    self.bus.publish(bus_payload.encode_change(change))
                elif isinstance(change, TournamentChange):
                    self.bus.publish(bus_payload.encode_tournament(change))
                else:
                    self.bus.publish(bus_payload.encode_table_notice(change))
            except Exception:
                log.exception("could not publish %r", change)

    # --- bus -> feeds ------------------------------------------------------------------------

    def _on_bus_event(self, name: str) -> None:
        self._bus_state()

    def _bus_state(self) -> None:
        health = getattr(self.bus, "health", None)
        if callable(health):  # read at every scrape: a silence shows before it is noticed
            self.metrics.bus_up.set_function(lambda: 1.0 if health() is None else 0.0)
            self.match_feeds.stale = lambda: health() is not None

    def on_bus(self, payload: bytes | None) -> None:
        if payload is None:
            cause = getattr(self.bus, "resync_cause", "reconnect")
            self.metrics.bus_resyncs.inc(cause=cause if cause in ("silence", "reconnect") else "reconnect")
            self._bus_state()
            self._spawn(self.resync_all())
            return
        try:
            head, data, event = bus_payload.decode(payload)
        except Exception:
            log.warning("malformed bus payload dropped")
            return
        self.on_message(head, data, event)

    def on_message(self, head: dict[str, Any], data: str, event: str) -> None:
        kind = head.get("k", "match")
        if kind == "tour":
            self.tournament_feeds.on_tournament_change(head, data, event)
            return
        if kind == "table":  # its scheduled match was cancelled: what is on it now?
            self.table_feeds.reload(head["tb"])
            self.tournament_feeds.reload(head["t"])
            return
        if kind != "match":
            return  # a kind from a newer hub process
        self.match_feeds.on_message(head, data, event)
        if head.get("new") or head.get("from"):
            self.table_feeds.on_new_match(head["tb"], head["m"])
        if head.get("from"):
            self.table_feeds.reload(head["from"])
            self.tournament_feeds.reload(head["t"])
            return
        self.tournament_feeds.on_match_change(head, event)

    async def resync_all(self) -> None:
        """The bus lost messages: reread every channel anyone watches from the store."""
        self.match_feeds.resync_all()
        self.table_feeds.resync_all()
        self.tournament_feeds.resync_all()

    # --- tablets ----------------------------------------------------------------------------

    async def follow_table(self, table_id: str, tablet: Any) -> Callable[[], None]:
        """`tablet.changed(match_id, version, projection_json)` for every version of the table's
        match (each once, in order, gaps filled from the store, whichever process stored it) and
        `tablet.switched(match_id | None)` when the table's match changes; returns the unfollow."""
        tablets = self.table_feeds.tablets
        tablets.setdefault(table_id, set()).add(tablet)

        def unfollow() -> None:
            held = tablets.get(table_id)
            if held is not None:
                held.discard(tablet)
                if not held:
                    del tablets[table_id]
                    self.table_feeds.forget_unwatched(table_id)

        try:
            await self.table_feeds.load(table_id)  # keeps its match loaded, resynced with the rest
        except BaseException:
            unfollow()
            raise
        return unfollow

    # --- snapshots ---------------------------------------------------------------------------

    def snapshot(self, channel: str) -> tuple[str | None, int, str] | None:
        """(match or tournament key, version, text) of a channel's latest state."""
        kind, _, ident = channel.partition(":")
        if kind == "match":
            return self.match_feeds.snapshot(ident, channel)
        if kind == "table":
            return self.table_feeds.snapshot(ident, channel)
        if kind == "tournament":
            return self.tournament_feeds.snapshot(ident, channel)
        return None

    # --- the fronts' API ---------------------------------------------------------------------

    def connect(self, conn: Conn) -> None:
        self.subscriptions.connect(conn)

    def disconnect(self, conn: Conn) -> None:
        self.subscriptions.disconnect(conn)

    async def handle(self, conn: Conn, text: str) -> None:
        await self.subscriptions.handle(conn, text)
