"""A called rubber of a team match at the desk's no-show choices (PROTOCOL.md sections 15 and 16,
docs/teams.md): `POST .../draw/{rubber key}/walkover` and `.../requeue` (hub/api/tournaments.py) and
`.../wait` (hub/api/no_shows.py) take a rubber's key, slash and all (`W1-1/2`, their `{key:path}`);
these are their rubber halves."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from hub import draws
from hub.api import deps
from hub.api.errors import ApiError
from hub.draws import teams
from hub.draws.state import TournamentState
from hub.matches.writer import Ack
from hub.store import catalog


def is_rubber(key: str) -> bool:
    """A rubber's key (`W1-1/2`, docs/teams.md): the routes taking one match it with `{key:path}`."""
    return "/" in key


async def called_rubber(request: Request, tid: str, rkey: str) -> tuple[TournamentState, Any]:
    """The state and the call of the called rubber `rkey`: 404 unknown_key for no such rubber, 409
    not_called for one not on a table (a rubber not called is the flow's: it is called once its
    lineups are in, or dropped once its team match is decided)."""
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    state = await deps.services(request).tournaments.state(tid)
    if state is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    call = state.open_rubbers.get(rkey)
    if call is None:
        try:
            teams.rubber_at(state, rkey)
        except draws.DrawReject as r:
            raise ApiError(r.status, r.code, r.message) from None
        raise ApiError(409, "not_called", f"rubber {rkey} is not on a table")
    status = (await catalog.match_statuses(deps.engine(request), [call.match_id])).get(call.match_id)
    if status != "scheduled":
        raise ApiError(409, "match_started", f"{rkey} is being played: settle it on the table (concede, forfeit)")
    return state, call


async def walkover(request: Request, tid: str, rkey: str, winner: Any) -> None:
    """The desk's walkover of a called rubber not started: its match gets a result entered for the side
    there (its race won, the absent side 0; as `POST /api/matches/{mid}/result` stores one, since a
    forfeit needs a started match), and the flow takes it like any rubber's result, so the team
    match's score follows. `winner`: the side there, a member id of the rubber or its team's id."""
    state, call = await called_rubber(request, tid, rkey)
    sides = list(call.players)
    present = [s for s in sides if winner in (s, state.member_team.get(s, s))] if isinstance(winner, str) else []
    if len(present) != 1:
        raise ApiError(422, "not_in_match", f"winner must be a side of {rkey}: one of {sides} or their teams")
    writer = deps.writer(request)
    proj = await writer.projection(call.match_id)
    race = {p["id"]: p.get("race_to") for p in (proj or {}).get("players", [])}
    won = race.get(present[0]) if isinstance(race.get(present[0]), int) else 1  # a match of racks or minutes: 1-0
    score = {side: won if side == present[0] else 0 for side in sides}
    names = {p["id"]: p.get("name") or p["id"] for p in (proj or {}).get("players", [])}  # the reason is on screens
    absent = ", ".join(str(names.get(s, s)) for s in sides if s != present[0])
    command = {"kind": "result_entered", "winner": present[0], "score": score, "reason": f"no-show: {absent}"}
    answer = await writer.submit(call.match_id, f"no-show:{rkey}:{call.match_id}", command, server=True)
    if not isinstance(answer, Ack):
        raise ApiError(409, answer.code, f"{rkey}: {answer.message}")
