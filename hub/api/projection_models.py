"""OpenAPI models of the projections (PROTOCOL.md sections 4-6): a match's full and short forms,
match lists, a tournament's tables, stored events. Answer objects are open (`_Open`): more fields
may be added, none removed. Documentation only, like every model module (hub/api/models.py).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from hub.api.model_kit import _Open

# --- projections (PROTOCOL.md sections 4-6) ------------------------------------------------------


class PlayerStats(_Open):
    break_and_runs: int
    table_runs: int
    golden_breaks: int
    fouls: int
    loss_of_chance: int


class PlayerState(_Open):
    id: str
    name: str
    handicap: str | None = None
    race_to: int | None = Field(None, description="The race this player wins the match at (their own in a "
                                "handicapped race, PROTOCOL.md section 13); null in a match of racks or minutes.")
    score: int
    racks_won: int
    fouls_in_rack: int
    consecutive_fouls: int
    extensions_left: int | None = None
    group: Literal["solids", "stripes"] | None = None
    win_ball: int | None = None
    warnings: int
    intentional_fouls: int
    disqualified: bool = False
    stats: PlayerStats
    members: list[dict[str, str]] | None = Field(None, description=(
        "A doubles side's two members, [{person, name}], in the order they play; null in singles."))


class Pending(_Open):
    player: str
    options: list[str]


class RackState(_Open):
    number: int
    breaker: str | None = None
    shooter: str | None = None
    phase: Literal["lag", "break", "play", "decision", "over"]
    on_table: list[int]
    ball_in_hand: Literal["anywhere", "behind_line"] | None = None
    pending: Pending | None = None
    table_open: bool
    push_out_allowed: bool
    order: list[str]
    extra: bool = Field(False, description="The tie's extra rack (a two-player match on points).")
    member: str | None = Field(None, description="A doubles match: the person id of the member due to play "
                               "the side at the table's next stroke; null in singles.")


class RackResult(_Open):
    number: int
    breaker: str | None = None
    winner: str | None = None
    win_type: str = Field(description="big_gold, small_gold or normal.")
    reason: str = Field(description="win_ball, fouls, loss, penalty, concession, rail_safeties.")
    points: dict[str, int]


class ShotClock(_Open):
    player: str | None = None
    limit_s: float
    extended: bool
    running: bool
    deadline: int | None = Field(None, description="Server ms, while running.")
    warn_at: int | None = None
    countdown_at: int | None = None
    remaining_ms: int | None = Field(None, description="While paused, instead of deadline.")


class MatchClock(_Open):
    limit_s: float
    remaining_ms: int
    running: bool
    deadline: int | None = None
    official_timeout: bool = False
    official_timeout_until: int | None = None


class Clocks(_Open):
    shot: ShotClock | None = None
    match: MatchClock | None = None


class NoteCode(_Open):
    code: str = Field(description="One of hub/rules/notes.py's codes (docs/rules.md); the pages say `nt_<code>`.")
    args: dict[str, Any] = Field(description="By name: a player's id, a number, or a code (a reason, a choice...).")


class LastEvent(_Open):
    version: int
    kind: str
    player: str | None = None
    foul: bool
    fouls: list[str]
    notes: list[str] = Field(description="The notes in English, the same as note_codes, one for one.")
    note_codes: list[NoteCode] = Field(description="What the event did, as codes with arguments.")
    called: int | None = Field(None, description=(
        "A stroke of a call-shot discipline (`call_shot` in GET /api/disciplines): the ball that went in as "
        "called (the command's `called`), or null. Absent otherwise."))


class MatchResult(_Open):
    reason: str = Field(description="race, racks, points, time, penalty, concession, disqualification.")
    ranking: list[str] | None = Field(None, description="A ranked discipline: ids by score, highest first.")


Status = Literal["scheduled", "live", "finished"]


class MatchProjection(_Open):
    """The match as every page draws it (PROTOCOL.md section 4)."""

    id: str
    tournament_id: str
    table_id: str
    discipline: str
    status: Status
    version: int
    format: dict[str, Any]
    options: dict[str, Any]
    players: list[PlayerState]
    rack: RackState
    racks: list[RackResult]
    clock: Clocks
    paused: bool = False
    winner: str | None = None
    result: MatchResult | None = None
    last: LastEvent | None = None
    doubles: bool = Field(False, description="Scotch doubles: `players[].members` and `rack.member` are set.")


class ShortPlayer(_Open):
    id: str
    name: str
    score: int
    racks_won: int
    race_to: int | None = None


class ShortRack(_Open):
    number: int
    shooter: str | None = None
    phase: str | None = None
    ball_in_hand: str | None = None


class MatchShort(_Open):
    """The short form of a match (PROTOCOL.md section 5)."""

    id: str
    discipline: str
    status: Status
    version: int
    players: list[ShortPlayer]
    rack: ShortRack
    clock: Clocks
    winner: str | None = None


class MatchList(BaseModel):
    matches: list[MatchShort] = Field(description="Newest first.")


class TournamentTable(_Open):
    id: str
    name: str
    match: MatchShort | None = Field(
        description="The match on the table now (its unfinished one, else its latest), or null."
    )


class TournamentProjection(_Open):
    """PROTOCOL.md section 5 (section 7 adds players, draw, queue, standings)."""

    id: str
    name: str
    version: int = Field(description="Grows with every change of this projection.")
    tables: list[TournamentTable]


class StoredEvent(BaseModel):
    version: int
    kind: str
    data: dict[str, Any]
    at: int = Field(description="Server ms when stored.")
    command_id: str | None
    voided: bool


class EventList(BaseModel):
    events: list[StoredEvent] = Field(description="Oldest first, versions after `since`.")
