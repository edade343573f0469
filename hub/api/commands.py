"""POST /api/matches/{mid}/commands: a command envelope with the table token of the match's table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from hub.api import deps
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


@router.post("/matches/{mid}/commands")
async def post_command(mid: str, request: Request) -> JSONResponse:
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
