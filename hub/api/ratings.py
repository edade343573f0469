"""Ratings over REST (PROTOCOL.md section 13; docs/ratings.md): the list per discipline and the
odds of a rack and of a race. Public reads; the logic is hub/ratings/reads.py."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from hub.api import deps, models
from hub.api.errors import ApiError
from hub.people.directory import Refused
from hub.ratings import reads, store

router = APIRouter(prefix="/api", tags=["ratings"], responses=models.errors(503))


class RatingRow(BaseModel):
    rank: int = Field(description="Place in the list (equal values share one; provisional ones are ranked after).")
    person: str
    name: str
    value: int = Field(description="Per-rack odds scale: 100 points apart = 2:1 a rack; a field's mean near 500.")
    racks: int = Field(description="Racks against people in this discipline.")
    provisional: bool = Field(description="Fewer than 100 racks.")


class RatingsPage(BaseModel):
    discipline: str
    ratings: list[RatingRow]
    next: str | None = Field(description="The cursor of the next page, or null.")


class OddsSide(BaseModel):
    person: str
    name: str
    value: int | None = Field(description="Null when unrated (the odds then take 500).")
    racks: int
    provisional: bool


class Odds(BaseModel):
    discipline: str
    a: OddsSide
    b: OddsSide
    race_to: list[int] = Field(description="[a's race, b's race].")
    score: list[int] = Field(description="[a's racks, b's racks]: the score the match chance is from.")
    rack: float = Field(description="The chance that a wins a rack.")
    match: float = Field(description="The chance that a wins the race from the score.")


class MatchOddsPlayer(BaseModel):
    player_id: str
    person: str | None = Field(description="The person the entry is linked to, or null (a match made by hand).")
    rating: dict[str, Any] | None = Field(description="{value, racks, provisional} in the match's discipline, or null.")
    race_to: int | None
    score: int | None
    chance: float | None = Field(description="The chance to win the match from the score (two players racing).")


class MatchOdds(BaseModel):
    match_id: str
    version: int
    discipline: str
    rack: float | None = Field(description="The chance that the first player wins a rack (two players).")
    players: list[MatchOddsPlayer]


def _refused(r: Refused) -> ApiError:
    return ApiError(r.status, r.code, r.message)


@router.get("/ratings", response_model=None,
            responses=models.ok(RatingsPage, "One page of a discipline's ratings: best first, provisional after.")
            | models.errors(422))
async def list_ratings(request: Request, discipline: str | None = Query(None, max_length=40),
                       cursor: str | None = Query(None, max_length=600, description="`next` of the page before."),
                       limit: int | None = Query(None, ge=1, le=reads.MAX_LIMIT)) -> dict[str, Any]:
    try:
        return await reads.listing(deps.engine(request), discipline, cursor, limit)
    except Refused as r:
        raise _refused(r) from None


@router.get("/odds", response_model=None,
            responses=models.ok(Odds, "The chance that a wins a rack, and the race.") | models.errors(404, 422))
async def get_odds(request: Request, a: str | None = Query(None, max_length=64),
                   b: str | None = Query(None, max_length=64), discipline: str | None = Query(None, max_length=40),
                   race_to: str | None = Query(None, max_length=9,
                                               description="A number, or A-B (a races to A, b to B)."),
                   score: str | None = Query(None, max_length=9, description="X-Y: the chance from this score.")
                   ) -> dict[str, Any]:
    try:
        return await reads.odds(deps.engine(request), a, b, discipline, race_to, score)
    except Refused as r:
        raise _refused(r) from None


@router.get("/matches/{mid}/odds", response_model=None,
            responses=models.ok(MatchOdds, "Both players' ratings and each one's chance to win from the score.")
            | models.errors(404))
async def match_odds(mid: str, request: Request) -> dict[str, Any]:
    services = deps.services(request)
    proj = await services.writer.projection(mid)
    if proj is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    pids = [p["id"] for p in proj.get("players") or []]
    persons = {}
    if services.people is not None and proj.get("tournament_id"):
        persons = await services.people.history.entry_people(proj["tournament_id"], pids)
    async with services.engine.connect() as conn:
        rows = await store.exact_of(conn, str(proj.get("discipline")), list(persons.values()))
    return reads.match_odds(proj, persons, rows)
