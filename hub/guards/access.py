"""Access control beyond the bearer checks in hub/api/deps.py (SECURITY.md), for REST and the
sockets alike:

- the browser origin policy (HUB_ALLOWED_ORIGINS) for CORS and for WebSocket `Origin` headers;
- the registry of open table sockets per app, so a token rotation (hub/api/table_tokens.py) can
  close them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import Scope

from hub.guards.edge_json import error_body
from hub.services import services_of
from hub.settings import Settings

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
