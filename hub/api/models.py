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
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from fastapi import FastAPI
from fastapi.security import APIKeyCookie, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, RootModel
from pydantic.json_schema import SkipJsonSchema, models_json_schema

from hub.rules.core import CALLED_FOULS, CUE_BALL_STATES
from hub.rules.setup import DISCIPLINES

# --- security schemes (one place: deps.py and every router use these objects) ------------------

ADMIN_TOKEN = HTTPBearer(
    scheme_name="adminToken", auto_error=False,
    description="The admin token (HUB_ADMIN_TOKEN, or the one printed at first start): setup and desk calls.",
)
TABLE_TOKEN = HTTPBearer(
    scheme_name="tableToken", auto_error=False,
    description="A table's token (made with the table, by pairing, or by rotation): that table's commands.",
)
DESK_SESSION = APIKeyCookie(
    name="cuehub_session", scheme_name="deskSession", auto_error=False,
    description="The desk's session cookie (POST /api/session); accepted wherever the admin token is. "
                "A write that carries it must also send `X-Requested-With: cuehub`.",
)

# --- the error shape -----------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="A stable machine-readable code, e.g. `bad_request`, `not_found`, `version_conflict`.")
    message: str = Field(description="What went wrong, for a person.")


class ErrorResponse(BaseModel):
    """Every error answer: `{"error": {"code", "message"}}` (bad input is a 4xx, never a 500)."""

    error: ErrorDetail


ERROR_TEXT = {
    400: "Bad request (e.g. a bad Content-Length).",
    401: "No bearer token (code `unauthorized`).",
    403: "The token is not allowed here (code `forbidden`).",
    404: "No such resource (code `not_found`, or `unknown_match`).",
    409: "Conflicts with the current state (e.g. `table_busy`).",
    413: "The body is over HUB_MAX_BODY_BYTES (code `too_large`).",
    422: "Bad input: malformed JSON or a bad field (codes `bad_request`, `bad_setup`, `bad_command`).",
    503: "The database is unavailable; retrying (with the same command id) is safe (code `unavailable`).",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` entries: our ErrorResponse for each status."""
    return {s: {"model": ErrorResponse, "description": ERROR_TEXT.get(s, "Error.")} for s in statuses}


def ok(model: type[BaseModel], description: str, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """`responses=` entry for a 2xx answer described by `model`."""
    return {status: {"model": model, "description": description}}


_BODY_MODELS: dict[str, type[BaseModel]] = {}


def body(model: type[BaseModel], description: str | None = None, *, required: bool = True) -> dict[str, Any]:
    """`openapi_extra=` declaring `model` as the JSON request body (`Empty`, not required, for a
    POST that takes none)."""
    _BODY_MODELS[model.__name__] = model
    out: dict[str, Any] = {
        "required": required,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}},
    }
    if description:
        out["description"] = description
    return {"requestBody": out}


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def absent(description: str | None = None, **constraints: Any) -> Any:
    """A field that may be left out but is never null (annotate it `T | SkipJsonSchema[None]`)."""
    return Field(None, description=description, json_schema_extra=_no_default, **constraints)


class _Open(BaseModel):
    """An answer object that may gain fields (PROTOCOL.md: "more may be added, none removed")."""

    model_config = ConfigDict(extra="allow")


class Empty(BaseModel):
    """No body: the call takes none (any body sent is ignored)."""


# --- setup (PROTOCOL.md section 1) -----------------------------------------------------------------

Name = Annotated[str, Field(min_length=1, max_length=200, pattern=r"\S", description="Not blank; trimmed.")]
Id = Annotated[str, Field(min_length=1, max_length=64)]


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
    winners: list[dict[str, Any]] | None = Field(None, description='A finished round robin of several groups: {"group", "id", "name"} of each group\'s first.')
    tables: int | None = None
    played: int | None = Field(None, description="Draw matches decided (byes left out).")
    total: int | None = Field(None, description="Draw matches (byes left out).")
    live: list[dict[str, Any]] | None = Field(None, description='Being played now: {"key", "match_id", "table", "players", "scores"}.')
    next: list[dict[str, Any]] | None = Field(None, description='Called and not started, then the queue: {"key", "match_id", "table", "players"}.')


class TournamentList(BaseModel):
    tournaments: list[TournamentSummary] = Field(description="Newest first.")


class TableCreated(BaseModel):
    id: str
    name: str
    token: str = Field(description="The table token, shown this once (only its hash is stored).")


class TokenRotated(TableCreated):
    closed_sockets: int = Field(description="Table sockets of this process closed (4401) with the old token.")


class PlayerEntry(BaseModel):
    id: Id | None = Field(None, description="Optional; the hub makes one (p1, p2, ...). Unique within the match.")
    name: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")]
    handicap: Literal["eight"] | None = Field(None, description="golden_nine only: the '8 wins, 9 golds' handicap.")


class ChasePoints(BaseModel):
    foul: int = Field(1, ge=1)
    normal: int = Field(3, ge=1)
    small_gold: int = Field(3, ge=1)
    big_gold: int = Field(5, ge=1)


class MatchFormat(BaseModel):
    """Exactly one of race_to (wpa_nine, chinese_eight), racks or minutes (golden_nine, chase_nine)."""

    race_to: int | SkipJsonSchema[None] = absent(ge=1)
    racks: int | SkipJsonSchema[None] = absent(ge=1)
    minutes: float | SkipJsonSchema[None] = absent(gt=0)
    break_: Literal["winner", "alternate"] = Field("winner", alias="break", description="Who breaks the next rack.")
    points: ChasePoints | None = Field(None, description="chase_nine only.")

    model_config = ConfigDict(populate_by_name=True, extra="allow")


class ShotClockOptions(BaseModel):
    """Seconds (fractions allowed)."""

    shot_s: float = Field(45, gt=0)
    first_shot_s: float | SkipJsonSchema[None] = absent("Default: shot_s (chase_nine 60).", gt=0)
    break_s: float | SkipJsonSchema[None] = absent("Default: shot_s (30 in a timed golden_nine match).", gt=0)
    extension_s: float = Field(30, gt=0)
    extensions_per_rack: int | SkipJsonSchema[None] = absent("Default 1 (chase_nine 0).", ge=0)

    model_config = ConfigDict(extra="allow")


class MatchClockOptions(BaseModel):
    timeout_every_racks: int = Field(10, ge=1)
    timeout_s: float = Field(300, ge=0)

    model_config = ConfigDict(extra="allow")


class MatchOptions(BaseModel):
    shot_clock: ShotClockOptions | None = Field(None, description="Absent or null: no shot clock.")
    match_clock: MatchClockOptions | None = Field(None, description="For {minutes: M} formats.")

    model_config = ConfigDict(extra="allow")


class MatchCreate(BaseModel):
    tournament_id: str
    table_id: str
    discipline: Literal[DISCIPLINES]  # type: ignore[valid-type]
    players: list[PlayerEntry] = Field(min_length=2, max_length=3, description="Two, or exactly three for chase_nine.")
    format: MatchFormat
    options: MatchOptions | None = None


# --- commands (PROTOCOL.md section 3) ------------------------------------------------------------

PlayerId = Annotated[str, Field(description="A player id of the match.")]
Ball = Annotated[int, Field(ge=1, le=15)]
CalledFoul = Literal[CALLED_FOULS]  # type: ignore[valid-type]


class Start(BaseModel):
    """The match begins; rack 1's break is next. `breaker` (two players) or `order` (chase_nine)."""

    kind: Literal["start"]
    breaker: PlayerId | SkipJsonSchema[None] = absent("Two-player matches: who breaks rack 1.")
    order: list[PlayerId] | SkipJsonSchema[None] = absent("chase_nine: all three ids; the first breaks.",
                                                           min_length=3, max_length=3)


class Lag(BaseModel):
    kind: Literal["lag"]
    winner: PlayerId


class Shot(BaseModel):
    """One stroke, as the referee saw it."""

    kind: Literal["shot"]
    player: PlayerId = Field(description="The shooter; must be rack.shooter.")
    first_contact: Ball | None = Field(description="The object ball struck first; null when none.")
    pocketed: list[Ball] = Field(default_factory=list, max_length=15)
    off_table: list[Ball] = Field(default_factory=list, max_length=15)
    cue_ball: Literal[CUE_BALL_STATES] = "table"  # type: ignore[valid-type]
    rail: bool = False
    break_rails: int = Field(0, ge=0, le=15)
    break_crossings: int = Field(0, ge=0, le=100)
    called_fouls: list[CalledFoul] = Field(default_factory=list)
    break_position: bool = False
    push_out: bool = False
    snooker: bool = False
    rail_safety: bool = False


class Decision(BaseModel):
    kind: Literal["decision"]
    player: PlayerId
    choice: str = Field(min_length=1, max_length=32, description="One of rack.pending.options.")


class Extension(BaseModel):
    kind: Literal["extension"]
    player: PlayerId


class Foul(BaseModel):
    """A foul called outside a stroke by the player at the table."""

    kind: Literal["foul"]
    player: PlayerId
    reason: CalledFoul


class Penalty(BaseModel):
    kind: Literal["penalty"]
    player: PlayerId
    type: Literal["intentional_foul", "unsportsmanlike", "device", "forfeit_rack", "forfeit_match"]


class Concede(BaseModel):
    kind: Literal["concede"]
    player: PlayerId
    scope: Literal["rack", "match"]


class Stalemate(BaseModel):
    kind: Literal["stalemate"]


class Timeout(BaseModel):
    kind: Literal["timeout"]
    player: PlayerId


class Pause(BaseModel):
    kind: Literal["pause"]
    reason: str | None = Field(None, max_length=200)


class Resume(BaseModel):
    kind: Literal["resume"]
    reason: str | None = Field(None, max_length=200)


class Undo(BaseModel):
    kind: Literal["undo"]


Command = Annotated[
    Start | Lag | Shot | Decision | Extension | Foul | Penalty | Concede | Stalemate | Timeout | Pause | Resume | Undo,
    Field(discriminator="kind"),
]


class CommandEnvelope(BaseModel):
    id: Id = Field(description="Chosen by the client (a UUID is a good choice); the same id again gets the first answer.")
    match_id: str = Field(min_length=1)
    expected_version: int | None = Field(None, ge=0, description="When given, must equal the match's version.")
    command: Command


class CommandAck(BaseModel):
    type: Literal["ack"]
    id: str | None
    version: int = Field(description="The version the command's event was stored as.")


class CommandReject(BaseModel):
    """A rejected command: 422 `bad_command`, 404 `unknown_match`, 409 every other code."""

    type: Literal["reject"]
    id: str | None
    error: ErrorDetail


class ErrorOrReject(RootModel[Union[ErrorResponse, CommandReject]]):
    """Refused before the rules saw it (ErrorResponse), or by the rules (CommandReject)."""


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
    extra: bool = Field(False, description="The tie's extra rack (golden_nine).")


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


class LastEvent(_Open):
    version: int
    kind: str
    player: str | None = None
    foul: bool
    fouls: list[str]
    notes: list[str]


class MatchResult(_Open):
    reason: str = Field(description="race, racks, points, time, penalty, concession, disqualification.")
    ranking: list[str] | None = Field(None, description="chase_nine: ids by score, highest first.")


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


class ShortPlayer(_Open):
    id: str
    name: str
    score: int
    racks_won: int


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
    match: MatchShort | None = Field(description="The match on the table now (its unfinished one, else its latest), or null.")


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


# --- publishing ----------------------------------------------------------------------------------

_REF = "#/components/schemas/{model}"


def install(app: FastAPI) -> None:
    """Publish the request-body models and our 422 shape in the app's OpenAPI document."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        if _BODY_MODELS:
            _, defs = models_json_schema([(m, "validation") for m in _BODY_MODELS.values()], ref_template=_REF)
            for name, definition in defs.get("$defs", {}).items():
                components.setdefault(name, definition)
        error_ref = {"$ref": _REF.format(model="ErrorResponse")}
        if "ErrorResponse" not in components:
            components["ErrorResponse"] = ErrorResponse.model_json_schema(ref_template=_REF)
            components.setdefault("ErrorDetail", ErrorDetail.model_json_schema(ref_template=_REF))
            components["ErrorResponse"].pop("$defs", None)
        for ops in schema.get("paths", {}).values():
            for op in ops.values():
                answers = op.setdefault("responses", {})
                answer = answers.get("422")
                if answer and "HTTPValidationError" in str(answer):
                    answers["422"] = {"description": ERROR_TEXT[422],
                                      "content": {"application/json": {"schema": error_ref}}}
                # Whatever the route, a client error has our shape (a NUL in the path or query is a
                # 404 before any route runs, an unknown method a 405).
                answers.setdefault("4XX", {"description": "Any other client error.",
                                           "content": {"application/json": {"schema": error_ref}}})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
