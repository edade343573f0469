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
import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.draws.events import DrawReject
from hub.ops.logbudget import LogBudget
from hub.registration import decide as rules
from hub.registration import groups
from hub.registration.state import Entry, Event, RegistrationState, evolve, fold
from hub.store import catalog, tournament_events
from hub.store import registration_events as store
from hub.store.db import now_ms
from hub.store.outage import log_failure
from hub.store.schema import tournament_events as tournament_table
from hub.tournaments.writer import NotStored, TournamentChange, TournamentWriter, UnknownTournament

log = logging.getLogger(__name__)
# A group's failure: a short line while the store is away (each caller is answered 503 anyway), a
# traceback for anything else; bounded, so a flood of sign-ups during an outage is a few lines.
_GROUP_LOG_BUDGET = LogBudget(lines=3, window_s=60.0)

ATTEMPTS = 8
MAX_STEPS = 2 * 5000  # a settle never loops for ever, whatever the state says
Listener = Callable[[str, RegistrationState], None]


@dataclass(slots=True)
class _Live:
    tid: str
    state: RegistrationState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sign_ups: groups.Queue | None = None  # made on the first sign-up


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
            if live.sign_ups is None:
                live.sign_ups = groups.Queue(functools.partial(self._sign_up_group, live), self._tasks)
            added = await live.sign_ups.submit(command)
            return live.state, added
        async with live.lock:
            event = await self._apply_locked(live, command)
            if settle:
                await self._settle_locked(live)
            return live.state, event

    async def _sign_up_group(self, live: _Live, group: list[groups.Waiting]) -> None:
        """Store a group of sign-ups in one transaction (hub/registration/groups.py), settle once,
        then answer each. A failure of the group (not a refusal) is each of its sign-ups' answer."""
        try:
            async with live.lock:
                for _ in range(ATTEMPTS):
                    await self._catch_up(live)
                    draw_made, _ = await self._draw(live.tid)
                    taken, refused = groups.decide_group(live.state, group, self.clock(), draw_made)
                    try:
                        await groups.store_group(self._engine, live.tid, [event for _, event in taken])
                        break
                    except store.StreamConflict:
                        continue  # another process stored first: decide the group again on the newer state
                else:
                    raise store.StreamConflict(f"{live.tid}: the registration kept changing")
                for done, why in refused:
                    if not done.done():
                        done.set_exception(why)
                for _done, event in taken:
                    _took(live, event, self._listeners)
                if taken:
                    await self._settle_locked(live)
        except Exception as failed:  # each caller's answer (503 with the store away); the next group goes on
            what = f"registration {live.tid}: a group of {len(group)} sign-ups failed"
            log_failure(log, _GROUP_LOG_BUDGET, what, failed)
            groups.fail(group, failed)
            return
        except BaseException:
            groups.fail(group, RuntimeError("registration stopped"))
            raise
        for done, event in taken:
            if not done.done():
                done.set_result(event)

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
            _took(live, event, self._listeners)
            return event
        raise store.StreamConflict(f"{live.tid}: the registration kept changing")

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
                group = how == "add" and not one_by_one
                adds = rules.adds_in_a_row(live.state, players, groups.MAX_GROUP) if group else []
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
            _took(live, event, self._listeners)
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
        _took(live, stored[-1], self._listeners)  # the attempt that committed (the writer may retry a lost race)

    # --- the desk's own withdrawals -----------------------------------------------------------

    def _on_tournament(self, change: TournamentChange) -> None:
        if change.event.get("kind") not in ("player_withdrawn", "player_removed"):
            return
        pid = change.event["data"].get("player")
        live = self._live.get(change.tournament_id)
        if live is None or not any(e.player == pid for e in live.state.entries.values()):
            return
        task = asyncio.get_running_loop().create_task(_follow_withdrawal(self, change.tournament_id, pid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _took(live: _Live, event: Event, listeners: list[Listener]) -> None:
    live.state = evolve(live.state, event)
    for listener in list(listeners):
        try:
            listener(live.tid, live.state)
        except Exception:
            log.exception("registration listener failed on %s", live.tid)


async def _follow_withdrawal(registrar: Registrar, tid: str, pid: str) -> None:
    try:
        await registrar.apply(tid, {"kind": "player_left", "player": pid})
    except Exception:
        log.exception("registration %s: following the withdrawal of %s failed", tid, pid)


async def _latest_event_data(conn: AsyncConnection, tid: str) -> dict[str, Any]:
    """The data of the tournament event just appended in this transaction."""
    version = await tournament_events.head_in(conn, tid)
    data = await conn.scalar(sa.select(tournament_table.c.data).where(
        tournament_table.c.tournament_id == tid, tournament_table.c.version == version))
    return dict(data or {})
