"""Handicapped races set from ratings: a draw's ``match.handicap`` (PROTOCOL.md section 13). Pure.

``"handicap": {"by": "rating", "race_to": N, "unrated": V?}``: in every match of the draw, the
higher-rated player races to N and the other to the race (at least 1) whose chance of winning the
match is closest to one half (``hub.ratings.race.handicap_races``); a player with no rating plays at
V (default 500). The ratings are the ones ``draw_made`` stored (``ratings``: read by the API when the
draw was made), so the races of a match never depend on when it is called. The match is created
with ``"format": {"race_to": {"<pid>": 7, "<pid>": 5}}`` (the rules engine's per-player race).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from hub.draws import fields
from hub.draws.events import bad
from hub.ratings.race import MAX_RACE, handicap_races

DEFAULT_UNRATED = 500
MAX_VALUE = 5000


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(f"{name} must be a whole number from {low} to {high}")
    return value


def check(raw: Any, players_per_match: int) -> dict[str, Any]:
    """``match.handicap`` checked; returns a clean copy."""
    raw = fields.mapping(raw, "match.handicap")
    fields.only(raw, ("by", "race_to", "unrated"), "match.handicap")
    if raw.get("by") != "rating":
        raise bad("match.handicap.by must be \"rating\"")
    if players_per_match != 2:
        raise bad("match.handicap is for draws of two-player matches")
    race_to = _whole(fields.required(raw, "race_to"), "match.handicap.race_to", 1, MAX_RACE)
    unrated = raw.get("unrated")
    unrated = DEFAULT_UNRATED if unrated is None else _whole(unrated, "match.handicap.unrated", 0, MAX_VALUE)
    return {"by": "rating", "race_to": race_to, "unrated": unrated}


def ratings_of(raw: Any, active: Sequence[Any]) -> dict[str, dict[str, Any] | None]:
    """Each active player's rating as the command carries it (the API reads them at draw time):
    player id -> {value, racks, provisional}, or None when unrated."""
    given = raw if isinstance(raw, Mapping) else {}
    out: dict[str, dict[str, Any] | None] = {}
    for player in active:
        r = given.get(player.id)
        if isinstance(r, Mapping) and isinstance(r.get("value"), int) and not isinstance(r.get("value"), bool):
            out[player.id] = {"value": int(r["value"]), "racks": int(r.get("racks") or 0),
                              "provisional": bool(r.get("provisional"))}
        else:
            out[player.id] = None
    return out


def races(handicap: Mapping[str, Any], ratings: Mapping[str, Any] | None, players: Sequence[str]) -> dict[str, int]:
    """player id -> race, for the two players of a match."""
    a, b = players
    unrated = handicap.get("unrated", DEFAULT_UNRATED)

    def value(pid: str) -> int:
        r = (ratings or {}).get(pid)
        return int(r["value"]) if r else int(unrated)

    race_a, race_b = races_of(value(a), value(b), int(handicap["race_to"]))
    return {a: race_a, b: race_b}


@lru_cache(maxsize=4096)
def races_of(value_a: int, value_b: int, race_to: int) -> tuple[int, int]:
    """``handicap_races`` remembered by the only things it reads (two whole ratings and a race): the
    tournament projection shows every match's races on every change, each costing up to race_to
    race chances (a sum of up to 99 terms each); a result is a pure function of its key, so
    remembering it keeps the draw pure. 4,096 pairs hold a big field's matches."""
    return handicap_races(value_a, value_b, race_to)


def apply(template: Mapping[str, Any], ratings: Mapping[str, Any] | None, fmt: dict[str, Any],
          players: Sequence[str]) -> dict[str, Any]:
    """The format a match is created with: per-player races when the template has a handicap."""
    handicap = template.get("handicap")
    if not handicap or len(players) != 2:
        return fmt
    return {**fmt, "race_to": races(handicap, ratings, players)}
