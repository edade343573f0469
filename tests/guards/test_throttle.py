"""The sign-in and pairing backoff (hub/guards/throttle.py): the pure policies, then the Guard on a
real store with an injected clock and sleep (no real waiting)."""

from __future__ import annotations

import asyncio

import pytest

from hub.guards.throttle import Admitted, Backoff, Budget, Guard, Policies, Refused, TooManyAttempts
from hub.store import throttle as store
from hub.store.db import make_engine, migrate
from hub.store.throttle import Counter

B = Backoff()  # the documented numbers: 5 free, then 1 s, 2 s, 4 s ... 30 s; hold up to 3 s


def run(policy: Backoff, times: list[int]) -> list[Admitted | Refused]:
    seen, out = None, []
    for now in times:
        verdict = policy.admit(seen, now)
        out.append(verdict)
        if isinstance(verdict, Admitted):
            seen = Counter(verdict.counter.attempts, verdict.counter.next_at, verdict.counter.last_at, 0)
    return out


def test_first_attempts_are_free_then_spaced():
    verdicts = run(B, [0] * 5 + [0])
    assert all(isinstance(v, Admitted) and v.wait_ms == 0 for v in verdicts)
    # Sent all at once, the 7th and 8th wait for their slots (1 s, then 2 s after it); the 9th's
    # slot is 7 s away: refused without being checked.
    verdicts = run(B, [0] * 9)
    assert [v.wait_ms for v in verdicts[:8]] == [0] * 6 + [1000, 3000]
    assert isinstance(verdicts[8], Refused) and verdicts[8].retry_after_ms == 7000


def test_spacing_doubles_up_to_the_cap():
    assert [B.spacing(n) for n in range(6, 13)] == [1000, 2000, 4000, 8000, 16000, 30000, 30000]
    assert B.spacing(10_000) == 30_000


def test_a_patient_client_is_never_refused():
    """One attempt each time its slot opens: always admitted, never more than the cap apart."""
    seen, now = None, 0
    for _ in range(20):
        verdict = B.admit(seen, now)
        assert isinstance(verdict, Admitted)
        now += verdict.wait_ms
        seen = Counter(verdict.counter.attempts, verdict.counter.next_at, verdict.counter.last_at, 0)
        now = max(now, seen.next_at)
    assert seen.attempts == 20


def test_counts_are_forgotten_after_a_quiet_while():
    seen = Counter(40, 10_000, 0, 3)
    assert isinstance(B.admit(seen, 5_000), Refused)
    later = B.admit(seen, B.forget_ms)
    assert isinstance(later, Admitted) and later.wait_ms == 0 and later.counter.attempts == 1


def test_budget_refuses_the_attempt_past_its_limit():
    budget = Budget(limit=3, window_ms=1_000)
    assert [budget.over(Counter(n, 0, 0), 10) for n in (1, 2, 3)] == [None, None, None]
    assert budget.over(Counter(4, 0, 0), 400) == 600  # until the window that opened at 0 ends


@pytest.fixture
async def engine(sqlite_settings):
    eng = make_engine(sqlite_settings)
    await migrate(eng)
    yield eng
    await eng.dispose()


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_000_000
        self.slept: list[float] = []

    def clock(self) -> int:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.sleep(0)


async def test_guard_spaces_parallel_attempts_through_the_store(engine):
    """Ten attempts at once from one address: the store's compare-and-set gives each its own slot."""
    ft = FakeTime()
    guard = Guard(engine, Policies(), clock=ft.clock, sleep=ft.sleep)
    results = await asyncio.gather(*(guard.admit("signin:1.2.3.4", B) for _ in range(10)), return_exceptions=True)
    refused = [r for r in results if isinstance(r, TooManyAttempts)]
    assert sum(r is None for r in results) == 8 and len(refused) == 2
    # Slept: the two waits for a slot (1 s, 3 s) and the two refusals' pauses (1 s each).
    assert sorted(ft.slept) == [1.0, 1.0, 1.0, 3.0]
    assert all(r.retry_after_ms == 7000 - B.refuse_pause_ms for r in refused)
    # Another address is not slowed by this one.
    ft.slept.clear()
    await guard.admit("signin:5.6.7.8", B)
    assert ft.slept == []
    # A success clears the address.
    await guard.succeeded("signin:1.2.3.4")
    await guard.admit("signin:1.2.3.4", B)
    assert ft.slept == []


async def test_guard_budget(engine):
    ft = FakeTime()
    budget = Budget(limit=2, window_ms=60_000)
    guard = Guard(engine, Policies(pairing_hub=budget), clock=ft.clock, sleep=ft.sleep)
    await guard.spend_budget("pair:*", budget)
    await guard.spend_budget("pair:*", budget)
    await guard.refund_budget("pair:*")  # a right code gives its count back: one more fits
    await guard.spend_budget("pair:*", budget)
    ft.now += 59_999
    with pytest.raises(TooManyAttempts) as exc:
        await guard.spend_budget("pair:*", budget)
    assert exc.value.retry_after_ms == 1 and exc.value.hub_wide
    assert (await store.load(engine, "pair:*")).attempts == 3  # a refused attempt counts too
    ft.now += 1  # the window is over: a new one opens with this attempt
    await guard.spend_budget("pair:*", budget)
    assert (await store.load(engine, "pair:*")).attempts == 1
