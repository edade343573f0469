"""Team matches over REST (PROTOCOL.md section 15): the desk names each rubber's lineup.

- `POST /api/tournaments/{tid}/draw/{key}/lineup` `{"rubber": i (1-based), "team": id, "members": [...]}`
  (desk): the team's players for that rubber, as member ids (`p3.1`) or person ids. 422 `not_member`,
  `lineup_size`, `not_team_match`; 409 `rubber_called`, `team_decided`. Once both teams have named
  theirs the flow calls the rubber to a free table. The answer is the team match as the desk sees it.
- `GET /api/team-presets`: the team events the desk sets up in a few steps (hub/draws/draw_formats/team_presets.py).
- `GET` of the lineup path (desk): the team match with every lineup named so far. Everyone else sees
  a lineup (in the tournament projection, `draw.matches[].team.rubbers[].lineups`) only once both
  teams have named theirs; until then only which teams have (`named`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from hub.api import models
from hub.api import team_models as tm
from hub.api.errors import ApiError
from hub.api.tournaments import ADMIN, WRITE_ERRORS, _apply, _body, _flow_idle, _state
from hub.draws import team_projection
from hub.draws.draw_formats import team_presets

router = APIRouter(prefix="/api", tags=["running a competition"], responses=models.errors(503))


async def _desk_view(request: Request, tid: str, key: str) -> dict[str, Any]:
    state = await _state(request, tid)
    match = state.derived.by_key.get(key)
    view = team_projection.team_json(state, match, desk=True) if match is not None else None
    if match is None or view is None:
        raise ApiError(404, "unknown_key", f"no team match {key!r}")
    return {"key": key, "players": list(match.players), "status": match.status, "team": view}


@router.get("/tournaments/{tid}/draw/{key}/lineup", dependencies=ADMIN, response_model=None,
            responses=models.ok(tm.TeamMatchDeskView, "The team match with every lineup named.")
            | models.errors(401, 403, 404))
async def get_lineups(tid: str, key: str, request: Request) -> dict[str, Any]:
    return await _desk_view(request, tid, key)


@router.post("/tournaments/{tid}/draw/{key}/lineup", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(tm.LineupBody),
             responses=models.ok(tm.TeamMatchDeskView, "The team match with the lineup named.") | WRITE_ERRORS)
async def name_lineup(tid: str, key: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    await _apply(request, tid, {**body, "kind": "name_lineup", "key": key})
    await _flow_idle(request, tid)
    return await _desk_view(request, tid, key)


@router.get("/team-presets", response_model=None,
            responses=models.ok(tm.TeamPresets, "The team events the desk offers."))
async def list_presets() -> dict[str, Any]:
    return team_presets.catalogue()
