"""Setup and reads over REST (PROTOCOL.md section 1): tournaments, tables, matches, events."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from hub import draws
from hub.api import competition_models as cm
from hub.api import deps, models
from hub.api.errors import ApiError, read_json
from hub.matches.listings import Listings
from hub.ops import conditional
from hub.rules.names import BadName, clean_name
from hub.store import catalog
from hub.store import match_events as store
from hub.tournaments.projection import DEFAULT_PAGE, MAX_PAGE, page_matches, tournament_projection
from hub.tournaments.summary import TournamentList

# Every call may meet a database outage (503); the admin calls add their own statuses.
router = APIRouter(prefix="/api", tags=["setup and reads"], responses=models.errors(503))
ADMIN_ERRORS = models.errors(401, 403, 413, 422)

STATUSES = ("scheduled", "live", "finished")


def _name(body: Any) -> str:
    if not isinstance(body, dict) or not isinstance(body.get("name"), str) or not body["name"].strip():
        raise ApiError(422, "bad_request", "name must be a non-empty string")
    if len(body["name"]) > 200:
        raise ApiError(422, "bad_request", "name is longer than 200 characters")
    try:
        return clean_name(body["name"])
    except BadName as exc:
        raise ApiError(422, "bad_request", str(exc)) from None


def _listings(request: Request) -> Listings:
    return deps.services(request).listings


async def _body(request: Request) -> Any:
    return await read_json(request, deps.settings(request).max_body_bytes)


@router.post("/tournaments", status_code=201, dependencies=[Depends(deps.require_admin)], response_model=None,
             openapi_extra=models.body(models.NameBody),
             responses=models.ok(models.Tournament, "The tournament.", 201) | ADMIN_ERRORS)
async def create_tournament(request: Request) -> JSONResponse:
    """Create a tournament (admin)."""
    name = _name(await _body(request))
    return JSONResponse(await catalog.create_tournament(deps.engine(request), name), status_code=201)


@router.get("/tournaments", response_model=None,
            responses=models.ok(models.TournamentList, "Every tournament, newest first."))
async def list_tournaments(request: Request, archived: int = 0) -> dict[str, Any]:
    """Every tournament, newest first, each with what is live, next and whether it is finished
    (hub/tournaments/summary.py: the home page's list); archived ones only with `?archived=1`."""
    state = deps.services(request)
    listed = state.tournament_list
    # Made on first use, for the services of this lifespan (another TestClient's start replaces them).
    if listed is None or not listed.serves(deps.engine(request), state.tournaments):
        listed = state.tournament_list = TournamentList(deps.engine(request), _listings(request), state.tournaments,
                                                        draws, writer=deps.writer(request))
    every = await listed.get()
    return {"tournaments": every if archived else [t for t in every if not t.get("archived")]}


@router.get("/tournaments/{tid}", response_model=None, responses=models.ok(
    cm.CompetitionProjection, "The tournament projection (PROTOCOL.md sections 5 and 7).") | models.errors(404))
async def get_tournament(tid: str, request: Request, matches_offset: int = 0,
                         matches_limit: int = DEFAULT_PAGE) -> dict[str, Any]:
    """The tournament projection: its tables and the match on each, with a version. A big draw's
    matches come in pages: `draw.matches` holds at most `matches_limit` (default 256, at most 1024)
    from `matches_offset`, and `draw.matches_page` says `{offset, limit, total, next}`."""
    if matches_offset < 0 or not 1 <= matches_limit <= MAX_PAGE:
        raise ApiError(422, "bad_request", f"matches_offset must be >= 0 and matches_limit 1 to {MAX_PAGE}")
    proj = await tournament_projection(_listings(request), deps.services(request).tournaments, draws, tid)
    if proj is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    return page_matches(proj, matches_offset, matches_limit)


@router.post("/tournaments/{tid}/tables", status_code=201, dependencies=[Depends(deps.require_admin)],
             response_model=None, openapi_extra=models.body(models.NameBody),
             responses=models.ok(models.TableCreated, "The table, with its token (shown once).", 201)
             | ADMIN_ERRORS | models.errors(404))
async def create_table(tid: str, request: Request) -> JSONResponse:
    """Add a table to a tournament (admin); the answer carries the table token, shown once."""
    name = _name(await _body(request))
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    table = await catalog.create_table(deps.engine(request), tid, name)
    deps.writer(request).table_changed(table["id"], tid)  # screens see it; the draw's flow feeds it
    flow = deps.services(request).flow
    if tid in flow.watched:  # a new free table takes the next ready match of a draw, before this answer
        flow.kick(tid)
        await flow.idle(tid)
    return JSONResponse(table, status_code=201)


@router.post("/matches", status_code=201, dependencies=[Depends(deps.require_admin)], response_model=None,
             openapi_extra=models.body(models.MatchCreate),
             responses=models.ok(models.MatchProjection, "The new match's projection.", 201)
             | ADMIN_ERRORS | models.errors(404, 409))
async def create_match(request: Request) -> JSONResponse:
    """Create a match on a table (admin); a table has at most one match that is not finished."""
    body = await _body(request)
    if not isinstance(body, dict):
        raise ApiError(422, "bad_request", "the body must be a JSON object")
    if "draw" in body:
        raise ApiError(422, "bad_request", "draw is set by the hub for the matches of a draw; leave it out")
    tid, table_id = body.get("tournament_id"), body.get("table_id")
    if not isinstance(tid, str) or not isinstance(table_id, str):
        raise ApiError(422, "bad_request", "tournament_id and table_id must be strings")
    engine = deps.engine(request)
    if await catalog.get_tournament(engine, tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    table = await catalog.get_table(engine, table_id)
    if table is None or table.tournament_id != tid:
        raise ApiError(404, "not_found", f"no table {table_id!r} in tournament {tid!r}")
    rules = deps.services(request).rules
    try:
        proj = await deps.writer(request).create_match(body, tournament_id=tid, table_id=table_id)
    except rules.SetupError as exc:
        raise ApiError(422, exc.code, exc.message) from None
    except catalog.TableBusy:
        raise ApiError(409, "table_busy", f"table {table_id!r} already has a match that is not finished") from None
    return JSONResponse(proj, status_code=201)


@router.get("/matches", response_model=None, responses=models.ok(
    models.MatchList, "Short forms, newest first; `ETag` given, `If-None-Match` answered 304.") | models.errors(422))
async def list_matches(request: Request, status: str | None = None) -> Response:
    """Matches in short form, newest first, optionally of one status."""
    if status is not None and status not in STATUSES:
        raise ApiError(422, "bad_request", f"status must be one of {', '.join(STATUSES)}")
    listing = await _listings(request).match_list(status)
    # no-cache: a browser revalidates every poll (the index page's), and gets a 304 when nothing changed.
    return conditional.respond(request, listing.body, "application/json", {"Cache-Control": "no-cache"},
                               etag=listing.etag)


@router.get("/matches/{mid}", response_model=None, responses=models.ok(
    models.MatchProjection, "The match projection (PROTOCOL.md section 4).") | models.errors(404))
async def get_match(mid: str, request: Request) -> dict[str, Any]:
    """The match projection."""
    proj = await deps.writer(request).projection(mid)
    if proj is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    return proj


@router.get("/matches/{mid}/events", response_model=None, responses=models.ok(
    models.EventList, "Stored events with version > since, oldest first.") | models.errors(404, 422))
async def get_events(mid: str, request: Request, since: int = 0) -> dict[str, Any]:
    """The match's stored events after version `since`, oldest first."""
    if since < 0:
        raise ApiError(422, "bad_request", "since must be a non-negative integer")
    since = min(since, 2**31 - 1)  # past any version; larger numbers overflow the database's integers
    engine = deps.engine(request)
    if await catalog.get_match(engine, mid) is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    return {"events": [e.to_json() for e in await store.read_events(engine, mid, since)]}
