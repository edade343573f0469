"""The flow's part for team matches (PROTOCOL.md section 15; the facts are hub/draws/teams.py).

Each pass of the flow (hub/tournaments/flow.py) asks, before feeding free tables:
1. a called rubber whose match finished -> `take_rubber` (its winner and scores, read from the match);
   one whose match is gone (cancelled) -> `uncall_rubber`;
2. a called rubber not started whose team match is decided meanwhile (by its rubbers, or without
   play: a walkover, a team withdrawn) -> taken off its table (it is not played); a rubber being
   played then is played out (its result changes nothing), unless the team match was given without
   play: then the side of the team that lost it forfeits the rubber, so none stays on a table;
3. a rubber whose result the draw holds and whose match moved on since (a result entered by hand
   over it, or finished again after an undo) -> `take_rubber` again (a correction: the team match's
   outcome is derived again, hub/draws/team_corrections.py); one whose match is open again (an
   undo) -> `void_rubber`. A correction the draw refuses (a match it fed has been played since) is
   logged once per match version, not retried;
then free tables get the rubbers `dispatch_rubbers` names, each match created with its `rubber_called`
in one transaction, like a draw match's call.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub import draws
from hub.draws import DrawReject, teams
from hub.draws.state import TournamentState
from hub.matches.writer import Ack, MatchWriter
from hub.store import catalog
from hub.tournaments.draw_results import result_command
from hub.tournaments.writer import NotStored, TournamentWriter

log = logging.getLogger(__name__)


class RubberFlow:
    def __init__(self, engine: AsyncEngine, matches: MatchWriter, tournaments: TournamentWriter) -> None:
        self._engine = engine
        self._matches = matches
        self._tournaments = tournaments
        # (match id, version) whose correction the draw refused: not tried again until the match moves
        self._looked: set[tuple[str, int]] = set()

    async def _command(self, tid: str, command: dict[str, Any], **kw: Any) -> bool:
        try:
            await self._tournaments.apply(tid, command, **kw)
        except DrawReject as r:  # the state moved under us: look again
            log.info("tournament %s: %s refused (%s: %s)", tid, command["kind"], r.code, r.message)
        except (NotStored, catalog.TableBusy):
            pass
        return True

    async def settle(self, tid: str, state: TournamentState) -> bool:
        """Steps 1 to 3 of the module's docstring: True when something was done (look again)."""
        mids = sorted({c.match_id for c in state.rubber_calls.values()})
        if not mids:
            return False
        heads = await catalog.match_heads(self._engine, mids)
        for rkey, call in state.open_rubbers.items():
            status = heads.get(call.match_id, (None, 0))[0]
            parent = state.derived.by_key.get(teams.rubber_parent(rkey))
            if status == "finished":
                if await self._take(tid, rkey, call.match_id):
                    return True
            elif status is None or status == catalog.CANCELLED:
                return await self._command(tid, {"kind": "uncall_rubber", "rubber": rkey})
            elif status == "scheduled" and parent is not None and parent.status in ("finished", "walkover"):
                return await self._drop(tid, rkey, call.match_id)
            elif status == "live" and parent is not None and parent.status == "walkover":
                await self._forfeit(state, rkey, call.match_id, parent.winner)
        for rkey, result in state.rubber_results.items():
            status, version = heads.get(result.match_id, (None, 0))
            if result.match_version is None or (result.match_id, version) in self._looked:
                continue
            if status == "finished" and version > result.match_version:
                if await self._take(tid, rkey, result.match_id, correcting=True):
                    return True
                self._looked.add((result.match_id, version))
            elif status in catalog.OPEN_STATUSES:
                command = {"kind": "void_rubber", "rubber": rkey, "match_id": result.match_id}
                if await self._correct(tid, command):
                    return True
                self._looked.add((result.match_id, version))
        return False

    async def _take(self, tid: str, rkey: str, mid: str, *, correcting: bool = False) -> bool:
        """Take the rubber's match's result into the draw (again, when correcting); True if stored."""
        proj = await self._matches.projection(mid)
        taken = result_command(rkey, mid, proj)
        if taken is None:
            return False
        command = {"kind": "take_rubber", "rubber": rkey, "match_id": mid, "winner": taken["winner"],
                   "scores": taken["scores"], "match_version": taken["match_version"]}
        if not correcting:
            return await self._command(tid, command)
        return await self._correct(tid, command)

    async def _correct(self, tid: str, command: dict[str, Any]) -> bool:
        """A correction of a rubber's result: refused (logged) when the team match's new outcome would
        change a match fed by it that has been played or has started since."""
        state = await self._tournaments.state(tid)
        if state is None:
            return False
        try:
            kind, data = draws.decide(state, command)
            called = draws.affected_calls(state, kind, data)
        except DrawReject as r:
            if r.code != "already_decided":
                log.error("tournament %s: rubber %s changed, but the draw keeps its result (%s: %s)",
                          tid, command["rubber"], r.code, r.message)
            return False
        statuses = await catalog.match_statuses(self._engine, [m for _, m in called])
        started = [k for k, m in called if statuses.get(m) in ("live", "finished")]
        if started:
            log.error("tournament %s: rubber %s changed, but %s has started since: the draw keeps its result",
                      tid, command["rubber"], started[0])
            return False
        return await self._command(tid, command)

    async def check_reopen(self, state: TournamentState, row: catalog.MatchRow) -> str | None:
        """An undo would reopen `row`, a finished rubber's match: refused when the draw could not void
        its result (a match fed by the team match's outcome has been played or has started since), or
        when its table holds a match that has started; a rubber called onto that table meanwhile and
        not started goes back (uncalled) so this one is played on where it was."""
        rkey = state.rubber_matches.get(row.id)
        held = state.rubber_results.get(rkey) if rkey is not None else None
        if rkey is None or held is None or held.match_id != row.id:
            return None
        try:
            kind, data = draws.decide(state, {"kind": "void_rubber", "rubber": rkey, "match_id": row.id})
            called = draws.affected_calls(state, kind, data)
        except DrawReject as r:
            return f"{r.message}: the result of this rubber stands"
        statuses = await catalog.match_statuses(self._engine, [m for _, m in called])
        if any(statuses.get(m) in ("live", "finished") for _, m in called):
            return "a match that depends on this team match has started: the result of this rubber stands"
        holder = (await catalog.open_matches(self._engine, row.tournament_id)).get(row.table_id)
        if holder is None or holder == row.id:
            return None
        other = state.rubber_matches.get(holder)
        if other is None or (await catalog.match_statuses(self._engine, [holder])).get(holder) != "scheduled":
            return "this match's table has another match on it that has started"
        await self._drop(row.tournament_id, other, holder)
        return None

    async def _forfeit(self, state: TournamentState, rkey: str, mid: str, winner: str | None) -> None:
        """The team match was given without play while this rubber was played: the other side forfeits it."""
        call = state.rubber_calls[rkey]
        for side in call.players:
            team = state.member_team.get(side, side)
            if team == winner:
                continue
            command: dict[str, Any] = {"kind": "penalty", "player": side, "type": "forfeit_match"}
            if state.player(team).withdrawn:
                command["withdrawn"] = True
            answer = await self._matches.submit(mid, f"team-walkover:{rkey}:{side}", command, server=True)
            if not isinstance(answer, Ack):
                log.warning("match %s (%s): %s could not forfeit (%s)", mid, rkey, side, answer)

    async def _drop(self, tid: str, rkey: str, mid: str) -> bool:
        async def store_with(append: catalog.InTransaction) -> Any:
            return await self._matches.cancel_match(mid, also=append)

        return await self._command(tid, {"kind": "uncall_rubber", "rubber": rkey}, store_with=store_with)

    async def feed(self, tid: str, state: TournamentState, free: list[tuple[str, bool]]) -> bool:
        """Free tables take the rubbers that may be called: True when one was called (look again)."""
        for rkey, table_id in teams.dispatch_rubbers(state, free):
            body = teams.rubber_body(state, rkey)
            match_id = catalog.new_id("m")

            async def store_with(append: catalog.InTransaction, body: dict[str, Any] = body,
                                 match_id: str = match_id, rkey: str = rkey, table_id: str = table_id) -> Any:
                return await self._matches.create_match(body, tournament_id=tid, table_id=table_id,
                                                        match_id=match_id, draw_key=rkey, also=append)

            command = {"kind": "call_rubber", "rubber": rkey, "match_id": match_id, "table_id": table_id}
            return await self._command(tid, command, store_with=store_with)
        return False
