"""The listener that keeps every series' standings current, off the command path.

It hears the tournament writer's stored events (after the ack) and only notes the tournament; a
single task then finds the series that hold it and makes their standings again
(hub/series/refresh.py), one after the other, so a table's stroke never waits for them. Every
`sweep_s` (and at start) it compares what each series' standings were made from with the store
(the tournaments' versions, the people merges) and refreshes the ones left behind: another hub
process's writes, a merge of people, a store upgraded from before series.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people.keeper import TOURNAMENT_KINDS
from hub.series import refresh, store

log = logging.getLogger(__name__)

SWEEP_S = 60.0
RETRY_S = 1.0
KINDS = TOURNAMENT_KINDS  # the events that may change an entry, a place or a walkover


class SeriesKeeper:
    def __init__(self, engine: AsyncEngine, tournaments: Any, *, sweep_s: float = SWEEP_S) -> None:
        self._engine = engine
        self._tournaments = tournaments
        self._sweep_s = sweep_s
        self._due_tournaments: dict[str, None] = {}
        self._due_series: dict[str, None] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        self._unsubscribe = self._tournaments.subscribe(self.on_tournament)
        self._tasks = [asyncio.create_task(self._work(), name="series-keeper"),
                       asyncio.create_task(self._sweep(), name="series-sweep")]

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task

    def on_tournament(self, change: Any) -> None:
        if change.event.get("kind") in KINDS:
            self._due_tournaments[change.tournament_id] = None
            self._due()

    def due_series(self, sid: str) -> None:
        self._due_series[sid] = None
        self._due()

    def _due(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def idle(self) -> None:
        """Wait until nothing is due (tests)."""
        await self._idle.wait()

    async def refresh_now(self, sid: str) -> None:
        """Make `sid`'s standings at once (an API write answers with them)."""
        await refresh.refresh(self._engine, self._tournaments, sid)

    async def _work(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._due_tournaments or self._due_series:
                try:
                    if self._due_tournaments:
                        tid = next(iter(self._due_tournaments))
                        self._due_tournaments.pop(tid, None)
                        for sid in await store.series_of(self._engine, tid):
                            self._due_series[sid] = None
                        continue
                    sid = next(iter(self._due_series))
                    self._due_series.pop(sid, None)
                    await self.refresh_now(sid)
                except (SQLAlchemyError, OSError) as exc:
                    log.warning("series: could not refresh (%s); retrying at the next sweep", exc)
                    await asyncio.sleep(RETRY_S)
                except Exception:
                    log.exception("series: a refresh failed")
            self._idle.set()

    async def sweep(self) -> int:
        """Note every series whose standings are behind the store; how many."""
        found = 0
        for sid in await store.all_ids(self._engine):
            now = await refresh.made_from(self._engine, sid)
            if now is not None and now != await store.made(self._engine, sid):
                self.due_series(sid)
                found += 1
        return found

    async def _sweep(self) -> None:
        while True:
            try:
                await self.sweep()
            except (SQLAlchemyError, OSError) as exc:
                log.warning("series: the sweep could not reach the store (%s)", exc)
            await asyncio.sleep(self._sweep_s)
