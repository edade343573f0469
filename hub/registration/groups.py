"""Sign-ups committed in groups (PROTOCOL.md section 14; issue 33's flood).

The sign-ups of one tournament that arrive while its registration is busy wait in a `Queue`; one
task at a time takes them in groups of up to `MAX_GROUP` and hands each group to the registrar
(hub/registration/registrar.py `_sign_up_group`), which decides them one after another with
`decide_group`, stores the group's events in one transaction (`store_group`), settles once, and only then answers
each sign-up (its own event, or its own refusal). A caller that goes away does not cancel its
group: the others' answers do not depend on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.registration import decide as rules
from hub.registration.state import Event, RegistrationState, evolve
from hub.store import registration_events as store

MAX_GROUP = 256  # sign-ups committed together at most (add_players takes up to 512 players)
Waiting = tuple[Mapping[str, Any], "asyncio.Future[Event]"]
Decided = tuple["asyncio.Future[Event]", Event]


class Queue:
    """One tournament's waiting sign-ups and the task that takes them (one at a time, or none)."""

    def __init__(self, take: Callable[[list[Waiting]], Awaitable[None]], tasks: set[asyncio.Task[None]]) -> None:
        self._take = take
        self._tasks = tasks  # the registrar's, cancelled on its stop
        self._waiting: list[Waiting] = []
        self._drainer: asyncio.Task[None] | None = None

    async def submit(self, command: Mapping[str, Any]) -> Event:
        """The sign-up's stored event, once its group is stored and settled; or its refusal raised."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Event] = loop.create_future()
        self._waiting.append((command, done))
        if self._drainer is None:
            self._drainer = loop.create_task(self._drain())
            self._tasks.add(self._drainer)
            self._drainer.add_done_callback(self._tasks.discard)
        return await asyncio.shield(done)

    async def _drain(self) -> None:
        try:
            while self._waiting:
                group, self._waiting = self._waiting[:MAX_GROUP], self._waiting[MAX_GROUP:]
                await self._take(group)
            # No await since the last look at `_waiting`: a sign-up queued from now on starts a drainer.
            self._drainer = None
        except BaseException:  # cancelled (the registrar's stop): nobody is left waiting
            self._drainer = None
            fail(self._waiting, RuntimeError("registration stopped"))
            self._waiting = []
            raise


def decide_group(state: RegistrationState, group: list[Waiting], now: int, draw_made: bool
                 ) -> tuple[list[Decided], list[tuple[asyncio.Future[Event], Exception]]]:
    """Each sign-up decided on the state the previous one left (so duplicates and the cap are exact,
    in the group's order): (the events to store, the refusals)."""
    taken: list[Decided] = []
    refused: list[tuple[asyncio.Future[Event], Exception]] = []
    for command, done in group:
        try:
            decided = rules.decide(state, command, now, draw_made)
        except Exception as why:
            refused.append((done, why))
            continue
        assert decided is not None  # a sign-up always decides an event or refuses
        event = Event(state.version + 1, decided[0], decided[1], now)
        state = evolve(state, event)
        taken.append((done, event))
    return taken, refused


async def store_group(engine: AsyncEngine, tid: str, events: list[Event]) -> None:
    """The group's events (and each new entry's secret hash) in one transaction; StreamConflict
    (nothing stored) when another process stored one of these versions first."""
    if not events:
        return
    async with engine.begin() as conn:
        for event in events:
            await store.append(conn, tid, event)
            if event.kind == "entry_added":
                entry = event.data["entry"]
                await store.keep_secret(conn, entry["secret_hash"], tid, entry["id"])


def fail(group: list[Waiting], failed: Exception) -> None:
    for _, done in group:
        if not done.done():
            done.set_exception(failed)
