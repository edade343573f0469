"""Match setup: the validated, defaulted form of a ``POST /api/matches`` body."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hub.rules.events import SetupError
from hub.rules.names import BadName, clean_name

DISCIPLINES = ("golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "wpa_eight", "wpa_ten", "other")
# Which format each discipline is played to: a race, or a number of racks / minutes.
RACE_DISCIPLINES = ("wpa_nine", "chinese_eight", "wpa_eight", "wpa_ten", "other")
POINTS_DISCIPLINES = ("golden_nine", "chase_nine")
# How a match is scored: stroke by stroke (judged by the rules) or rack by rack (`rack` commands).
SCORINGS = ("strokes", "racks")
MAX_GAME = 64
CHASE_POINTS_DEFAULT = {"foul": 1, "normal": 3, "small_gold": 3, "big_gold": 5}
MAX_NAME = 100
MAX_ID = 64


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    id: str
    name: str
    handicap: str | None = None


@dataclass(frozen=True, slots=True)
class ShotClockConfig:
    shot_s: float
    first_shot_s: float
    break_s: float
    extension_s: float
    extensions_per_rack: int

    def to_json(self) -> dict[str, Any]:
        return {
            "shot_s": self.shot_s,
            "first_shot_s": self.first_shot_s,
            "break_s": self.break_s,
            "extension_s": self.extension_s,
            "extensions_per_rack": self.extensions_per_rack,
        }


@dataclass(frozen=True, slots=True)
class MatchSetup:
    match_id: str
    tournament_id: str
    table_id: str
    discipline: str
    players: tuple[PlayerSetup, ...]
    race_to: int | None
    racks: int | None
    minutes: float | None
    break_mode: str  # "winner" | "alternate"
    chase_points: tuple[tuple[str, int], ...]  # chase_nine point values
    shot_clock: ShotClockConfig | None
    timeout_every_racks: int
    timeout_s: float
    # The draw match this match plays ({"tournament_id", "key", "round"} as items), or None.
    draw: tuple[tuple[str, str], ...] | None = None
    scoring: str = "strokes"  # "racks": the players report who won each rack (PROTOCOL.md section 17)
    game: str | None = None  # discipline "other": the game's name (snooker, straight_pool, ...)

    def __deepcopy__(self, _memo: dict[int, Any]) -> MatchSetup:
        return self  # frozen: states share it

    # derived once: the fold looks players up on every event
    player_ids: tuple[str, ...] = field(init=False)
    player_index: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "player_ids", tuple(p.id for p in self.players))
        object.__setattr__(self, "player_index", {p.id: i for i, p in enumerate(self.players)})

    def points(self, key: str) -> int:
        return dict(self.chase_points)[key]

    def format_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.race_to is not None:
            out["race_to"] = self.race_to
        if self.racks is not None:
            out["racks"] = self.racks
        if self.minutes is not None:
            out["minutes"] = self.minutes
        out["break"] = self.break_mode
        if self.discipline == "chase_nine":
            out["points"] = dict(self.chase_points)
        if self.game is not None:
            out["game"] = self.game
        return out

    def options_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"shot_clock": self.shot_clock.to_json() if self.shot_clock else None}
        if self.minutes is not None:
            out["match_clock"] = {"timeout_every_racks": self.timeout_every_racks, "timeout_s": self.timeout_s}
        if self.scoring != "strokes":
            out["scoring"] = self.scoring
        return out

    @property
    def by_racks(self) -> bool:
        """Scored rack by rack: no strokes, no shot clock (PROTOCOL.md section 17)."""
        return self.scoring == "racks"

    def to_json(self) -> dict[str, Any]:
        """The body that rebuilds this setup with ``validate_setup`` (stored with the match)."""
        return {
            "discipline": self.discipline,
            "players": [
                {"id": p.id, "name": p.name, **({"handicap": p.handicap} if p.handicap else {})}
                for p in self.players
            ],
            "format": self.format_json(),
            "options": self.options_json(),
            **({"draw": dict(self.draw)} if self.draw else {}),
        }


def _number(value: Any, what: str, *, minimum: float = 0, integer: bool = False, allow_zero: bool = False) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SetupError(f"{what} must be a number")
    if integer and int(value) != value:
        raise SetupError(f"{what} must be a whole number")
    if value < minimum or (value == 0 and not allow_zero):
        raise SetupError(
            f"{what} must be greater than {minimum}" if not allow_zero else f"{what} must be at least {minimum}"
        )
    if value > 1_000_000:
        raise SetupError(f"{what} is too large")
    return int(value) if integer else value


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SetupError(f"{what} must be an object")
    return value


def _players(raw: Any, discipline: str, make_id: Any) -> tuple[PlayerSetup, ...]:
    if not isinstance(raw, list):
        raise SetupError("players must be a list")
    want = 3 if discipline == "chase_nine" else 2
    if len(raw) != want:
        raise SetupError(f"{discipline} needs exactly {want} players")
    players: list[PlayerSetup] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise SetupError("each player must be an object")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise SetupError(f"player {i + 1}: name must be a non-empty string of at most {MAX_NAME} characters")
        try:
            name = clean_name(name, f"player {i + 1}: name")
        except BadName as exc:
            raise SetupError(str(exc)) from None
        pid = entry.get("id")
        if pid is None:
            pid = make_id(i)
        if not isinstance(pid, str) or not pid or len(pid) > MAX_ID:
            raise SetupError(f"player {i + 1}: id must be a string of 1 to {MAX_ID} characters")
        handicap = entry.get("handicap")
        if handicap is not None and (handicap != "eight" or discipline != "golden_nine"):
            raise SetupError("handicap 'eight' is the only handicap, and only in golden_nine")
        players.append(PlayerSetup(pid, name, handicap))
    if len({p.id for p in players}) != len(players):
        raise SetupError("player ids must be unique within the match")
    return tuple(players)


def validate_setup(body: Mapping[str, Any], *, match_id: str, tournament_id: str, table_id: str) -> MatchSetup:
    if not isinstance(body, Mapping):
        raise SetupError("the match body must be an object")
    discipline = body.get("discipline")
    if discipline not in DISCIPLINES:
        raise SetupError(f"discipline must be one of {', '.join(DISCIPLINES)}")
    used: set[str] = {str(p.get("id")) for p in body.get("players") or [] if isinstance(p, Mapping) and p.get("id")}

    def make_id(i: int) -> str:
        n = i + 1
        while f"p{n}" in used:
            n += 10
        used.add(f"p{n}")
        return f"p{n}"

    players = _players(body.get("players"), discipline, make_id)
    fmt = _mapping(body.get("format"), "format")
    race_to, racks, minutes = _length(fmt, discipline)
    break_mode = fmt.get("break", "winner")
    if break_mode not in ("winner", "alternate"):
        raise SetupError("format.break must be 'winner' or 'alternate'")
    if break_mode == "alternate" and discipline == "chase_nine":
        raise SetupError("chase_nine: the winner always breaks")
    points = dict(CHASE_POINTS_DEFAULT)
    if "points" in fmt:
        if discipline != "chase_nine":
            raise SetupError("format.points is for chase_nine")
        raw_points = _mapping(fmt["points"], "format.points")
        for key, value in raw_points.items():
            if key not in CHASE_POINTS_DEFAULT:
                raise SetupError(f"format.points: unknown key {key!r}")
            points[key] = _number(value, f"format.points.{key}", minimum=1, integer=True)

    options = _mapping(body.get("options"), "options")
    scoring = _scoring(options, discipline)
    game = _game(fmt, discipline)
    # RULES.md golden_nine "Timed match": a timed match always has a shot clock.
    shot_clock = _shot_clock(
        options.get("shot_clock"), discipline, timed=minutes is not None and discipline == "golden_nine"
    )
    match_clock = _mapping(options.get("match_clock"), "options.match_clock")
    every = _number(
        match_clock.get("timeout_every_racks", 10), "options.match_clock.timeout_every_racks", minimum=1, integer=True
    )
    timeout_s = _number(match_clock.get("timeout_s", 300), "options.match_clock.timeout_s", allow_zero=True)
    draw = _draw(body.get("draw"))
    return MatchSetup(
        match_id=match_id,
        tournament_id=tournament_id,
        table_id=table_id,
        discipline=discipline,
        players=players,
        race_to=race_to,
        racks=racks,
        minutes=minutes,
        break_mode=break_mode,
        chase_points=tuple(points.items()),
        shot_clock=shot_clock,
        timeout_every_racks=every,
        timeout_s=timeout_s,
        draw=draw,
        scoring=scoring,
        game=game,
    )


def _length(fmt: Mapping[str, Any], discipline: str) -> tuple[int | None, int | None, float | None]:
    """``format``'s race_to, racks or minutes: exactly one, the one the discipline is played to."""
    race_to = racks = minutes = None
    races, points = ", ".join(RACE_DISCIPLINES), ", ".join(POINTS_DISCIPLINES)
    if "race_to" in fmt:
        if discipline not in RACE_DISCIPLINES:
            raise SetupError(f"format.race_to is for {races}")
        race_to = _number(fmt["race_to"], "format.race_to", minimum=1, integer=True)
    if "racks" in fmt:
        if discipline not in POINTS_DISCIPLINES:
            raise SetupError(f"format.racks is for {points}")
        racks = _number(fmt["racks"], "format.racks", minimum=1, integer=True)
    if "minutes" in fmt:
        if discipline not in POINTS_DISCIPLINES:
            raise SetupError(f"format.minutes is for {points}")
        minutes = _number(fmt["minutes"], "format.minutes")
    if sum(x is not None for x in (race_to, racks, minutes)) != 1:
        raise SetupError(f"format needs exactly one of race_to ({races}), racks or minutes ({points})")
    return race_to, racks, minutes


def _scoring(options: Mapping[str, Any], discipline: str) -> str:
    """``options.scoring``: strokes (the default) or racks; discipline ``other`` is only scored by racks."""
    default = "racks" if discipline == "other" else "strokes"
    scoring = options.get("scoring", default)
    if scoring not in SCORINGS:
        raise SetupError(f"options.scoring must be one of {', '.join(SCORINGS)}")
    if discipline == "other" and scoring != "racks":
        raise SetupError("discipline other is scored rack by rack only (options.scoring 'racks')")
    return str(scoring)


def _game(fmt: Mapping[str, Any], discipline: str) -> str | None:
    """``format.game``: the name of the game an ``other`` match plays (snooker, straight_pool, ...)."""
    if discipline != "other":
        if "game" in fmt:
            raise SetupError("format.game is for discipline other")
        return None
    game = fmt.get("game")
    if not isinstance(game, str) or not game.strip() or len(game) > MAX_GAME:
        raise SetupError(f"format.game must name the game (snooker, straight_pool, one_pocket, ...): "
                         f"a string of 1 to {MAX_GAME} characters")
    try:
        return clean_name(game, "format.game")
    except BadName as exc:
        raise SetupError(str(exc)) from None


DRAW_FIELDS = ("tournament_id", "key", "round")


def _draw(raw: Any) -> tuple[tuple[str, str], ...] | None:
    """The draw reference the tournament engine puts in the matches it creates."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) != set(DRAW_FIELDS):
        raise SetupError(f"draw must be an object with {', '.join(DRAW_FIELDS)}")
    for key in DRAW_FIELDS:
        if not isinstance(raw[key], str) or not raw[key] or len(raw[key]) > MAX_ID:
            raise SetupError(f"draw.{key} must be a string of 1 to {MAX_ID} characters")
    return tuple((key, raw[key]) for key in DRAW_FIELDS)


def _shot_clock(raw: Any, discipline: str, *, timed: bool) -> ShotClockConfig | None:
    if raw is None and not timed:
        return None
    cfg = _mapping(raw, "options.shot_clock")
    chase = discipline == "chase_nine"
    shot_s = _number(cfg.get("shot_s", 45), "shot_clock.shot_s")
    first = _number(cfg.get("first_shot_s", 60 if chase else shot_s), "shot_clock.first_shot_s")
    brk = _number(cfg.get("break_s", 30 if timed and discipline == "golden_nine" else shot_s), "shot_clock.break_s")
    ext = _number(cfg.get("extension_s", 30), "shot_clock.extension_s")
    per_rack = _number(
        cfg.get("extensions_per_rack", 0 if chase else 1),
        "shot_clock.extensions_per_rack",
        integer=True,
        allow_zero=True,
    )
    return ShotClockConfig(shot_s, first, brk, ext, per_rack)
