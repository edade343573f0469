"""The loop a read-model keeper runs (hub/people, hub/ratings, hub/series keepers), once.

A keeper hears a writer's stored changes after the ack (PROTOCOL.md section 3) and only notes what
is due (`_due`), so a stroke never waits for it. One worker task drains what is due, one item at a
time (`_drain`: the keeper's own order and work); one sweeper task, at start and every `sweep_s`,
compares the store with what the read model was made from and notes what was left behind
(`sweep`: another hub process's writes, a crash after the ack, a store upgraded from before the
read model). `idle()` waits until nothing is due (tests; an answer that must show its own change).

A refresh that fails because the store is away (hub/store/outage.py `store_failed`) is noted as
due again after RETRY_S; any other failure is a bug: logged with its traceback, left to the next
sweep. Either way the line is bounded (`log_failure`): during an outage a keeper retrying every
second would otherwise write a line a second. A sweep that fails is logged the same way and the
sweeper goes on (it never dies of one failure). Logged under the keeper's own module's logger.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from hub.ops.logbudget import LogBudget
from hub.store.outage import log_failure, store_failed

RETRY_S = 1.0


class Keeper:
    """The shared part: events, tasks, stop, idle, the retry and the log lines; `_drain` and
    `sweep` are the keeper's."""

    name = "keeper"  # its tasks' names and its log lines' prefix

    def __init__(self, *, sweep_s: float) -> None:
        self._sweep_s = sweep_s
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: list[Callable[[], None]] = []
        self._log = logging.getLogger(type(self).__module__)
        self._budget = LogBudget()

    def _begin(self, *unsubscribe: Callable[[], None]) -> None:
        """Keep the writers' unsubscribe calls and start the worker and the sweeper."""
        self._unsubscribe = list(unsubscribe)
        self._tasks = [asyncio.create_task(self._work(), name=f"{self.name}-keeper"),
                       asyncio.create_task(self._sweeping(), name=f"{self.name}-sweep")]

    async def stop(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task

    def _due(self) -> None:
        """Something was noted as due: the worker wakes, and `idle()` waits for it."""
        self._idle.clear()
        self._wake.set()

    async def idle(self) -> None:
        """Wait until nothing is due."""
        await self._idle.wait()

    async def _work(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._drain()
            self._idle.set()

    async def _drain(self) -> None:
        """Do everything due, one item at a time (each through `_attempt`)."""
        raise NotImplementedError

    async def sweep(self) -> int:
        """Note everything the read model is behind on as due; how many."""
        raise NotImplementedError

    async def _sweep_once(self) -> None:
        await self.sweep()

    async def _sweeping(self) -> None:
        while True:
            try:
                await self._sweep_once()
            except Exception as exc:  # noqa: BLE001 - logged (a bug with its traceback); the sweeper goes on
                log_failure(self._log, self._budget, f"{self.name}: the sweep failed", exc)
            await asyncio.sleep(self._sweep_s)

    async def _attempt(self, what: str, work: Callable[[], Awaitable[Any]], again: Callable[[], None]) -> None:
        """Run one refresh; `again()` notes it as due once more when the store was away."""
        try:
            await work()
        except Exception as exc:  # noqa: BLE001 - logged; a store failure is retried
            log_failure(self._log, self._budget, f"{self.name}: {what} failed", exc)
            if store_failed(exc):
                await asyncio.sleep(RETRY_S)
                again()
