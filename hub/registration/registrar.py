"""The registration side of a tournament: its stream written one command at a time, and the
tournament's players kept in line with the entries.

    load (memory, or fold of the stream) -> catch up -> decide -> append version+1 -> evolve -> notify

An accepted entry is a player of the tournament (PROTOCOL.md section 14): after each command
`settle` takes the steps the entries call for (hub/registration/decide.py `next_step`), each one a
tournament command (add_players, remove_player before the draw, withdraw after it: walkovers) whose
event is stored in the same transaction as the registration event saying so. A crash between two
steps loses nothing: the next settle (any command, or the start: hub/registration/check_in_clock.py)
finds the step still to take in the stored state. The people directory links each added player as
it links every entry (hub/people/linking.py, in the tournament writer's transaction).

Sign-ups are committed in groups (PROTOCOL.md section 14's flood): the sign-ups of one tournament
that arrive while its lock is held wait in a queue; the next holder decides them one after another
on the state each leaves (so duplicates and the cap are exact and the order is the queue's), stores
all their events in one transaction, settles once (the accepted entries added to the tournament in
one add_players) and only then answers each. A refused sign-up is answered its refusal; the others
of its group are not affected.

The desk may withdraw or remove a player through the players API: the tournament writer's listener
turns that into the entry's `entry_withdrawn` (and a promotion off the waitlist before the draw).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.draws.events import DrawReject
from hub.registration import decide as rules
from hub.registration.state import Entry, Event, RegistrationState, evolve, fold
from hub.store import catalog, tournament_events
from hub.store import registration_events as store
from hub.store.db import now_ms
from hub.store.schema import tournament_events as tournament_table
from hub.tournaments.writer import NotStored, TournamentChange, TournamentWriter, UnknownTournament

log = logging.getLogger(__name__)

ATTEMPTS = 8
MAX_GROUP = 256  # sign-ups committed together at most (add_players takes up to 512 players)
MAX_STEPS = 2 * 5000  # a settle never loops for ever, whatever the state says
Listener = Callable[[str, RegistrationState], None]


@dataclass(slots=True)
class _Live:
    tid: str
    state: RegistrationState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Sign-ups waiting for the lock, and the task that takes them (one at a time, or none).
    waiting: list[tuple[Mapping[str, Any], asyncio.Future[Event]]] = field(default_factory=list)
    drainer: asyncio.Task[None] | None = None


class Registrar:
    def __init__(self, engine: AsyncEngine, tournaments: TournamentWriter, clock: Callable[[], int] = now_ms) -> None:
        self._engine = engine
        self._tournaments = tournaments
        self.clock = clock
        self._live: dict[str, _Live] = {}
        self._listeners: list[Listener] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    async def find(self, secret_hash: str) -> tuple[str, str] | None:
        """(tournament id, entry id) of the entry whose secret has this hash, or None."""
        return await store.find_secret(self._engine, secret_hash)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def start(self) -> None:
        """Follow the desk's own withdrawals and removals of players (the players API)."""
        self._unsubscribe = self._tournaments.subscribe(self._on_tournament)

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def forget(self, tid: str) -> None:
        self._live.pop(tid, None)  # never read here (nothing signed up): nothing to forget

    # --- reads ------------------------------------------------------------------------------

    async def _load(self, tid: str) -> _Live:
        live = self._live.get(tid)
        if live is None:
            live = self._live.setdefault(tid, _Live(tid, fold(tid, await store.read(self._engine, tid))))
        return live

    async def _catch_up(self, live: _Live) -> None:
        for event in await store.read(self._engine, live.tid, since=live.state.version):
            live.state = evolve(live.state, event)

    async def state(self, tid: str) -> RegistrationState:
        """The tournament's registration, caught up with the store (UnknownTournament if none)."""
        if await catalog.get_tournament(self._engine, tid) is None:
            raise UnknownTournament(tid)
        live = await self._load(tid)
        async with live.lock:
            await self._catch_up(live)
            return live.state

    async def _draw(self, tid: str) -> tuple[bool, dict[str, bool]]:
        """(is the draw made, the tournament's players -> withdrawn)."""
        tstate = await self._tournaments.state(tid)
        if tstate is None:
            raise UnknownTournament(tid)
        return tstate.draw is not None, {p.id: p.withdrawn for p in tstate.players}

    # --- writes -----------------------------------------------------------------------------

    async def apply(self, tid: str, command: Mapping[str, Any], *,
                    settle: bool = True) -> tuple[RegistrationState, Event | None]:
        """Decide `command`, store its event (and the entry's secret hash for a sign-up), then
        settle the tournament's players. Raises RegistrationReject (nothing stored), UnknownTournament."""
        if await catalog.get_tournament(self._engine, tid) is None:
            raise UnknownTournament(tid)
        live = await self._load(tid)
        if settle and command.get("kind") == "sign_up":
            return await self._sign_up(live, command)
        async with live.lock:
            event = await self._apply_locked(live, command)
            if settle:
                await self._settle_locked(live)
            return live.state, event

    async def _sign_up(self, live: _Live, command: Mapping[str, Any]) -> tuple[RegistrationState, Event | None]:
        """Queue the sign-up for the tournament's drainer; answered once its group is stored and settled."""
        done: asyncio.Future[Event] = asyncio.get_running_loop().create_future()
        live.waiting.append((command, done))
        if live.drainer is None:
            live.drainer = asyncio.get_running_loop().create_task(self._drain(live))
            self._tasks.add(live.drainer)
            live.drainer.add_done_callback(self._tasks.discard)
        # Shielded: a caller that goes away does not cancel the group (its sign-up may be stored).
        event = await asyncio.shield(done)
        return live.state, event

    async def _drain(self, live: _Live) -> None:
        """Take the waiting sign-ups in groups, under the tournament's lock, until none wait."""
        try:
            async with live.lock:
                while live.waiting:
                    group, live.waiting = live.waiting[:MAX_GROUP], live.waiting[MAX_GROUP:]
                    await self._sign_up_group(live, group)
                # No await since the last look at `waiting`: a sign-up queued from now on starts a drainer.
                live.drainer = None
        except BaseException:  # cancelled (stop): nobody is left waiting
            live.drainer = None
            _fail(live.waiting, RuntimeError("registration stopped"))
            live.waiting = []
            raise

    async def _sign_up_group(self, live: _Live, group: list[tuple[Mapping[str, Any], asyncio.Future[Event]]]) -> None:
        try:
            stored = await self._append_group(live, group)
            if stored:
                await self._settle_locked(live)
        except Exception as failed:  # the group's answer (a 500, as one sign-up's failure was); the next group goes on
            log.exception("registration %s: a group of %d sign-ups failed", live.tid, len(group))
            _fail(group, failed)
            return
        except BaseException:
            _fail(group, RuntimeError("registration stopped"))
            raise
        for done, event in stored:
            if not done.done():
                done.set_result(event)

    async def _append_group(self, live: _Live, group: list[tuple[Mapping[str, Any], asyncio.Future[Event]]]
                            ) -> list[tuple[asyncio.Future[Event], Event]]:
        """Decide each sign-up on the state the previous one left and store the events in one
        transaction; a refused one gets its refusal (nothing of it stored). Returns what was stored."""
        for _ in range(ATTEMPTS):
            await self._catch_up(live)
            draw_made, _ = await self._draw(live.tid)
            now = self.clock()
            state = live.state
            taken: list[tuple[asyncio.Future[Event], Event]] = []
            refused: list[tuple[asyncio.Future[Event], Exception]] = []
            for command, done in group:
                try:
                    decided = rules.decide(state, command, now, draw_made)
                except Exception as reject:
                    refused.append((done, reject))
                    continue
                assert decided is not None  # a sign-up always decides an event or refuses
                event = Event(state.version + 1, decided[0], decided[1], now)
                state = evolve(state, event)
                taken.append((done, event))
            try:
                if taken:
                    async with self._engine.begin() as conn:
                        for _done, event in taken:
                            await store.append(conn, live.tid, event)
                            if event.kind == "entry_added":
                                entry = event.data["entry"]
                                await store.keep_secret(conn, entry["secret_hash"], live.tid, entry["id"])
            except store.StreamConflict:
                continue  # another process stored first: decide the group again on the newer state
            for done, why in refused:
                if not done.done():
                    done.set_exception(why)
            for _done, event in taken:
                self._took(live, event)
            return taken
        raise store.StreamConflict(f"{live.tid}: the registration kept changing")

    async def settle(self, tid: str) -> None:
        live = await self._load(tid)
        async with live.lock:
            await self._catch_up(live)
            await self._settle_locked(live)

    async def _apply_locked(self, live: _Live, command: Mapping[str, Any]) -> Event | None:
        for _ in range(ATTEMPTS):
            await self._catch_up(live)
            draw_made, _ = await self._draw(live.tid)
            now = self.clock()
            decided = rules.decide(live.state, command, now, draw_made)
            if decided is None:
                return None
            event = Event(live.state.version + 1, decided[0], decided[1], now)
            try:
                async with self._engine.begin() as conn:
                    await store.append(conn, live.tid, event)
                    if event.kind == "entry_added":
                        entry = event.data["entry"]
                        await store.keep_secret(conn, entry["secret_hash"], live.tid, entry["id"])
            except store.StreamConflict:
                continue  # another process stored first: decide again on the newer state
            self._took(live, event)
            return event
        raise store.StreamConflict(f"{live.tid}: the registration kept changing")

    def _took(self, live: _Live, event: Event) -> None:
        live.state = evolve(live.state, event)
        for listener in list(self._listeners):
            try:
                listener(live.tid, live.state)
            except Exception:
                log.exception("registration listener failed on %s", live.tid)

    async def _settle_locked(self, live: _Live) -> None:
        one_by_one = False
        for _ in range(MAX_STEPS):
            await self._catch_up(live)
            draw_made, players = await self._draw(live.tid)
            step = rules.next_step(live.state, players)
            if step is None:
                return
            how, entry = step
            try:
                adds = rules.adds_in_a_row(live.state, players, MAX_GROUP) if how == "add" and not one_by_one else []
                if len(adds) > 1:
                    if not await self._add_all(live, adds):
                        one_by_one = True  # the tournament refused the group: each is taken (or refused) alone
                    continue
                await self._take(live, how, entry, draw_made, players)
            except store.StreamConflict:
                continue  # folded again on the next turn

    async def _take(self, live: _Live, how: str, entry: Entry, draw_made: bool, players: Mapping[str, bool]) -> None:
        if how == "gone":
            await self._apply_locked(live, {"kind": "player_left", "player": entry.player})
            return
        if how == "add":
            command: dict[str, Any] = {"kind": "add_players", "players": [{"name": entry.name, "club": entry.club}]}
        elif players.get(entry.player or ""):  # withdrawn already (by the desk, or the draw's own way)
            await self._apply_locked(live, {"kind": "player_out", "entry": entry.id, "how": "withdrawn"})
            return
        elif draw_made:
            command = {"kind": "withdraw", "player": entry.player}
        else:
            command = {"kind": "remove_player", "player": entry.player}
        try:
            await self._with_tournament(live, entry, command)
        except (DrawReject, NotStored) as refused:
            code = getattr(refused, "code", "conflict")
            log.warning("registration %s: the tournament refused %s for entry %s (%s)",
                        live.tid, command["kind"], entry.id, code)
            follow = ({"kind": "player_added", "entry": entry.id, "player": None, "refused": code} if how == "add"
                      else {"kind": "player_out", "entry": entry.id, "how": "kept"})
            await self._apply_locked(live, follow)

    async def _add_all(self, live: _Live, entries: list[Entry]) -> bool:
        """Add the entries' players in one tournament command, their `player_added` events in its
        transaction; False (nothing stored) when the tournament refuses the group."""
        command = {"kind": "add_players", "players": [{"name": e.name, "club": e.club} for e in entries]}
        stored: list[Event] = []

        async def store_with(append: catalog.InTransaction) -> None:
            stored.clear()
            async with self._engine.begin() as conn:
                await append(conn)
                data = await _latest_event_data(conn, live.tid)
                state, now = live.state, self.clock()
                for entry, player in zip(entries, data["players"], strict=True):
                    decided = rules.decide(state, {"kind": "player_added", "entry": entry.id, "player": player["id"]},
                                           now, True)
                    assert decided is not None
                    event = Event(state.version + 1, decided[0], decided[1], now)
                    await store.append(conn, live.tid, event)
                    state = evolve(state, event)
                    stored.append(event)

        try:
            await self._tournaments.apply(live.tid, command, store_with=store_with)
        except (DrawReject, NotStored) as refused:
            log.info("registration %s: the tournament refused %d players at once (%s); adding them one by one",
                     live.tid, len(entries), getattr(refused, "code", "conflict"))
            return False
        for event in stored:
            self._took(live, event)
        return True

    async def _with_tournament(self, live: _Live, entry: Entry, command: dict[str, Any]) -> None:
        """Store the tournament's event and the registration's in one transaction."""
        stored: list[Event] = []

        async def store_with(append: catalog.InTransaction) -> None:
            async with self._engine.begin() as conn:
                await append(conn)
                data = await _latest_event_data(conn, live.tid)
                if command["kind"] == "add_players":
                    follow = {"kind": "player_added", "entry": entry.id, "player": data["players"][0]["id"]}
                else:
                    follow = {"kind": "player_out", "entry": entry.id,
                              "how": "withdrawn" if command["kind"] == "withdraw" else "removed"}
                decided = rules.decide(live.state, follow, self.clock(), True)
                assert decided is not None
                event = Event(live.state.version + 1, decided[0], decided[1], self.clock())
                await store.append(conn, live.tid, event)
                stored.append(event)

        await self._tournaments.apply(live.tid, command, store_with=store_with)
        self._took(live, stored[-1])  # the attempt that committed (the writer may retry a lost race)

    # --- the desk's own withdrawals -----------------------------------------------------------

    def _on_tournament(self, change: TournamentChange) -> None:
        if change.event.get("kind") not in ("player_withdrawn", "player_removed"):
            return
        pid = change.event["data"].get("player")
        live = self._live.get(change.tournament_id)
        if live is None or not any(e.player == pid for e in live.state.entries.values()):
            return
        task = asyncio.get_running_loop().create_task(self._player_left(change.tournament_id, pid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _player_left(self, tid: str, pid: str) -> None:
        try:
            await self.apply(tid, {"kind": "player_left", "player": pid})
        except Exception:
            log.exception("registration %s: following the withdrawal of %s failed", tid, pid)


def _fail(group: list[tuple[Mapping[str, Any], asyncio.Future[Event]]], failed: Exception) -> None:
    for _, done in group:
        if not done.done():
            done.set_exception(failed)


async def _latest_event_data(conn: AsyncConnection, tid: str) -> dict[str, Any]:
    """The data of the tournament event just appended in this transaction."""
    version = await tournament_events.head_in(conn, tid)
    data = await conn.scalar(sa.select(tournament_table.c.data).where(
        tournament_table.c.tournament_id == tid, tournament_table.c.version == version))
    return dict(data or {})
