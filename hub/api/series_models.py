"""OpenAPI models of series (PROTOCOL.md section 13): what `hub/api/series.py` takes and answers.
Documentation only: the handlers read their bodies with `errors.read_json` and hub/series/points.py
checks them (422 with a code)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from hub.api.model_kit import _Open

Bands = Annotated[dict[str, Annotated[int, Field(ge=0)]], Field(
    min_length=1, description='The first place of each band -> the points each place of it gets: {"1": 100, '
    '"2": 75, "3": 55, "5": 35, "9": 20} gives places 3-4 55 points and 9 on 20 (a band of 0 ends the paid places).')]
Best = Annotated[int, Field(ge=1, description="Count only a person's k best events.")]


class SeriesCreate(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    points: Bands
    best: Best | None = None


class SeriesPatch(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    points: Bands | None = None
    best: Best | None = Field(None, description="null: every event counts.")


class SeriesTournamentAdd(BaseModel):
    tournament_id: Annotated[str, Field(min_length=1, max_length=64)]


class Champion(_Open):
    person: str
    name: str


class SeriesTournament(_Open):
    id: str
    name: str
    status: Literal["finished", "in_progress", "not_started"] = Field(
        description="finished: its places count; in_progress: its draw is running (shown apart, counts nothing yet).")
    finished_at: int | None = None
    champion: Champion | None = None


class SeriesResult(_Open):
    tournament_id: str
    place: int
    points: int
    counted: bool = Field(description="False when `best` leaves this event out.")


class SeriesStanding(_Open):
    rank: int = Field(description="Shared by people equal on points, countback and most recent best place.")
    person: str
    name: str
    points: int
    events: int = Field(description="Finished events played.")
    results: list[SeriesResult]


class Series(_Open):
    id: str
    name: str
    points: dict[str, int]
    best: int | None = None
    version: int = Field(description="Grows with every change of the series or its standings (the ETag).")
    tournaments: list[SeriesTournament]
    standings: list[SeriesStanding] = Field(description="Best first (PROTOCOL.md section 13: ties by points from "
                                            "better places, then the most recent best place).")


class SeriesList(_Open):
    series: list[Series] = Field(description="Newest first.")


class SeriesDeleted(_Open):
    deleted: str
