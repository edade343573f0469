"""`GET /api/tournaments/{tid}/tablets` (admin): every tablet of every table of the tournament, online
or not and since when (PROTOCOL.md section 16; hub/matches/tablet_links.py says how it is kept):
`{"server_time", "tables": [{"id", "name", "tablets": [{"id", "online", "since"}], "dropped": bool}]}`.
`dropped`: the table has had tablets and none of them is online now (the desk marks it)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from hub.api import deps, models
from hub.api.errors import ApiError
from hub.matches.tablet_links import tablets_of
from hub.store import catalog
from hub.store.db import now_ms

router = APIRouter(prefix="/api", tags=["the desk"], responses=models.errors(401, 403, 503))


class TabletLink(BaseModel):
    id: str
    online: bool
    since: int


class TableTablets(BaseModel):
    id: str
    name: str
    tablets: list[TabletLink]
    dropped: bool


class TournamentTablets(BaseModel):
    server_time: int
    tables: list[TableTablets]


@router.get("/tournaments/{tid}/tablets", dependencies=[Depends(deps.require_admin)], response_model=None,
            responses=models.ok(TournamentTablets, "Every tablet of every table.") | models.errors(404))
async def tablets(tid: str, request: Request) -> dict[str, Any]:
    engine = deps.engine(request)
    if await catalog.get_tournament(engine, tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    rows = await catalog.list_tables(engine, tid)
    now = now_ms()
    found = await tablets_of(engine, [t.id for t in rows], now)
    return {"server_time": now, "tables": [
        {"id": t.id, "name": t.name, "tablets": found[t.id],
         "dropped": bool(found[t.id]) and not any(x["online"] for x in found[t.id])} for t in rows]}
