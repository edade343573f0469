"""The tournament writer: every command on a tournament goes through here, one at a time.

    load (memory, or fold of the stream) -> catch up with the stored head -> draws.decide
    -> append version+1 in a transaction (with the match it calls or cancels, when there is one)
    -> evolve -> notify listeners

One writer per tournament at a time: an asyncio lock within a process, and across processes the
stream's primary key (a lost race raises StreamConflict; the state is folded again and the command
decided again on it, so two processes never both call a match, nor give one table two matches).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.draws.interface import DrawRules
from hub.store import catalog
from hub.store import tournament_events as store
from hub.store.db import now_ms
from hub.tournaments import delta

if TYPE_CHECKING:
    from hub.draws.state import TournamentState

log = logging.getLogger(__name__)

T = TypeVar("T")
# Runs the transaction that stores the event: it must call `append(conn)` inside it (the default
# opens a transaction of its own). Lets a call store its match and its event together.
StoreWith = Callable[[catalog.InTransaction], Awaitable[T]]
# Runs inside the transaction that stores an event, just before the append, and returns the event
# to store: the people directory links the entries an event adds (hub/people/linking.py) and the
# event carries the links. Whatever it raises stores nothing.
Completer = Callable[[AsyncConnection, str, Any], Awaitable[Any]]
ATTEMPTS = 8


class UnknownTournament(LookupError):
    pass


class NotStored(Exception):
    """The transaction that was to store the event did not run `append` (e.g. the match to cancel
    had started meanwhile): nothing was stored."""


class MatchMoved(NotStored):
    """The match the command was decided on is not as it was any more (an event of it was stored
    since, by any process): nothing was stored; read the match again and decide again."""


@dataclass(frozen=True, slots=True)
class MatchAt:
    """What a command about a match's result expects of the match when the tournament's event
    commits: one of `statuses`, at `version` (None: any). The match row is locked in the
    tournament's transaction and checked there, so no event of the match can land between the
    check and the commit (a result taken is the match's own latest, whatever process stored it)."""

    match_id: str
    statuses: tuple[str, ...]
    version: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentChange:
    """One stored tournament event, as listeners see it (treat as read-only)."""

    tournament_id: str
    version: int
    event: dict[str, Any]  # {"version", "kind", "data", "at"}
    projection: dict[str, Any]  # draws.projection(state): players, draw, queue, standings, paused_tables
    # What changed since the projection of version - 1 (hub/tournaments/delta.py), or None when this
    # process did not hold it (another process stored the events before): then only `projection` says it.
    delta: dict[str, Any] | None = None


TournamentListener = Callable[[TournamentChange], None]


@dataclass(slots=True)
class _Live:
    tid: str
    state: Any
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pure: dict[str, Any] | None = None  # draws.projection(state) at `pure_version`, for the next delta
    pure_version: int = -1


class TournamentWriter:
    def __init__(self, engine: AsyncEngine, draws: DrawRules, clock: Callable[[], int] = now_ms,
                 completer: Completer | None = None) -> None:
        self._engine = engine
        self._draws = draws
        self._clock = clock
        self._completer = completer
        self._live: dict[str, _Live] = {}
        self._load_lock = asyncio.Lock()
        self._listeners: list[TournamentListener] = []

    def subscribe(self, listener: TournamentListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self, change: TournamentChange) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("tournament listener failed on %s v%s", change.tournament_id, change.version)

    # --- reads ------------------------------------------------------------------------------

    async def _load(self, tid: str, known: bool = False) -> tuple[_Live | None, bool]:
        """(the tournament in memory, whether it was read from the store just now). `known`: the
        caller has seen the tournament's row (no query to check it exists)."""
        live = self._live.get(tid)
        if live is not None:
            return live, False
        async with self._load_lock:
            live = self._live.get(tid)
            if live is not None:
                return live, False
            events = await store.read(self._engine, tid)
            if not events and not known and await catalog.get_tournament(self._engine, tid) is None:
                return None, False
            live = _Live(tid, self._draws.fold(tid, events), events[-1].version if events else 0)
            self._live[tid] = live
            return live, True

    async def _catch_up(self, live: _Live) -> None:
        """Fold in what other processes stored since (the store is the truth). Lock held."""
        newer = await store.read(self._engine, live.tid, since=live.version)
        state = live.state
        for event in newer:
            state = self._draws.evolve(state, event)
        if newer:
            live.state, live.version = state, newer[-1].version

    async def state(self, tid: str, *, known: bool = False) -> TournamentState | None:
        """The tournament's draw state, caught up with the store (one query). `known`: the caller
        has read the tournament's row already."""
        live, fresh = await self._load(tid, known)
        if live is None:
            return None
        if fresh:
            return live.state
        async with live.lock:
            await self._catch_up(live)
            return live.state

    def projection(self, state: Any) -> dict[str, Any]:
        """`draws.projection(state)`: the one made with the state when it is this writer's latest
        (made off the event loop, shared with the listeners: treat as read-only), else made now."""
        live = self._live.get(state.tournament_id)
        if live is not None and live.state is state and live.pure is not None and live.pure_version == live.version:
            return live.pure
        return self._draws.projection(state)

    def forget(self, tid: str) -> None:
        """The tournament was deleted: its state is dropped from memory."""
        self._live.pop(tid, None)

    # --- writes -----------------------------------------------------------------------------

    async def apply(self, tid: str, command: Mapping[str, Any],
                    store_with: StoreWith[Any] | None = None, expect: MatchAt | None = None) -> tuple[Any, Any]:
        """Decide `command` and store its event; returns (the new state, the stored event). Raises draws.DrawReject
        (nothing stored), UnknownTournament, NotStored (MatchMoved when the match is not as `expect`
        says at the commit), or whatever `store_with` raises (e.g. catalog.TableBusy), in which case
        nothing was stored either."""
        if expect is not None:
            if store_with is not None:
                raise ValueError("expect and store_with are not combined")
            store_with = _expecting(self._engine, expect)
        live, _ = await self._load(tid)
        if live is None:
            raise UnknownTournament(tid)
        async with live.lock:
            await self._catch_up(live)
            for _ in range(ATTEMPTS):
                kind, data = self._draws.decide(live.state, command)
                event = self._draws.TournamentEvent(version=live.version + 1, kind=kind, data=dict(data),
                                                    at=self._clock())
                stored: Any = None

                async def append(conn: AsyncConnection, event: Any = event) -> None:
                    nonlocal stored
                    if self._completer is not None:
                        event = await self._completer(conn, tid, event)
                    await store.append(conn, tid, event)
                    stored = event

                try:
                    if store_with is None:
                        async with self._engine.begin() as conn:
                            await append(conn)
                    else:
                        await store_with(append)
                except store.StreamConflict:
                    await self._catch_up(live)  # another process stored first: decide again
                    continue
                if stored is None:
                    raise NotStored(kind)
                change = await self._evolve(live, stored)
                asyncio.get_running_loop().call_soon(self._notify, change)
                return live.state, stored
            raise store.StreamConflict(f"{tid}: the tournament kept changing")


    async def _evolve(self, live: _Live, event: Any) -> TournamentChange:
        """Fold the stored event in, off the event loop: deriving a big draw (thousands of matches),
        its projection and what changed take tens of milliseconds that other tables' commands must
        not wait for. The event is stored: the state follows it even if the caller is cancelled."""
        previous = live.pure if live.pure_version == event.version - 1 else None
        work = asyncio.get_running_loop().run_in_executor(None, _fold_one, self._draws, live.state, event, previous)
        try:
            state, pure, changed = await asyncio.shield(work)
        except asyncio.CancelledError:
            state, pure, changed = _fold_one(self._draws, live.state, event, previous)
            self._keep(live, event.version, state, pure)
            raise
        self._keep(live, event.version, state, pure)
        return TournamentChange(live.tid, event.version, _event_json(event), pure, changed)

    @staticmethod
    def _keep(live: _Live, version: int, state: Any, pure: dict[str, Any]) -> None:
        if live.version < version:
            live.state, live.version, live.pure, live.pure_version = state, version, pure, version


def _expecting(engine: AsyncEngine, expect: MatchAt) -> StoreWith[None]:
    """The transaction of an event that must find the match as `expect` says: its row locked first."""
    async def store_with(append: catalog.InTransaction) -> None:
        async with engine.begin() as conn:
            head = await catalog.lock_match(conn, expect.match_id)
            if (head is None or head[0] not in expect.statuses
                    or (expect.version is not None and head[1] != expect.version)):
                raise MatchMoved(f"{expect.match_id} is {head} now")
            await append(conn)

    return store_with


def _fold_one(draws: DrawRules, state: Any, event: Any,
              previous: dict[str, Any] | None) -> tuple[Any, dict[str, Any], dict[str, Any] | None]:
    """(the state after `event`, its projection, the delta from `previous`): pure, run in a thread."""
    state = draws.evolve(state, event)
    pure = draws.projection(state)
    return state, pure, None if previous is None else delta.diff(previous, pure)


def _event_json(event: Any) -> dict[str, Any]:
    return {"version": event.version, "kind": event.kind, "data": event.data, "at": event.at}
