"""One error shape for every failure: {"error": {"code", "message"}}; bad input is never a 500."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from hub.guards.edge_json import error_body, strict_loads
from hub.ops.logbudget import clip

log = logging.getLogger(__name__)

# PROTOCOL.md section 1: a rejected command answers 422 bad_command, 404 unknown_match, else 409.
REJECT_STATUS = {"bad_command": 422, "unknown_match": 404}

_STATUS_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "too_large", 422: "bad_request",
}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status)


def reject_status(code: str) -> int:
    return REJECT_STATUS.get(code, 409)


async def read_json(request: Request, limit: int) -> Any:
    """The request body as JSON, refusing bodies over `limit` bytes before reading them whole."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise ApiError(413, "too_large", f"body over {limit} bytes")
        except ValueError:
            raise ApiError(400, "bad_request", "bad Content-Length") from None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "too_large", f"body over {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return strict_loads(raw)
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ApiError(422, "bad_request", f"malformed JSON: {exc}") from None


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error_response(422, "bad_request", f"{where}: {first.get('msg', 'invalid')}".strip(": "))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "error")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(OSError)  # e.g. asyncpg's connection refused, which SQLAlchemy does not wrap
    async def _database(_: Request, exc: Exception) -> JSONResponse:
        # Not the client's fault and maybe not lasting: retrying the same command id is safe.
        log.error("database error: %s: %s", type(exc).__name__, clip(exc))
        return error_response(503, "unavailable", "the database is unavailable; retry with the same command id")

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return error_response(500, "internal", "internal error")
