"""wpa_nine: American nine-ball (RULES.md "wpa_nine")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core
from hub.rules.discipline import RERACK_CHOICES, Discipline
from hub.rules.events import Reject
from hub.rules.state import MatchState


class WpaNine(Discipline):
    name = "wpa_nine"

    def validate_shot(self, st: MatchState, shot: Mapping[str, Any]) -> None:
        if shot["push_out"] and not st.rack.push_out_allowed:
            raise Reject("not_allowed", "a push-out is only allowed on the first stroke after the break")

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[str]) -> list[str]:
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

    def foul_outside_stroke(self, st: MatchState, pid: str, code: str, note: list[str]) -> list[str]:
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

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[str]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        push_out = shot["push_out"]
        if push_out:
            # No ball-on, contact or cushion needed; the other fouls still count.
            fouls = core.fact_fouls({**shot, "first_contact": 0}, None, is_break=False, rail_required=False)
        else:
            fouls = core.fact_fouls(shot, {min(rack.on_table)}, is_break=False)
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
            note.append("push-out: the opponent chooses to play or pass")
            core.ask(st, self.opponent(st, pid), ("play", "pass"), "push_out")
        elif 9 in pocketed:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note)
        elif pocketed:
            core.continue_inning(st)
        else:
            core.start_inning(st, self.opponent(st, pid))
        return []

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[str]) -> None:
        player = core.count_foul(st, fouler)
        player.consecutive_fouls += 1
        opp = self.opponent(st, fouler)
        if player.consecutive_fouls >= 3:
            note.append("third consecutive foul: the rack is lost")
            core.finish_rack(st, opp, "normal", "fouls", {opp: 1}, note)
            return
        if player.consecutive_fouls == 2:
            note.append(f"{fouler} is on two fouls: a third consecutive foul loses the rack")
        core.start_inning(st, opp, ball_in_hand="anywhere")
