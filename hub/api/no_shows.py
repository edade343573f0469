"""No-shows on the day (PROTOCOL.md section 16). The setting they follow, `no_show_minutes`, is
changed with `PATCH /api/tournaments/{tid}` (hub/api/tournament_settings.py).

- `GET /api/tournaments/{tid}/no_shows` (public): `{"no_show_minutes", "server_time", "flagged": [{"key",
  "match_id", "table_id", "players", "called_at", "no_show_at", "since_ms"}]}`: the called matches not
  started within the setting (or the desk's wait), oldest call first; a called rubber of a team
  match among them, its key the rubber's (`W1-1/2`). Derived from stored facts (the
  call's time, the setting, the waits) and the clock, so a restarted hub flags the same ones.
- `POST /api/tournaments/{tid}/draw/{key}/wait` (admin) `{"minutes"?: 5}`: the flag goes away and comes
  back that many minutes from now if the match has still not started (`no_show_waited`); a called
  rubber's key (`W1-1/2`, taken with its slash: `{key:path}`) too.

The desk's other two choices are the calls of section 7 and the hub's requeue:
`POST .../draw/{key}/walkover` `{"winner": the player who is there}` and `POST .../draw/{key}/requeue`
(for a rubber: its match's result is entered for the side there; requeued, it comes after the other rubbers).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from hub.api import deps, models
from hub.api import no_show_models as nm
from hub.api.tournaments import _apply, _body, _flow_idle, _state
from hub.draws import no_shows
from hub.store import catalog
from hub.store.db import now_ms

router = APIRouter(prefix="/api", tags=["running a competition"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)

@router.get("/tournaments/{tid}/no_shows", response_model=None,
            responses=models.ok(nm.NoShows, "The called matches flagged as no-shows now.") | models.errors(404))
async def list_no_shows(tid: str, request: Request) -> dict[str, Any]:
    state = await _state(request, tid)
    mids = [c.match_id for c in (*state.open_calls.values(), *state.open_rubbers.values())]  # rubbers too
    statuses = await catalog.match_statuses(deps.engine(request), mids)
    started = [mid for mid, status in statuses.items() if status != "scheduled"]
    now = now_ms()
    return {"no_show_minutes": state.no_show_minutes, "server_time": now,
            "flagged": no_shows.flagged(state, started, now)}


@router.post("/tournaments/{tid}/draw/{key:path}/wait", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(nm.Wait, required=False),
             responses=models.ok(nm.Waited, "When the match is flagged again.") | WRITE_ERRORS)
async def wait(tid: str, key: str, request: Request) -> dict[str, Any]:
    body = await _body(request) if await request.body() else {}
    command: dict[str, Any] = {"kind": "wait_no_show", "key": key}
    if "minutes" in body:
        command["minutes"] = body["minutes"]
    state, _ = await _apply(request, tid, command)
    await _flow_idle(request, tid)
    return {"key": key, "no_show_at": no_shows.no_show_at(state, key)}
