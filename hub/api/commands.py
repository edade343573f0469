"""POST /api/matches/{mid}/commands: a command envelope with the table token of the match's table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Security
from fastapi.responses import JSONResponse

from hub.api import deps, models
from hub.api.envelope import BadEnvelope, parse_envelope
from hub.api.errors import ApiError, error_body, read_json, reject_status
from hub.store import catalog
from hub.writer import Ack, Answer

router = APIRouter(prefix="/api")


def answer_json(answer: Answer, command_id: str | None) -> dict[str, Any]:
    """The ack/reject message (PROTOCOL.md section 2); HTTP answers with the same object."""
    if isinstance(answer, Ack):
        return {"type": "ack", "id": command_id, "version": answer.version}
    return {"type": "reject", "id": command_id, **error_body(answer.code, answer.message)}


@router.post(
    "/matches/{mid}/commands", tags=["commands"], response_model=None, dependencies=[Security(models.TABLE_TOKEN)],
    openapi_extra=models.body(models.CommandEnvelope, "A command envelope (PROTOCOL.md section 3)."),
    responses={
        **models.ok(models.CommandAck, "Stored: the command's event is durably committed as `version`."),
        **models.errors(401, 403, 413, 503),
        404: {"model": models.ErrorOrReject,
              "description": "No such match (`unknown_match`)."},
        409: {"model": models.CommandReject,
              "description": "Rejected by the rules or the version check (every reject code but two)."},
        422: {"model": models.ErrorOrReject,
              "description": "Not a command envelope, or a malformed command (`bad_command`); malformed JSON (`bad_request`)."},
    },
)
async def post_command(mid: str, request: Request) -> JSONResponse:
    """Send a command envelope with the token of the match's table; the ack comes after the commit."""
    token = deps.bearer_token(request)
    match = await deps.writer(request).match_row(mid)
    if match is None:
        raise ApiError(404, "unknown_match", f"no match {mid!r}")
    table = await catalog.table_by_token(deps.engine(request), token)
    if table is None or table.id != match.table_id:
        raise ApiError(403, "forbidden", "not the token of this match's table")
    raw = await read_json(request, deps.settings(request).max_body_bytes)
    try:
        env = parse_envelope(raw)
    except BadEnvelope as exc:
        raise ApiError(422, "bad_command", exc.message) from None
    if env.match_id != mid:
        raise ApiError(422, "bad_command", "match_id does not match the URL")
    answer = await deps.writer(request).submit(mid, env.id, env.command, env.expected_version)
    status = 200 if isinstance(answer, Ack) else reject_status(answer.code)
    return JSONResponse(answer_json(answer, env.id), status_code=status)
