"""Giving tablets their tables (PROTOCOL.md section 8).

- `POST /api/tables/{table_id}/pairing` (admin) -> 201 `{"code", "expires_at", "table_id", "name",
  "link", "qr"}`: a one-time six-digit code, valid 10 minutes (several may be alive per table);
  `link` is the tablet's way in, `{hub}/pair#code=123456`, and `qr` an SVG QR code of it (a `data:`
  URL, made by segno), so the desk can print a table card. The code rides in the link's fragment,
  which browsers never send: it reaches no access log.
- `POST /api/pair` `{"code"}` (no token) -> 200 `{"table_id", "name", "token", "tournament_id"}`
  once: `token` is a new token of that tablet's own for the table (`table_tokens`; rotating the
  table's token ends it). Wrong, spent or expired -> 404; repeated attempts from one address are
  slowed down, and wrong codes hub-wide are budgeted (hub/api/throttle.py) -> 429.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import segno
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hub.api import competition_models as cm
from hub.api import deps, models, peer
from hub.api.errors import ApiError, read_json
from hub.api.throttle import TooManyAttempts, guard_of, too_many_response
from hub.store import catalog, pairing

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["desk"])

CODE_TTL_MS = 10 * 60_000
HUB_BUDGET_KEY = "pair:*"
NO_STORE = {"Cache-Control": "no-store"}
_SEPARATORS = re.compile(r"[\s-]")


def tablet_link(base: str, code: str) -> str:
    return f"{base}/pair#code={code}"


def qr_data_url(text: str) -> str:
    """An SVG QR code of `text` as a data: URL (the pages' CSP allows data: images): a regular QR
    code (never a Micro QR, which few phone cameras read), error correction M (a card may get
    scuffed), sized by the page (no width/height in the SVG)."""
    return segno.make_qr(text, error="m", boost_error=False).svg_data_uri(border=4, omitsize=True, dark="#000", light="#fff")


@router.post("/tables/{table_id}/pairing", status_code=201, dependencies=[Depends(deps.require_admin)],
             response_model=None, openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(cm.PairingCode, "A one-time code for the table, valid 10 minutes.", 201)
             | models.errors(401, 403, 404))
async def new_pairing_code(table_id: str, request: Request) -> JSONResponse:
    engine = deps.engine(request)
    table = await catalog.get_table(engine, table_id)
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    code, expires = await pairing.new_code(engine, table_id, CODE_TTL_MS)
    link = tablet_link(peer.public_base(request, deps.settings(request)), code)
    body = {"code": code, "expires_at": expires, "table_id": table.id, "name": table.name, "link": link,
            "qr": qr_data_url(link)}
    return JSONResponse(body, status_code=201, headers=NO_STORE)


def _code(body: Any) -> str:
    code = body.get("code") if isinstance(body, dict) else None
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code < 10 ** pairing.CODE_DIGITS:
        code = f"{code:0{pairing.CODE_DIGITS}d}"  # a script that sent the digits as a number
    if not isinstance(code, str):
        raise ApiError(422, "bad_request", 'the body must be {"code": "<6 digits>"}')
    return _SEPARATORS.sub("", code)[:32]


@router.post("/pair", response_model=None, openapi_extra=models.body(cm.PairBody),
             responses=models.ok(cm.Paired, "This tablet's own token for the table.")
             | models.errors(404, 413, 422, 429))
async def pair(request: Request) -> JSONResponse:
    code = _code(await read_json(request, deps.settings(request).max_body_bytes))
    engine = deps.engine(request)
    guard = guard_of(request.app, engine)
    address = peer.client_key(request)
    key = f"pair:{address}"
    try:
        await guard.check_budget(HUB_BUDGET_KEY, guard.policies.pairing_hub)
        await guard.admit(key, guard.policies.pairing)
    except TooManyAttempts as exc:
        log.warning("pairing refused: too many attempts (%s)", address)
        return too_many_response(exc, "pairing codes")
    paired = None
    if re.fullmatch(rf"\d{{{pairing.CODE_DIGITS}}}", code):
        paired = await pairing.spend_code(engine, code)
    if paired is None:
        await guard.spend_budget(HUB_BUDGET_KEY, guard.policies.pairing_hub)
        log.warning("pairing with a wrong, spent or expired code from %s", address)
        raise ApiError(404, "not_found", "no such pairing code (wrong, already used, or expired)")
    await guard.succeeded(key)
    log.info("tablet paired with table %s from %s", paired.table_id, address)
    return JSONResponse(
        {"table_id": paired.table_id, "name": paired.name, "token": paired.token, "tournament_id": paired.tournament_id},
        headers=NO_STORE,
    )
