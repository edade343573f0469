"""Series over REST (PROTOCOL.md section 13): a ranking over several tournaments. Reads are public
(the standings are the read model hub/series/keeper.py keeps: a read folds nothing); writes need
the admin credential and answer with the series made again at once.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from hub.api import deps, models
from hub.api import series_models as sm
from hub.api.competition_models import csv_ok
from hub.api.errors import ApiError, read_json
from hub.series import refresh, store
from hub.series.points import SeriesError, check_best, check_name, check_points
from hub.series.store import SeriesRefused

router = APIRouter(prefix="/api", tags=["series"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)
BOM = "\ufeff"


async def _body(request: Request, fields: tuple[str, ...]) -> dict[str, Any]:
    body = await read_json(request, deps.settings(request).max_body_bytes)
    if not isinstance(body, dict):
        raise ApiError(422, "bad_request", "the body must be a JSON object")
    extra = sorted(set(body) - set(fields))
    if extra:
        raise ApiError(422, "bad_request", f"unknown field {extra[0][:40]!r} (takes {', '.join(fields)})")
    return body


def _checked(body: dict[str, Any], *, partial: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    try:
        if "name" in body or not partial:
            out["name"] = check_name(body.get("name"))
        if "points" in body or not partial:
            out["points"] = check_points(body.get("points"))
        if "best" in body or not partial:
            out["best"] = check_best(body.get("best"))
    except SeriesError as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return out


async def _answer(request: Request, sid: str, status: int = 200) -> JSONResponse:
    engine = deps.engine(request)
    await refresh.refresh(engine, deps.services(request).tournaments, sid)
    return JSONResponse(await _read(request, sid), status_code=status)


async def _read(request: Request, sid: str) -> dict[str, Any]:
    try:
        return await store.read(deps.engine(request), sid)
    except SeriesRefused as r:
        raise ApiError(r.status, r.code, r.message) from None


async def _refused(work: Any) -> None:
    try:
        await work
    except SeriesRefused as r:
        raise ApiError(r.status, r.code, r.message) from None


@router.post("/series", status_code=201, dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(sm.SeriesCreate),
             responses=models.ok(sm.Series, "The series, with its (empty) standings.", 201) | WRITE_ERRORS)
async def create_series(request: Request) -> JSONResponse:
    body = _checked(await _body(request, ("name", "points", "best")), partial=False)
    sid = await store.create(deps.engine(request), body["name"], body["points"], body["best"])
    return await _answer(request, sid, 201)


@router.get("/series", response_model=None, responses=models.ok(sm.SeriesList, "Every series."))
async def list_series(request: Request) -> dict[str, Any]:
    return {"series": await store.read_all(deps.engine(request))}


@router.get("/series/{sid}", response_model=None,
            responses=models.ok(sm.Series, "The series: its tournaments and standings; `ETag` given, "
                                "`If-None-Match` answered 304.") | models.errors(404))
async def get_series(sid: str, request: Request) -> Response:
    view = await _read(request, sid)
    etag = f'"s{view["version"]}"'
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag})
    return JSONResponse(view, headers={"ETag": etag, "Cache-Control": "no-cache"})


@router.patch("/series/{sid}", dependencies=ADMIN, response_model=None, openapi_extra=models.body(sm.SeriesPatch),
              responses=models.ok(sm.Series, "The series, its standings made again.") | WRITE_ERRORS)
async def patch_series(sid: str, request: Request) -> JSONResponse:
    changes = _checked(await _body(request, ("name", "points", "best")), partial=True)
    if changes:
        await _refused(store.update(deps.engine(request), sid, changes))
    return await _answer(request, sid)


@router.delete("/series/{sid}", dependencies=ADMIN, response_model=None,
               responses=models.ok(sm.SeriesDeleted, "Deleted (its tournaments stay).") | WRITE_ERRORS)
async def delete_series(sid: str, request: Request) -> dict[str, Any]:
    await _refused(store.delete(deps.engine(request), sid))
    return {"deleted": sid}


@router.post("/series/{sid}/tournaments", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(sm.SeriesTournamentAdd),
             responses=models.ok(sm.Series, "The series with the tournament (once only).") | WRITE_ERRORS)
async def add_tournament(sid: str, request: Request) -> JSONResponse:
    body = await _body(request, ("tournament_id",))
    tid = body.get("tournament_id")
    if not isinstance(tid, str) or not tid or len(tid) > 64:
        raise ApiError(422, "bad_request", "tournament_id must be a tournament's id")
    await _refused(store.add_tournament(deps.engine(request), sid, tid))
    return await _answer(request, sid)


@router.delete("/series/{sid}/tournaments/{tid}", dependencies=ADMIN, response_model=None,
               responses=models.ok(sm.Series, "The series without the tournament.") | WRITE_ERRORS)
async def remove_tournament(sid: str, tid: str, request: Request) -> JSONResponse:
    await _refused(store.remove_tournament(deps.engine(request), sid, tid))
    return await _answer(request, sid)


def _cell(value: Any) -> Any:
    """A text starting with = + - @ would be a formula to a spreadsheet: prefixed (CSV injection)."""
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def standings_csv(view: dict[str, Any]) -> str:
    """A row per person: rank, person, name, points, events, then place and points per tournament
    (points left out by `best` in brackets), with a BOM so a spreadsheet opens it as UTF-8."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    tours = view["tournaments"]
    w.writerow(["rank", "person", "name", "points", "events",
                *[_cell(f"{col} {t['name']}") for t in tours for col in ("place", "points")]])
    for row in view["standings"]:
        by_tour = {r["tournament_id"]: r for r in row["results"]}
        cells: list[Any] = []
        for t in tours:
            r = by_tour.get(t["id"])
            cells += [r["place"], r["points"] if r["counted"] else f"({r['points']})"] if r else ["", ""]
        w.writerow([row["rank"], row["person"], _cell(row["name"]), row["points"], row["events"], *cells])
    return BOM + buf.getvalue()


@router.get("/series/{sid}/standings.csv", response_model=None, response_class=Response,
            responses=csv_ok("The standings, a row per person (UTF-8 with a BOM).") | models.errors(404))
async def series_csv(sid: str, request: Request) -> Response:
    view = await _read(request, sid)
    return Response(standings_csv(view).encode("utf-8"), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="series-{sid}.csv"'})
