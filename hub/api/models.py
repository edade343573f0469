"""The API documents itself: pydantic models of every request and response (PROTOCOL.md), the
error shape, the security schemes, and the helpers every router uses to declare them.

The routers read their JSON bodies by hand (`errors.read_json`): strict JSON, NUL and lone
surrogates refused, 413 over HUB_MAX_BODY_BYTES, and our own 422 codes (`bad_request`,
`bad_command`, `bad_setup`) are theirs, not FastAPI's. So these models *document*; nothing is
filtered or re-validated through them at run time (a projection's extra fields pass untouched).
tests/api/test_openapi.py checks the published schema, and tests/fuzz/test_schemathesis.py
fuzzes the app from it and checks real answers against it.

A new endpoint follows this pattern:

    from hub.api import models

    @router.post(
        "/tournaments/{tid}/things", status_code=201, response_model=None,
        openapi_extra=models.body(ThingCreate),                    # the request body's schema
        responses=models.ok(Thing, "The thing, made.", 201)        # every 2xx, described
        | models.errors(401, 403, 404, 413, 422),                  # our error shape per status
        dependencies=[Depends(deps.require_admin)],                # declares adminToken / deskSession
    )
    async def create_thing(tid: str, request: Request) -> JSONResponse: ...

- `body(Model)`: the request body (`install` puts the model in components/schemas);
- `ok(Model, description, status)`: a described 2xx answer;
- `errors(*statuses)`: `ErrorResponse` for each status, with a stock description (`ERROR_TEXT`);
- security: `deps.require_admin` declares the `adminToken` bearer and the desk's `deskSession`
  cookie; table-token routes add `Security(TABLE_TOKEN)`; the scheme objects are below.

`install(app)` (called by create_app) publishes the body models, replaces FastAPI's
`HTTPValidationError` with our `ErrorResponse` wherever FastAPI would add it, and documents
`4XX` (any other client error) as `ErrorResponse` on every operation.

The models live by topic: `model_kit` (security schemes, error shape, helpers, `install`),
`command_models` (PROTOCOL.md section 3), `projection_models` (sections 4-6), this module (setup,
section 1, and operations), `competition_models` (sections 7-8). The first three are importable
from here too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from hub.api.command_models import (
    Ball,
    CalledFoul,
    Command,
    CommandAck,
    CommandEnvelope,
    CommandReject,
    Concede,
    Decision,
    ErrorOrReject,
    Extension,
    Foul,
    Lag,
    Pause,
    Penalty,
    PlayerId,
    Resume,
    Shot,
    Stalemate,
    Start,
    Timeout,
    Undo,
)
from hub.api.model_kit import (
    ADMIN_TOKEN,
    DESK_SESSION,
    ERROR_TEXT,
    NAME_RULE,
    TABLE_TOKEN,
    Empty,
    ErrorDetail,
    ErrorResponse,
    Id,
    _Open,
    absent,
    body,
    errors,
    install,
    ok,
)
from hub.api.projection_models import (
    Clocks,
    EventList,
    LastEvent,
    MatchClock,
    MatchList,
    MatchProjection,
    MatchResult,
    MatchShort,
    Pending,
    PlayerState,
    PlayerStats,
    RackResult,
    RackState,
    ShortPlayer,
    ShortRack,
    ShotClock,
    Status,
    StoredEvent,
    TournamentProjection,
    TournamentTable,
)
from hub.rules.disciplines import names

# The disciplines' names in the OpenAPI; the setup itself is checked against the registry.
DISCIPLINES = names()

# Re-exported: the routers and competition_models read these as models.X.
__all__ = [
    "Ball", "CalledFoul", "Command", "CommandAck", "CommandEnvelope", "CommandReject", "Concede", "Decision",
    "ErrorOrReject", "Extension", "Foul", "Lag", "Pause", "Penalty", "PlayerId", "Resume", "Shot", "Stalemate",
    "Start", "Timeout", "Undo", "ADMIN_TOKEN", "DESK_SESSION", "ERROR_TEXT", "TABLE_TOKEN", "Empty", "ErrorDetail",
    "ErrorResponse", "Id", "absent", "body", "errors", "install", "ok", "_Open", "Clocks", "EventList", "LastEvent",
    "MatchClock", "MatchList", "MatchProjection", "MatchResult", "MatchShort", "Pending", "PlayerState",
    "PlayerStats", "RackResult", "RackState", "ShortPlayer", "ShortRack", "ShotClock", "Status", "StoredEvent",
    "TournamentProjection", "TournamentTable",
]

# --- setup (PROTOCOL.md section 1) -----------------------------------------------------------------

Name = Annotated[str, Field(min_length=1, max_length=200, pattern=r"\S",
                            description="Not blank; trimmed. " + NAME_RULE)]


class NameBody(BaseModel):
    name: Name


class Tournament(BaseModel):
    id: str
    name: str


class TournamentSummary(Tournament):
    """The home page's line for a tournament (hub/tournaments/summary.py)."""

    status: str | None = Field(None, description='"setup" (no draw yet), "running" or "finished".')
    draw_type: str | None = None
    champion: dict[str, Any] | None = Field(None, description='{"id", "name"} once the draw is finished.')
    winners: list[dict[str, Any]] | None = Field(
        None, description='A finished round robin of several groups: {"group", "id", "name"} of each group\'s first.'
    )
    tables: int | None = None
    played: int | None = Field(None, description="Draw matches decided (byes left out).")
    total: int | None = Field(None, description="Draw matches (byes left out).")
    live: list[dict[str, Any]] | None = Field(
        None, description='Being played now: {"key", "match_id", "table", "players", "scores"}.'
    )
    next: list[dict[str, Any]] | None = Field(
        None, description='Called and not started, then the queue: {"key", "match_id", "table", "players"}.'
    )


class TournamentList(BaseModel):
    tournaments: list[TournamentSummary] = Field(description="Newest first.")


class TableCreated(BaseModel):
    id: str
    name: str
    token: str = Field(description="The table token, shown this once (only its hash is stored).")


class TokenRotated(TableCreated):
    closed_sockets: int = Field(description="Table sockets of this process closed (4401) with the old token.")


class DoublesMember(BaseModel):
    person: Id | None = Field(None, description="The member's person id (the directory); when left out the "
                              "side's own stand-in `<side id>.<n>`. `rack.member` names the member due by it.")
    name: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")]


class PlayerEntry(BaseModel):
    id: Id | None = Field(None, description="Optional; the hub makes one (p1, p2, ...). Unique within the match.")
    name: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")]
    handicap: Literal["eight"] | None = Field(None, description="Only where the discipline's `handicaps` take it "
                                              "(GET /api/disciplines): the '8 wins, 9 golds' handicap.")
    members: list[DoublesMember] | None = Field(None, min_length=2, max_length=2, description=(
        "A doubles match (`doubles: true`): the side's two members in the order they play (`start` may "
        "reorder them). Required then, refused otherwise."))


class ChasePoints(BaseModel):
    foul: int = Field(1, ge=1)
    normal: int = Field(3, ge=1)
    small_gold: int = Field(3, ge=1)
    big_gold: int = Field(5, ge=1)


class MatchFormat(BaseModel):
    """Exactly one of race_to, racks or minutes: one of the discipline's `formats` (GET /api/disciplines)."""

    race_to: Annotated[int, Field(ge=1)] | dict[str, Annotated[int, Field(ge=1)]] | SkipJsonSchema[None] = absent(
        "A race, or a race per player ({player id: race}, every player of the match: a handicapped race, "
        "PROTOCOL.md section 13: a player wins the match at their own race).")
    racks: int | SkipJsonSchema[None] = absent(ge=1)
    minutes: float | SkipJsonSchema[None] = absent(gt=0)
    break_: Literal["winner", "alternate"] = Field("winner", alias="break", description="Who breaks the next rack.")
    points: ChasePoints | None = Field(None, description="Only where the discipline's `points` are not null.")
    game: str | SkipJsonSchema[None] = absent(
        "Required where the discipline's `named_game` is true: the game's name, e.g. snooker, straight_pool.",
        min_length=1, max_length=64)

    model_config = ConfigDict(populate_by_name=True, extra="allow")


class ShotClockOptions(BaseModel):
    """Seconds (fractions allowed)."""

    shot_s: float = Field(45, gt=0)
    first_shot_s: float | SkipJsonSchema[None] = absent("Default: the discipline's `shot_clock`, else shot_s.", gt=0)
    break_s: float | SkipJsonSchema[None] = absent("Default: the discipline's `shot_clock` (`timed_shot_clock` in a "
                                                  "timed match), else shot_s.", gt=0)
    extension_s: float = Field(30, gt=0)
    extensions_per_rack: int | SkipJsonSchema[None] = absent("Default: the discipline's `shot_clock`.", ge=0)

    model_config = ConfigDict(extra="allow")


class MatchClockOptions(BaseModel):
    timeout_every_racks: int = Field(10, ge=1)
    timeout_s: float = Field(300, ge=0)

    model_config = ConfigDict(extra="allow")


class MatchOptions(BaseModel):
    shot_clock: ShotClockOptions | None = Field(None, description="Absent or null: no shot clock.")
    match_clock: MatchClockOptions | None = Field(None, description="For {minutes: M} formats.")
    scoring: Literal["strokes", "racks"] = Field(
        "strokes", description='strokes: judged stroke by stroke (shot); racks: the players report who won each '
        'rack (the rack command). Default: the first of the discipline\'s `scorings`.')

    model_config = ConfigDict(extra="allow")


class MatchCreate(BaseModel):
    tournament_id: str
    table_id: str
    discipline: Literal[DISCIPLINES]  # type: ignore[valid-type]
    players: list[PlayerEntry] = Field(min_length=2, max_length=3,
                                       description="As many as the discipline's `players` (GET /api/disciplines).")
    format: MatchFormat
    options: MatchOptions | None = None
    doubles: bool = Field(False, description=(
        "Scotch doubles (PROTOCOL.md section 15), for a two-player discipline: each side is two `members` "
        "taking turns stroke by stroke; `format.break` then defaults to `alternate`."))


# --- operations ----------------------------------------------------------------------------------


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    status: Literal["ready", "unavailable"]
    checks: dict[str, str] = Field(description='Per part ("store", "bus"): "ok" or "unreachable: <why>".')


class WatchConfig(BaseModel):
    """Where the pages should watch; both null: /ws/watch on this host."""

    watch_url: str | None = Field(description="A path on this host or a ws(s):// URL (HUB_WATCH_URL).")
    watch_port: int | None = Field(description="The in-process watch gateway's port on this host.")
