"""Giving tablets their tables (PROTOCOL.md section 8).

- `POST /api/tables/{table_id}/pairing` (admin) -> 201 `{"code", "expires_at", "table_id", "name",
  "link", "qr"}`: a table card, valid 10 minutes (several may be alive per table): a six-digit
  `code` to type, and `link`, `{hub}/pair#secret=...`, the tablet's way in by QR code (`qr`, an SVG
  of it as a `data:` URL, made by segno). The secret (144 bits) rides in the link's fragment, which
  browsers never send: it reaches no access log.
- `POST /api/pair` `{"code"}` or `{"secret"}` (no token) -> 200 `{"table_id", "name", "token",
  "tournament_id"}` once: `token` is a new token of that tablet's own for the table
  (`table_tokens`; rotating the table's token ends it). Wrong, spent or expired -> 404.

Guessing (hub/guards/throttle.py): a code attempt is counted before it is checked, against its
address's backoff and then the hub-wide budget (429 past either). A secret is not: it cannot be
guessed, so a jammed budget never keeps a card's QR code from working. A request that carries the
admin credential (the bearer token, or the desk's cookie with its X-Requested-With header) is
never refused by either: the organiser can always pair a tablet.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import segno
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hub.api import competition_models as cm
from hub.api import deps, models
from hub.api.errors import ApiError, read_json
from hub.guards import peer
from hub.guards.throttle import TooManyAttempts, guard_of, too_many_response
from hub.store import catalog, pairing

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["desk"])

CODE_TTL_MS = 10 * 60_000
HUB_BUDGET_KEY = "pair:*"
NO_STORE = {"Cache-Control": "no-store"}
_SEPARATORS = re.compile(r"[\s-]")
_SECRET = re.compile(r"[A-Za-z0-9_-]{22,64}")  # URL-safe base64 of at least 128 bits


def tablet_link(base: str, secret: str) -> str:
    return f"{base}/pair#secret={secret}"


def qr_data_url(text: str) -> str:
    """An SVG QR code of `text` as a data: URL (the pages' CSP allows data: images): a regular QR
    code (never a Micro QR, which few phone cameras read), error correction M (a card may get
    scuffed), sized by the page (no width/height in the SVG)."""
    return segno.make_qr(text, error="m", boost_error=False).svg_data_uri(
        border=4, omitsize=True, dark="#000", light="#fff"
    )


@router.post("/tables/{table_id}/pairing", status_code=201, dependencies=[Depends(deps.require_admin)],
             response_model=None, openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(cm.PairingCode, "A one-time code for the table, valid 10 minutes.", 201)
             | models.errors(401, 403, 404))
async def new_pairing_code(table_id: str, request: Request) -> JSONResponse:
    engine = deps.engine(request)
    table = await catalog.get_table(engine, table_id)
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    card = await pairing.new_card(engine, table_id, CODE_TTL_MS)
    link = tablet_link(peer.public_base(request, deps.settings(request)), card.secret)
    body = {"code": card.code, "expires_at": card.expires_at, "table_id": table.id, "name": table.name, "link": link,
            "qr": qr_data_url(link)}
    return JSONResponse(body, status_code=201, headers=NO_STORE)


def _asked(body: Any) -> tuple[str, str]:
    """("secret", the secret) or ("code", the digits as typed, separators removed)."""
    if isinstance(body, dict) and "secret" in body:
        secret = body["secret"]
        if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
            raise ApiError(422, "bad_request", 'the secret must be the text after "#secret=" in the card\'s link')
        return "secret", secret
    code = body.get("code") if isinstance(body, dict) else None
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code < 10 ** pairing.CODE_DIGITS:
        code = f"{code:0{pairing.CODE_DIGITS}d}"  # a script that sent the digits as a number
    if not isinstance(code, str):
        raise ApiError(422, "bad_request", 'the body must be {"code": "<6 digits>"} or {"secret": "..."}')
    return "code", _SEPARATORS.sub("", code)[:32]


@router.post("/pair", response_model=None, openapi_extra=models.body(cm.PairBody),
             responses=models.ok(cm.Paired, "This tablet's own token for the table.")
             | models.errors(404, 413, 422, 429))
async def pair(request: Request) -> JSONResponse:
    kind, value = _asked(await read_json(request, deps.settings(request).max_body_bytes))
    engine = deps.engine(request)
    address = peer.client_key(request)
    if kind == "secret":
        paired = await pairing.spend_secret(engine, value)
    elif await deps.is_admin_request(request):
        paired = await _spend_code(engine, value)
    else:
        guard = guard_of(request.app, engine)
        keys = [f"pair:{key}" for key in peer.client_keys(request)]
        try:
            await guard.admit(keys, guard.policies.pairing)
            await guard.spend_budget(HUB_BUDGET_KEY, guard.policies.pairing_hub)
        except TooManyAttempts as exc:
            log.warning("pairing refused: too many attempts (%s)", address)
            return too_many_response(exc, "pairing codes")
        paired = await _spend_code(engine, value)
        if paired is not None:
            await guard.succeeded(keys)
            await guard.refund_budget(HUB_BUDGET_KEY)
    if paired is None:
        log.warning("pairing with a wrong, spent or expired %s from %s", kind, address)
        raise ApiError(404, "not_found", f"no such pairing {kind} (wrong, already used, or expired)")
    log.info("tablet paired with table %s from %s (%s)", paired.table_id, address, kind)
    body = {"table_id": paired.table_id, "name": paired.name, "token": paired.token,
            "tournament_id": paired.tournament_id}
    return JSONResponse(body, headers=NO_STORE)


async def _spend_code(engine: Any, code: str) -> pairing.Paired | None:
    if not re.fullmatch(rf"\d{{{pairing.CODE_DIGITS}}}", code):
        return None
    return await pairing.spend_code(engine, code)
