"""The listener that keeps every series' standings current, off the command path.

It hears the tournament writer's stored events (after the ack) and only notes the tournament; a
single task then finds the series that hold it and makes their standings again
(hub/series/refresh.py), one after the other, so a table's stroke never waits for them. Every
`sweep_s` (and at start) it compares what each series' standings were made from with the store
(the tournaments' versions, the people merges) and refreshes the ones left behind: another hub
process's writes, a merge of people, a store upgraded from before series.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people.keeper import TOURNAMENT_KINDS
from hub.series import refresh, store
from hub.store.keeper import Keeper

SWEEP_S = 60.0
KINDS = TOURNAMENT_KINDS  # the events that may change an entry, a place or a walkover


class SeriesKeeper(Keeper):
    name = "series"

    def __init__(self, engine: AsyncEngine, tournaments: Any, *, sweep_s: float = SWEEP_S) -> None:
        super().__init__(sweep_s=sweep_s)
        self._engine = engine
        self._tournaments = tournaments
        self._due_tournaments: dict[str, None] = {}
        self._due_series: dict[str, None] = {}

    def start(self) -> None:
        self._begin(self._tournaments.subscribe(self.on_tournament))

    def on_tournament(self, change: Any) -> None:
        if change.event.get("kind") in KINDS:
            self.due_tournament(change.tournament_id)

    def due_tournament(self, tid: str) -> None:
        self._due_tournaments[tid] = None
        self._due()

    def due_series(self, sid: str) -> None:
        self._due_series[sid] = None
        self._due()

    async def refresh_now(self, sid: str) -> None:
        """Make `sid`'s standings at once (an API write answers with them)."""
        await refresh.refresh(self._engine, self._tournaments, sid)

    async def _series_of(self, tid: str) -> None:
        for sid in await store.series_of(self._engine, tid):
            self._due_series[sid] = None

    async def _drain(self) -> None:
        while self._due_tournaments or self._due_series:
            if self._due_tournaments:  # first which series a changed tournament is in
                tid = next(iter(self._due_tournaments))
                self._due_tournaments.pop(tid, None)
                await self._attempt(f"finding the series of {tid}", partial(self._series_of, tid),
                                    partial(self.due_tournament, tid))
                continue
            sid = next(iter(self._due_series))
            self._due_series.pop(sid, None)
            await self._attempt(f"the refresh of series {sid}", partial(self.refresh_now, sid),
                                partial(self.due_series, sid))

    async def sweep(self) -> int:
        """Note every series whose standings are behind the store; how many."""
        found = 0
        for sid in await store.all_ids(self._engine):
            now = await refresh.made_from(self._engine, sid)
            if now is not None and now != await store.made(self._engine, sid):
                self.due_series(sid)
                found += 1
        return found
