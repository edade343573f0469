"""The match writer's memory: loaded matches (state, projection, command ids, refusals), caught up
with the store before a read and folded again from it when behind, least recently used evicted.

`MatchCache` does no commands: `hub/matches/writer.py` runs them (holding a match's `lock`) and
tells the cache what it stored. The store is the truth; this bounds memory and saves round trips,
never loses anything: at most `max_live` matches (HUB_MATCH_CACHE), and of those at most
`max_finished` finished ones (HUB_FINISHED_MATCH_CACHE). A match's memory grows with its events
(its command ids, its racks), so a long event day must not keep every finished match: beyond the
bound the least recently used finished ones are dropped, and folded again from the store if they
are needed again (a correction, a late read).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.rules.interface import MatchRules
from hub.store import catalog
from hub.store import match_events as store

# Refusals remembered per match and for how long (HUB_REFUSALS_PER_MATCH, HUB_REFUSAL_TTL_S; the app
# sets the cache's from its settings).
REFUSALS_PER_MATCH = 1000
REFUSAL_TTL_MS = 7 * 86_400_000

# Matches kept in memory (state, projection, command ids); the least recently used beyond this
# are folded again from the store when next needed (HUB_MATCH_CACHE).
MAX_LIVE = 512
# Finished matches among them (HUB_FINISHED_MATCH_CACHE): the flow and the screens read a match
# just after it ends, rarely later.
MAX_FINISHED = 16


@dataclass(slots=True)
class LiveMatch:
    """What the writer keeps in memory for a loaded match."""

    row: catalog.MatchRow
    setup: Any
    state: Any
    projection: dict[str, Any]
    version: int
    commands: dict[str, int] = field(default_factory=dict)  # command id -> stored version
    rejects: dict[str, store.RejectAnswer] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class MatchCache:
    """Loaded matches by id, least recently used first, each folded from the store on first use."""

    def __init__(self, engine: AsyncEngine, rules: MatchRules, clock: Callable[[], int]) -> None:
        self._engine = engine
        self._rules = rules
        self._clock = clock
        self._live: OrderedDict[str, LiveMatch] = OrderedDict()  # least recently used first
        self._load_locks: dict[str, asyncio.Lock] = {}
        self.refusals_per_match = REFUSALS_PER_MATCH
        self.refusal_ttl_ms = REFUSAL_TTL_MS
        self.max_live = MAX_LIVE
        self.max_finished = MAX_FINISHED

    async def load(self, match_id: str) -> LiveMatch | None:
        live = self._live.get(match_id)
        if live is not None:
            self._live.move_to_end(match_id)
            return live
        lock = self._load_locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self._live.get(match_id)
            if live is not None:
                return live
            row = await catalog.get_match(self._engine, match_id)
            if row is None:
                self._load_locks.pop(match_id, None)
                return None
            setup = self.setup(row)
            live = LiveMatch(row=row, setup=setup, state=None, projection={}, version=0)
            await self.refold(live)
            live.rejects = await self.load_rejections(match_id)
            self.remember(match_id, live)
            return live

    def remember(self, match_id: str, live: LiveMatch) -> None:
        """Keep `live` in memory; beyond MAX_LIVE matches forget the least recently used ones that
        nobody is writing to. A forgotten match is folded again from the store when next used (its
        command ids and stored refusals with it), so this bounds memory, never loses anything; and
        should a forgotten copy still be in use somewhere, the store's unique (match_id, version)
        keeps the two copies from both storing a version."""
        self._live[match_id] = live
        self._live.move_to_end(match_id)
        self.bound(match_id)

    def bound(self, keep: str | None = None) -> None:
        """Forget the least recently used matches beyond `max_live`, and the least recently used
        finished ones beyond `max_finished`, but `keep` and any that a writer holds (its lock)."""
        if len(self._live) > self.max_live:
            for old_id in list(self._live)[: len(self._live) - self.max_live]:
                self._drop(old_id, keep)
        finished = [mid for mid, live in self._live.items() if live.projection.get("status") == "finished"]
        for old_id in finished[: max(0, len(finished) - self.max_finished)]:
            self._drop(old_id, keep)

    def _drop(self, old_id: str, keep: str | None) -> None:
        old = self._live[old_id]
        if old.lock.locked() or old_id == keep:
            return
        del self._live[old_id]
        load_lock = self._load_locks.get(old_id)
        if load_lock is not None and not load_lock.locked():
            del self._load_locks[old_id]

    def finished_count(self) -> int:
        """Finished matches in memory now (tests, diagnostics)."""
        return sum(1 for live in self._live.values() if live.projection.get("status") == "finished")

    def forget(self, match_id: str) -> None:
        """Drop the match from memory (cancelled, or its last write failed); the store keeps it."""
        self._live.pop(match_id, None)
        self._load_locks.pop(match_id, None)

    async def current(self, match_id: str) -> LiveMatch | None:
        """The match, caught up with the store, for a read.  Another hub process (or a clock in
        one) may have stored events since this process last looked; the store is the truth, so a
        memory copy behind the stored head is folded again before it is read."""
        live = await self.load(match_id)
        if live is None:
            return None
        head = await store.head_version(self._engine, match_id)
        if head != live.version:
            async with live.lock:
                await self.catch_up(live, head)
        return live

    async def catch_up(self, live: LiveMatch, head: int | None = None) -> bool:
        """Refold `live` if the store is ahead of it (call with its lock held); True if it was.
        Not published: the process that stored those events published them."""
        if head is None:
            head = await store.head_version(self._engine, live.row.id)
        if head == live.version:
            return False
        await self.refold(live)
        live.rejects = await self.load_rejections(live.row.id)
        return True

    async def load_rejections(self, match_id: str) -> dict[str, store.RejectAnswer]:
        """The match's remembered refusals, within the bounds (a start reloads no more)."""
        return await store.load_rejections(self._engine, match_id, keep=self.refusals_per_match,
                                           since=self._clock() - self.refusal_ttl_ms)

    def remember_refusal(self, live: LiveMatch, command_id: str, answer: store.RejectAnswer) -> None:
        live.rejects.pop(command_id, None)
        live.rejects[command_id] = answer
        while len(live.rejects) > self.refusals_per_match:  # oldest first (insertion order)
            del live.rejects[next(iter(live.rejects))]

    def setup(self, row: catalog.MatchRow) -> Any:
        return self._rules.validate_setup(
            row.setup, match_id=row.id, tournament_id=row.tournament_id, table_id=row.table_id
        )

    async def refold(self, live: LiveMatch) -> None:
        """Rebuild the state from the stored stream (first load, undo, or after losing a race)."""
        stream = await store.read_events(self._engine, live.row.id)
        live.state = self._rules.fold(live.setup, stream)
        live.projection = self._rules.projection(live.state)
        live.version = stream[-1].version if stream else 0
        live.commands = {e.command_id: e.version for e in stream if e.command_id is not None}

    def cached_state(self, match_id: str) -> tuple[int, Any] | None:
        """(version, state) of the match if it is in memory now; no I/O, and it stays where it is in
        the LRU order (hub/matches/listings.py reuses the state for short forms at that version)."""
        live = self._live.get(match_id)
        return None if live is None or live.state is None else (live.version, live.state)

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._live
