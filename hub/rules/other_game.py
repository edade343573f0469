"""other: a game the hub does not judge (snooker, straight pool, one-pocket, ...), named by
``format.game`` and scored only rack by rack (PROTOCOL.md section 17): the `rack` command gives the
winner a rack (a frame), the race ends the match. No balls are tracked and no stroke is taken."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules.discipline import Discipline
from hub.rules.events import Reject
from hub.rules.notes import Note
from hub.rules.state import MatchState
from hub.rules.traits import Traits


class OtherGame(Discipline):
    traits = Traits(name="other", balls=(), win_ball=None, scorings=("racks",), named_game=True, break_count=None,
                    called_fouls_break=(), called_fouls_play=(), stats=())
    # Scored rack by rack: the simulated tablets report each frame's winner.
    demo_event = {"type": "round_robin", "players": 4, "tables": 1, "name": "cuehub snooker night"}

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        raise Reject("not_allowed", "this game is scored rack by rack")  # decide() refuses shots first

    play_shot = break_shot

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[Note]) -> None:
        raise Reject("not_allowed", "this game is scored rack by rack")  # decide() refuses fouls first
