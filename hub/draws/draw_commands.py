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
``formats`` and ``stage_setup``; ``draw_made`` stores them cleaned (``then`` only when given).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from hub.draws import brackets, fields, formats, stage_setup
from hub.draws.chase import DEFAULT_ROUNDS
from hub.draws.events import DrawReject, bad, conflict
from hub.draws.state import TournamentState
from hub.rules.disciplines import DISCIPLINES

TYPES = ("single_elimination", "double_elimination", "round_robin", "chase_groups")
SEEDINGS = ("random", "seeded")
MAX_GROUPS = 26
MAX_ROUNDS = 50
SEED_LIMIT = 2**63
MAX_DRAW_MATCHES = 4096


def draw_size(kind: str, players: int, groups: int | None = None, rounds: int | None = None) -> int:
    """How many matches (entries of ``draw.matches``) a draw of ``players`` makes at most."""
    if kind in ("single_elimination", "double_elimination"):
        size = 2
        while size < players:
            size *= 2
        return size - 1 if kind == "single_elimination" else 2 * size - 1  # with GF2, the reset
    if kind == "round_robin":
        g = max(1, groups or 1)
        small, extra = divmod(players, g)
        sizes = [small + 1] * extra + [small] * (g - extra)
        return sum(k * (k - 1) // 2 for k in sizes)
    per_round = players // 3 + (1 if players % 3 else 0)
    return per_round * (rounds or DEFAULT_ROUNDS)


def staged_size(kind: str, players: int, groups: int | None, rounds: int | None,
                then: Mapping[str, Any] | None) -> int:
    """``draw_size`` with a next stage: the first stage as it stops, then the knockout's matches."""
    if then is None:
        return draw_size(kind, players, groups, rounds)
    advance = int(then["advance"])
    if kind == "double_elimination":
        first = len(brackets.structure(True, brackets.bracket_size(players), "W", advance))
        return first + brackets.bracket_size(advance) - 1
    return draw_size(kind, players, groups, rounds) + brackets.bracket_size(advance * (groups or 1)) - 1


def _too_large(kind: str, players: int, groups: int | None, rounds: int | None,
               then: Mapping[str, Any] | None = None) -> DrawReject:
    n = staged_size(kind, players, groups, rounds, then)
    head = f"a draw has at most {MAX_DRAW_MATCHES} matches; this {kind} of {players} players would make {n}"
    if kind == "round_robin":
        fit = next((g for g in range(1, MAX_GROUPS + 1) if draw_size(kind, players, g) <= MAX_DRAW_MATCHES), None)
        hint = (f": split it into groups (\"groups\": {fit} or more)" if fit is not None
                else f": even {MAX_GROUPS} groups are too many matches; use fewer players")
    elif kind == "chase_groups":
        hint = ": play fewer rounds"
    else:
        hint = ": split the field into several tournaments"
    return DrawReject(422, "draw_too_large", head + hint)


def make_draw(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "type", "seeding", "seed", "match", "groups", "rounds", "redraw", "then"))
    kind = fields.required(cmd, "type")
    if kind not in TYPES:
        raise bad(f"type must be one of {', '.join(TYPES)}")
    seeding = cmd.get("seeding") or "random"  # absent or null: the default
    if seeding not in SEEDINGS:
        raise bad("seeding must be \"random\" or \"seeded\"")
    seed = fields.required(cmd, "seed")
    # Non-negative: random.Random(-n) would shuffle as random.Random(n) does.
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise bad(f"seed must be a whole number from 0 to {SEED_LIMIT - 1}")
    match = _match_template(fields.required(cmd, "match"), kind)
    groups = None
    if kind == "round_robin":
        groups = fields.whole(1 if cmd.get("groups") is None else cmd["groups"], "groups", 1, MAX_GROUPS)
    elif "groups" in cmd and cmd["groups"] is not None:
        raise bad("groups is only for a round_robin draw")
    rounds = None
    if kind == "chase_groups":
        rounds = fields.whole(DEFAULT_ROUNDS if cmd.get("rounds") is None else cmd["rounds"], "rounds", 1, MAX_ROUNDS)
    elif "rounds" in cmd and cmd["rounds"] is not None:
        raise bad("rounds is only for a chase_groups draw")
    redraw = fields.flag(cmd.get("redraw") or False, "redraw")
    if state.draw is not None:
        if not redraw:
            raise conflict("draw_exists", "a draw is made already: send redraw: true to replace it")
        if state.results or state.walkovers:
            raise conflict("draw_started",
                           "the draw has started (a result or walkover is recorded): it cannot be redrawn")
    active = [p for p in state.players if not p.withdrawn]
    least = 3 if kind == "chase_groups" else 2
    if len(active) < least:
        raise DrawReject(422, "too_few_players", f"a {kind} draw needs at least {least} players ({len(active)} active)")
    if groups is not None and len(active) < 2 * groups:
        raise DrawReject(422, "too_few_players",
                         f"{groups} groups need at least {2 * groups} players, two a group ({len(active)} active)")
    then = None
    if cmd.get("then") is not None:
        then = stage_setup.check_then(cmd["then"], kind, match, len(active), groups)
    if staged_size(kind, len(active), groups, rounds, then) > MAX_DRAW_MATCHES:
        raise _too_large(kind, len(active), groups, rounds, then)
    stop = then["advance"] if then is not None and kind == "double_elimination" else None
    by_round = formats.check(match, stage_setup.stage_rounds(kind, len(active), groups, rounds, stop))
    match.pop("by_round", None)
    if by_round:
        match["by_round"] = by_round
    rng = random.Random(seed)
    if seeding == "seeded":
        seeded = sorted((p for p in active if p.seed is not None), key=lambda p: p.seed or 0)
        rest = [p.id for p in active if p.seed is None]
        rng.shuffle(rest)
        entrants = [p.id for p in seeded] + rest
    else:
        entrants = [p.id for p in active]
        rng.shuffle(entrants)
    return "draw_made", {"type": kind, "seeding": seeding, "seed": seed, "match": match, "groups": groups,
                         "rounds": rounds, "redraw": redraw, "entrants": entrants,
                         **({"then": then} if then is not None else {})}


def _match_template(raw: Any, kind: str) -> dict[str, Any]:
    """The matches' discipline, format and options (already checked by the API against the
    rules engine); here only its shape and whether the discipline fits the draw type."""
    raw = fields.mapping(raw, "match")
    fields.only(raw, ("discipline", "format", "options", "by_round"), "match")
    discipline = raw.get("discipline")
    if discipline not in DISCIPLINES:
        raise bad(f"match.discipline must be one of {', '.join(DISCIPLINES)}")
    players = 3 if kind == "chase_groups" else 2  # chase groups: three players a match; the others two
    if DISCIPLINES[discipline].traits.players != players:
        fits = [name for name, d in DISCIPLINES.items() if d.traits.players == players]
        raise bad(f"a {kind} draw plays a {players}-player discipline ({', '.join(fits)})")
    fmt = raw.get("format", {})
    options = raw.get("options") or {}
    fields.mapping(fmt, "match.format")
    fields.mapping(options, "match.options")
    out = {"discipline": discipline, "format": copy.deepcopy(dict(fmt)), "options": copy.deepcopy(dict(options))}
    if raw.get("by_round") is not None:
        out["by_round"] = raw["by_round"]  # checked against the draw's rounds by make_draw
    return out
