"""Liveness: the process answers and the database answers."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi import APIRouter, Request

from hub.api import deps
from hub.api.errors import ApiError

router = APIRouter()


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, str]:
    try:
        async with deps.engine(request).connect() as conn:
            await conn.execute(sa.text("SELECT 1"))
    except Exception:
        raise ApiError(503, "unavailable", "database unreachable") from None
    return {"status": "ok"}
