"""hub/store/keeper.py: the loop the people, ratings and series keepers share. What is due is
drained off the caller and `idle()` waits for it; a store failure is retried, a bug is logged with
its traceback and dropped; a failing sweep never ends the sweeper; stop() unsubscribes."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import pytest
from sqlalchemy.exc import OperationalError

import hub.store.keeper as keeper_module
from hub.store.keeper import Keeper


class Counting(Keeper):
    """Refreshes items from a list of outcomes: None succeeds, an exception is raised. Its log lines
    go to its own module's logger (as hub.people.keeper's do): this test module's."""

    name = "counting"

    def __init__(self, outcomes: dict[str, list[BaseException | None]], sweeps: list[BaseException | None]) -> None:
        super().__init__(sweep_s=0.01)
        self.outcomes, self.sweeps = outcomes, sweeps
        self.items: dict[str, None] = {}
        self.done: list[str] = []
        self.swept = 0
        self.unsubscribed = 0

    def note(self, item: str) -> None:
        self.items[item] = None
        self._due()

    async def refresh(self, item: str) -> None:
        outcome = self.outcomes[item].pop(0) if self.outcomes[item] else None
        if outcome is not None:
            raise outcome
        self.done.append(item)

    async def _drain(self) -> None:
        while self.items:
            item = next(iter(self.items))
            self.items.pop(item)
            await self._attempt(f"the refresh of {item}", partial(self.refresh, item), partial(self.note, item))

    async def sweep(self) -> int:
        outcome = self.sweeps.pop(0) if self.sweeps else None
        if outcome is not None:
            raise outcome
        self.swept += 1
        return 0


async def until(condition: object, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.005)


async def test_a_store_failure_is_retried_and_a_bug_dropped(monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(keeper_module, "RETRY_S", 0.0)
    down = OperationalError("SELECT 1", {}, OSError("connection refused"))
    k = Counting({"a": [down, down], "b": [ValueError("a bug")], "c": []}, [])
    k._begin(lambda: setattr(k, "unsubscribed", k.unsubscribed + 1))
    try:
        with caplog.at_level(logging.WARNING, logger=__name__):
            for item in ("a", "b", "c"):
                k.note(item)
            await asyncio.wait_for(k.idle(), 5)
        assert sorted(k.done) == ["a", "c"]  # a: done on its third try; b: dropped until a sweep finds it
        records = [r for r in caplog.records if r.name == __name__]
        short = [r for r in records if "the refresh of a failed" in r.getMessage()]
        assert len(short) == 2 and all(r.exc_info is None and r.levelno == logging.WARNING for r in short)
        assert "OperationalError" in short[0].getMessage()
        (bug,) = [r for r in records if "the refresh of b failed" in r.getMessage()]
        assert bug.levelno == logging.ERROR and bug.exc_info is not None  # a traceback for a bug
    finally:
        await k.stop()
    assert k.unsubscribed == 1
    assert all(t.done() for t in k._tasks)


async def test_the_sweeper_outlives_failing_sweeps() -> None:
    k = Counting({}, [OSError("store away"), RuntimeError("a bug"), None])
    k._begin()
    try:
        await until(lambda: k.swept >= 2)  # two failures, then sweeps again every sweep_s
    finally:
        await k.stop()
