"""``make_draw``: check the draw's settings and fix its seeding order once.

The seeding order (``entrants`` of ``draw_made``) is computed here, from the command's
``seed``, and stored: a replay reads it and never runs the random generator again.
- ``random``: every active (not withdrawn) player, shuffled by ``random.Random(seed)``;
- ``seeded``: the seeded players by seed (1 first), then the unseeded ones shuffled by
  ``random.Random(seed)``.

A draw has at most MAX_DRAW_MATCHES matches (``draw_size``, counted from the settings before
anything is made: byes and a possible grand-final reset count; with a next stage, a stopped double
elimination's own matches and the knockout's); a bigger one is refused ``draw_too_large`` (a round
robin's message says how many ``groups`` would fit).
``match.by_round`` (race lengths per round) and ``then`` (a next stage) are checked by
``race_lengths`` and ``stage_setup``; ``draw_made`` stores them cleaned (``then`` only when given).

Ratings (PROTOCOL.md section 13): ``seeding: "rating"`` orders the field by the ratings the API read
when the draw was made (``hub.ratings.seeding``); ``match.handicap`` (``handicaps.check``) gives each
match a race per player from them. Either way ``draw_made`` stores those ratings (``ratings``: player
id -> {value, racks, provisional} or null), so the fold never reads a rating that changed since.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from hub.draws import brackets, draw_formats, fields, handicaps, race_lengths, stage_setup, teams
from hub.draws.draw_formats.base import MAX_DRAW_MATCHES, DrawFormat, Params, players_per_match
from hub.draws.events import DrawReject, bad, conflict
from hub.draws.state import TournamentState
from hub.ratings import seeding as rating_seeding
from hub.rules.disciplines import DISCIPLINES

SEEDINGS = ("random", "seeded", "rating")
SEED_LIMIT = 2**63


def draw_size(kind: str, players: int, params: Params | None = None) -> int:
    """How many matches (entries of ``draw.matches``) a draw of ``players`` makes at most."""
    return draw_formats.format_of(kind).size(players, params or {})


def staged_size(kind: str, players: int, params: Params, then: Mapping[str, Any] | None) -> int:
    """``draw_size`` with a next stage: the first stage as it stops, then the knockout's matches."""
    fmt = draw_formats.format_of(kind)
    if then is None:
        return fmt.size(players, params)
    advance = int(then["advance"])
    field = fmt.knockout_field(advance, params)
    return fmt.first_stage_size(players, params, advance) + brackets.bracket_size(field) - 1


def _too_large(fmt: DrawFormat, players: int, params: Params, then: Mapping[str, Any] | None) -> DrawReject:
    n = staged_size(fmt.name, players, params, then)
    head = f"a draw has at most {MAX_DRAW_MATCHES} matches; this {fmt.name} of {players} players would make {n}"
    return DrawReject(422, "draw_too_large", head + fmt.too_large_hint(players, params))


def _params(cmd: Mapping[str, Any], fmt: DrawFormat) -> dict[str, int]:
    """The format's settings (its defaults where absent); another format's setting is refused."""
    mine = {p.name for p in fmt.params}
    for name in draw_formats.params():
        if name not in mine and cmd.get(name) is not None:
            raise bad(f"{name} is only for a {' or a '.join(draw_formats.owners(name))} draw")
    return {p.name: p.check(cmd.get(p.name)) for p in fmt.params}




def make_draw(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "type", "seeding", "seed", "match", "redraw", "then", "ratings",
                      *draw_formats.params()))
    kind = fields.required(cmd, "type")
    fmt = draw_formats.FORMATS.get(kind) if isinstance(kind, str) else None
    if fmt is None:
        raise bad(f"type must be one of {', '.join(draw_formats.names())}")
    seeding = cmd.get("seeding") or "random"  # absent or null: the default
    if seeding not in SEEDINGS:
        raise bad("seeding must be \"random\", \"seeded\" or \"rating\"")
    seed = fields.required(cmd, "seed")
    # Non-negative: random.Random(-n) would shuffle as random.Random(n) does.
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise bad(f"seed must be a whole number from 0 to {SEED_LIMIT - 1}")
    match = _match_template(fields.required(cmd, "match"), fmt)
    params = _params(cmd, fmt)
    redraw = fields.flag(cmd.get("redraw") or False, "redraw")
    if state.draw is not None:
        if not redraw:
            raise conflict("draw_exists", "a draw is made already: send redraw: true to replace it")
        if state.results or state.walkovers:
            raise conflict("draw_started",
                           "the draw has started (a result or walkover is recorded): it cannot be redrawn")
    active = [p for p in state.players if not p.withdrawn]
    teams.check_doubles_entrants(state, match)
    fmt.check_field(len(active), params)
    then = None
    if cmd.get("then") is not None:
        then = stage_setup.check_then(cmd["then"], fmt, match, len(active), params)
    if staged_size(kind, len(active), params, then) > MAX_DRAW_MATCHES:
        raise _too_large(fmt, len(active), params, then)
    advance = then["advance"] if then is not None else None
    by_round = race_lengths.check(match, fmt.rounds(len(active), params, advance))
    match.pop("by_round", None)
    if by_round:
        match["by_round"] = by_round
    rng = random.Random(seed)
    ratings = handicaps.ratings_of(cmd.get("ratings"), active) if seeding == "rating" or "handicap" in match else None
    if seeding == "rating":
        entrants = rating_seeding.by_rating([(p.id, p.seed) for p in active], ratings or {}, rng)
    elif seeding == "seeded":
        seeded = sorted((p for p in active if p.seed is not None), key=lambda p: p.seed or 0)
        rest = [p.id for p in active if p.seed is None]
        rng.shuffle(rest)
        entrants = [p.id for p in seeded] + rest
    else:
        entrants = [p.id for p in active]
        rng.shuffle(entrants)
    stored = {name: params.get(name) for name in draw_formats.params()}  # each setting, null when not this format's
    return "draw_made", {"type": kind, "seeding": seeding, "seed": seed, "match": match, **stored,
                         "redraw": redraw, "entrants": entrants, **({"then": then} if then is not None else {}),
                         **({"ratings": ratings} if ratings is not None else {})}


def _match_template(raw: Any, draw_format: DrawFormat) -> dict[str, Any]:
    """The matches' discipline, format and options (already checked by the API against the
    rules engine); here only its shape and whether the discipline fits the draw type."""
    raw = fields.mapping(raw, "match")
    fields.only(raw, ("discipline", "format", "options", "by_round", "handicap", "team", "doubles"), "match")
    discipline = raw.get("discipline")
    if discipline not in DISCIPLINES:
        raise bad(f"match.discipline must be one of {', '.join(DISCIPLINES)}")
    if players_per_match(discipline) != draw_format.players_per_match:
        raise bad(f"a {draw_format.name} draw plays {draw_format.players_per_match} players a match "
                  f"({', '.join(draw_format.disciplines())})")
    fmt = raw.get("format", {})
    options = raw.get("options") or {}
    fields.mapping(fmt, "match.format")
    fields.mapping(options, "match.options")
    out = {"discipline": discipline, "format": copy.deepcopy(dict(fmt)), "options": copy.deepcopy(dict(options))}
    if raw.get("by_round") is not None:
        out["by_round"] = raw["by_round"]  # checked against the draw's rounds by make_draw
    if raw.get("handicap") is not None:
        out["handicap"] = handicaps.check(raw["handicap"], draw_format.players_per_match)
    if raw.get("team") is not None:
        out["team"] = teams.check_team_spec(raw["team"])
    if raw.get("doubles"):
        out["doubles"] = fields.flag(raw["doubles"], "match.doubles")  # scotch doubles: sides of two
    return out
