"""`POST /api/tables/{table_id}/token` (admin, SECURITY.md): a new table token; the old one stops
working at once for HTTP and new sockets, and open table sockets authenticated with it are closed
4401 (in this process at once, in other processes at their next frame: sockets re-check their
token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from hub.api import deps, models
from hub.api.errors import ApiError
from hub.guards.access import close_table_sessions
from hub.store import catalog

router = APIRouter(prefix="/api")


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
    cache = deps.services(request).token_cache  # hub/guards/rate.py: tokens seen lately
    if cache is not None:
        cache.clear()
    return {**out, "closed_sockets": closed}
