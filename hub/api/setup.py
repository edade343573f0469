"""Setup and reads over REST (PROTOCOL.md section 1): tournaments, tables, matches, events."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hub.api import deps
from hub.api.errors import ApiError, read_json
from hub.store import catalog, events as store

router = APIRouter(prefix="/api")

STATUSES = ("scheduled", "live", "finished")


def _name(body: Any) -> str:
    if not isinstance(body, dict) or not isinstance(body.get("name"), str) or not body["name"].strip():
        raise ApiError(422, "bad_request", "name must be a non-empty string")
    if len(body["name"]) > 200:
        raise ApiError(422, "bad_request", "name is longer than 200 characters")
    return body["name"].strip()


async def _body(request: Request) -> Any:
    return await read_json(request, deps.settings(request).max_body_bytes)


@router.post("/tournaments", status_code=201, dependencies=[Depends(deps.require_admin)])
async def create_tournament(request: Request) -> JSONResponse:
    name = _name(await _body(request))
    return JSONResponse(await catalog.create_tournament(deps.engine(request), name), status_code=201)


@router.get("/tournaments")
async def list_tournaments(request: Request) -> dict[str, Any]:
    return {"tournaments": await catalog.list_tournaments(deps.engine(request))}


@router.get("/tournaments/{tid}")
async def get_tournament(tid: str, request: Request) -> dict[str, Any]:
    proj = await deps.writer(request).tournament_projection(tid)
    if proj is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    return proj


@router.post("/tournaments/{tid}/tables", status_code=201, dependencies=[Depends(deps.require_admin)])
async def create_table(tid: str, request: Request) -> JSONResponse:
    name = _name(await _body(request))
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    return JSONResponse(await catalog.create_table(deps.engine(request), tid, name), status_code=201)


@router.post("/matches", status_code=201, dependencies=[Depends(deps.require_admin)])
async def create_match(request: Request) -> JSONResponse:
    body = await _body(request)
    if not isinstance(body, dict):
        raise ApiError(422, "bad_request", "the body must be a JSON object")
    tid, table_id = body.get("tournament_id"), body.get("table_id")
    if not isinstance(tid, str) or not isinstance(table_id, str):
        raise ApiError(422, "bad_request", "tournament_id and table_id must be strings")
    engine = deps.engine(request)
    if await catalog.get_tournament(engine, tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    table = await catalog.get_table(engine, table_id)
    if table is None or table.tournament_id != tid:
        raise ApiError(404, "not_found", f"no table {table_id!r} in tournament {tid!r}")
    rules = request.app.state.rules
    try:
        proj = await deps.writer(request).create_match(body, tournament_id=tid, table_id=table_id)
    except rules.SetupError as exc:
        raise ApiError(422, "bad_setup", exc.message) from None
    except catalog.TableBusy:
        raise ApiError(409, "table_busy", f"table {table_id!r} already has a match that is not finished") from None
    return JSONResponse(proj, status_code=201)


@router.get("/matches")
async def list_matches(request: Request, status: str | None = None) -> dict[str, Any]:
    if status is not None and status not in STATUSES:
        raise ApiError(422, "bad_request", f"status must be one of {', '.join(STATUSES)}")
    writer = deps.writer(request)
    rows = await catalog.list_matches(deps.engine(request), status=status)
    shorts = [await writer.short_projection(r.id) for r in rows]
    return {"matches": [s for s in shorts if s is not None]}


@router.get("/matches/{mid}")
async def get_match(mid: str, request: Request) -> dict[str, Any]:
    proj = await deps.writer(request).projection(mid)
    if proj is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    return proj


@router.get("/matches/{mid}/events")
async def get_events(mid: str, request: Request, since: int = 0) -> dict[str, Any]:
    if since < 0:
        raise ApiError(422, "bad_request", "since must be a non-negative integer")
    since = min(since, 2**31 - 1)  # past any version; larger numbers overflow the database's integers
    engine = deps.engine(request)
    if await catalog.get_match(engine, mid) is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    return {"events": [e.to_json() for e in await store.read_events(engine, mid, since)]}
