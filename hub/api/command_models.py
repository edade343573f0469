"""OpenAPI models of the commands (PROTOCOL.md section 3): each command body, the envelope, and
the ack / reject answers. Documentation only, like every model module (hub/api/models.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, RootModel
from pydantic.json_schema import SkipJsonSchema

from hub.api.model_kit import ErrorDetail, ErrorResponse, Id, absent
from hub.rules.core import CALLED_FOULS, CUE_BALL_STATES

# --- commands (PROTOCOL.md section 3) ------------------------------------------------------------

PlayerId = Annotated[str, Field(description="A player id of the match.")]
Ball = Annotated[int, Field(ge=1, le=15)]
CalledFoul = Literal[CALLED_FOULS]  # type: ignore[valid-type]


class Start(BaseModel):
    """The match begins; rack 1's break is next. `breaker` (two players) or `order` (three)."""

    kind: Literal["start"]
    breaker: PlayerId | SkipJsonSchema[None] = absent("Two-player matches: who breaks rack 1.")
    order: list[PlayerId] | SkipJsonSchema[None] = absent("A three-player match: all three ids; the first breaks.",
                                                           min_length=3, max_length=3)
    members: dict[str, list[str]] | SkipJsonSchema[None] = absent(
        "A doubles match: {side: [person, person]}, a side's two members in the order they play (default "
        "the setup's order).")


class Lag(BaseModel):
    kind: Literal["lag"]
    winner: PlayerId
    members: dict[str, list[str]] | SkipJsonSchema[None] = absent(
        "A doubles match: {side: [person, person]}, a side's two members in the order they play (default "
        "the setup's order).")


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
    called: Ball | None = Field(
        None, description="A call-shot discipline (`call_shot` in GET /api/disciplines): the called ball, when it "
        "went into the called pocket on this stroke (one of pocketed); null for a safety, a missed call or the ball "
        "in another pocket. Ignored on a break, on a push-out and in the other disciplines.")
    intent: Literal["pot", "safety", "kick"] | None = Field(
        None, description="What the shooter meant, as the referee saw it (PROTOCOL.md section 12): `pot`, "
        "`safety`, or `kick` (the cue ball sent to a cushion before any object ball). Optional; never changes a "
        "verdict: only the statistics (pot and safety success) read it.")


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


class RackWon(BaseModel):
    """A match scored rack by rack (`options.scoring: "racks"`): who won the rack. Refused (`not_allowed`)
    on a match judged stroke by stroke."""

    kind: Literal["rack"]
    winner: PlayerId
    win_type: Literal["normal", "small_gold", "big_gold"] = Field(
        "normal", description="One of the discipline's `win_types` (GET /api/disciplines): small_gold or big_gold "
        "where it has them (a big gold only by the rack's breaker); normal in the other disciplines.")
    paid_by: PlayerId | SkipJsonSchema[None] = absent(
        "Required where the discipline's `rack_paid_by` is true: which of the other two pays the rack.")


Command = Annotated[
    Start | Lag | Shot | Decision | Extension | Foul | Penalty | Concede | Stalemate | Timeout | Pause | Resume | Undo
    | RackWon,
    Field(discriminator="kind"),
]


class CommandEnvelope(BaseModel):
    id: Id = Field(
        description="Chosen by the client (a UUID is a good choice); the same id again gets the first answer."
    )
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


class ErrorOrReject(RootModel[ErrorResponse | CommandReject]):
    """Refused before the rules saw it (ErrorResponse), or by the rules (CommandReject)."""
