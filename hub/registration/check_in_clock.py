"""Closing each check-in window at its time, with or without a request arriving.

One timer per tournament whose window has a close and has not closed, armed from the registration
state after each of its events (a PATCH that moves the window re-arms it). At the close the clock
stores `close_check_in` (hub/registration/decide.py: the accepted entries not checked in become
`no_show`) and settles the tournament's players: no-shows are left out of a draw not yet made and
withdrawn (walkovers) from one already made.

Nothing of it is kept but the stored state: the start arms every open window from the streams and
settles every tournament, so a close that passed while the hub was down happens at once, and a
step cut short by a crash is taken. In several hub processes each one fires; the close is stored
once (the second is refused `check_in_closed` and ignored).

Time is `now()` (server ms, as events are stamped) and `sleep(seconds)`; tests inject both.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from hub.draws.events import DrawReject
from hub.registration.registrar import Registrar
from hub.registration.state import RegistrationState
from hub.store import registration_events as store
from hub.store.db import now_ms
from hub.tournaments.writer import UnknownTournament

log = logging.getLogger(__name__)

MAX_NAP_S = 5.0  # a timer looks at now() again at least this often (the wall clock may step)
Sleep = Callable[[float], Awaitable[None]]
Closed = Callable[[str], None]  # what to do after a close (kick the draw's flow)


class CheckInClock:
    def __init__(self, registrar: Registrar, *, now: Callable[[], int] = now_ms,
                 sleep: Sleep = asyncio.sleep, closed: Closed | None = None) -> None:
        self._registrar = registrar
        self._now = now
        self._sleep = sleep
        self._closed = closed
        self._timers: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._starting: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._registrar.subscribe(self._on_change)
        # Which tournaments have sign-ups is read before the hub serves (no read behind a request's
        # back); settling them, which may store a missed close, runs apart.
        tids = await store.with_streams(self._registrar.engine)
        if tids:
            self._starting = asyncio.get_running_loop().create_task(self._start_all(tids))

    async def _start_all(self, tids: list[str]) -> None:
        for tid in tids:
            try:
                await self._registrar.settle(tid)
                self._arm(tid, await self._registrar.state(tid))
            except UnknownTournament:
                continue
            except Exception:
                log.exception("check-in clock: starting %s failed", tid)

    async def stop(self) -> None:
        tasks = [t for _, t in self._timers.values()] + ([self._starting] if self._starting else [])
        self._timers.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def armed(self, tid: str) -> int | None:
        """The close the tournament's timer waits for, or None."""
        timer = self._timers.get(tid)
        return None if timer is None else timer[0]

    def _on_change(self, tid: str, state: RegistrationState) -> None:
        self._arm(tid, state)

    def _arm(self, tid: str, state: RegistrationState) -> None:
        closes = state.settings.check_in_closes_at
        due = None if state.check_in_closed else closes
        timer = self._timers.get(tid)
        if timer is not None and timer[0] == due:
            return
        if timer is not None:
            self._timers.pop(tid)
            if timer[1] is not asyncio.current_task():
                timer[1].cancel()
        if due is not None:
            self._timers[tid] = (due, asyncio.get_running_loop().create_task(self._wait_and_close(tid, due)))

    async def _wait_and_close(self, tid: str, due: int) -> None:
        while (left := due - self._now()) > 0:
            await self._sleep(min(left / 1000, MAX_NAP_S))
        try:
            await self._registrar.apply(tid, {"kind": "close_check_in"})
            log.info("check-in closed for tournament %s", tid)
            if self._closed is not None:
                self._closed(tid)
        except DrawReject as refused:  # closed by another process first, or the window moved
            log.info("check-in close of %s not stored: %s", tid, refused.code)
        except UnknownTournament:
            pass
        except Exception:
            log.exception("check-in close of %s failed", tid)
        finally:
            if self._timers.get(tid, (None, None))[1] is asyncio.current_task():
                self._timers.pop(tid, None)
