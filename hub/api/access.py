"""Access control beyond the bearer checks in deps.py (SECURITY.md):

- `POST /api/tables/{table_id}/token` (admin): a new table token; the old one stops working at
  once for HTTP and new sockets, and open table sockets authenticated with it are closed 4401
  (in this process at once, in other processes at their next frame: sockets re-check their token).
- the browser origin policy (HUB_ALLOWED_ORIGINS) for CORS and for WebSocket `Origin` headers;
- the registry of open table sockets per app, so a rotation can close them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import Scope

from hub.api import deps, models
from hub.api.errors import ApiError, error_body
from hub.services import services_of
from hub.settings import Settings
from hub.store import catalog

router = APIRouter(prefix="/api")

CLOSE_FORBIDDEN_ORIGIN = 4403


# --- origins ------------------------------------------------------------------------------------


def origin_allowed(settings: Settings, origin: str | None) -> bool:
    """No Origin header (tablet apps, scripts) is allowed: only browsers send it, and the policy
    exists to keep other sites' pages off the sockets."""
    if origin is None or "*" in settings.allowed_origins:
        return True
    return origin.rstrip("/") in settings.allowed_origins


def websocket_origin_allowed(scope: Scope, settings: Settings) -> bool:
    return origin_allowed(settings, Headers(scope=scope).get("origin"))


def install_cors(app: FastAPI, settings: Settings) -> None:
    """Reads are public and writes carry a bearer token (never a cookie), so CORS protects no
    ambient authority here; it still follows HUB_ALLOWED_ORIGINS for deployments that want it."""
    origins = list(settings.allowed_origins)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=origins,
        allow_credentials=False,
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Authorization", "Content-Type"],
        max_age=600,
    )
    app.add_middleware(NulGuard)


class NulGuard:
    """ASGI middleware: refuse paths and query strings holding NUL before any handler sees them. No
    id can hold one, and PostgreSQL cannot even compare such a string (it would look like an outage)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and (
            "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b"")
        ):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await JSONResponse(error_body("not_found", "no such resource"), status_code=404)(scope, receive, send)
            return
        await self.app(scope, receive, send)


# --- open table sockets -------------------------------------------------------------------------

Closer = Callable[[int], None]


def _sessions(app: Any) -> dict[str, dict[int, Closer]]:
    return services_of(app).table_sessions


def register_table_session(app: Any, table_id: str, closer: Closer) -> Callable[[], None]:
    """Remember an open table socket; `closer(code)` must close it without blocking."""
    by_table = _sessions(app).setdefault(table_id, {})
    key = id(closer)
    by_table[key] = closer

    def forget() -> None:
        by_table.pop(key, None)

    return forget


def close_table_sessions(app: Any, table_id: str, code: int = 4401) -> int:
    closers = list(_sessions(app).get(table_id, {}).values())
    for close in closers:
        close(code)
    return len(closers)


# --- token rotation -----------------------------------------------------------------------------


@router.post("/tables/{table_id}/token", dependencies=[Depends(deps.require_admin)], tags=["setup and reads"],
             response_model=None, openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(models.TokenRotated, "The new token, shown once.")
             | models.errors(401, 403, 404, 503))
async def rotate_table_token(table_id: str, request: Request) -> dict[str, Any]:
    """A new token for the table, shown once; the previous one is revoked."""
    out = await catalog.rotate_table_token(deps.engine(request), table_id)
    if out is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    closed = close_table_sessions(request.app, table_id)
    cache = deps.services(request).token_cache  # hub/api/rate.py: tokens seen lately
    if cache is not None:
        cache.clear()
    return {**out, "closed_sockets": closed}
