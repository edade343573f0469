"""wpa_nine: American nine-ball (RULES.md "wpa_nine")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core
from hub.rules.discipline import RERACK_CHOICES
from hub.rules.notes import Note
from hub.rules.push_out import PushOutGame
from hub.rules.state import MatchState
from hub.rules.traits import Traits


class WpaNine(PushOutGame):
    traits = Traits(name="wpa_nine", balls=tuple(range(1, 10)), win_ball=9, ball_on="lowest", push_out=True)
    demo_event = {"type": "single_elimination", "players": 8, "tables": 2, "shot_clock": True, "seeding": "seeded",
                  "name": "cuehub nine-ball cup"}

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        pid = core.shooter(st)
        fouls = core.nine_ball_rails_break(st, shot, note)
        st.rack.push_out_allowed = True  # for whoever takes the first stroke after the break
        if fouls:
            self._break_foul(st, pid)
            return fouls
        st.player(pid).consecutive_fouls = 0
        if 9 in shot["pocketed"]:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note, by_break_stroke=True)
        else:
            self.after_legal_break(st, pid, shot["pocketed"])
        return []

    def foul_outside_stroke(self, st: MatchState, pid: str, code: str, note: list[Note]) -> list[str]:
        if st.rack.phase != "break":
            return super().foul_outside_stroke(st, pid, code, note)
        st.rack.after_break = True
        st.rack.push_out_allowed = True
        self._break_foul(st, pid)
        return [code]

    def _break_foul(self, st: MatchState, breaker: str) -> None:
        """RULES.md wpa_nine: any foul on the break lets the opponent choose play or a rerack."""
        player = core.count_foul(st, breaker)
        player.consecutive_fouls += 1
        core.ask(st, self.opponent(st, breaker), RERACK_CHOICES, "break_foul")

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        push_out = shot["push_out"]
        fouls = self.stroke_fouls(st, shot)
        pocketed = set(shot["pocketed"])
        down = core.clear_balls(rack, shot)
        rack.after_break = False
        rack.push_out_allowed = False
        if 9 in down and (fouls or push_out):
            core.respot(rack, 9, note)
        if fouls:
            self.foul(st, pid, fouls, note)
            return fouls
        st.player(pid).consecutive_fouls = 0
        if push_out:
            self.offer_after_push_out(st, pid, note)
        elif 9 in pocketed:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note)
        elif pocketed:
            core.continue_inning(st)
        else:
            core.start_inning(st, self.opponent(st, pid))
        return []
