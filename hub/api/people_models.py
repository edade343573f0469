"""OpenAPI models of people across events (PROTOCOL.md section 12): what `hub/api/people.py` takes
and answers. Documentation only, like `models.py`: the handlers read their bodies with
`errors.read_json` and `hub/people/directory.py` checks them. docs/people.md says what each field means.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, RootModel

from hub.api.competition_models import Club, PersonId, PlayerName
from hub.api.model_kit import _Open

Aliases = Annotated[list[PlayerName], Field(max_length=10, description="Other names the person is found by.")]


class PersonCreate(BaseModel):
    name: PlayerName
    club: Club | None = None
    aliases: Aliases | None = None


class PeopleBatch(BaseModel):
    people: list[PersonCreate] = Field(min_length=1, max_length=500)


class PeopleAdd(RootModel[PersonCreate | PeopleBatch]):
    """One person, or a list of them."""


class PersonChanges(BaseModel):
    """Any of the fields: the directory changes, the entries keep the names they were played under."""

    name: PlayerName | None = None
    club: Club | None = None
    aliases: Aliases | None = None


class Person(_Open):
    id: str
    name: str
    club: str | None
    aliases: list[str]


class PeopleMade(BaseModel):
    people: list[Person]


class DirectoryRow(Person):
    events: int = Field(description="Tournaments entered (those of people merged into this one too).")
    rating: Any = Field(description="Null until ratings exist (PROTOCOL.md section 13 decides what it shows).")


class DirectoryPage(BaseModel):
    people: list[DirectoryRow]
    next: str | None = Field(description="The cursor of the next page (pass it back as `cursor`), or null.")


class MatchCounts(BaseModel):
    played: int
    won: int
    entered: int = Field(description="Of those played, results entered by hand.")


class RackCounts(BaseModel):
    played: int
    won: int
    won_on_own_break: int
    won_on_opponent_break: int


class BreakCounts(BaseModel):
    taken: int
    balls: int = Field(description="Object balls pocketed by break strokes.")
    dry: int = Field(description="Breaks that pocketed no ball.")
    fouls: int = Field(description="Breaks with a foul.")
    racks_won: int = Field(description="Racks won by this player as the breaker.")


class FoulCounts(BaseModel):
    total: int
    by_code: dict[str, int]


class StrokeTimes(BaseModel):
    count: int
    timed: int
    median_ms: int | None
    p90_ms: int | None


class IntentCount(BaseModel):
    strokes: int
    success: int | None = None


class IntentCounts(BaseModel):
    pot: IntentCount
    safety: IntentCount
    kick: IntentCount


class StatsSummary(_Open):
    matches: MatchCounts
    racks: RackCounts
    breaks: BreakCounts
    break_and_runs: int
    table_runs: int
    golden_breaks: int
    loss_of_chance: int
    fouls: FoulCounts
    strokes: StrokeTimes
    intent: IntentCounts


class Stats(BaseModel):
    total: StatsSummary
    disciplines: dict[str, StatsSummary]


class PersonEvent(_Open):
    tournament_id: str
    name: str = Field(description="The tournament's name.")
    at: int = Field(description="When the tournament was made (ms).")
    player_id: str
    played_as: str = Field(description="The entry's name (the name played under).")
    place: int | None
    status: str | None
    link: Literal["linked", "created"]
    person: str = Field(description="The person the entry is linked to (this one, or one merged into it).")
    stats: Stats


class LiveMatch(_Open):
    match_id: str
    tournament_id: str
    table_id: str
    discipline: str
    player_id: str
    draw_key: str | None


class Profile(Person):
    merged: list[str] = Field(description="People merged into this one.")
    events: list[PersonEvent]
    stats: Stats
    ratings: dict[str, Any] = Field(description="Per discipline (PROTOCOL.md section 13); {} until ratings exist.")
    live: LiveMatch | None


class MergedPointer(BaseModel):
    merged_into: str


class ProfileAnswer(RootModel[Profile | MergedPointer]):
    """The person, or `{"merged_into"}` for a person merged into another."""


class MatchSide(_Open):
    player_id: str
    name: str
    score: int | None
    person: str | None


class PersonMatch(_Open):
    match_id: str | None
    tournament_id: str
    tournament: str
    draw_key: str | None
    round: str | None
    round_name: str | None
    round_name_zh: str | None
    discipline: str
    at: int
    entered: bool
    walkover: bool
    player_id: str
    score: int | None
    won: bool
    winner: str | None
    opponents: list[MatchSide]


class PersonMatches(_Open):
    matches: list[PersonMatch]
    next: str | None


class VersusCounts(BaseModel):
    matches: int
    a_wins: int
    b_wins: int
    a_racks: int
    b_racks: int


class PersonRef(BaseModel):
    id: str
    name: str


class Versus(_Open):
    a: PersonRef
    b: PersonRef
    total: VersusCounts
    disciplines: dict[str, VersusCounts]
    matches: list[PersonMatch]


class MergeBody(BaseModel):
    into: PersonId


class MergeAnswer(_Open):
    id: str
    merged_into: str | None


class PersonDeleted(BaseModel):
    id: str
    deleted: bool


class EntryStats(_Open):
    player_id: str
    person: str
    name: str
    stats: Stats


class TournamentStats(_Open):
    tournament_id: str
    players: list[EntryStats]


class MemberStats(_Open):
    person: str
    name: str
    stats: Stats


class MatchPlayerStats(_Open):
    player_id: str
    name: str
    person: str | None
    stats: Stats
    members: list[MemberStats] | None = Field(None, description=(
        "A doubles side's members (PROTOCOL.md section 15), each with the statistics of the turns they played."))


class MatchStats(_Open):
    match_id: str
    version: int
    status: str
    players: list[MatchPlayerStats]
