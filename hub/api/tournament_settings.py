"""The tournament's settings (PROTOCOL.md section 16).

- `PATCH /api/tournaments/{tid}` (admin) `{"no_show_minutes": x}`: a number > 0 (fractions allowed,
  at most 1440; default 10), stored as a `no_show_minutes_set` event of the tournament. `200` the
  tournament's settings `{"id", "no_show_minutes"}`; `422 bad_request` for anything else. Each member
  of the body is one setting with its own handler in `SETTINGS`; sign-up's `registration` (section
  14) is its own stream's (hub/api/registration.py `configure`; the answer's `registration`). An
  unknown member is refused, and nothing is stored unless every member is good.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, Request

from hub import draws
from hub.api import deps, models, registration
from hub.api import no_show_models as nm
from hub.api.errors import ApiError
from hub.api.tournaments import _apply, _body, _state

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
