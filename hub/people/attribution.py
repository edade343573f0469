"""Who played a stroke: the one function every statistic of section 12 asks. Pure.

It reads the match as it was BEFORE the event (the state a stroke was judged on), so it can follow
whoever is due at the table, not whoever the event names after the fact.

Today a side is one player: the stroke (or the turn's foul) is the shooter's, i.e. the entry of
the tournament the match's player id is. Scotch doubles (PROTOCOL.md section 15) will make a side
two members taking turns: then this returns the member due, `rack.member` of the state before the
event (a person id), and the statistics count each member's own strokes. Nothing else in
hub/people decides who a stroke belongs to.
"""

from __future__ import annotations

from typing import Any

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
