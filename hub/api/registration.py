"""Sign-up and check-in over REST (PROTOCOL.md section 14).

- `PATCH /api/tournaments/{tid}` `{"registration": {...}}` (admin): open or close registration, its
  closing time, cap, auto-accept and check-in window; `GET /api/tournaments/{tid}/registration`
  (public): those settings with counts (no names, no contacts).
- `POST /api/tournaments/{tid}/entries` (no token): a sign-up, slowed down per address and budgeted
  hub-wide (hub/guards/throttle.py `Policies.sign_up`, `sign_up_hub`; the organiser's credential is
  never refused). Its answer carries the entry's secret, shown once: only its SHA-256 is stored.
- The desk (admin): `GET .../entries` (with contacts), `POST .../entries/{eid}/accept`, `/reject`,
  `/waitlist`, `/check_in`.
- The entry's holder, with `Authorization: Bearer <secret>`: `GET /api/entries/self`, `DELETE` (cancel),
  `POST /api/entries/self/check_in`.

Every write is a command of the tournament's registration stream (hub/registration/registrar.py),
answered once stored, with the tournament's players already following it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import secrets
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hub.api import deps, models
from hub.api import registration_models as rm
from hub.api.errors import ApiError, read_json
from hub.draws.events import DrawReject
from hub.guards import peer
from hub.guards.edge_json import error_body
from hub.guards.throttle import TooManyAttempts, guard_of
from hub.registration.registrar import Registrar
from hub.registration.state import RegistrationState, desk_entry, public_entry, public_registration
from hub.tournaments.writer import UnknownTournament
from hub.webhooks import emit_entry_created

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api", tags=["sign-up and check-in"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
NO_STORE = {"Cache-Control": "no-store"}
HUB_BUDGET_KEY = "signup:*"
SECRET_BYTES = 24  # 192 bits
_SECRET = re.compile(r"[A-Za-z0-9_-]{22,64}")
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)


def registrar(request: Request) -> Registrar:
    reg = deps.services(request).registration
    if reg is None:
        raise ApiError(503, "unavailable", "registration is not running")
    return reg


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def _body(request: Request) -> dict[str, Any]:
    body = await read_json(request, deps.settings(request).max_body_bytes)
    if not isinstance(body, dict):
        raise ApiError(422, "bad_request", "the body must be a JSON object")
    return body


async def _optional_body(request: Request) -> None:
    if await request.body():
        await _body(request)


async def _run(request: Request, tid: str, command: dict[str, Any], **kw: Any) -> tuple[RegistrationState, Any]:
    try:
        state, event = await registrar(request).apply(tid, command, **kw)
    except UnknownTournament:
        raise ApiError(404, "not_found", f"no tournament {tid!r}") from None
    except DrawReject as r:
        raise ApiError(r.status, r.code, r.message) from None
    flow = deps.services(request).flow
    flow.kick(tid)  # removals and withdrawals: the draw's flow acts before the answer
    await flow.idle(tid)
    return state, event


async def _state(request: Request, tid: str) -> RegistrationState:
    try:
        return await registrar(request).state(tid)
    except UnknownTournament:
        raise ApiError(404, "not_found", f"no tournament {tid!r}") from None


def _registration(request: Request, state: RegistrationState) -> dict[str, Any]:
    return public_registration(state, registrar(request).clock())


async def configure(request: Request, tid: str, registration: Any) -> dict[str, Any]:
    """`registration` of `PATCH /api/tournaments/{tid}` (the route is the tournament settings',
    hub/api/tournament_settings.py): stored when good, else an ApiError; the registration as it is now."""
    state, _ = await _run(request, tid, {"kind": "configure", "registration": registration})
    return _registration(request, state)


@router.get("/tournaments/{tid}/registration", response_model=None,
            responses=models.ok(rm.Registration, "Whether sign-ups are taken, the check-in window, counts.")
            | models.errors(404))
async def read_registration(tid: str, request: Request) -> dict[str, Any]:
    return _registration(request, await _state(request, tid))


def _too_many(exc: TooManyAttempts) -> JSONResponse:
    seconds = max(1, math.ceil(exc.retry_after_ms / 1000))
    where = "on this hub" if exc.hub_wide else "from this address"
    return JSONResponse(error_body("too_many_attempts", f"too many sign-ups {where}; try again in {seconds} s"),
                        status_code=429, headers={"Retry-After": str(seconds), **NO_STORE})


@router.post("/tournaments/{tid}/entries", status_code=201, response_model=None,
             openapi_extra=models.body(rm.SignUp),
             responses=models.ok(rm.SignedUp, "The entry and its secret (shown once).", 201)
             | models.errors(404, 409, 413, 422, 429))
async def sign_up(tid: str, request: Request) -> JSONResponse:
    body = await _body(request)
    if not await deps.is_admin_request(request):
        guard = guard_of(request.app, deps.engine(request))
        try:
            await guard.admit([f"signup:{key}" for key in peer.client_keys(request)], guard.policies.sign_up)
            await guard.spend_budget(HUB_BUDGET_KEY, guard.policies.sign_up_hub)
        except TooManyAttempts as exc:
            log.warning("sign-up refused: too many from %s", peer.client_key(request))
            return _too_many(exc)
    secret = secrets.token_urlsafe(SECRET_BYTES)
    state, event = await _run(request, tid, {**body, "kind": "sign_up", "secret_hash": secret_hash(secret)})
    entry = state.entries[event.data["entry"]["id"]]
    link = f"{peer.public_base(request, deps.settings(request))}/enter/{tid}#secret={secret}"
    public = public_entry(state, entry)
    emit_entry_created(deps.services(request), tid, public)  # the webhooks (section 16): never the contact
    return JSONResponse({"entry": public, "secret": secret, "link": link},
                        status_code=201, headers=NO_STORE)


@router.get("/tournaments/{tid}/entries", dependencies=ADMIN, response_model=None,
            responses=models.ok(rm.DeskEntries, "Every entry with its contact and status, in order of sign-up.")
            | models.errors(401, 403, 404))
async def list_entries(tid: str, request: Request) -> JSONResponse:
    state = await _state(request, tid)
    body = {"entries": [desk_entry(state, e) for e in state.entries.values()], "counts": state.counts(),
            "registration": _registration(request, state), "no_shows": list(state.no_shows)}
    return JSONResponse(body, headers=NO_STORE)


async def _desk_move(request: Request, tid: str, eid: str, kind: str) -> JSONResponse:
    await _optional_body(request)
    state, _ = await _run(request, tid, {"kind": kind, "entry": eid, "by": "desk"})
    return JSONResponse(desk_entry(state, state.entries[eid]), headers=NO_STORE)


DESK_MOVE = dict(dependencies=ADMIN, response_model=None, openapi_extra=models.body(models.Empty, required=False),
                 responses=models.ok(rm.DeskEntry, "The entry, changed (its player added, removed or withdrawn).")
                 | WRITE_ERRORS)


@router.post("/tournaments/{tid}/entries/{eid}/accept", **DESK_MOVE)  # type: ignore[arg-type]
async def accept_entry(tid: str, eid: str, request: Request) -> JSONResponse:
    return await _desk_move(request, tid, eid, "accept")


@router.post("/tournaments/{tid}/entries/{eid}/reject", **DESK_MOVE)  # type: ignore[arg-type]
async def reject_entry(tid: str, eid: str, request: Request) -> JSONResponse:
    return await _desk_move(request, tid, eid, "reject")


@router.post("/tournaments/{tid}/entries/{eid}/waitlist", **DESK_MOVE)  # type: ignore[arg-type]
async def waitlist_entry(tid: str, eid: str, request: Request) -> JSONResponse:
    return await _desk_move(request, tid, eid, "waitlist")


@router.post("/tournaments/{tid}/entries/{eid}/check_in", **DESK_MOVE)  # type: ignore[arg-type]
async def check_in_entry(tid: str, eid: str, request: Request) -> JSONResponse:
    return await _desk_move(request, tid, eid, "check_in")


# --- the entry's holder -------------------------------------------------------------------------


async def _own(request: Request) -> tuple[str, str]:
    """(tournament id, entry id) of the bearer secret; 401 without one, 404 for a wrong one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "unauthorized", "missing bearer secret (the text after #secret= in the entry's link)")
    found = None
    if _SECRET.fullmatch(token):
        found = await registrar(request).find(secret_hash(token))
    if found is None:
        raise ApiError(404, "not_found", "no entry has this secret")
    return found


def _own_answer(request: Request, state: RegistrationState, eid: str) -> JSONResponse:
    body = {**public_entry(state, state.entries[eid]), "tournament_id": state.tournament_id,
            "registration": _registration(request, state)}
    return JSONResponse(body, headers=NO_STORE)


SELF = dict(response_model=None, responses=models.ok(rm.OwnEntry, "The entry, as its holder sees it.")
            | models.errors(401, 404, 409))


@router.get("/entries/self", **SELF)  # type: ignore[arg-type]
async def own_entry(request: Request) -> JSONResponse:
    tid, eid = await _own(request)
    return _own_answer(request, await _state(request, tid), eid)


@router.delete("/entries/self", **SELF)  # type: ignore[arg-type]
async def cancel_own_entry(request: Request) -> JSONResponse:
    tid, eid = await _own(request)
    state, _ = await _run(request, tid, {"kind": "cancel", "entry": eid, "by": "self"})
    return _own_answer(request, state, eid)


@router.post("/entries/self/check_in", openapi_extra=models.body(models.Empty, required=False),
             **SELF)  # type: ignore[arg-type]
async def check_in_own_entry(request: Request) -> JSONResponse:
    tid, eid = await _own(request)
    await _optional_body(request)
    state, _ = await _run(request, tid, {"kind": "check_in", "entry": eid, "by": "self"})
    return _own_answer(request, state, eid)
