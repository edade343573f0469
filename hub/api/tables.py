"""One table: `GET /api/tables/{table_id}` (public: its name and its tournament's, for the tablet,
the pairing page and the pages that follow a table; the match on it now; how many tablets hold a
token of their own for it) and `PATCH /api/tables/{table_id}`
`{"name"}` (admin: rename it; the screens show the new name the next time they read the table)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from hub.api import competition_models as cm
from hub.api import deps, models
from hub.api.errors import ApiError, read_json
from hub.rules.names import BadName, clean_name
from hub.store import catalog

router = APIRouter(prefix="/api", tags=["desk"])

MAX_NAME = 200


def _name(body: Any) -> str:
    name = body.get("name") if isinstance(body, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise ApiError(422, "bad_request", "name must be a non-empty string")
    if len(name) > MAX_NAME:
        raise ApiError(422, "bad_request", f"name is longer than {MAX_NAME} characters")
    try:
        return clean_name(name)
    except BadName as exc:
        raise ApiError(422, "bad_request", str(exc)) from None


async def _answer(request: Request, table: catalog.TableRow) -> dict[str, Any]:
    engine = deps.engine(request)
    tournament = await catalog.get_tournament(engine, table.tournament_id)
    return {
        "id": table.id, "name": table.name, "tournament_id": table.tournament_id,
        "tournament_name": tournament["name"] if tournament else None,
        "match_id": await catalog.current_match_id(engine, table.id),  # the match on it now, or null
        "tablets": await catalog.count_table_tokens(engine, table.id),
    }


@router.get(
    "/tables/{table_id}",
    response_model=None,
    responses=models.ok(cm.TableInfo, "The table: its name, its tournament, its paired tablets.") | models.errors(404),
)
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    table = await catalog.get_table(deps.engine(request), table_id)
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    return await _answer(request, table)


@router.patch("/tables/{table_id}", dependencies=[Depends(deps.require_admin)], response_model=None,
              openapi_extra=models.body(models.NameBody),
              responses=models.ok(cm.TableInfo, "The table, renamed.") | models.errors(401, 403, 404, 413, 422))
async def rename_table(table_id: str, request: Request) -> dict[str, Any]:
    name = _name(await read_json(request, deps.settings(request).max_body_bytes))
    table = await catalog.rename_table(deps.engine(request), table_id, name)
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    deps.writer(request).table_changed(table.id, table.tournament_id)  # the new name reaches open screens
    return await _answer(request, table)
