"""Request-scoped access to the app's wiring, and the two kinds of bearer token."""

from __future__ import annotations

import hmac

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.api.errors import ApiError
from hub.settings import Settings
from hub.store import catalog
from hub.writer import MatchWriter


def engine(request: Request) -> AsyncEngine:
    return request.app.state.engine


def writer(request: Request) -> MatchWriter:
    return request.app.state.writer


def settings(request: Request) -> Settings:
    return request.app.state.settings


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "missing bearer token")
    return token.strip()


def require_admin(request: Request) -> None:
    token = bearer_token(request)
    if not hmac.compare_digest(catalog.token_hash(token), request.app.state.admin_hash):
        raise ApiError(403, "forbidden", "not the admin token")
