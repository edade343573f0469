"""The listener that keeps people's read models current, off the command path.

It hears every change this process's match and tournament writers store (their listeners are
called after the ack, PROTOCOL.md section 3) and only notes what needs a refresh: a match that
finished, was reopened (an undo), renamed or given a result by hand; a tournament event that
changes an entry or a walkover (TOURNAMENT_KINDS: not the calls to tables, the queue, pauses). A
single task then runs the refreshes (hub/people/history.py) one after the other, so a stroke never
waits for them: the cost per stored stroke is a look at the event's kind and the match's status
(bench/people_bench.py measures the ack latency with and without the keeper).

Several hub processes: each refreshes after its own writes; at start, and every `sweep_s`, it also
looks in the store for what no process refreshed (a process that crashed after a match's last
stroke, a store upgraded from before people: history starts with what the store holds): finished
matches whose rows are missing or older than the match, rows of matches reopened since, and
tournaments whose entries were made from an older version. The first sweep reads every match; the
later ones the latest SWEEP_RECENT matches (a match made long ago and finished only now is caught
at the next start, or by `cuehub people rebuild`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people.history import History
from hub.store.keeper import Keeper
from hub.store.schema import history_heads, history_matches, matches, tournament_events, tournaments

SWEEP_S = 60.0
SWEEP_RECENT = 10_000
MATCH_KINDS = ("undo", "result_entered", "player_renamed")  # may change a finished match's rows
# Tournament events that change an entry's name, status or place, or the walkovers; the others
# (calls, queue orders, table pauses) leave the rows as they are until the sweep notes the version.
TOURNAMENT_KINDS = ("players_added", "player_updated", "players_linked", "player_withdrawn", "player_reinstated",
                    "player_removed", "draw_made", "walkover", "walkover_voided", "result_taken", "result_voided")


async def stale_matches(engine: AsyncEngine, recent: int | None = None) -> list[str]:
    """Finished matches without rows of their version, and matches with rows that are not finished:
    of every match (one hash join), or of the latest `recent` (each looked up by its key)."""
    m, h = matches, history_matches
    async with engine.connect() as conn:
        if recent is None:
            missing = await conn.execute(sa.select(m.c.id).select_from(m.outerjoin(h, h.c.ref == m.c.id)).where(
                m.c.status == "finished", sa.or_(h.c.version.is_(None), h.c.version != m.c.version)))
            reopened = await conn.execute(sa.select(m.c.id).select_from(m.join(h, h.c.ref == m.c.id)).where(
                m.c.status != "finished"))
            return [r.id for r in missing] + [r.id for r in reopened]
        # A number written in the query and a lookup per match: PostgreSQL's planner would rather read
        # all of history_matches for a join than look 10,000 rows up by key (130 ms against 10 at 300,000).
        top = int(await conn.scalar(sa.select(sa.func.max(m.c.n))) or 0)
        kept = sa.select(h.c.version).where(h.c.ref == m.c.id).scalar_subquery()
        rows = await conn.execute(sa.select(m.c.id, m.c.status, m.c.version, kept.label("kept")).where(
            m.c.n > sa.bindparam("from_n", top - recent, literal_execute=True)))
        return [r.id for r in rows if (r.status == "finished" and r.kept != r.version)
                or (r.status != "finished" and r.kept is not None)]


async def stale_tournaments(engine: AsyncEngine) -> list[str]:
    """Tournaments whose entries were made from an older version than their stream's head."""
    t, e = tournaments, tournament_events
    latest = sa.select(sa.func.max(e.c.version)).where(e.c.tournament_id == t.c.id).scalar_subquery()
    made = sa.select(history_heads.c.version).where(
        history_heads.c.stream == sa.literal("tournament:") + t.c.id).scalar_subquery()
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(t.c.id).where(latest.is_not(None), sa.or_(made.is_(None), made < latest))
                                  .order_by(t.c.n))
        return [r.id for r in rows]


class PeopleKeeper(Keeper):
    name = "people"

    def __init__(self, engine: AsyncEngine, history: History, *, sweep_s: float = SWEEP_S) -> None:
        super().__init__(sweep_s=sweep_s)
        self._engine = engine
        self.history = history
        self._matches: dict[str, None] = {}  # insertion-ordered sets of what is due
        self._tournaments: dict[str, None] = {}
        self._recent: int | None = None  # the first sweep reads every match

    def start(self, matches: Any, tournaments: Any) -> None:
        """Listen to the writers and start the worker and the sweeper."""
        self._begin(matches.subscribe(self.on_match, "people"), tournaments.subscribe(self.on_tournament))

    # --- the listeners: note and return ---------------------------------------------------------

    def on_match(self, change: Any) -> None:
        event = change.event
        if event is None:
            return
        if change.projection.get("status") == "finished" or event.get("kind") in MATCH_KINDS:
            self.due_match(change.match_id)

    def on_tournament(self, change: Any) -> None:
        if change.event.get("kind") in TOURNAMENT_KINDS:
            self.due_tournament(change.tournament_id)

    def due_match(self, mid: str) -> None:
        self._matches[mid] = None
        self._due()

    def due_tournament(self, tid: str) -> None:
        self._tournaments[tid] = None
        self._due()

    # --- the worker ---------------------------------------------------------------------------

    async def _drain(self) -> None:
        while self._matches or self._tournaments:
            # Tournaments first: a finished match's round name and an entry's row come from there.
            if self._tournaments:
                tid = next(iter(self._tournaments))
                await self._run(self.history.refresh_tournament, tid, self._tournaments, self.due_tournament)
            else:
                mid = next(iter(self._matches))
                await self._run(self.history.refresh_match, mid, self._matches, self.due_match)

    async def _run(self, refresh: Callable[[str], Awaitable[Any]], ident: str, due: dict[str, None],
                   again: Callable[[str], None]) -> None:
        due.pop(ident, None)
        await self._attempt(f"the refresh of {ident}", partial(refresh, ident), partial(again, ident))

    async def sweep(self, recent: int | None = None) -> int:
        """Note every stale match and tournament as due; how many."""
        found = 0
        for tid in await stale_tournaments(self._engine):
            self.due_tournament(tid)
            found += 1
        for mid in await stale_matches(self._engine, recent):
            self.due_match(mid)
            found += 1
        return found

    async def _sweep_once(self) -> None:
        await self.sweep(self._recent)
        self._recent = SWEEP_RECENT  # the later sweeps: the latest matches only
