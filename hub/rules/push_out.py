"""What the WPA nine-ball and ten-ball modules share: the push-out and the three-consecutive-fouls
rule (RULES.md: the ten-ball section takes both from the nine-ball one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core, notes
from hub.rules.discipline import Discipline
from hub.rules.events import Reject
from hub.rules.notes import Note
from hub.rules.state import MatchState


class PushOutGame(Discipline):
    """A rotation game with a push-out after the break and the three-foul rule."""

    def validate_shot(self, st: MatchState, shot: Mapping[str, Any]) -> None:
        if shot["push_out"] and not st.rack.push_out_allowed:
            raise Reject("not_allowed", "a push-out is only allowed on the first stroke after the break")

    @staticmethod
    def stroke_fouls(st: MatchState, shot: Mapping[str, Any]) -> list[str]:
        """The fouls of a stroke after the break: the lowest ball is the ball-on; a push-out needs no
        ball-on, contact or cushion, and its other fouls still count."""
        if shot["push_out"]:
            return core.fact_fouls({**shot, "first_contact": 0}, None, is_break=False, rail_required=False)
        return core.fact_fouls(shot, {min(st.rack.on_table)}, is_break=False)

    def offer_after_push_out(self, st: MatchState, pusher: str, note: list[Note]) -> None:
        """After a legal push-out the opponent chooses to play, or to pass (the pusher shoots again)."""
        note.append(notes.PUSH_OUT())
        core.ask(st, self.opponent(st, pusher), ("play", "pass"), "push_out")

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[Note]) -> None:
        player = core.count_foul(st, fouler)
        player.consecutive_fouls += 1
        opp = self.opponent(st, fouler)
        if player.consecutive_fouls >= 3:
            note.append(notes.WPA_THIRD_FOUL())
            core.finish_rack(st, opp, "normal", "fouls", {opp: 1}, note)
            return
        if player.consecutive_fouls == 2:
            note.append(notes.WPA_TWO_FOULS(player=fouler))
        core.start_inning(st, opp, ball_in_hand="anywhere")
