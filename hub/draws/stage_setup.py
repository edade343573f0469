"""``make_draw``'s checks of the race lengths per round (``match.by_round``) and the next stage (``then``).

``then``: ``{"type": "single_elimination", "advance": K, "seeding"?: "results" | "seeded" |
"random", "match"?: {discipline, format, options, by_round}}`` (``match`` defaults to the first
stage's discipline, format and options, without its ``by_round``; its discipline must be the
first stage's).  Allowed after ``round_robin`` (1 <= K < the smallest group, groups x K >= 2) and
``double_elimination`` (K a power of two, 4 <= K <= half the field); anything else is
``422 bad_advance`` (a wrong ``advance``) or ``422 bad_request``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hub.draws import fields, race_lengths
from hub.draws.events import DrawReject, bad
from hub.draws.round_robin import group_sizes
from hub.draws.stages import KNOCKOUT

THEN_TYPES = ("single_elimination",)
THEN_SEEDINGS = ("results", "seeded", "random")


def stage_rounds(kind: str, n: int, groups: int | None, rounds: int | None,
                 stop: int | None = None) -> list[tuple[str, str]]:
    """Every round (name, side) of a first stage of ``n`` players."""
    if kind in ("single_elimination", "double_elimination"):
        return race_lengths.elimination_rounds(kind == "double_elimination", n, "W", stop)
    if kind == "round_robin":
        biggest = max(group_sizes(n, groups or 1))
        longest = biggest if biggest % 2 else biggest - 1  # the circle method's rounds
        return race_lengths.numbered_rounds(longest, "group")
    return race_lengths.numbered_rounds(rounds or 1, "chase")


def knockout_rounds(n: int) -> list[tuple[str, str]]:
    return race_lengths.elimination_rounds(False, n, KNOCKOUT)


def bad_advance(message: str) -> DrawReject:
    return DrawReject(422, "bad_advance", message)


def check_then(raw: Any, kind: str, first_match: Mapping[str, Any], n: int, groups: int | None) -> dict[str, Any]:
    """The clean ``then`` of a draw of ``kind`` with ``n`` active players (match template unchecked
    against the rules engine: the API does that)."""
    raw = fields.mapping(raw, "then")
    fields.only(raw, ("type", "advance", "seeding", "match"), "then")
    then_type = fields.required(raw, "type")
    if then_type not in THEN_TYPES:
        raise bad(f"then.type must be one of {', '.join(THEN_TYPES)}")
    seeding = raw.get("seeding") or "results"
    if seeding not in THEN_SEEDINGS:
        raise bad(f"then.seeding must be one of {', '.join(THEN_SEEDINGS)}")
    advance = fields.required(raw, "advance")
    if isinstance(advance, bool) or not isinstance(advance, int):
        raise bad_advance("then.advance must be a whole number")
    if kind == "round_robin":
        smallest = min(group_sizes(n, groups or 1))
        if not 1 <= advance < smallest:
            raise bad_advance(f"then.advance must be from 1 to {smallest - 1}: fewer than the smallest group "
                              f"({smallest} players)")
        if advance * (groups or 1) < 2:
            raise bad_advance("then.advance of one group must be at least 2 (a knockout needs two players)")
        field = advance * (groups or 1)
    elif kind == "double_elimination":
        if advance < 4 or advance & (advance - 1) or advance > n // 2:
            raise bad_advance(f"then.advance must be a power of two from 4 to half the field ({n // 2}): "
                              f"{advance} is not")
        field = advance
    else:
        raise bad(f"then follows a round_robin or a double_elimination, not a {kind}")
    match = raw.get("match")
    if match is None:
        match = {k: copy.deepcopy(first_match[k]) for k in ("discipline", "format", "options")}
    else:
        match = fields.mapping(match, "then.match")
        fields.only(match, ("discipline", "format", "options", "by_round"), "then.match")
        if match.get("discipline") != first_match["discipline"]:
            raise bad(f"then.match.discipline must be the first stage's ({first_match['discipline']})")
        fmt = fields.mapping(match.get("format") or {}, "then.match.format")
        options = fields.mapping(match.get("options") or {}, "then.match.options")
        clean = {"discipline": match["discipline"], "format": copy.deepcopy(dict(fmt)),
                 "options": copy.deepcopy(dict(options))}
        by_round = race_lengths.check(match, knockout_rounds(field), "then.match")
        if by_round:
            clean["by_round"] = by_round
        match = clean
    return {"type": then_type, "advance": advance, "seeding": seeding, "match": match}
