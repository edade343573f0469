"""Typed shapes of the hub's JSON (PROTOCOL.md). ``total=False``: the hub may add fields."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

# A discipline's name: one of GET /api/disciplines (AdminClient.disciplines), whose traits say what it is.
Discipline = str
MatchStatus = Literal["scheduled", "live", "finished"]
Phase = Literal["lag", "break", "play", "decision", "over"]
# What the shooter meant, as the referee saw it (PROTOCOL.md section 12): optional on a shot, it never
# changes a verdict; the statistics read it (pot success, safety success).
Intent = Literal["pot", "safety", "kick"]


class DisciplineTraits(TypedDict, total=False):
    """One entry of GET /api/disciplines: what a discipline is (hub/rules/traits.py says every field)."""

    name: Discipline
    balls: list[int]
    win_ball: int | None
    ball_on: Literal["lowest", "group"] | None
    groups: bool
    players: int
    lag: bool
    formats: list[Literal["race_to", "racks", "minutes"]]
    format_defaults: dict[str, int]
    breaks: list[Literal["winner", "alternate"]]
    scorings: list[Literal["strokes", "racks"]]
    score: Literal["racks", "points"]
    ranked: bool
    points: dict[str, int] | None
    named_game: bool
    handicaps: list[str]
    push_out: bool
    call_shot: bool
    break_count: Literal["break_rails", "break_crossings"] | None
    break_flags: list[str]
    play_flags: list[str]
    called_fouls_break: list[str]
    called_fouls_play: list[str]
    stats: list[str]
    timeout_race_to: int | None
    penalty_types: list[str]
    concede_scopes: list[Literal["rack", "match"]]
    win_types: list[str]
    rack_paid_by: bool
    shot_clock: dict[str, float]
    timed_shot_clock: dict[str, float] | None


class Tournament(TypedDict, total=False):
    id: str
    name: str
    # GET /api/tournaments adds (hub/tournaments/summary.py):
    status: Literal["setup", "running", "finished"]
    draw_type: str | None
    champion: dict[str, Any] | None
    winners: list[dict[str, Any]]
    tables: int
    played: int
    total: int
    live: list[dict[str, Any]]
    next: list[dict[str, Any]]


class Table(TypedDict, total=False):
    id: str
    name: str
    token: str


class PlayerSpec(TypedDict, total=False):
    id: str
    name: str
    handicap: str


class Pending(TypedDict):
    player: str
    options: list[str]


class Rack(TypedDict, total=False):
    number: int
    breaker: str | None
    shooter: str | None
    phase: Phase
    on_table: list[int]
    ball_in_hand: str | None
    pending: Pending | None
    table_open: bool
    push_out_allowed: bool
    order: list[str]
    member: str | None  # scotch doubles: the person id of the member due (PROTOCOL.md section 15)


class Member(TypedDict):
    """A scotch-doubles side's member (PROTOCOL.md section 15)."""

    person: str
    name: str


class Player(TypedDict, total=False):
    id: str
    name: str
    score: int
    racks_won: int
    fouls_in_rack: int
    consecutive_fouls: int
    extensions_left: int
    group: str | None
    win_ball: int
    warnings: int
    intentional_fouls: int
    stats: dict[str, int]
    members: list[Member] | None  # scotch doubles: the side's two members in their order


class Match(TypedDict, total=False):
    id: str
    tournament_id: str
    table_id: str
    discipline: Discipline
    status: MatchStatus
    version: int
    format: dict[str, Any]
    options: dict[str, Any]
    players: list[Player]
    rack: Rack
    racks: list[dict[str, Any]]
    clock: dict[str, Any]
    winner: str | None
    result: dict[str, Any] | None
    last: dict[str, Any] | None
    doubles: bool


class Shot(TypedDict, total=False):
    """The ``shot`` command (PROTOCOL.md section 3): what ``TableSession.send`` takes for a stroke."""

    kind: Literal["shot"]
    player: str
    first_contact: int | None
    pocketed: list[int]
    off_table: list[int]
    cue_ball: Literal["table", "pocketed", "off_table"]
    rail: bool
    break_rails: int
    break_crossings: int
    called_fouls: list[str]
    called: int | None
    intent: Intent


class Person(TypedDict, total=False):
    """A person of the directory (PROTOCOL.md section 12)."""

    id: str
    name: str
    club: str | None
    aliases: list[str]
    events: int
    rating: Any


class StoredEvent(TypedDict, total=False):
    version: int
    kind: str
    data: dict[str, Any]
    at: int
    command_id: str | None
    voided: bool


class Ack(TypedDict):
    type: Literal["ack"]
    id: str
    version: int
