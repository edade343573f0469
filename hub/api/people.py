"""People across events over REST (PROTOCOL.md section 12; docs/people.md): the directory, a
person's profile, matches and head-to-head, merges; and the statistics of an event's entries and
of one match. Reads are public, writes need the admin credential.

The logic is hub/people/ (directory, profile, record); its refusals (`Refused`) answer with their
own status and code.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from hub.api import deps, models
from hub.api import people_models as pm
from hub.api.errors import ApiError, read_json
from hub.people import directory, profile, record, tally
from hub.people.directory import Refused
from hub.people.history import NotFoldable

router = APIRouter(prefix="/api", tags=["people across events"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)
T = TypeVar("T")
PERSON_ID = "person_id"


async def _answer(work: Awaitable[T]) -> T:
    try:
        return await work
    except Refused as r:
        raise ApiError(r.status, r.code, r.message) from None


async def _body(request: Request) -> Any:
    return await read_json(request, deps.settings(request).max_body_bytes)


@router.get("/people", response_model=None,
            responses=models.ok(pm.DirectoryPage, "One page of the directory, in its order (by name; Chinese names "
                                "by their pinyin).") | models.errors(422))
async def list_people(request: Request, q: str | None = Query(None, max_length=200, description=(
                          "Words to find in names, aliases and clubs (folded: case, width, accents; Chinese names "
                          "also by toneless pinyin). Each word must begin a word of the person.")),
                      cursor: str | None = Query(None, max_length=600, description="`next` of the page before."),
                      limit: int | None = Query(None, ge=1, le=profile.MAX_LIMIT)) -> dict[str, Any]:
    return await _answer(profile.directory_page(deps.engine(request), q, cursor, limit))


@router.post("/people", status_code=201, dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(pm.PeopleAdd),
             responses=models.ok(pm.PeopleMade, "The people made.", 201) | WRITE_ERRORS)
async def add_people(request: Request) -> JSONResponse:
    body = await _body(request)
    try:
        batch = directory.batch_of(body)
    except Refused as r:
        raise ApiError(r.status, r.code, r.message) from None
    made = await directory.create(deps.engine(request), batch)
    return JSONResponse({"people": made}, status_code=201)


@router.get("/people/{person_id}", response_model=None,
            responses=models.ok(pm.ProfileAnswer, "The person, or where a merged person went.") | models.errors(404))
async def get_person(person_id: str, request: Request) -> dict[str, Any]:
    return await _answer(profile.profile(deps.engine(request), person_id))


@router.patch("/people/{person_id}", dependencies=ADMIN, response_model=None,
              openapi_extra=models.body(pm.PersonChanges), responses=models.ok(pm.Person, "The person.") | WRITE_ERRORS)
async def update_person(person_id: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    return await _answer(directory.update(deps.engine(request), person_id, body))


@router.delete("/people/{person_id}", dependencies=ADMIN, response_model=None,
               responses=models.ok(pm.PersonDeleted, "The person is gone.") | models.errors(401, 403, 404, 409))
async def delete_person(person_id: str, request: Request) -> dict[str, Any]:
    return await _answer(directory.remove(deps.engine(request), person_id))


@router.get("/people/{person_id}/matches", response_model=None,
            responses=models.ok(pm.PersonMatches, "Their finished matches and walkovers, newest first.")
            | models.errors(404, 422))
async def person_matches(person_id: str, request: Request,
                         cursor: str | None = Query(None, max_length=600, description="`next` of the page before."),
                         discipline: str | None = Query(None, max_length=32),
                         limit: int | None = Query(None, ge=1, le=profile.MAX_LIMIT)) -> dict[str, Any]:
    return await _answer(record.matches_page(deps.engine(request), person_id, cursor, discipline, limit))


@router.get("/people/{a}/versus/{b}", response_model=None,
            responses=models.ok(pm.Versus, "Every finished match between them, wins and racks each.")
            | models.errors(404, 422))
async def versus(a: str, b: str, request: Request) -> dict[str, Any]:
    return await _answer(record.versus(deps.engine(request), a, b))


@router.post("/people/{person_id}/merge", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(pm.MergeBody),
             responses=models.ok(pm.MergeAnswer, "Merged: everything of this person counts for `into`.")
             | WRITE_ERRORS)
async def merge(person_id: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    into = body.get("into") if isinstance(body, dict) and set(body) == {"into"} else None
    return await _answer(directory.merge(deps.engine(request), person_id, into))


@router.post("/people/{person_id}/unmerge", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(pm.MergeAnswer, "The merge undone: the person has back what they had.")
             | models.errors(401, 403, 404, 409))
async def unmerge(person_id: str, request: Request) -> dict[str, Any]:
    return await _answer(directory.unmerge(deps.engine(request), person_id))


@router.get("/tournaments/{tid}/stats", response_model=None,
            responses=models.ok(pm.TournamentStats, "Each entry's person and statistics of this event.")
            | models.errors(404))
async def tournament_stats(tid: str, request: Request) -> dict[str, Any]:
    found = await record.tournament_stats(deps.engine(request), tid)
    if found is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    return found


@router.get("/matches/{mid}/stats", response_model=None,
            responses=models.ok(pm.MatchStats, "The statistics of this match so far (live or finished).")
            | models.errors(404))
async def match_stats(mid: str, request: Request) -> dict[str, Any]:
    services = deps.services(request)
    row = await services.writer.match_row(mid)
    if row is None or services.people is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    try:
        found = await services.people.history.cached_match_stats(row)
    except NotFoldable:
        raise ApiError(404, "not_found", f"match {mid!r} has no strokes to count") from None
    persons = await services.people.history.entry_people(row.tournament_id, list(found.tallies))
    discipline = found.state.setup.discipline
    return {"match_id": mid, "version": found.state.version, "status": found.state.status,
            "players": [{"player_id": p.id, "name": p.name, "person": persons.get(p.id),
                         "stats": tally.stats_json({discipline: found.tallies[p.id]}),
                         **_members(found, p.id, discipline)} for p in found.state.players]}


def _members(found: Any, side: str, discipline: str) -> dict[str, Any]:
    """A doubles side's members with their own statistics (their own turns: PROTOCOL.md section 15)."""
    if not found.members:
        return {}
    setup = found.state.setup
    members = setup.players[setup.player_index[side]].members
    return {"members": [{"person": m.person, "name": m.name,
                         "stats": tally.stats_json({discipline: found.members[m.person]})} for m in members]}
