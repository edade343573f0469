"""tournament:{tid} channels: the tournament projection (PROTOCOL.md sections 5 and 7), kept per process.

Built from the store on first subscribe (and after a bus resync): the draw's pure projection (a
fold of the tournament's stream: players, draw, queue, standings, paused tables; folded off the
event loop, a big draw takes a while) around the tables and their matches. Then moved on by every
change: a change of one of its matches puts the match's short form in its table's entry (and the
table's status); a tournament event applies the bus's delta of the pure part (or replaces it when
the bus carried it whole; versions of the stream are checked: a gap rereads the store). Each change
raises the channel's version by one. A change for a table this process has not seen yet, a match
that moved tables or a cancelled match rereads the whole projection.

A subscribe answers the whole projection (`snapshot`); every change after it is an `update` whose
`data` is only what changed (hub/tournaments/delta.py, docs/tournament-channel.md) and whose `base`
is the version it applies to: a stroke on one table is that table's entry, a few hundred bytes,
however big the draw. A reread that changed something is an update too (the delta of the two).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub import draws
from hub.ops.metrics import Metrics
from hub.store import catalog
from hub.store import tournament_events as tournament_store
from hub.tournaments import delta
from hub.tournaments.projection import compose, table_status
from hub.watch.feeds import MatchFeeds, Spawn, first_read
from hub.watch.history import dumps
from hub.watch.watcher import UPD, Conn, Item
from hub.wire.watch import message


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
    pure: dict[str, Any] = field(default_factory=dict)  # draws.projection of the tournament's stream
    pure_version: int = 0


# The fields of the channel's projection that come from the draw's pure projection (compose).
CHANNEL_FIELDS = ("players", "draw", "queue", "standings", "archived", "no_show_minutes")


def _fold(tid: str, events: list[Any]) -> dict[str, Any]:
    """The pure projection of a tournament's whole stream (run in a thread: a big draw takes a while)."""
    return draws.projection(draws.fold(tid, events))


def _channel_delta(old: dict[str, Any], new: dict[str, Any], pure_delta: dict[str, Any]) -> dict[str, Any]:
    """The channel's delta from the bus's delta of the pure part (no diff of the whole draw again):
    its members for the channel's fields, and the tables whose status a pause or resume changed."""
    out: dict[str, Any] = {}
    whole = {k: v for k, v in (pure_delta.get("set") or {}).items() if k in CHANNEL_FIELDS}
    gone = [k for k in pure_delta.get("unset") or () if k in CHANNEL_FIELDS]
    for name in ("players", "draw", "matches"):
        if pure_delta.get(name):
            out[name] = pure_delta[name]
    tables = [n for o, n in zip(old.get("tables", []), new["tables"], strict=False) if o is not n]
    if tables:
        out["tables"] = tables
    if whole:
        out["set"] = whole
    if gone:
        out["unset"] = gone
    return out


class TournamentFeeds:
    def __init__(self, engine: AsyncEngine, matches: MatchFeeds, metrics: Metrics, spawn: Spawn) -> None:
        self.engine = engine
        self.matches = matches
        self.metrics = metrics
        self.spawn = spawn
        self.feeds: dict[str, TournamentFeed] = {}

    def get(self, tid: str) -> TournamentFeed | None:
        return self.feeds.get(tid)

    async def load(self, tid: str) -> TournamentFeed | None:
        tour = self.feeds.get(tid)
        if tour is None:
            if await catalog.get_tournament(self.engine, tid) is None:
                return None
            tour = self.feeds.get(tid)
            if tour is None:
                tour = self.feeds[tid] = TournamentFeed(tid)
                await first_read(self.feeds, tid, tour, self._reload(tour))
        await tour.ready.wait()
        return tour if self.feeds.get(tid) is tour else await self.load(tid)

    async def _reload(self, tour: TournamentFeed) -> None:
        if tour.loading:
            tour.dirty = True
            return
        tour.loading = True
        try:
            while True:
                tour.dirty = False
                info = await catalog.get_tournament(self.engine, tour.tid)
                events = await tournament_store.read(self.engine, tour.tid)
                pure = await asyncio.to_thread(_fold, tour.tid, events)
                current = await catalog.current_matches(self.engine, tour.tid)
                tables, mversions = [], {}
                for row in await catalog.list_tables(self.engine, tour.tid):
                    mid = current.get(row.id)
                    feed = None if mid is None else await self.matches.load(mid)
                    if mid is not None and feed is not None:
                        mversions[mid] = feed.version
                    tables.append((row.id, row.name, None if feed is None else feed.short))
                version = await catalog.tournament_version(self.engine, tour.tid)
                if tour.dirty:
                    continue  # a change came in while reading: read again
                proj = compose(info or {}, 0, pure, tables)
                was_ready = tour.ready.is_set()
                changes = delta.diff(tour.proj, proj) if was_ready else {}
                old = tour.proj
                tour.pure, tour.pure_version = pure, events[-1].version if events else 0
                tour.mversions.update(mversions)
                if not was_ready:
                    tour.version = version
                    tour.proj = {**proj, "version": version}
                    tour.text = None
                    tour.ready.set()
                elif changes:
                    tour.proj = {**proj, "version": old.get("version", 0)}
                    self._bump(tour, changes, "null", None, extra=',"reread":true')
                return
        finally:
            tour.loading = False

    def reload(self, tid: str) -> None:
        tour = self.feeds.get(tid)
        if tour is not None:
            self.spawn(self._reload(tour))

    def on_tournament_change(self, head: dict[str, Any], data: str, event: str) -> None:
        """A stored tournament event: its pure projection replaces this feed's."""
        tour = self.feeds.get(head["t"])
        if tour is None:
            return
        if tour.loading or not tour.ready.is_set():
            tour.dirty = True
            return
        v = head["v"]
        if v <= tour.pure_version:
            return  # seen already (the store was read after it)
        if v > tour.pure_version + 1:
            self.spawn(self._reload(tour))  # missed one: the store has them all
            return
        old = tour.proj
        if head.get("d"):
            pure_delta = json.loads(data)
            tour.pure = delta.apply(tour.pure, pure_delta)
        else:
            tour.pure = json.loads(data)
        tour.pure_version = v
        new = dict(old)
        for field_ in CHANNEL_FIELDS:
            new[field_] = tour.pure.get(field_)
        paused = set(tour.pure.get("paused_tables") or ())
        new["tables"] = [
            entry if entry["status"] == table_status(entry["id"], paused, entry["match"])
            else {**entry, "status": table_status(entry["id"], paused, entry["match"])}
            for entry in old.get("tables", [])
        ]
        changes = delta.diff(old, new) if not head.get("d") else _channel_delta(old, new, pure_delta)
        tour.proj = new
        self._bump(tour, changes, event, head.get("at"), extra=f',"tournament_version":{v}')

    def _bump(self, tour: TournamentFeed, changes: dict[str, Any], event: str, at: Any, extra: str = "") -> None:
        """One more version of the channel: `changes` (a delta) to every watcher, as an update."""
        base = tour.version
        tour.version += 1
        tour.proj["version"] = tour.version
        tour.text = None
        if tour.watchers:
            ch = "tournament:" + tour.tid
            text = message("update", ch, tour.version, dumps(changes), event, extra=f',"base":{base}{extra}')
            item = Item(UPD, ch, tour.tid, tour.version, text, base=base)
            for conn in tour.watchers:
                conn.push(item)
            if isinstance(at, int):
                self.metrics.fanout_since(at)

    def resync_all(self) -> None:
        for tour in list(self.feeds.values()):
            self.spawn(self._reload(tour))

    def on_match_change(self, head: dict[str, Any], event: str) -> None:
        tour = self.feeds.get(head["t"])
        if tour is None:
            return
        mid, v = head["m"], head["v"]
        if tour.loading or not tour.ready.is_set():
            tour.dirty = True
            return
        if v <= tour.mversions.get(mid, -1):
            return
        tour.mversions[mid] = v
        entry = next((t for t in tour.proj.get("tables", []) if t["id"] == head["tb"]), None)
        if entry is None:  # a table this process has not seen yet
            self.spawn(self._reload(tour))
            return
        short = head.get("short")
        changes: dict[str, Any] = {}
        if short is not None and (head.get("new") or entry["match"] is None or entry["match"].get("id") == mid):
            entry["match"] = short
            entry["status"] = table_status(entry["id"], set(tour.pure.get("paused_tables") or ()), short)
            changes["tables"] = [entry]
        self._bump(tour, changes, event, head.get("at"), extra=f',"match_id":{dumps(mid)}')

    def snapshot(self, tid: str, channel: str) -> tuple[str | None, int, str] | None:
        tour = self.feeds.get(tid)
        if tour is None:
            return None
        if tour.text is None or tour.text[0] != tour.version:
            tour.text = (tour.version, dumps(tour.proj))
        return (tour.tid, tour.version, message("snapshot", channel, tour.version, tour.text[1]))

    def forget_unwatched(self, tid: str) -> None:
        tour = self.feeds.get(tid)
        if tour is not None and not tour.watchers:
            self.feeds.pop(tid, None)
