"""wpa_ten: WPA ten-ball, call shot (RULES.md "wpa_ten"; WPA Rules of Play 9).

Balls 1-10, the lowest is the ball-on. A stroke keeps the shooter at the table only when its
``called`` ball went in as called; balls made any other way are "wrongfully pocketed" (9.7) and
the opponent chooses to play or pass. The 10 wins only when it was the last ball (9.8); every other
way it goes down or off the table, it is spotted (9.9). The push-out and the three-foul rule are
shared with nine-ball (push_out.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core, notes
from hub.rules.notes import Note
from hub.rules.push_out import PushOutGame
from hub.rules.state import MatchState
from hub.rules.traits import Traits

TEN = 10


class WpaTen(PushOutGame):
    traits = Traits(name="wpa_ten", balls=tuple(range(1, TEN + 1)), win_ball=TEN, ball_on="lowest", push_out=True,
                    call_shot=True, stats=("break_and_runs", "table_runs", "fouls"))  # the 10 never wins on a break
    demo_event = {"type": "double_elimination", "players": 6, "tables": 2, "shot_clock": True,
                  "name": "cuehub ten-ball open"}

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        pid = core.shooter(st)
        fouls, down = core.rails_break(st, shot)  # 9.3, 6.2: the 1 first; a ball down or four rails
        if TEN in down:
            core.respot(st.rack, TEN, note)  # 9, 9.9: the 10 on the break never wins
        if fouls:
            # 9.10, 9.4: ball in hand anywhere, no rerack choice, and no push-out after a break foul
            st.rack.push_out_allowed = False
            self.foul(st, pid, fouls, note)
            return fouls
        st.rack.push_out_allowed = True  # for whoever takes the first stroke after the break
        st.player(pid).consecutive_fouls = 0
        self.after_legal_break(st, pid, shot["pocketed"])
        return []

    def foul_outside_stroke(self, st: MatchState, pid: str, code: str, note: list[Note]) -> list[str]:
        """A foul before the break stroke counts as the break (RULES.md): ball in hand, no push-out."""
        was_break = st.rack.phase == "break"
        fouls = super().foul_outside_stroke(st, pid, code, note)
        if was_break:
            st.rack.after_break = True  # the next stroke is the first after the break (first_shot_s)
        return fouls

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        push_out = shot["push_out"]
        last_ball = rack.on_table == {TEN}  # 9.8: the 10 wins only as the last remaining ball
        fouls = self.stroke_fouls(st, shot)
        called = None if push_out else shot["called"]  # a push-out's call is ignored
        wins = not fouls and called == TEN and last_ball
        down = core.clear_balls(rack, shot)
        rack.after_break = False
        rack.push_out_allowed = False
        if TEN in down and not wins:
            core.respot(rack, TEN, note)
        if fouls:
            self.foul(st, pid, fouls, note)  # 9.10: ball in hand, never the play/pass option
            return fouls
        st.player(pid).consecutive_fouls = 0  # any legal stroke resets the run (a missed call too)
        if push_out:
            self.offer_after_push_out(st, pid, note)
        elif wins:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note)
        elif called is not None:
            core.continue_inning(st)
        elif shot["pocketed"]:
            note.append(notes.WRONGFULLY_POCKETED())
            core.ask(st, self.opponent(st, pid), ("play", "pass"), "wrongfully_pocketed")
        else:
            core.start_inning(st, self.opponent(st, pid))
        return []
