"""The listener that keeps ratings current, off the event loop (docs/ratings.md).

It hears the match writer (after the ack, as the people keeper does) and notes a discipline as due
when one of its matches finishes or a finished one changes (an undo, a result by hand); it returns
at once. A single task then waits a moment, lets the people keeper write the match's history rows
(its racks), and refits each due discipline whose fingerprint (hub/ratings/store.py) changed: the
racks are read from the store, then decoded, summed per pair and fitted in a worker process when
they are many (all of it is pure Python: in the hub's process, even in a thread, it would hold the
interpreter's lock for seconds against the tables' commands) or in a thread when few; the rows are
then replaced in one transaction. A sweep at start and every `sweep_s` refits any discipline whose fingerprint moved
without a match of this process finishing: a merge, a re-link, another hub process's matches, a
store upgraded from before ratings.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.ratings import store
from hub.ratings.fit import Rating, fit_pairs, tally_pairs
from hub.store.db import now_ms
from hub.store.keeper import Keeper

SWEEP_S = 60.0
SETTLE_S = 0.3  # let the people keeper hear the same change first
IN_PROCESS_UNDER = 20_000  # pairs of people: a fit this small takes well under a tenth of a second
IN_PROCESS_ROWS = 5_000  # matches: decoding and summing fewer racks takes a few hundredths of a second
MATCH_KINDS = ("undo", "result_entered")


def decode_and_fit(who: dict[tuple[str, str], str], rows: list[tuple[str, str]]) -> dict[str, Rating]:
    """A big store's whole refit, in the worker process: decode, sum per pair, fit."""
    return fit_pairs(tally_pairs(store.decode(who, rows)))


class RatingsKeeper(Keeper):
    name = "ratings"

    def __init__(self, engine: AsyncEngine, people: Any = None, *, sweep_s: float = SWEEP_S) -> None:
        super().__init__(sweep_s=sweep_s)
        self._engine = engine
        self._people = people  # the people keeper: its idle() means the history rows are written
        self._due_disciplines: dict[str, None] = {}
        self._pool: ProcessPoolExecutor | None = None
        self.fits = 0  # how many refits ran (tests, the bench)
        self._last_s = 0.0  # how long the last refresh took

    def start(self, matches: Any) -> None:
        self._begin(matches.subscribe(self.on_match, "ratings"))

    async def stop(self) -> None:
        await super().stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def on_match(self, change: Any) -> None:
        event = change.event
        if event is None:
            return
        if change.projection.get("status") == "finished" or event.get("kind") in MATCH_KINDS:
            discipline = change.projection.get("discipline")
            if isinstance(discipline, str):
                self.due(discipline)

    def due(self, discipline: str) -> None:
        self._due_disciplines[discipline] = None
        self._due()

    async def _drain(self) -> None:
        # A refit waits as long as the last one took: on a big store the worker fits at most half
        # the time however fast matches finish (the changes meanwhile are taken by one refit).
        await asyncio.sleep(max(SETTLE_S, self._last_s))
        while self._due_disciplines:
            # The racks are read from the people's histories: wait for them before every refit, not
            # once per drain; a match finished during the last refit is due again here, and its
            # history may not be written yet (the refit would see nothing new, and nothing would
            # wake it again before the next sweep).
            if self._people is not None:
                await self._people.idle()
            discipline = next(iter(self._due_disciplines))
            self._due_disciplines.pop(discipline, None)
            started = time.perf_counter()
            await self._attempt(f"the refit of {discipline}", partial(self.refresh, discipline),
                                partial(self.due, discipline))
            self._last_s = time.perf_counter() - started

    async def refresh(self, discipline: str, *, force: bool = False) -> bool:
        """Refit one discipline when what it reads changed (or `force`); whether it did."""
        async with self._engine.connect() as conn:
            now = (await store.fingerprints(conn)).get(discipline)
            stale = force or (await store.stored_fingerprints(conn)).get(discipline) != now
            raw = await store.raw_racks(conn, discipline) if now is not None and stale else None
        if now is None:  # no history left in the discipline (every match of it undone)
            async with self._engine.begin() as tx:
                await store.forget(tx, [discipline])
            return False
        if raw is None:
            return False
        who, rows = raw
        if len(rows) < IN_PROCESS_ROWS:
            fitted = await self.fit(await asyncio.to_thread(store.decode, who, rows))
        else:
            # Big: the decoding and the tally (pure Python, seconds at 100,000 matches) go with the
            # fit to the worker process; in a thread they hold the interpreter's lock against the
            # tables' commands (bench/ratings_bench.py --acks measured the difference).
            fitted = await asyncio.get_running_loop().run_in_executor(
                self._worker(), decode_and_fit, who, [(tid, text) for tid, text in rows])
        async with self._engine.begin() as conn:
            await store.write(conn, discipline, fitted, now, now_ms())
        self.fits += 1
        return True

    async def fit(self, racks: store.Racks) -> dict[str, Rating]:
        pairs = await asyncio.to_thread(tally_pairs, racks)
        if len(pairs) < IN_PROCESS_UNDER:
            return await asyncio.to_thread(fit_pairs, pairs)
        return await asyncio.get_running_loop().run_in_executor(self._worker(), fit_pairs, pairs)

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of a process running an event loop and threads is not safe.
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def sweep(self) -> int:
        """Note every discipline whose rows are stale (or gone from the history) as due; how many."""
        async with self._engine.connect() as conn:
            now = await store.fingerprints(conn)
            kept = await store.stored_fingerprints(conn)
        stale = [d for d in sorted(set(now) | set(kept)) if now.get(d) != kept.get(d)]
        for discipline in stale:
            self.due(discipline)
        return len(stale)
