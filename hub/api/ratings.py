"""Ratings over REST (PROTOCOL.md section 13; docs/ratings.md): the list per discipline and the
odds of a rack and of a race. Public reads; the logic is hub/ratings/reads.py."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from hub.api import deps, models
from hub.api.errors import ApiError
from hub.people.directory import Refused
from hub.ratings import reads

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
