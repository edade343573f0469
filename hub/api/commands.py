"""POST /api/matches/{mid}/commands: a command envelope with the table token of the match's table."""

from __future__ import annotations

import math

from fastapi import APIRouter, Request, Security
from fastapi.responses import JSONResponse

from hub.api import deps, models
from hub.api.envelope import BadEnvelope, parse_envelope
from hub.api.errors import ApiError, read_json, reject_status
from hub.guards.edge_json import error_body
from hub.guards.rate import rate_of, token_cache_of
from hub.matches.writer import Ack, Answer, TokenRevoked
from hub.wire import table as wire_table

router = APIRouter(prefix="/api")


def answer_json(answer: Answer, command_id: str | None) -> wire_table.Ack | wire_table.Reject:
    """The ack/reject message (PROTOCOL.md section 2); HTTP answers with the same object."""
    if isinstance(answer, Ack):
        return wire_table.ack(command_id, answer.version)
    return wire_table.reject(command_id, answer.code, answer.message)


@router.post(
    "/matches/{mid}/commands",
    tags=["commands"],
    response_model=None,
    dependencies=[Security(models.TABLE_TOKEN)],
    openapi_extra=models.body(models.CommandEnvelope, "A command envelope (PROTOCOL.md section 3)."),
    responses={
        **models.ok(models.CommandAck, "Stored: the command's event is durably committed as `version`."),
        **models.errors(401, 403, 413, 503),
        429: {
            "model": models.ErrorResponse,
            "description": "Over the table's command rate (`rate_limited`, HUB_TABLE_RATE / HUB_TABLE_BURST, "
            "shared with its sockets): not run, not remembered; send it again after Retry-After.",
        },
        404: {"model": models.ErrorOrReject, "description": "No such match (`unknown_match`)."},
        409: {
            "model": models.CommandReject,
            "description": "Rejected by the rules or the version check (every reject code but two).",
        },
        422: {
            "model": models.ErrorOrReject,
            "description": (
                "Not a command envelope, or a malformed command (`bad_command`); malformed JSON (`bad_request`)."
            ),
        },
    },
)
async def post_command(mid: str, request: Request) -> JSONResponse:
    """Send a command envelope with the token of the match's table; the ack comes after the commit."""
    token = deps.bearer_token(request)
    match = await deps.writer(request).match_row(mid)
    if match is None:
        raise ApiError(404, "unknown_match", f"no match {mid!r}")
    table = await token_cache_of(request.app).table(deps.engine(request), token)  # one read per burst
    if table is None or table.id != match.table_id:
        raise ApiError(403, "forbidden", "not the token of this match's table")
    wait = await rate_of(request.app).take(table.id)
    if wait > 0:  # before the body is read: a flood costs two indexed reads per request, nothing stored
        seconds = max(1, math.ceil(wait))
        rate = deps.settings(request).table_rate_per_s
        return JSONResponse(
            error_body(
                "rate_limited", f"over {rate:g} commands/s for this table; send it again later with the same id"
            ),
            status_code=429,
            headers={"Retry-After": str(seconds), "Cache-Control": "no-store"},
        )
    raw = await read_json(request, deps.settings(request).max_body_bytes)
    try:
        env = parse_envelope(raw)
    except BadEnvelope as exc:
        raise ApiError(422, "bad_command", exc.message) from None
    if env.match_id != mid:
        raise ApiError(422, "bad_command", "match_id does not match the URL")
    try:
        answer = await deps.writer(request).submit(mid, env.id, env.command, env.expected_version,
                                                   token=table.token_hash)
    except TokenRevoked:
        raise ApiError(403, "forbidden", "the table's token was rotated") from None
    status = 200 if isinstance(answer, Ack) else reject_status(answer.code)
    return JSONResponse(answer_json(answer, env.id), status_code=status)
