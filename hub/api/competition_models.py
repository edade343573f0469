"""OpenAPI models of running a competition (PROTOCOL.md section 7) and of the desk (section 8):
what `hub/api/tournaments.py`, `session.py`, `pairing.py` and `tables.py` take and answer.

Documentation only, like `models.py` (whose pattern and helpers these follow): the handlers read
their bodies with `errors.read_json`, and the pure draw logic (`hub/draws/`) is what checks them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, RootModel, create_model

from hub.api.model_kit import NAME_RULE
from hub.api.models import DISCIPLINES, MatchFormat, MatchOptions, MatchShort, TournamentTable, _Open
from hub.draws import draw_formats

PlayerName = Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S",
                                  description="Trimmed; 1 to 100 characters. " + NAME_RULE)]
Club = Annotated[str, Field(max_length=100, description="Up to 100 characters; empty is none. " + NAME_RULE)]
Seed = Annotated[int, Field(ge=1, le=9999, description="Unique in the tournament; 1 is the top seed.")]
Key = Annotated[str, Field(min_length=1, max_length=16, description="A draw match: W1-3, L2-1, GF, GF2, A-4, C2-1 ...")]
PlayerStatus = Literal["active", "eliminated", "withdrawn", "champion", "qualified"]
if TYPE_CHECKING:
    DrawType = str
else:  # the registry's formats (hub/draws/draw_formats/)
    DrawType = Literal[draw_formats.names()]
EntryStatus = Literal["waiting", "ready", "called", "finished", "walkover", "bye"]


# --- players -----------------------------------------------------------------------------------


PersonId = Annotated[str, Field(min_length=1, max_length=64,
                                description="A person of the directory (GET /api/people).")]


class TeamMember(BaseModel):
    """A member of a team (PROTOCOL.md section 15): a person of the directory, or a name (linked by the rule)."""

    person: PersonId | None = None
    name: PlayerName | None = None
    club: Club | None = None


class PlayerCreate(BaseModel):
    """`name` is required unless `person` is given (the name and club then default to the person's).
    Without `person`, the entry is linked by the rule of PROTOCOL.md section 12 (docs/people.md)."""

    name: PlayerName | None = None
    club: Club | None = None
    seed: Seed | None = None
    handicap: Literal["eight"] | None = Field(None, description="Chinese nine-ball's '8 wins, 9 golds' "
                                              "(sent to the matches of a discipline whose `handicaps` take it).")
    person: PersonId | None = Field(None, description="The person this entry is (PROTOCOL.md section 12).")
    members: list[TeamMember] | None = Field(None, min_length=1, max_length=16, description="A team: its "
                                             "members, each in one team of the tournament at most (section 15).")
    captain: int | None = Field(None, ge=0, description="A team's captain: an index into `members`.")


class PlayerBatch(BaseModel):
    players: list[PlayerCreate] = Field(min_length=1, max_length=512)


class PlayersAdd(RootModel[PlayerCreate | PlayerBatch]):
    """One player, or a list of them (a pasted list)."""


class PlayerChanges(BaseModel):
    """Any of the fields; a rename shows on every screen, past matches too. Seeds are fixed once the
    draw is made (409)."""

    name: PlayerName | None = None
    club: Club | None = None
    seed: Seed | None = None
    handicap: Literal["eight"] | None = None
    person: PersonId | None = Field(None, description="Link the entry to this person instead: its history and "
                                    "statistics follow (a person merged into another: that other one).")
    members: list[TeamMember] | None = Field(None, description="A team's new members (until it has played: 409 "
                                             "team_played).")
    captain: int | None = Field(None, ge=0, description="A team's captain: an index into `members`.")


class Player(_Open):
    id: str
    name: str
    club: str | None
    seed: int | None
    handicap: Literal["eight"] | None
    status: PlayerStatus
    person: str | None = Field(None, description="The person of the directory this entry is (section 12).")


class AddedPlayer(Player):
    link: Literal["linked", "created"] = Field(description=(
        "`linked`: the entry points at a person who was in the directory (the one named by `person`, or the one "
        "person whose folded name and club are the player's); `created`: a new person was made for it."))


class AddedPlayers(_Open):
    players: list[AddedPlayer]


class PlayerList(BaseModel):
    players: list[Player]


# --- the draw ----------------------------------------------------------------------------------


class RoundFormat(BaseModel):
    format: MatchFormat


class Handicap(BaseModel):
    """Each match's races from the players' ratings: the higher-rated races to `race_to`, the other to
    the race whose chance of winning is closest to one half (at least 1)."""

    by: Literal["rating"]
    race_to: int = Field(ge=1, le=99)
    unrated: int | None = Field(None, ge=0, le=5000, description="The value an unrated player plays at (500).")


class DrawTemplate(BaseModel):
    """What each match of the draw is created with (PROTOCOL.md section 1, without players)."""

    discipline: Literal[DISCIPLINES]  # type: ignore[valid-type]
    format: MatchFormat
    options: MatchOptions | None = None
    by_round: dict[str, RoundFormat] | None = Field(
        None, description="Race lengths per round: a round name (W3, L2, GF, K2, R1...) or a side (winners, losers, "
                          "final); the most specific wins, its format fields replacing match.format's.")
    handicap: Handicap | None = Field(None, description="Races per player from ratings (PROTOCOL.md section 13).")
    doubles: bool = Field(False, description="Scotch doubles (PROTOCOL.md section 15): every match is played by "
                          "sides of two, each entry's members in its order (teams).")


_ADVANCE = "; ".join(f"{f.name}: {f.next_stage.advance.about}" for f in draw_formats.FORMATS.values() if f.next_stage)


class NextStage(BaseModel):
    """A second stage fed by the first (PROTOCOL.md section 11)."""

    type: Literal[draw_formats.knockouts()]  # type: ignore[valid-type]
    advance: int = Field(ge=1, description=_ADVANCE + ".")
    seeding: Literal["results", "seeded", "random"] = "results"
    match: DrawTemplate | None = Field(None, description="Defaults to the first stage's discipline, format, options.")


class _DrawCreate(BaseModel):
    type: DrawType
    seeding: Literal["random", "seeded", "rating"] = "random"
    seed: int | None = Field(None, ge=0, le=2**63 - 1,
                             description="The same seed gives the same draw; the hub picks one when absent.")
    match: DrawTemplate


def _setting(p: draw_formats.Param) -> Any:
    owners = " or ".join(draw_formats.owners(p.name))
    about = f"{owners}: {p.about} (default {p.default})."
    return (int | None, Field(None, ge=p.minimum, le=p.maximum, description=about))


# The formats' settings (groups, rounds...) as the registry declares them (hub/draws/draw_formats/).
DrawCreate = create_model(
    "DrawCreate", __base__=_DrawCreate, **{p.name: _setting(p) for p in draw_formats.params().values()},
    redraw=(bool, Field(False, description="Replace the draw while none of its matches has started.")),
    then=(NextStage | None, None),
)


class DrawMatch(_Open):
    key: str
    round: str
    group: str | None = None
    bracket: Literal["winners", "losers", "final", "group", "chase"]
    players: list[str | None] = Field(description="Player ids; null where a player is not known yet, \"bye\" for a "
                                                  "slot that will never get one.")
    stage: int = Field(1, description="1, or 2 for the knockout of a draw with then.")
    status: EntryStatus
    match_id: str | None
    table_id: str | None
    winner: str | None
    winner_to: str | None
    loser_to: str | None
    scores: dict[str, int] | None
    entered: bool | None = Field(None, description="A finished match whose score was entered by hand at the desk.")
    withdrawn: list[str] | None = Field(None, description="A finished match forfeited by these players, who withdrew "
                                                         "from the event while it was played.")
    races: dict[str, int] | None = Field(None, description="A handicapped race: each player's own (PROTOCOL.md "
                                                          "section 13): a handicapped draw's (match.handicap) once "
                                                          "both players are known, and a finished match's.")


class MatchesPage(_Open):
    """Which of the draw's matches this answer holds: `?matches_offset=&matches_limit=` ask for others."""

    offset: int
    limit: int
    total: int = Field(description="How many matches the draw has.")
    next: int | None = Field(description="The matches_offset of the next page; null on the last one.")


class StageRound(_Open):
    round: str
    side: Literal["winners", "losers", "final", "group", "chase"]
    format: dict[str, Any]


class Stage(_Open):
    stage: int
    type: DrawType
    status: Literal["waiting", "running", "finished"]
    groups: int | None
    advance: int | None
    seeding: str
    entrants: list[str] | None = Field(description="Seeding order, seed 1 first; null until the stage before ends.")
    advanced: list[str] = Field(description="Players known to go through to the next stage.")
    rounds: list[StageRound]


class Draw(_Open):
    type: DrawType
    status: Literal["running", "finished"]
    champion: str | None
    seeding: Literal["random", "seeded", "rating"]
    seed: int
    stages: list[Stage]
    matches: list[DrawMatch] = Field(description="Over REST one page of the draw's matches (see matches_page); "
                                     "all of them on the tournament channel's snapshot.")
    matches_page: MatchesPage | None = None


class DrawFormatParam(_Open):
    name: str
    type: Literal["integer"]
    minimum: int
    maximum: int | None = Field(description="null: bounded by the field (the draw says so when made).")
    default: int
    about: str


class DrawFormatStage(_Open):
    types: list[str] = Field(description="What the next stage (`then.type`) may be.")
    advance: DrawFormatParam
    each_group: bool = Field(description="`advance` counts each group's best (else the field's last players).")
    race_sides: list[str] = Field(description="The sides `match.by_round` may name in the first stage with `then`.")


class DrawFormatView(_Open):
    """How the pages draw a stage of this format and name its rounds (they never branch on its name)."""

    layout: Literal["bracket", "groups", "chase"] = Field(
        description="bracket: columns of rounds joined by lines; groups: each group's standings and rounds; "
                    "chase: one standings table (with byes) and the rounds.")
    losers: bool = Field(description="A losers bracket beside the winners (a `Winners final`; without a grand "
                                     "final the draw stopped for a next stage).")
    bracket: str = Field(description="The `bracket` of a match in a round that is neither L<r> nor GF<r>.")
    group_in_key: bool = Field(description="A match's key starts with its group (`B-2-1`).")


class DrawFormatInfo(_Open):
    name: str
    about: str
    players_per_match: int
    min_players: int
    disciplines: list[str] = Field(description="The disciplines its matches may be (by their players a match).")
    params: list[DrawFormatParam] = Field(description="The draw body's settings of this format (groups, rounds...).")
    race_sides: list[str] = Field(description="The sides `match.by_round` may name (winners, losers, final).")
    then: DrawFormatStage | None = Field(description="A knockout may follow (`then`); null: not this format.")
    view: DrawFormatView


class DrawFormatList(_Open):
    formats: list[DrawFormatInfo]
    default: str = Field(description="The format to offer first.")


class Standing(_Open):
    player: str
    group: str | None = None
    played: int
    won: int
    lost: int
    points: int
    rank: int


class CompetitionTable(TournamentTable):
    status: Literal["free", "playing", "paused"]


class CompetitionProjection(_Open):
    """The tournament projection (PROTOCOL.md sections 5 and 7)."""

    id: str
    name: str
    version: int = Field(description="Grows with every change of this projection.")
    tables: list[CompetitionTable]
    players: list[Player]
    draw: Draw | None
    queue: list[str] = Field(description="Keys of the ready matches, in the order they will be called.")
    standings: list[Standing] | None


class Walkover(BaseModel):
    winner: str = Field(description="The player the match goes to.")


class CallNow(BaseModel):
    table_id: str | None = Field(None, description="A free table; absent: the first free one.")


class QueueOrder(BaseModel):
    keys: list[Key] = Field(max_length=4096, description="Ready keys to call first, in this order; [] clears.")


class TableState(_Open):
    id: str
    name: str
    status: Literal["free", "playing", "paused"]
    match: MatchShort | None = None


class MoveMatch(BaseModel):
    table_id: str


class MatchCancelled(BaseModel):
    id: str
    status: Literal["cancelled"]
    table_id: str


class Placing(_Open):
    place: int | None
    player: str
    name: str | None


class ResultsExport(_Open):
    tournament: dict[str, Any]
    draw: dict[str, Any] | None
    placings: list[Placing]
    standings: list[Standing] | None
    matches: list[dict[str, Any]]


def csv_ok(description: str) -> dict[int | str, dict[str, Any]]:
    return {200: {"description": description, "content": {"text/csv": {"schema": {"type": "string"}}}}}


# --- the desk (section 8) ----------------------------------------------------------------------


class SignIn(BaseModel):
    token: str = Field(min_length=1, max_length=500, description="The admin token.")


class SessionState(_Open):
    signed_in: bool
    expires_at: int | None = Field(None, description="Server ms when the session ends unless used.")


class PairingCode(_Open):
    code: str = Field(pattern=r"^[0-9]{6}$")
    expires_at: int


class PairBody(BaseModel):
    code: str | None = Field(None, description="The six digits typed from the table card.")
    secret: str | None = Field(None, description="The secret of the card's QR link (`/pair#secret=...`); "
                                                 "not limited by the budget of guessed codes.")


class Paired(_Open):
    table_id: str
    name: str
    token: str = Field(description="This tablet's own token for the table (shown once).")


class TableInfo(_Open):
    id: str
    name: str
    tournament_id: str
    tournament_name: str | None
    match_id: str | None = Field(description="The match on the table now (its open one, else its latest), or null.")
    tablets: int = Field(description="Tablets paired to the table with a token of their own.")
