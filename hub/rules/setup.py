"""Match setup: the validated, defaulted form of a ``POST /api/matches`` body."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hub.rules import doubles as scotch
from hub.rules.disciplines import DISCIPLINES
from hub.rules.events import SetupError
from hub.rules.names import BadName, clean_name
from hub.rules.traits import Traits

# How a match is scored: stroke by stroke (judged by the rules) or rack by rack (`rack` commands).
SCORINGS = ("strokes", "racks")
SCORING_WORDS = {"strokes": "stroke by stroke", "racks": "rack by rack"}
LENGTHS = ("race_to", "racks", "minutes")
MAX_GAME = 64
MAX_NAME = 100
MAX_ID = 64


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    id: str
    name: str
    handicap: str | None = None
    members: tuple[scotch.Member, ...] = ()  # a doubles side's two members, in the setup's order


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
    chase_points: tuple[tuple[str, int], ...]  # the point values of a discipline that takes format.points
    shot_clock: ShotClockConfig | None
    timeout_every_racks: int
    timeout_s: float
    # The draw match this match plays ({"tournament_id", "key", "round"} as items), or None.
    draw: tuple[tuple[str, str], ...] | None = None
    scoring: str = "strokes"  # "racks": the players report who won each rack (PROTOCOL.md section 17)
    game: str | None = None  # a game the hub does not judge: its name (snooker, straight_pool, ...)
    # A handicapped race (PROTOCOL.md section 13): each player's own race, in player order; empty
    # when everyone races to race_to (which is then the longest race of the match).
    races: tuple[tuple[str, int], ...] = ()
    doubles: bool = False  # scotch doubles: each side is two members taking turns (doubles.py)

    def __deepcopy__(self, _memo: dict[int, Any]) -> MatchSetup:
        return self  # frozen: states share it

    # derived once: the fold looks players up on every event, and the discipline's traits
    player_ids: tuple[str, ...] = field(init=False)
    player_index: dict[str, int] = field(init=False)
    traits: Traits = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "player_ids", tuple(p.id for p in self.players))
        object.__setattr__(self, "player_index", {p.id: i for i, p in enumerate(self.players)})
        object.__setattr__(self, "traits", DISCIPLINES[self.discipline].traits)

    def race_of(self, pid: str) -> int | None:
        """The race ``pid`` wins the match at: their own in a handicapped race, else race_to."""
        return dict(self.races)[pid] if self.races else self.race_to

    def points(self, key: str) -> int:
        return dict(self.chase_points)[key]

    def format_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.race_to is not None:
            out["race_to"] = dict(self.races) if self.races else self.race_to
        if self.racks is not None:
            out["racks"] = self.racks
        if self.minutes is not None:
            out["minutes"] = self.minutes
        out["break"] = self.break_mode
        if self.traits.points is not None:
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
                {"id": p.id, "name": p.name, **({"handicap": p.handicap} if p.handicap else {}),
                 **({"members": [m.to_json() for m in p.members]} if p.members else {})}
                for p in self.players
            ],
            **({"doubles": True} if self.doubles else {}),
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


def _players(raw: Any, traits: Traits, make_id: Any, doubles: bool) -> tuple[PlayerSetup, ...]:
    if not isinstance(raw, list):
        raise SetupError("players must be a list")
    want = traits.players
    if len(raw) != want:
        raise SetupError(f"{traits.name} needs exactly {want} players")
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
        if handicap is not None and handicap not in traits.handicaps:
            raise SetupError(f"{traits.name} takes no handicap {str(handicap)[:20]!r}" + (
                f" (only {', '.join(traits.handicaps)})" if traits.handicaps else ""))
        members = scotch.parse_members(entry.get("members"), pid, i) if doubles else ()
        if not doubles and entry.get("members") is not None:
            raise SetupError("members are for a doubles match (doubles: true)", code="doubles_members")
        players.append(PlayerSetup(pid, name, handicap, members))
    if len({p.id for p in players}) != len(players):
        raise SetupError("player ids must be unique within the match")
    return tuple(players)


def validate_setup(body: Mapping[str, Any], *, match_id: str, tournament_id: str, table_id: str) -> MatchSetup:
    if not isinstance(body, Mapping):
        raise SetupError("the match body must be an object")
    name = body.get("discipline")
    if not isinstance(name, str) or name not in DISCIPLINES:
        raise SetupError(f"discipline must be one of {', '.join(DISCIPLINES)}")
    traits = DISCIPLINES[name].traits
    used: set[str] = {str(p.get("id")) for p in body.get("players") or [] if isinstance(p, Mapping) and p.get("id")}

    def make_id(i: int) -> str:
        n = i + 1
        while f"p{n}" in used:
            n += 10
        used.add(f"p{n}")
        return f"p{n}"

    doubles = scotch.doubles_flag(body)
    if doubles:
        scotch.check_allowed(traits.players, name)
    players = _players(body.get("players"), traits, make_id, doubles)
    scotch.check_distinct(players)
    fmt = _mapping(body.get("format"), "format")
    race_to, racks, minutes = _length(fmt, traits)
    races = _races(fmt.get("race_to"), players)
    if isinstance(fmt.get("race_to"), Mapping):
        race_to = max(int(n) for n in fmt["race_to"].values())  # the same for all: an ordinary race
    # the sides of a doubles match take turns to break unless the format says the winner breaks
    usual = "alternate" if doubles and "alternate" in traits.breaks else traits.breaks[0]
    break_mode = fmt.get("break", usual)
    if break_mode not in ("winner", "alternate"):
        raise SetupError("format.break must be 'winner' or 'alternate'")
    if break_mode not in traits.breaks:
        raise SetupError(f"{name}: format.break must be {' or '.join(repr(b) for b in traits.breaks)}")
    points = _points(fmt, traits)

    options = _mapping(body.get("options"), "options")
    scoring = _scoring(options, traits)
    game = _game(fmt, traits)
    timed = minutes is not None and traits.timed_shot_clock is not None
    shot_clock = _shot_clock(options.get("shot_clock"), traits, timed=timed)
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
        discipline=name,
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
        races=races,
        doubles=doubles,
    )


def _takers(what: str) -> str:
    """The disciplines whose traits take ``what``, for a message."""
    return ", ".join(n for n, d in DISCIPLINES.items() if what in d.traits.formats)


def _length(fmt: Mapping[str, Any], traits: Traits) -> tuple[int | None, int | None, float | None]:
    """``format``'s race_to, racks or minutes: exactly one, one the discipline is played to."""
    found: dict[str, Any] = {}
    for what in LENGTHS:
        if what not in fmt:
            continue
        if what not in traits.formats:
            raise SetupError(f"format.{what} is for {_takers(what)}")
        if what == "minutes":
            found[what] = _number(fmt[what], "format.minutes")
        elif what == "race_to" and isinstance(fmt[what], Mapping):
            found[what] = 1  # a race per player: _races checks it
        else:
            found[what] = _number(fmt[what], f"format.{what}", minimum=1, integer=True)
    if len(found) != 1:
        raise SetupError("format needs exactly one of " + ", ".join(f"{w} ({_takers(w)})" for w in LENGTHS))
    return found.get("race_to"), found.get("racks"), found.get("minutes")


def _races(raw: Any, players: tuple[PlayerSetup, ...]) -> tuple[tuple[str, int], ...]:
    """``format.race_to`` given per player (``{pid: n}``): every player's race, at least 1, in
    player order; empty when it is one number or every race is the same (an ordinary race)."""
    if not isinstance(raw, Mapping):
        return ()
    ids = [p.id for p in players]
    unknown = [str(k)[:MAX_ID] for k in raw if k not in ids]
    if unknown:
        raise SetupError(f"format.race_to: {unknown[0]!r} is not a player of the match ({', '.join(ids)})")
    missing = [pid for pid in ids if pid not in raw]
    if missing:
        raise SetupError(f"format.race_to must give every player a race: none for {', '.join(missing)}")
    races = tuple((pid, int(_number(raw[pid], f"format.race_to.{pid}", minimum=1, integer=True))) for pid in ids)
    return races if len({n for _, n in races}) > 1 else ()


def _points(fmt: Mapping[str, Any], traits: Traits) -> dict[str, int]:
    """``format.points``: the point values of a discipline that takes them, the defaults replaced."""
    points = dict(traits.points or {})
    if "points" not in fmt:
        return points
    if traits.points is None:
        raise SetupError(f"format.points is for {', '.join(n for n, d in DISCIPLINES.items() if d.traits.points)}")
    for key, value in _mapping(fmt["points"], "format.points").items():
        if key not in traits.points:
            raise SetupError(f"format.points: unknown key {key!r}")
        points[key] = _number(value, f"format.points.{key}", minimum=1, integer=True)
    return points


def _scoring(options: Mapping[str, Any], traits: Traits) -> str:
    """``options.scoring``: one of the discipline's scorings, its first by default."""
    scoring = options.get("scoring", traits.scorings[0])
    if scoring not in SCORINGS:
        raise SetupError(f"options.scoring must be one of {', '.join(SCORINGS)}")
    if scoring not in traits.scorings:
        how = " or ".join(SCORING_WORDS[s] for s in traits.scorings)
        raise SetupError(f"discipline {traits.name} is scored {how} only "
                         f"(options.scoring {' or '.join(repr(s) for s in traits.scorings)})")
    return str(scoring)


def _game(fmt: Mapping[str, Any], traits: Traits) -> str | None:
    """``format.game``: the name of the game a match of a discipline with a named game plays."""
    if not traits.named_game:
        if "game" in fmt:
            named = ", ".join(n for n, d in DISCIPLINES.items() if d.traits.named_game)
            raise SetupError(f"format.game is for discipline {named}")
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


def _shot_clock(raw: Any, traits: Traits, *, timed: bool) -> ShotClockConfig | None:
    """``options.shot_clock`` with the discipline's defaults; a timed match of a discipline with
    ``timed_shot_clock`` always has one, with those values over the usual defaults."""
    if raw is None and not timed:
        return None
    cfg = _mapping(raw, "options.shot_clock")
    defaults = {**traits.shot_clock, **((traits.timed_shot_clock or {}) if timed else {})}
    shot_s = _number(cfg.get("shot_s", defaults["shot_s"]), "shot_clock.shot_s")
    first = _number(cfg.get("first_shot_s", defaults.get("first_shot_s", shot_s)), "shot_clock.first_shot_s")
    brk = _number(cfg.get("break_s", defaults.get("break_s", shot_s)), "shot_clock.break_s")
    ext = _number(cfg.get("extension_s", defaults["extension_s"]), "shot_clock.extension_s")
    per_rack = _number(
        cfg.get("extensions_per_rack", defaults["extensions_per_rack"]),
        "shot_clock.extensions_per_rack",
        integer=True,
        allow_zero=True,
    )
    return ShotClockConfig(shot_s, first, brk, ext, per_rack)
