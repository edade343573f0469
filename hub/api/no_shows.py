"""No-shows on the day (PROTOCOL.md section 16) and the tournament's settings.

- `PATCH /api/tournaments/{tid}` (admin) `{"no_show_minutes": x}`: a number > 0 (fractions allowed,
  at most 1440; default 10), stored as a `no_show_minutes_set` event of the tournament. `200` the
  tournament's settings `{"id", "no_show_minutes"}`; `422 bad_request` for anything else. Each member
  of the body is one setting with its own handler in `SETTINGS`; sign-up's `registration` (section
  14) is its own stream's (hub/api/registration.py `configure`; the answer's `registration`). An
  unknown member is refused, and nothing is stored unless every member is good.
- `GET /api/tournaments/{tid}/no_shows` (public): `{"no_show_minutes", "server_time", "flagged": [{"key",
  "match_id", "table_id", "players", "called_at", "no_show_at", "since_ms"}]}`: the called matches not
  started within the setting (or the desk's wait), oldest call first. Derived from stored facts (the
  call's time, the setting, the waits) and the clock, so a restarted hub flags the same ones.
- `POST /api/tournaments/{tid}/draw/{key}/wait` (admin) `{"minutes"?: 5}`: the flag goes away and comes
  back that many minutes from now if the match has still not started (`no_show_waited`).

The desk's other two choices are the calls of section 7 and the hub's requeue:
`POST .../draw/{key}/walkover` `{"winner": the player who is there}` and `POST .../draw/{key}/requeue`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, Request

from hub import draws
from hub.api import deps, models, registration
from hub.api import no_show_models as nm
from hub.api.errors import ApiError
from hub.api.tournaments import _apply, _body, _flow_idle, _state
from hub.draws import no_shows
from hub.store import catalog
from hub.store.db import now_ms

router = APIRouter(prefix="/api", tags=["running a competition"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)

# One handler per member of the PATCH body: (request, tid, value) -> the command to store.
Setting = Callable[[Request, str, Any], Awaitable[dict[str, Any]]]


async def _no_show_minutes(request: Request, tid: str, value: Any) -> dict[str, Any]:
    return {"kind": "set_no_show_minutes", "minutes": value}


SETTINGS: dict[str, Setting] = {"no_show_minutes": _no_show_minutes}


def _settings(state: Any) -> dict[str, Any]:
    return {"id": state.tournament_id, "no_show_minutes": state.no_show_minutes}


@router.patch("/tournaments/{tid}", dependencies=ADMIN, response_model=None,
              openapi_extra=models.body(nm.TournamentSettings),
              responses=models.ok(nm.SettingsAnswer, "The tournament's settings now.") | WRITE_ERRORS)
async def change_settings(tid: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    unknown = sorted(set(body) - set(SETTINGS) - {"registration"})
    if unknown or not body:
        raise ApiError(422, "bad_request", f"unknown setting {unknown[0]!r}" if unknown else "nothing to change")
    await _state(request, tid)  # 404 first
    commands = [await SETTINGS[name](request, tid, value) for name, value in body.items() if name in SETTINGS]
    for command in commands:  # each checked before any is stored
        try:
            draws.decide(await _state(request, tid), command)
        except draws.DrawReject as r:
            raise ApiError(r.status, r.code, r.message) from None
    # Sign-up's settings (section 14) are their own stream's (hub/registration/): checked and stored
    # there, after the draw's settings were checked and before they are stored.
    changed = await registration.configure(request, tid, body["registration"]) if "registration" in body else None
    for command in commands:
        await _apply(request, tid, command)
    answer = _settings(await _state(request, tid))
    return answer if changed is None else {**answer, "registration": changed}


@router.get("/tournaments/{tid}/no_shows", response_model=None,
            responses=models.ok(nm.NoShows, "The called matches flagged as no-shows now.") | models.errors(404))
async def list_no_shows(tid: str, request: Request) -> dict[str, Any]:
    state = await _state(request, tid)
    mids = [c.match_id for c in state.open_calls.values()]
    statuses = await catalog.match_statuses(deps.engine(request), mids)
    started = [mid for mid, status in statuses.items() if status != "scheduled"]
    now = now_ms()
    return {"no_show_minutes": state.no_show_minutes, "server_time": now,
            "flagged": no_shows.flagged(state, started, now)}


@router.post("/tournaments/{tid}/draw/{key}/wait", dependencies=ADMIN, response_model=None,
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
