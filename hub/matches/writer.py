"""The match writer: every command on a match goes through here, one at a time.

    load state (memory, or fold of the store) -> same command id? same answer
    -> expected_version -> rules.decide -> append version+1 (commit) -> evolve -> ack -> notify

Listeners (table sockets now, the watch bus later) are plain callables taking a `Change`.
They are called from the event loop *after* the writer has moved on (loop.call_soon), in the
order the changes were stored, and must not block: put the change on a queue and return.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.matches.cache import LiveMatch, MatchCache
from hub.matches.listeners import MATCH_LISTENERS
from hub.rules.interface import MatchRules
from hub.store import catalog
from hub.store import match_events as store
from hub.store.db import now_ms

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Ack:
    version: int


@dataclass(frozen=True, slots=True)
class Rejected:
    code: str
    message: str


Answer = Ack | Rejected

# The table's token changed since the sender was let in (rotation, in any process): nothing stored.
TokenRevoked = store.TokenRevoked

# How often a process sweeps every match's expired refusals (their bounds: hub/matches/cache.py).
SWEEP_EVERY_MS = 60_000


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a match, as listeners see it. Treat `projection` and `event` as read-only."""

    match_id: str
    tournament_id: str
    table_id: str
    version: int
    projection: dict[str, Any]
    event: dict[str, Any] | None  # the stored event (PROTOCOL.md section 6); None for a new match
    moved_from: str | None = None  # a `table_moved` event: the table the match left


@dataclass(frozen=True, slots=True)
class TableNotice:
    """A table changed without a match change telling it: its scheduled match was cancelled, or the
    table was made or renamed. Listeners read the table (and its current match, maybe none) again."""

    table_id: str
    tournament_id: str
    match_id: str  # the match that left the table ("" when none did)


Listener = Callable[[Change], None]
TableListener = Callable[[TableNotice], None]
# Asked before an event reopens a finished match (an undo of its last stroke): a refusal message, or
# None to let it through. The tournament engine refuses when the draw has moved on from the result.
ReopenGuard = Callable[[catalog.MatchRow], Awaitable[str | None]]


def fill_player_ids(body: Mapping[str, Any]) -> dict[str, Any]:
    """Give players without an id a stable one (p1, p2, ...), before the setup is stored, so a
    rebuild from the stored body gives the same ids."""
    out = dict(body)
    players = out.get("players")
    if not isinstance(players, list):
        return out
    taken = {p.get("id") for p in players if isinstance(p, dict)}
    filled = []
    n = 0
    for p in players:
        if isinstance(p, dict) and p.get("id") is None:
            n += 1
            while f"p{n}" in taken:
                n += 1
            p = {**p, "id": f"p{n}"}
            taken.add(p["id"])
        filled.append(p)
    out["players"] = filled
    return out


_LOST_RACE: Any = object()  # _decide_and_store lost the append race to another process


class MatchWriter:
    """Serialises the commands of each match and keeps live projections in memory."""

    def __init__(self, engine: AsyncEngine, rules: MatchRules, clock: Callable[[], int] = now_ms) -> None:
        self._engine = engine
        self._rules = rules
        self._clock = clock
        self.cache = MatchCache(engine, rules, clock)
        # The attached listeners by role, in the order they are called (read by tests, diagnostics).
        self.listeners: dict[str, list[Listener]] = {role: [] for role in MATCH_LISTENERS}
        self._table_listeners: list[TableListener] = []
        self.reopen_guard: ReopenGuard | None = None
        self._swept_at = 0

    # --- listeners ----------------------------------------------------------------------------

    def subscribe(self, listener: Listener, role: str) -> Callable[[], None]:
        """Call `listener(change)` after every stored change, in the order of its `role` in
        MATCH_LISTENERS (hub/matches/listeners.py, where every role is named); returns the
        unsubscribe function."""
        if role not in self.listeners:
            raise ValueError(f"{role!r} is not in MATCH_LISTENERS (hub/matches/listeners.py)")
        same_role = self.listeners[role]
        same_role.append(listener)

        def unsubscribe() -> None:
            if listener in same_role:
                same_role.remove(listener)

        return unsubscribe

    def subscribe_tables(self, listener: TableListener) -> Callable[[], None]:
        """Call `listener(notice)` when a table's scheduled match is cancelled."""
        self._table_listeners.append(listener)
        return lambda: self._table_listeners.remove(listener) if listener in self._table_listeners else None

    def table_changed(self, table_id: str, tournament_id: str) -> None:
        """Tell the table listeners that a table changed (made, renamed) without a match changing:
        screens read the table (and its tournament) again, the draw's flow looks at it."""
        asyncio.get_running_loop().call_soon(self._notify_table, TableNotice(table_id, tournament_id, ""))

    def _notify_table(self, notice: TableNotice) -> None:
        for listener in list(self._table_listeners):
            try:
                listener(notice)
            except Exception:
                log.exception("table listener failed on %s", notice.table_id)

    def _notify(self, change: Change) -> None:
        for listener in [one for same_role in self.listeners.values() for one in same_role]:
            try:
                listener(change)
            except Exception:  # a broken listener must never hurt the writer or the others
                log.exception("listener failed on %s v%s", change.match_id, change.version)

    def _publish(self, live: LiveMatch, event: dict[str, Any] | None, moved_from: str | None = None) -> None:
        change = Change(live.row.id, live.row.tournament_id, live.row.table_id, live.version, live.projection, event,
                        moved_from)
        asyncio.get_running_loop().call_soon(self._notify, change)

    # --- reads --------------------------------------------------------------------------------

    def cached_state(self, match_id: str) -> tuple[int, Any] | None:
        """(version, state) of the match if it is in memory now (no I/O): MatchCache.cached_state."""
        return self.cache.cached_state(match_id)

    async def match_row(self, match_id: str) -> catalog.MatchRow | None:
        """The match's ids (tournament, table) from memory: the hot path of every command."""
        live = await self.cache.load(match_id)
        return None if live is None else live.row

    async def state(self, match_id: str) -> Any | None:
        live = await self.cache.current(match_id)
        return None if live is None else live.state

    async def projection(self, match_id: str) -> dict[str, Any] | None:
        live = await self.cache.current(match_id)
        return None if live is None else live.projection

    async def short_projection(self, match_id: str) -> dict[str, Any] | None:
        live = await self.cache.current(match_id)
        return None if live is None else self._rules.short_projection(live.state)

    async def table_projection(self, table_id: str) -> dict[str, Any] | None:
        """The projection of the match on a table now (PROTOCOL.md section 2), or None."""
        mid = await catalog.current_match_id(self._engine, table_id)
        return None if mid is None else await self.projection(mid)

    # --- writes -------------------------------------------------------------------------------

    async def create_match(
        self, body: Mapping[str, Any], *, tournament_id: str, table_id: str, match_id: str | None = None,
        draw_key: str | None = None, also: catalog.InTransaction | None = None,
    ) -> dict[str, Any]:
        """Store a new match; raises rules.SetupError (bad body) or catalog.TableBusy. `also(conn)`
        runs in the same transaction (the tournament engine stores its `match_called` there, so a
        call and its match exist together or not at all); whatever it raises undoes the insert."""
        match_id = match_id or catalog.new_id("m")
        setup_body = fill_player_ids(body)
        setup = self._rules.validate_setup(
            setup_body, match_id=match_id, tournament_id=tournament_id, table_id=table_id
        )
        state = self._rules.initial(setup)
        proj = self._rules.projection(state)
        discipline = str(setup_body.get("discipline"))
        await catalog.insert_match(
            self._engine, match_id=match_id, tournament_id=tournament_id, table_id=table_id,
            discipline=discipline, setup=setup_body, status=proj["status"], draw_key=draw_key, also=also,
        )
        row = catalog.MatchRow(match_id, tournament_id, table_id, discipline, setup_body, proj["status"], 0, draw_key)
        live = LiveMatch(row=row, setup=setup, state=state, projection=proj, version=0)
        self.cache.remember(match_id, live)
        self._publish(live, None)
        return proj

    async def cancel_match(self, match_id: str, also: catalog.InTransaction | None = None) -> catalog.MatchRow | None:
        """Take a scheduled match off its table (PROTOCOL.md section 7, `DELETE /api/matches/{mid}`, and
        the draw's uncalls); `also(conn)` runs in the same transaction. None (and nothing changed) when
        the match is unknown or no longer scheduled. The table's listeners are told to look again."""
        live = await self.cache.load(match_id)
        if live is None:
            return None
        async with live.lock:
            row = await catalog.cancel_match(self._engine, match_id, also)
            if row is None:
                await self.cache.catch_up(live)
                return None
            self.cache.forget(match_id)  # gone for every reader; its events stay in the store
        notice = TableNotice(row.table_id, row.tournament_id, match_id)
        asyncio.get_running_loop().call_soon(self._notify_table, notice)
        return row

    async def cancel_draw_matches(self, tournament_id: str, also: catalog.InTransaction | None = None) -> list[str]:
        """Take every scheduled match of the tournament's draw off its table, in one transaction with
        `also(conn)` (a redraw's event); the ids cancelled."""
        rows = await catalog.cancel_draw_matches(self._engine, tournament_id, also)
        loop = asyncio.get_running_loop()
        for row in rows:
            self.cache.forget(row.id)
            loop.call_soon(self._notify_table, TableNotice(row.table_id, row.tournament_id, row.id))
        return [row.id for row in rows]

    async def submit(
        self, match_id: str, command_id: str | None, command: Mapping[str, Any], expected_version: int | None = None,
        *, server: bool = False, token: str | None = None, check: catalog.InTransaction | None = None,
    ) -> Answer:
        """Run one command envelope. Never raises for bad input: the answer says what happened.
        A database failure raises SQLAlchemyError (HTTP answers 503; the tablet reconnects and resends).
        `token`: the hash of the table token the sender was let in with; checked in the transaction
        that would store anything (event or refusal), so a rotation (in any process) takes effect at
        once: TokenRevoked, nothing stored.

        A command id has one answer on every process: an id unknown here is checked against the
        stored refusals in the append's transaction (store.AlreadyRefused), and a refusal is only
        stored if no process stored the id as an event (both take the match row's lock first).

        The command is judged on the match in memory, without first asking the store for its
        head (one round trip less on every stroke). That is safe because memory can only be
        behind when another process stored events: then an accepted command's append collides
        with the stored version (unique (match_id, version)) and is judged again after a refold,
        and a refusal is only given after checking the store's head (see `_reject`).

        `check(conn)` runs in the transaction that would store the event, after the match row's
        lock (store.append); its store.CheckFailed is the answer (not remembered under the id)."""
        live = await self.cache.load(match_id)
        if live is None:
            return Rejected("unknown_match", f"no match {match_id!r}")
        async with live.lock:
            for _attempt in range(4):
                if command_id is not None:
                    if command_id in live.commands:
                        return Ack(live.commands[command_id])
                    if command_id in live.rejects:
                        first = live.rejects[command_id]
                        return Rejected(first.code, first.message)
                if expected_version is not None and expected_version != live.version:
                    answer = await self._reject(
                        live, command_id, "version_conflict",
                        f"expected version {expected_version}, the match is at {live.version}", token=token,
                    )
                else:
                    answer = await self._decide_and_store(live, command_id, command, server, token, check)
                if answer is not _LOST_RACE:
                    return answer
                # Memory was behind the store (another process stored first) and has been
                # refolded: the command is judged again on the new state.
            return await self._reject(live, command_id, "version_conflict", "the match kept changing; send again",
                                      checked=True, token=token)

    async def submit_server(self, match_id: str, command: Mapping[str, Any], expected_version: int) -> Answer:
        """A server-made command (clock_expired, match_time_expired), armed at `expected_version`:
        if anything was stored since, it is refused with version_conflict and changes nothing."""
        return await self.submit(match_id, None, command, expected_version, server=True)

    async def _decide_and_store(
        self, live: LiveMatch, command_id: str | None, command: Mapping[str, Any], server: bool,
        token: str | None = None, check: catalog.InTransaction | None = None,
    ) -> Answer:
        rules = self._rules
        try:
            kind, data = rules.decide(live.state, command, server=server)
        except rules.Reject as r:
            return await self._reject(live, command_id, r.code, r.message, token=token)
        except Exception:
            log.exception("rules.decide failed on %s", live.row.id)
            return await self._reject(live, command_id, "bad_command", "the command could not be applied", token=token)

        event = rules.Event(
            version=live.version + 1, kind=kind, data=dict(data), at=self._clock(), command_id=command_id
        )
        # An undo voids its target; so does a stroke entered before the shot clock ran out, the expiry
        # stored after it (rules: data["voids"]). Either way the state is folded again without it.
        target = data.get("target") if kind == "undo" else data.get("voids")
        void_target: int | None = None if target is None else int(target)
        try:
            if void_target is not None:
                stream = await store.read_events(self._engine, live.row.id)
                stream = [replace(e, voided=True) if e.version == void_target else e for e in stream]
                new_state = rules.fold(live.setup, [*stream, event])
            else:
                new_state = rules.evolve(live.state, event)
            proj = rules.projection(new_state)
        except Exception:
            log.exception("rules failed to apply %s on %s", kind, live.row.id)
            return await self._reject(live, command_id, "bad_command", "the command could not be applied", token=token)

        moved_to = data["table_id"] if kind == "table_moved" else None
        if live.projection.get("status") == "finished" and proj["status"] != "finished" and self.reopen_guard:
            refusal = await self.reopen_guard(live.row)
            if refusal is not None:
                return await self._reject(live, command_id, "not_allowed", refusal, token=token)
        try:
            await store.append(self._engine, live.row.id, event, status=proj["status"], void_target=void_target,
                               table_id=moved_to, token=None if token is None else (live.row.table_id, token),
                               check=check)
        except store.CheckFailed as failed:
            return Rejected(failed.code, failed.message)
        except store.DuplicateCommand as dup:  # another process stored this id first
            await self.cache.refold(live)
            return Ack(dup.version)
        except store.AlreadyRefused as refused:  # refused before (maybe by another process): same answer
            assert command_id is not None
            self.cache.remember_refusal(live, command_id, refused.answer)
            return Rejected(refused.answer.code, refused.answer.message)
        except store.VersionConflict:  # another process stored this version first
            await self.cache.catch_up(live)
            return _LOST_RACE
        except catalog.TableBusy:
            if moved_to is not None:
                return await self._reject(live, command_id, "not_allowed", f"table {moved_to!r} has an open match",
                                          token=token)
            return await self._reject(
                live, command_id, "not_allowed", "this would reopen the match, but its table has another open match",
                token=token,
            )
        except SQLAlchemyError:
            # The database failed (not a constraint): the commit may or may not have happened, so
            # forget this match's memory; the next access refolds it and a retry gets the truth.
            self.cache.forget(live.row.id)
            raise

        live.state, live.projection, live.version = new_state, proj, event.version
        if command_id is not None:
            live.commands[command_id] = event.version
        moved_from = None
        if moved_to is not None:
            moved_from = live.row.table_id
            live.row = replace(live.row, table_id=moved_to)
        self._publish(live, event.to_json(), moved_from)
        if proj["status"] == "finished":  # one more finished match in memory: the oldest beyond the bound go
            self.cache.bound(live.row.id)
        return Ack(event.version)

    async def _reject(self, live: LiveMatch, command_id: str | None, code: str, message: str,
                      checked: bool = False, token: str | None = None) -> Any:
        """Refuse the command (stored under its id, so a resend gets the same answer), unless memory
        turns out to be behind the store: then _LOST_RACE, and the command is judged again. Refusals
        are remembered within HUB_REFUSALS_PER_MATCH / HUB_REFUSAL_TTL_S."""
        if not checked and await self.cache.catch_up(live):
            return _LOST_RACE
        if command_id is not None:
            now = self._clock()
            # The count is pruned once this process remembers a whole bound's worth (its memory holds
            # the newest of the store's); the TTL by a sweep of every match, at most every TTL.
            full = len(live.rejects) >= self.cache.refusals_per_match
            first = await store.save_rejection(
                self._engine, live.row.id, command_id, store.RejectAnswer(code, message), now,
                keep=self.cache.refusals_per_match if full else None,
                token=None if token is None else (live.row.table_id, token),
            )
            if now - self._swept_at >= min(SWEEP_EVERY_MS, self.cache.refusal_ttl_ms):
                self._swept_at = now
                try:
                    await store.sweep_rejections(self._engine, now - self.cache.refusal_ttl_ms)
                except SQLAlchemyError:
                    log.warning("could not sweep expired refusals")
            if isinstance(first, int):  # another process stored this id meanwhile: its answer stands
                await self.cache.refold(live)
                return Ack(first)
            self.cache.remember_refusal(live, command_id, first)
            return Rejected(first.code, first.message)
        return Rejected(code, message)
