"""Slowing down guessing: repeated sign-in tokens and pairing codes (PROTOCOL.md section 8).

Per client address (hub/guards/peer.py: an IPv4 address; an IPv6 client's /64 and its /48) a
`Backoff`: the first `free` attempts go through at once; after that every attempt takes the next
free slot, the slots spaced 1 s, 2 s, 4 s, ... 30 s apart, so attempts sent in parallel are spread
out just like attempts sent one after the other. An attempt whose slot is at most `hold_ms` away
waits for it (asyncio.sleep: the event loop and every other client go on) and is then checked; one
whose slot is further away is not checked at all: it is answered 429 `too_many_attempts` with
Retry-After, after a short pause. A success clears the address's count, and a count is forgotten
`forget_ms` after its latest attempt.

For pairing codes also a hub-wide `Budget`: a six-digit code can be guessed from many addresses at
once, so at most `limit` codes per `window_ms` are checked hub-wide. Each attempt is counted before
its code is checked, by one atomic upsert (hub/store/throttle.py: N guesses in parallel count N, in
any number of processes); one over the budget is answered 429 unchecked, and a right code gives its
count back. With k codes alive, a window's guesses find one with a chance of at most
limit * k / 10**6 (60 * 16 / 10**6 ≈ 0.1 % with 16 tables being paired at once): a live code
lives 10 minutes, so finding one takes about 10**6 / (60 * k) windows of 10 minutes (k = 1: 116
days, k = 16: a week). The budget cannot lock the organiser out: the card's QR link carries a
secret (hub/api/pairing.py) that no budget limits, and a pairing made with the admin credential is
never refused.

The counters live in the store (hub/store/throttle.py), so hub processes behind one address agree.
The policies are pure (`admit` / `over` are functions of a counter and the time).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.guards.edge_json import error_body
from hub.services import services_of
from hub.store import throttle as store
from hub.store.db import now_ms
from hub.store.throttle import Counter

# Each lost compare-and-set means another attempt on the same key won, so N attempts racing at
# once need at most N tries: 32 is a burst from one address; past it, the loser is refused.
MAX_CAS_TRIES = 32


class TooManyAttempts(Exception):
    def __init__(self, retry_after_ms: int, *, hub_wide: bool = False) -> None:
        super().__init__(f"retry after {retry_after_ms} ms")
        self.retry_after_ms = max(0, retry_after_ms)
        self.hub_wide = hub_wide  # the hub-wide budget, not this address's backoff


def too_many_response(exc: TooManyAttempts, what: str) -> JSONResponse:
    seconds = max(1, math.ceil(exc.retry_after_ms / 1000))
    where = "on this hub" if exc.hub_wide else "from this address"
    return JSONResponse(
        error_body("too_many_attempts", f"too many wrong {what} {where}; try again in {seconds} s"),
        status_code=429, headers={"Retry-After": str(seconds), "Cache-Control": "no-store"},
    )


@dataclass(frozen=True, slots=True)
class Admitted:
    wait_ms: int
    counter: Counter


@dataclass(frozen=True, slots=True)
class Refused:
    retry_after_ms: int


@dataclass(frozen=True, slots=True)
class Backoff:
    free: int = 5
    first_ms: int = 1_000
    max_ms: int = 30_000
    hold_ms: int = 3_000
    refuse_pause_ms: int = 1_000
    forget_ms: int = 15 * 60_000

    def spacing(self, attempt: int) -> int:
        """How long after attempt number `attempt` (over `free`) the next one's slot opens."""
        over = max(0, attempt - self.free - 1)
        return min(self.max_ms, self.first_ms * 2 ** min(over, 32))

    def admit(self, seen: Counter | None, now: int) -> Admitted | Refused:
        if seen is None or now - seen.last_at >= self.forget_ms:
            attempts, next_at = 0, 0
        else:
            attempts, next_at = seen.attempts, seen.next_at
        n = attempts + 1
        if n <= self.free:
            return Admitted(0, Counter(n, next_at, now))
        slot = max(now, next_at)
        if slot - now > self.hold_ms:
            return Refused(slot - now)
        return Admitted(slot - now, Counter(n, slot + self.spacing(n), now))


@dataclass(frozen=True, slots=True)
class Budget:
    limit: int = 60
    window_ms: int = 10 * 60_000

    def over(self, counted: Counter, now: int) -> int | None:
        """None when the attempt just `counted` (its window opened at `last_at`) is within the
        budget, else the ms until the window ends."""
        if counted.attempts > self.limit:
            return max(1, counted.last_at + self.window_ms - now)
        return None


@dataclass(frozen=True, slots=True)
class Policies:
    sign_in: Backoff = field(default_factory=Backoff)
    pairing: Backoff = field(default_factory=Backoff)
    pairing_hub: Budget = field(default_factory=Budget)
    # Sign-ups (PROTOCOL.md section 14, hub/api/registration.py): not guesses (a success clears
    # nothing), so roomier: a hall's players behind one address sign up one after another.
    sign_up: Backoff = field(default_factory=lambda: Backoff(free=30, first_ms=1_000, max_ms=8_000,
                                                             hold_ms=4_000, forget_ms=2 * 60_000))
    sign_up_hub: Budget = field(default_factory=lambda: Budget(limit=1_200, window_ms=60_000))


Sleep = Callable[[float], Awaitable[None]]


class Guard:
    """The backoff and budget applied to one app's store."""

    def __init__(self, engine: AsyncEngine, policies: Policies, *, clock: Callable[[], int] = now_ms,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.engine, self.policies, self._clock, self._sleep = engine, policies, clock, sleep

    async def admit(self, keys: str | Sequence[str], policy: Backoff) -> None:
        """Count this attempt on each key (an address, or an IPv6 client's /64 and /48) and wait for
        the latest of their slots, or raise TooManyAttempts if any is too far away."""
        waits = []
        for key in [keys] if isinstance(keys, str) else keys:
            verdict = await self._count(key, policy)
            if isinstance(verdict, Refused):
                await self._sleep(policy.refuse_pause_ms / 1000)
                raise TooManyAttempts(verdict.retry_after_ms - policy.refuse_pause_ms)
            waits.append(verdict.wait_ms)
        if max(waits, default=0):
            await self._sleep(max(waits) / 1000)

    async def _count(self, key: str, policy: Backoff) -> Admitted | Refused:
        for _ in range(MAX_CAS_TRIES):
            seen = await store.load(self.engine, key)
            now = self._clock()
            verdict = policy.admit(seen, now)
            if isinstance(verdict, Refused):
                return verdict
            if await store.save(self.engine, key, seen, verdict.counter):
                if seen is None:
                    await store.sweep(self.engine, now - policy.forget_ms)
                return verdict
        return Refused(policy.first_ms + policy.refuse_pause_ms)  # this many racing attempts from one address

    async def succeeded(self, keys: str | Sequence[str]) -> None:
        for key in [keys] if isinstance(keys, str) else keys:
            await store.clear(self.engine, key)

    async def spend_budget(self, key: str, budget: Budget) -> None:
        """Count one attempt on the hub-wide budget before it is checked; TooManyAttempts when it is
        over (the attempt is then not to be checked at all)."""
        now = self._clock()
        counted = await store.count_in_window(self.engine, key, now, budget.window_ms)
        wait = budget.over(counted, now)
        if wait is not None:
            raise TooManyAttempts(wait, hub_wide=True)

    async def refund_budget(self, key: str) -> None:
        """A right code: its attempt no longer counts against the budget."""
        await store.uncount(self.engine, key)


def guard_of(app: FastAPI, engine: AsyncEngine) -> Guard:
    """The app's Guard, made on first use (tests pass create_app their `throttle_policies`)."""
    state = services_of(app)
    guard = state.desk_guard
    if guard is None or guard.engine is not engine:
        guard = Guard(engine, state.throttle_policies or Policies())
        state.desk_guard = guard
    return guard
