"""Request-scoped access to the app's wiring, and who may write.

Two ways to be the organiser (PROTOCOL.md sections 1 and 8), both declared with `fastapi.security`
so the OpenAPI schema shows them:
- `Authorization: Bearer <admin token>` (scripts);
- the desk's session cookie `cuehub_session` (hub/api/session.py). A write (any method but GET,
  HEAD, OPTIONS) that is signed in with the cookie must also carry `X-Requested-With: cuehub`:
  another site's form or script cannot set that header, so it cannot ride the cookie (CSRF).
The bearer header wins when both are sent.
"""

from __future__ import annotations

import hmac

from fastapi import Request, Security
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.api import models
from hub.api.errors import ApiError
from hub.matches.writer import MatchWriter
from hub.services import Services, services_of
from hub.settings import Settings
from hub.store import catalog, sessions

SESSION_COOKIE = "cuehub_session"
CSRF_HEADER = "X-Requested-With"
CSRF_VALUE = "cuehub"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A session lasts HUB_SESSION_IDLE_S unused, and never longer than this after sign-in.
SESSION_MAX_MS = 7 * 24 * 3600 * 1000

# The schemes are declared once, in hub/api/model_kit.py (the OpenAPI document names them there).
admin_bearer = models.ADMIN_TOKEN
desk_session = models.DESK_SESSION


def services(request: Request) -> Services:
    """The running app's services (hub/services.py)."""
    return services_of(request.app)


def engine(request: Request) -> AsyncEngine:
    return services(request).engine


def writer(request: Request) -> MatchWriter:
    return services(request).writer


def settings(request: Request) -> Settings:
    return services(request).settings


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "missing bearer token")
    return token.strip()


def session_lifetime(request: Request) -> sessions.Lifetime:
    idle_ms = int(settings(request).session_idle_s * 1000)
    return sessions.Lifetime(idle_ms=idle_ms, max_ms=max(idle_ms, SESSION_MAX_MS))


def is_admin_token(request: Request, token: str) -> bool:
    return hmac.compare_digest(catalog.token_hash(token), services(request).admin_hash)


async def require_admin(
    request: Request,
    bearer: HTTPAuthorizationCredentials | None = Security(admin_bearer),
    cookie: str | None = Security(desk_session),
) -> None:
    if bearer is not None and bearer.credentials.strip():
        if not is_admin_token(request, bearer.credentials.strip()):
            raise ApiError(403, "forbidden", "not the admin token")
        return
    if not cookie:
        raise ApiError(401, "unauthorized", "missing bearer token or desk session (sign in at /desk)")
    if request.method not in SAFE_METHODS and request.headers.get(CSRF_HEADER) != CSRF_VALUE:
        raise ApiError(403, "csrf_header_required",
                       f"a write signed in with the session cookie must carry the header {CSRF_HEADER}: {CSRF_VALUE}")
    expires = await sessions.use_session(
        engine(request), cookie, services(request).admin_hash, session_lifetime(request)
    )
    if expires is None:
        raise ApiError(401, "session_expired", "the desk session has ended; sign in again")


async def is_admin_request(request: Request) -> bool:
    """Whether the request carries the admin credential (what `require_admin` accepts), without
    refusing it when it does not: for routes open to everyone that treat the organiser better."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return is_admin_token(request, token.strip())
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie or request.headers.get(CSRF_HEADER) != CSRF_VALUE:
        return False
    lifetime = session_lifetime(request)
    return await sessions.use_session(engine(request), cookie, services(request).admin_hash, lifetime) is not None
