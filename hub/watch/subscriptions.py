"""The client-message side of the watch core: a watcher's subscribe / unsubscribe frames.

Anything wrong answers an `error` message on the socket (bad_message, unknown_channel,
too_many_subscriptions, too_many_snapshots, unavailable), never a crash; a socket past its budgets
(budgets.py: snapshots per channel, error answers per minute) is refused or closed 1008.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.guards.edge_json import strict_loads
from hub.ops.logbudget import LogBudget, clip, suppressed
from hub.ops.metrics import Metrics
from hub.rules.interface import MatchRules
from hub.store.outage import describe, store_failed
from hub.watch.budgets import CLOSE_POLICY, SNAPSHOTS_PER_ADDRESS, SNAPSHOTS_PER_MINUTE, AddressBudgets, SocketBudgets
from hub.watch.feeds import MatchFeeds, TableFeed, TableFeeds
from hub.watch.history import replay
from hub.watch.tournament_feeds import TournamentFeed, TournamentFeeds
from hub.watch.watcher import ERR, SNAP, UPD, Conn, Item, Sub
from hub.wire.watch import message, pong_text

log = logging.getLogger(__name__)

MAX_REPLAY = 2000  # a `since` further back than this gets a snapshot instead
MAX_SUBSCRIPTIONS = 32  # per connection
MAX_FRAME = 4096  # a watcher's messages are small


class Subscriptions:
    def __init__(self, engine: AsyncEngine, rules: MatchRules, metrics: Metrics, matches: MatchFeeds,
                 tables: TableFeeds, tournaments: TournamentFeeds,
                 snapshots_per_address: int = SNAPSHOTS_PER_ADDRESS) -> None:
        self.engine = engine
        self.rules = rules
        self.metrics = metrics
        self.matches = matches
        self.tables = tables
        self.tournaments = tournaments
        self.conns: set[Conn] = set()
        # Warnings per connection are bounded (a socket repeating a failing frame writes a few lines).
        self.log_budget = LogBudget(lines=5, window_s=60.0)
        self.budgets = SocketBudgets()
        self.address_budgets = AddressBudgets(snapshots_per_address)  # every socket of this process

    def connect(self, conn: Conn) -> None:
        self.conns.add(conn)
        self.metrics.watchers.set(len(self.conns))

    def disconnect(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self.metrics.watchers.set(len(self.conns))
        self.log_budget.forget(id(conn))
        self.budgets.forget(conn)
        for ch in list(conn.subs):
            self._detach(conn, ch)
        conn.subs.clear()

    def _detach(self, conn: Conn, channel: str) -> None:
        kind, _, ident = channel.partition(":")
        by_kind: dict[str, MatchFeeds | TableFeeds | TournamentFeeds] = {
            "match": self.matches, "table": self.tables, "tournament": self.tournaments}
        feeds = by_kind.get(kind)
        feed = None if feeds is None else feeds.get(ident)
        if feed is not None:
            feed.watchers.discard(conn)
        if kind == "tournament":
            self.tournaments.forget_unwatched(ident)
        if kind == "table":
            self.tables.forget_unwatched(ident)

    async def handle(self, conn: Conn, text: str) -> None:
        """One frame from a watcher. Anything wrong answers an error message, never a crash."""
        if len(text) > MAX_FRAME:
            self._error(conn, "bad_message", f"message over {MAX_FRAME} bytes")
            return
        try:
            # The strict parser (as the tablets' and HTTP's): no NaN, no lone surrogates, no NUL,
            # nesting too deep is bad JSON, not a crash.
            msg = strict_loads(text)
        except UnicodeError:
            self._error(conn, "bad_message", "strings must be valid Unicode text (no lone surrogates)")
            return
        except ValueError as exc:
            self._error(conn, "bad_message", f"malformed JSON: {clip(exc, 120)}")
            return
        if not isinstance(msg, dict):
            self._error(conn, "bad_message", "a message is a JSON object")
            return
        kind, channel = msg.get("type"), msg.get("channel")
        if kind == "ping":  # a screen asking whether the link still carries anything
            conn.push(Item(ERR, "", text=pong_text(), forced=True))
            return
        if kind not in ("subscribe", "unsubscribe"):
            self._error(conn, "bad_message", "type must be subscribe or unsubscribe")
            return
        if not isinstance(channel, str) or not channel:
            self._error(conn, "bad_message", "channel must be a string like match:<id>")
            return
        if kind == "unsubscribe":
            if conn.subs.pop(channel, None) is not None:
                self._detach(conn, channel)
            return
        since = msg.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int) or since < 0):
            self._error(conn, "bad_message", "since must be a version (an integer >= 0)", channel)
            return
        if channel not in conn.subs and len(conn.subs) >= MAX_SUBSCRIPTIONS:
            self._error(conn, "too_many_subscriptions", f"at most {MAX_SUBSCRIPTIONS} channels per connection", channel)
            return
        prefix, _, ident = channel.partition(":")
        try:
            if prefix == "match" and ident:
                ok = await self.subscribe_match(conn, channel, ident, since)
            elif prefix == "table" and ident:
                table = await self.tables.load(ident)
                current = None if table is None or table.current is None else self.matches.get(table.current)
                if current is not None and self.matches.stale():
                    await self.matches.refresh(current)
                ok = self._subscribe_latest(conn, channel, table)
            elif prefix == "tournament" and ident:
                ok = self._subscribe_latest(conn, channel, await self.tournaments.load(ident))
            else:
                self._error(conn, "unknown_channel", "channels are match:<id>, table:<id> or tournament:<id>", channel)
                return
        except Exception as exc:
            # One bounded line: a few per connection and minute, and when the store fails a few a
            # minute for all connections together (watchers reconnecting through an outage are new
            # connections every time).
            dropped = self.log_budget.allow("store" if store_failed(exc) else id(conn))
            if dropped is not None:
                log.warning("subscribe %s failed: %s%s", clip(repr(channel), 80), describe(exc), suppressed(dropped))
            conn.subs.pop(channel, None)
            self._detach(conn, channel)
            self._error(conn, "unavailable", "the hub could not read this channel now; try again", channel)
            return
        if not ok:
            self._error(conn, "unknown_channel", f"no such {prefix}: {ident!r}", channel)

    def _error(self, conn: Conn, code: str, msg: str, channel: object = None) -> None:
        """Answer an error, or close the socket 1008 once it has had its budget of them."""
        if self.budgets.error(conn):
            conn.error(code, msg, channel)
        else:
            conn.close_with(CLOSE_POLICY)

    def _snapshot_allowed(self, conn: Conn, channel: str) -> bool:
        if not self.budgets.snapshot(conn, channel):
            self._error(conn, "too_many_snapshots",
                        f"at most {SNAPSHOTS_PER_MINUTE} snapshots of a channel a minute: try again later", channel)
            return False
        if not self.address_budgets.snapshot(conn.client, channel):
            self.budgets.refund(conn, channel)
            self._error(conn, "too_many_snapshots",
                        f"at most {self.address_budgets.per_minute} snapshots of a channel a minute from one "
                        "address: try again later", channel)
            return False
        return True

    def _attach(self, conn: Conn, channel: str, watchers: set[Conn]) -> Sub:
        if conn.subs.get(channel) is None:
            conn.subs[channel] = Sub()
        watchers.add(conn)
        return conn.subs[channel]

    def _subscribe_latest(self, conn: Conn, channel: str, feed: TableFeed | TournamentFeed | None) -> bool:
        """table: and tournament: channels: no `since`, always a fresh snapshot first."""
        if feed is None:
            return False
        if not self._snapshot_allowed(conn, channel):
            return True
        self._attach(conn, channel, feed.watchers).version = None
        conn.push(Item(SNAP, channel))
        return True

    async def subscribe_match(self, conn: Conn, channel: str, mid: str, since: int | None) -> bool:
        feed = await self.matches.load(mid)
        if feed is None:
            return False
        if self.matches.stale():  # the bus may be losing messages: the store, not what we last heard
            await self.matches.refresh(feed)
        while feed.loading:  # a resync is filling a gap: serve after it  # noqa: ASYNC110 - a short poll
            await asyncio.sleep(0.01)
        snapshot = since is None or since > feed.version or feed.version - since > MAX_REPLAY
        if snapshot and not self._snapshot_allowed(conn, channel):
            return True
        sub = self._attach(conn, channel, feed.watchers)
        if snapshot:
            sub.version = None
            conn.push(Item(SNAP, channel))
            return True
        assert since is not None  # not a snapshot: a `since` was given
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
        for stored in (r.steps if r is not None else []):
            conn.push(Item(UPD, channel, mid, stored.version,
                           message("update", channel, stored.version, stored.data, stored.event), forced=True))
        held, sub.pending = sub.pending or [], None
        for item in held:
            conn.push(item)
        return True
