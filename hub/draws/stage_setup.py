"""``make_draw``'s checks of the next stage (``then``) and the rounds a stage's ``by_round`` may name.

``then``: ``{"type": <a knockout format>, "advance": K, "seeding"?: "results" | "seeded" |
"random", "match"?: {discipline, format, options, by_round}}`` (``match`` defaults to the first
stage's discipline, format and options, without its ``by_round``; its discipline must be the
first stage's).  Allowed after a format with a ``next_stage`` (``hub.draws.draw_formats``), which
checks K: after a round robin 1 <= K < the smallest group, groups x K >= 2; after a double
elimination K a power of two, 4 <= K <= half the field; anything else is ``422 bad_advance`` (a
wrong ``advance``) or ``422 bad_request``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hub.draws import draw_formats, fields, race_lengths
from hub.draws.draw_formats.base import DrawFormat, Params, bad_advance
from hub.draws.events import bad
from hub.draws.stages import KNOCKOUT

THEN_SEEDINGS = ("results", "seeded", "random")


def knockout_rounds(n: int) -> list[tuple[str, str]]:
    return race_lengths.elimination_rounds(False, n, KNOCKOUT)


def check_then(raw: Any, kind: DrawFormat, first_match: Mapping[str, Any], n: int, params: Params) -> dict[str, Any]:
    """The clean ``then`` of a draw of format ``kind`` with ``n`` active players (match template
    unchecked against the rules engine: the API does that)."""
    raw = fields.mapping(raw, "then")
    fields.only(raw, ("type", "advance", "seeding", "match"), "then")
    then_type = fields.required(raw, "type")
    knockouts = draw_formats.knockouts()
    if then_type not in knockouts:
        raise bad(f"then.type must be one of {', '.join(knockouts)}")
    seeding = raw.get("seeding") or "results"
    if seeding not in THEN_SEEDINGS:
        raise bad(f"then.seeding must be one of {', '.join(THEN_SEEDINGS)}")
    advance = fields.required(raw, "advance")
    if isinstance(advance, bool) or not isinstance(advance, int):
        raise bad_advance("then.advance must be a whole number")
    if kind.next_stage is None:
        raise bad(f"then follows a {' or a '.join(draw_formats.staged())}, not a {kind.name}")
    field = kind.check_advance(advance, n, params)
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
