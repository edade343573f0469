"""Who played a stroke: the one function every statistic of section 12 asks. Pure.

It reads the match as it was BEFORE the event (the state a stroke was judged on), so it can follow
whoever is due at the table, not whoever the event names after the fact.

A side's stroke (or the turn's foul) is the shooter's, i.e. the entry of the tournament the match's
player id is (`stroke_player`). In scotch doubles (PROTOCOL.md section 15) a side is two members
taking turns: the turn is also the member's who was due, `rack.member` of the state before the
event (a person id: `stroke_member`), and the statistics count each member's own strokes beside
the side's. Nothing else in hub/people decides who a stroke belongs to.
"""

from __future__ import annotations

from typing import Any

from hub.rules import doubles
from hub.rules.state import MatchState

TURN_EVENTS = ("shot", "foul", "clock_expired")


def stroke_player(before: MatchState, event: Any) -> str | None:
    """The player a stroke or a turn's foul (`shot`, `foul`, `clock_expired`) belongs to, from the
    match before it: the player the event names (the rules filled it in: the one at the table),
    else `rack.shooter`. None for any other kind of event."""
    if event.kind not in TURN_EVENTS:
        return None
    named = event.data.get("player")
    return named if isinstance(named, str) else before.rack.shooter


def stroke_member(before: MatchState, event: Any) -> str | None:
    """The person id of the doubles member who played the turn: the member due before it, or, for a
    stroke called `out_of_turn`, the partner who played it instead; None in singles."""
    side = stroke_player(before, event)
    due = doubles.member_due(before, side)
    if due is None or side is None or not _out_of_turn(event):
        return due
    return next((pid for pid in doubles.order_of(before, side) if pid != due), due)


def _out_of_turn(event: Any) -> bool:
    data = event.data
    return doubles.OUT_OF_TURN in (data.get("called_fouls") or ()) or data.get("reason") == doubles.OUT_OF_TURN
