"""Race lengths per round: a draw's ``match.by_round`` and the format each round is played to.

``match`` (of the draw, or of its ``then`` stage) may carry ``"by_round": {R: {"format": {...}}}``:
R a round name of that stage (``W3``, ``L2``, ``GF``, ``GF2``, ``K2``, ``R1``, ...) or a side:
``winners`` (every winners-bracket round; every round of a single elimination or knockout),
``losers`` (every losers-bracket round), ``final`` (the last round of a single elimination or
knockout; ``GF`` and ``GF2`` of a double elimination).  The most specific entry wins: the round
name, then ``final``, then ``winners`` / ``losers``; the chosen ``format``'s fields replace those of
``match.format`` and the others are kept (one entry is chosen: a ``final`` entry does not take
fields from a ``winners`` one).  Round robin and chase_groups take round names only.
An unknown round or side is ``422 bad_request`` naming it (``check``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from hub.draws import fields
from hub.draws.brackets import bracket_size
from hub.draws.events import bad

SIDES = ("winners", "losers", "final")


def elimination_rounds(double: bool, n: int, prefix: str = "W", stop: int | None = None) -> list[tuple[str, str]]:
    """(round, side) of an elimination of n entrants in playing order; the side of a single
    elimination's last round is ``final``."""
    size = bracket_size(n)
    k = size.bit_length() - 1
    if not double:
        return [(f"{prefix}{r}", "final" if r == k else "winners") for r in range(1, k + 1)]
    last_drop = k - 1 if stop is None else k - (stop.bit_length() - 1)
    w_rounds = k if stop is None else last_drop + 1
    out = [(f"W{r}", "winners") for r in range(1, w_rounds + 1)]
    out += [(f"L{r}", "losers") for r in range(1, 2 * last_drop + 1)] if k > 1 else []
    if stop is None:
        out += [("GF", "final"), ("GF2", "final")]
    return out


def numbered_rounds(count: int, side: str) -> list[tuple[str, str]]:
    return [(f"R{r}", side) for r in range(1, count + 1)]


def sides_of(rounds: Sequence[tuple[str, str]]) -> list[str]:
    """The sides a ``by_round`` may name for these rounds (in ``SIDES`` order)."""
    sides = {side for _, side in rounds if side in SIDES}
    if any(side == "final" and r not in ("GF", "GF2") for r, side in rounds):
        sides.add("winners")  # a single elimination's final is one of its winners rounds
    return [side for side in SIDES if side in sides]


def check(template: Mapping[str, Any], rounds: Sequence[tuple[str, str]], what: str = "match") -> dict[str, Any]:
    """``template['by_round']`` checked against the stage's rounds; returns a clean copy."""
    raw = template.get("by_round")
    if raw is None:
        return {}
    raw = fields.mapping(raw, f"{what}.by_round")
    names = {r for r, _ in rounds}
    sides = sides_of(rounds)
    out: dict[str, Any] = {}
    for name, entry in raw.items():
        if name not in names and name not in sides:
            allowed = [r for r, _ in rounds] + sorted(sides)
            raise bad(f"{what}.by_round: this draw has no round {str(name)[:20]!r} "
                      f"(its rounds and sides: {', '.join(allowed)})")
        entry = fields.mapping(entry, f"{what}.by_round.{name}")
        fields.only(entry, ("format",), f"{what}.by_round.{name}")
        fmt = fields.mapping(fields.required(entry, "format"), f"{what}.by_round.{name}.format")
        out[name] = {"format": copy.deepcopy(dict(fmt))}
    return out


def format_for(template: Mapping[str, Any], round_name: str, side: str) -> dict[str, Any]:
    """The format ``round_name`` (of that side) is played to: ``match.format`` with the fields of the
    one most specific ``by_round`` entry (round name, else ``final``, else ``winners`` / ``losers``)
    put over it; the entries are never stacked on each other."""
    fmt = copy.deepcopy(dict(template.get("format") or {}))
    by_round = template.get("by_round") or {}
    choices = [round_name]
    if side == "final":
        choices.append("final")
        if round_name not in ("GF", "GF2"):
            choices.append("winners")  # the last round of a single elimination is a winners round too
    elif side in ("winners", "losers"):
        choices.append(side)
    entry = next((by_round[c] for c in choices if c in by_round), None)
    if entry is not None:
        fmt.update(copy.deepcopy(dict(entry.get("format") or {})))
    return fmt
