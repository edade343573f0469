"""The desk's sign-in (PROTOCOL.md section 8).

- `POST /api/session` `{"token": <admin token>}` -> 204 and the cookie `cuehub_session` (HttpOnly,
  SameSite=Strict, Path=/, Secure when the request came over HTTPS). A wrong token answers 401
  `wrong_token`; repeated attempts from one address are slowed down (hub/guards/throttle.py), past
  that 429 `too_many_attempts` with Retry-After.
- `GET /api/session` -> `{"signed_in", "expires_at"}` for the desk page (it cannot read the cookie).
- `DELETE /api/session` -> 204: the session is deleted from the store (the old cookie is refused by
  every process from then on) and the cookie is cleared.

The token travels only in the POST body: never in a URL, never in a log line (a wrong attempt is
logged with its address, not its value), never in the page's storage.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request, Response, Security
from fastapi.responses import JSONResponse

from hub.api import competition_models as cm
from hub.api import deps, models
from hub.api.errors import ApiError, read_json
from hub.guards import peer
from hub.guards.edge_json import error_body
from hub.guards.throttle import TooManyAttempts, guard_of, too_many_response
from hub.store import sessions

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["desk"])

MAX_TOKEN_CHARS = 512
NO_STORE = {"Cache-Control": "no-store"}


def _token(body: Any) -> str:
    token = body.get("token") if isinstance(body, dict) else None
    if not isinstance(token, str) or not token.strip():
        raise ApiError(422, "bad_request", 'the body must be {"token": "<admin token>"}')
    if len(token) > MAX_TOKEN_CHARS:
        raise ApiError(422, "bad_request", f"token is longer than {MAX_TOKEN_CHARS} characters")
    return token.strip()


def _no_content(description: str) -> dict[int | str, dict[str, Any]]:
    return {204: {"description": description}}


def _set_cookie(response: Response, request: Request, value: str, max_age_s: int) -> None:
    response.set_cookie(
        deps.SESSION_COOKIE, value, max_age=max_age_s, path="/", httponly=True, samesite="strict",
        secure=peer.is_https(request),
    )


@router.post(
    "/session",
    status_code=204,
    response_class=Response,
    openapi_extra=models.body(cm.SignIn),
    responses=_no_content("Signed in: the `cuehub_session` cookie is set.") | models.errors(401, 413, 422, 429),
)
async def sign_in(request: Request) -> Response:
    token = _token(await read_json(request, deps.settings(request).max_body_bytes))
    engine = deps.engine(request)
    guard = guard_of(request.app, engine)
    address = peer.client_key(request)
    keys = [f"signin:{key}" for key in peer.client_keys(request)]  # an IPv6 client: its /64 and its /48
    try:
        await guard.admit(keys, guard.policies.sign_in)
    except TooManyAttempts as exc:
        log.warning("desk sign-in refused: too many attempts from %s", address)
        return too_many_response(exc, "sign-in tokens")
    if not deps.is_admin_token(request, token):
        log.warning("desk sign-in with a wrong token from %s", address)
        return JSONResponse(error_body("wrong_token", "that is not the admin token"), status_code=401, headers=NO_STORE)
    await guard.succeeded(keys)
    life = deps.session_lifetime(request)
    value, _expires = await sessions.open_session(engine, deps.services(request).admin_hash, life)
    response = Response(status_code=204, headers=NO_STORE)
    _set_cookie(response, request, value, life.max_ms // 1000)
    log.info("desk signed in from %s", address)
    return response


@router.get(
    "/session",
    response_model=None,
    responses=models.ok(cm.SessionState, "Whether this browser is signed in (the page cannot read its cookie)."),
)
async def session_state(request: Request, cookie: str | None = Security(deps.desk_session)) -> JSONResponse:
    expires = None
    if cookie:
        expires = await sessions.use_session(
            deps.engine(request), cookie, deps.services(request).admin_hash, deps.session_lifetime(request)
        )
    return JSONResponse({"signed_in": expires is not None, "expires_at": expires}, headers=NO_STORE)


@router.delete("/session", status_code=204, response_class=Response,
               responses=_no_content("Signed out: the session is ended and the cookie cleared.") | models.errors(403))
async def sign_out(request: Request, cookie: str | None = Security(deps.desk_session)) -> Response:
    if cookie:
        if request.headers.get(deps.CSRF_HEADER) != deps.CSRF_VALUE:
            raise ApiError(
                403,
                "csrf_header_required",
                f"signing out with the session cookie needs the header {deps.CSRF_HEADER}: {deps.CSRF_VALUE}",
            )
        await sessions.end_session(deps.engine(request), cookie)
    response = Response(status_code=204, headers=NO_STORE)
    response.delete_cookie(
        deps.SESSION_COOKIE, path="/", httponly=True, samesite="strict", secure=peer.is_https(request)
    )
    return response
