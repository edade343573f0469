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

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people.history import History
from hub.store.schema import history_heads, history_matches, matches, tournament_events, tournaments

log = logging.getLogger(__name__)

SWEEP_S = 60.0
SWEEP_RECENT = 10_000
RETRY_S = 1.0
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


class PeopleKeeper:
    def __init__(self, engine: AsyncEngine, history: History, *, sweep_s: float = SWEEP_S) -> None:
        self._engine = engine
        self.history = history
        self._sweep_s = sweep_s
        self._matches: dict[str, None] = {}  # insertion-ordered sets of what is due
        self._tournaments: dict[str, None] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: list[Callable[[], None]] = []

    def start(self, matches: Any, tournaments: Any) -> None:
        """Listen to the writers and start the worker and the sweeper."""
        self._unsubscribe = [matches.subscribe(self.on_match, "people"), tournaments.subscribe(self.on_tournament)]
        self._tasks = [asyncio.create_task(self._work(), name="people-keeper"),
                       asyncio.create_task(self._sweep(), name="people-sweep")]

    async def stop(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task

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

    def _due(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def idle(self) -> None:
        """Wait until nothing is due (tests; an answer that must show what it just changed)."""
        await self._idle.wait()

    # --- the worker ---------------------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._matches or self._tournaments:
                # Tournaments first: a finished match's round name and an entry's row come from there.
                if self._tournaments:
                    tid = next(iter(self._tournaments))
                    await self._run(self.history.refresh_tournament, tid, self._tournaments, self.due_tournament)
                else:
                    mid = next(iter(self._matches))
                    await self._run(self.history.refresh_match, mid, self._matches, self.due_match)
            self._idle.set()

    async def _run(self, refresh: Callable[[str], Any], ident: str, due: dict[str, None],
                   again: Callable[[str], None]) -> None:
        due.pop(ident, None)
        try:
            await refresh(ident)
        except (SQLAlchemyError, OSError) as exc:
            log.warning("people: could not refresh %s (%s); retrying", ident, exc)
            await asyncio.sleep(RETRY_S)
            again(ident)
        except Exception:
            log.exception("people: the refresh of %s failed", ident)

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

    async def _sweep(self) -> None:
        recent: int | None = None  # the first sweep reads every match
        while True:
            try:
                await self.sweep(recent)
                recent = SWEEP_RECENT
            except (SQLAlchemyError, OSError) as exc:
                log.warning("people: the sweep could not reach the store (%s)", exc)
            await asyncio.sleep(self._sweep_s)
