"""What a discipline is, as data: the traits every discipline module declares (``Discipline.traits``),
that the shared code of the engine, the setup, the draws and the tools read instead of checking
names, and that the hub serves to its clients (``GET /api/disciplines``): the pages read them too.

Pure data: nothing here judges a stroke. The field docstrings are the API's descriptions (the
OpenAPI schema is made from this class).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

# The called fouls a tablet offers in every judged game; each may add its own before the last one.
COMMON_CALLED_FOULS = ("double_hit", "push_shot", "touched_ball", "feet_off_floor", "balls_moving",
                       "illegal_jump", "other")
COMMON_STATS = ("break_and_runs", "table_runs", "golden_breaks", "fouls")
SHOT_CLOCK_DEFAULTS: Mapping[str, float] = {"shot_s": 45, "extension_s": 30, "extensions_per_rack": 1}


def called_fouls(*own: str) -> tuple[str, ...]:
    """The common called fouls with a discipline's own ones before ``other``."""
    return (*COMMON_CALLED_FOULS[:-1], *own, COMMON_CALLED_FOULS[-1])


def shot_clock(**overrides: float) -> Mapping[str, float]:
    """The shot clock's defaults with a discipline's own values."""
    return {**SHOT_CLOCK_DEFAULTS, **overrides}


@dataclass(frozen=True, slots=True, kw_only=True)
class Traits:
    """What a client must know about a discipline. A field a discipline does not set has its default."""

    # The OpenAPI schema takes each field's description from the docstring under it.
    __pydantic_config__ = {"use_attribute_docstrings": True}

    name: str
    """The discipline's name, as `discipline` in a match setup."""
    balls: tuple[int, ...]
    """The balls racked, in number order; empty for a game the hub does not judge (no ball is tracked)."""
    win_ball: int | None
    """The ball that wins a rack (a player's own may differ: `players[].win_ball` of the projection); null: none."""
    ball_on: Literal["lowest", "group"] | None = None
    """What the cue ball must strike first after the break: `lowest`, the lowest ball on the table; `group`, a ball
    of the shooter's group (any ball but the 8 on an open table), the 8 once the group is cleared; null: not judged."""
    groups: bool = False
    """Solids (1-7) and stripes (9-15), given at every rack from an open table (`group`, `rack.table_open`)."""
    players: int = 2
    """Players a match: 2, or 3 (a three-player match starts with `order`, never a lag)."""
    lag: bool = True
    """A match may begin with a lag."""
    formats: tuple[Literal["race_to", "racks", "minutes"], ...] = ("race_to",)
    """The match lengths `format` takes (exactly one of them), the usual one first."""
    format_defaults: Mapping[str, int] = field(default_factory=lambda: {"race_to": 7})
    """A setup form's first values of those lengths."""
    breaks: tuple[Literal["winner", "alternate"], ...] = ("winner", "alternate")
    """`format.break` values it takes; the first is the default."""
    scorings: tuple[Literal["strokes", "racks"], ...] = ("strokes", "racks")
    """`options.scoring` values it takes; the first is the default."""
    score: Literal["racks", "points"] = "racks"
    """What `players[].score` counts: racks won, or points (then `racks_won` is shown beside them)."""
    ranked: bool = False
    """Points move between the players and sum to zero: the result ranks them (`result.ranking`), a shared top
    score has no winner (null), a tie plays no extra rack, each rack's payment sets the next rack's order, and
    no official time-out is taken."""
    points: Mapping[str, int] | None = None
    """`format.points`: the point values a setup may change, with their defaults; null: not taken."""
    named_game: bool = False
    """`format.game` names the game played (snooker, straight_pool, ...): required."""
    handicaps: tuple[str, ...] = ()
    """The `players[].handicap` values it takes."""
    push_out: bool = False
    """A push-out may be played on the first stroke after the break (`shot.push_out`, `rack.push_out_allowed`)."""
    call_shot: bool = False
    """The shooter calls its ball: `shot.called` names the ball that went in as called."""
    break_count: Literal["break_rails", "break_crossings"] | None = "break_rails"
    """The number a break stroke reports: object balls to a rail, or balls across the head string."""
    break_flags: tuple[str, ...] = ()
    """`shot` fields (true or false) a tablet asks on a break."""
    play_flags: tuple[str, ...] = ()
    """`shot` fields (true or false) a tablet asks after the break (the push-out apart)."""
    called_fouls_break: tuple[str, ...] = COMMON_CALLED_FOULS
    """The called fouls a tablet offers on a break stroke."""
    called_fouls_play: tuple[str, ...] = COMMON_CALLED_FOULS
    """The called fouls a tablet offers on other strokes, and as a `foul` command."""
    stats: tuple[str, ...] = COMMON_STATS
    """The `players[].stats` keys that apply."""
    timeout_race_to: int | None = None
    """A player may take one `timeout` before a break in a race to at least this; null: no time-outs."""
    penalty_types: tuple[str, ...] = ("forfeit_rack", "forfeit_match")
    """The `penalty` types it takes."""
    concede_scopes: tuple[Literal["rack", "match"], ...] = ("rack", "match")
    """What a player may concede."""
    win_types: tuple[str, ...] = ("normal",)
    """The `win_type` values a `rack` command may report (scoring by racks)."""
    rack_paid_by: bool = False
    """A `rack` command names who pays the rack (`paid_by`, required)."""
    shot_clock: Mapping[str, float] = field(default_factory=lambda: dict(SHOT_CLOCK_DEFAULTS))
    """The shot clock's defaults (`first_shot_s` and `break_s` default to `shot_s` when absent)."""
    timed_shot_clock: Mapping[str, float] | None = None
    """A match played to minutes always has a shot clock, these values over `shot_clock`; null: only when asked."""

    def to_json(self) -> dict[str, Any]:
        return {key: _plain(value) for key, value in asdict(self).items()}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value
