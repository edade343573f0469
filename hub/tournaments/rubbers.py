"""The flow's part for team matches (PROTOCOL.md section 15; the facts are hub/draws/teams.py).

Each pass of the flow (hub/tournaments/flow.py) asks, before feeding free tables:
1. a called rubber whose match finished -> `take_rubber` (its winner and scores, read from the match);
   one whose match is gone (cancelled) -> `uncall_rubber`;
2. a called rubber not started whose team match is decided meanwhile -> taken off its table (it is
   not played); a rubber being played then is played out (its result changes nothing);
then free tables get the rubbers `dispatch_rubbers` names, each match created with its `rubber_called`
in one transaction, like a draw match's call.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.draws import DrawReject, teams
from hub.draws.state import TournamentState
from hub.matches.writer import MatchWriter
from hub.store import catalog
from hub.tournaments.draw_results import result_command
from hub.tournaments.writer import NotStored, TournamentWriter

log = logging.getLogger(__name__)


class RubberFlow:
    def __init__(self, engine: AsyncEngine, matches: MatchWriter, tournaments: TournamentWriter) -> None:
        self._engine = engine
        self._matches = matches
        self._tournaments = tournaments

    async def _command(self, tid: str, command: dict[str, Any], **kw: Any) -> bool:
        try:
            await self._tournaments.apply(tid, command, **kw)
        except DrawReject as r:  # the state moved under us: look again
            log.info("tournament %s: %s refused (%s: %s)", tid, command["kind"], r.code, r.message)
        except (NotStored, catalog.TableBusy):
            pass
        return True

    async def settle(self, tid: str, state: TournamentState) -> bool:
        """Steps 1 and 2 of the module's docstring: True when something was done (look again)."""
        open_rubbers = state.open_rubbers
        if not open_rubbers:
            return False
        statuses = await catalog.match_statuses(self._engine, sorted(c.match_id for c in open_rubbers.values()))
        for rkey, call in open_rubbers.items():
            status = statuses.get(call.match_id)
            if status == "finished":
                taken = result_command(rkey, call.match_id, await self._matches.projection(call.match_id))
                if taken is not None:
                    command = {"kind": "take_rubber", "rubber": rkey, "match_id": call.match_id,
                               "winner": taken["winner"], "scores": taken["scores"]}
                    return await self._command(tid, command)
            elif status is None or status == catalog.CANCELLED:
                return await self._command(tid, {"kind": "uncall_rubber", "rubber": rkey})
            elif status == "scheduled" and teams.rubber_parent(rkey) in state.results:
                return await self._drop(tid, rkey, call.match_id)
        return False

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
