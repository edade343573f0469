"""chinese_eight: Chinese eight-ball, 2017 rules (RULES.md "chinese_eight")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core, groups, notes
from hub.rules.discipline import Discipline
from hub.rules.groups import GROUPS, group_of
from hub.rules.notes import Note
from hub.rules.state import MatchState
from hub.rules.traits import Traits, called_fouls

BAD_BREAK_CHOICES = ("rerack_self", "rerack_other", "play")
EIGHT_BREAK_FOUL_CHOICES = ("play", "behind_line")


class ChineseEight(Discipline):
    traits = Traits(
        name="chinese_eight",
        balls=tuple(range(1, 16)),
        win_ball=8,
        ball_on="group",
        groups=True,
        called_fouls_break=called_fouls("not_trying"),
        called_fouls_play=called_fouls("not_trying"),
        timeout_race_to=6,  # 中式八球: once per player, in a race to 6 or more
    )
    demo_event = {"type": "round_robin", "players": 8, "tables": 2, "groups": 2, "then_advance": 2,
                  "name": "cuehub eight-ball league"}

    def legal_first(self, st: MatchState, pid: str) -> set[int]:
        """Ball-on: open table any ball but the 8; else the group, or the 8 once it is cleared."""
        own = groups.own_balls(st, pid)
        if own is None:
            return st.rack.on_table - {8}
        return own or {8}

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        opp = self.opponent(st, pid)
        fouls = core.fact_fouls(shot, None, is_break=True)
        requirement = core.break_requirement_met(shot)
        down = core.clear_balls(rack, shot)
        eight_pocketed = 8 in shot["pocketed"]
        if 8 in down:
            core.respot(rack, 8, note)
        rack.table_open = True
        rack.after_break = True
        if not requirement:
            fouls.insert(0, "bad_break")
        # RULES.md "Also settled": not_trying on a break counts as on any other stroke
        lost = self._not_trying(st, pid, note) if "not_trying" in shot["called_fouls"] else None
        if rack.rebreak_warned and not requirement:
            core.count_foul(st, pid)
            note.append(notes.REBREAK_FAILED())
            core.finish_rack(st, opp, "normal", "loss", {opp: 1}, note)
            return fouls
        if lost:
            core.count_foul(st, pid)
            note.append(notes.RACK_LOST(loss=lost))
            core.finish_rack(st, opp, "normal", "loss", {opp: 1}, note)
            return fouls
        if fouls == ["bad_break"]:
            core.count_foul(st, pid)
            core.ask(st, opp, BAD_BREAK_CHOICES, "bad_break")
            return fouls
        if fouls:
            core.count_foul(st, pid)
            if eight_pocketed and shot["cue_ball"] == "table":
                core.ask(st, opp, EIGHT_BREAK_FOUL_CHOICES, "eight_break_foul")
            else:
                core.start_inning(st, opp, ball_in_hand="behind_line")
            return fouls
        self.after_legal_break(st, pid, shot["pocketed"])
        return []

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        player = st.player(pid)
        opp = self.opponent(st, pid)
        legal = self.legal_first(st, pid)
        group_cleared = not rack.table_open and legal == {8}
        fouls = core.fact_fouls(shot, legal, is_break=False)
        pocketed = set(shot["pocketed"])
        core.clear_balls(rack, shot)
        rack.after_break = False
        lost = self._not_trying(st, pid, note) if "not_trying" in shot["called_fouls"] else None
        if 8 in pocketed and fouls:
            lost = "eight_foul"
        elif 8 in pocketed and not group_cleared:
            lost = "eight_early"
        elif 8 in shot["off_table"]:
            lost = "eight_off"
        if fouls:
            core.count_foul(st, pid)
        if lost:
            note.append(notes.RACK_LOST(loss=lost))
            core.finish_rack(st, opp, "normal", "loss", {opp: 1}, note)
            return fouls
        if fouls:
            core.start_inning(st, opp, ball_in_hand="anywhere")
            return fouls
        if 8 in pocketed:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note)
            return []
        if rack.table_open:
            first_group = group_of(shot["first_contact"])
            if first_group and pocketed & GROUPS[first_group]:
                groups.assign(st, pid, opp, first_group, note)
                core.continue_inning(st)
            else:
                core.start_inning(st, opp)
            return []
        assert player.group is not None
        if pocketed & GROUPS[player.group]:
            core.continue_inning(st)
        else:
            core.start_inning(st, opp)
        return []

    def _not_trying(self, st: MatchState, pid: str, note: list[Note]) -> str | None:
        """RULES.md: the first not_trying is a foul and a warning, the second in the rack loses it."""
        player = st.player(pid)
        player.not_trying_in_rack += 1
        if player.not_trying_in_rack == 1:
            player.warnings += 1
            note.append(notes.NOT_TRYING())
            return None
        return "not_trying"

    def foul_outside_stroke(self, st: MatchState, pid: str, code: str, note: list[Note]) -> list[str]:
        lost = self._not_trying(st, pid, note) if code == "not_trying" else None
        if lost:
            st.rack.after_break = False
            core.count_foul(st, pid)
            note.append(notes.RACK_LOST(loss=lost))
            opp = self.opponent(st, pid)
            core.finish_rack(st, opp, "normal", "loss", {opp: 1}, note)
            return [code]
        if st.rack.phase == "break":
            # 中式八球 5.5: any other break foul: ball in hand behind the head string
            st.rack.after_break = True
            core.count_foul(st, pid)
            core.start_inning(st, self.opponent(st, pid), ball_in_hand="behind_line")
            return [code]
        return super().foul_outside_stroke(st, pid, code, note)

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[Note]) -> None:
        core.count_foul(st, fouler)
        core.start_inning(st, self.opponent(st, fouler), ball_in_hand="anywhere")

    def decide_choice(self, st: MatchState, pid: str, choice: str, context: str, note: list[Note]) -> None:
        if context == "bad_break" and choice == "rerack_other":
            # RULES.md: the breaker breaks again, warned: failing again loses the rack.
            breaker = st.rack.breaker
            assert breaker is not None
            core.rerack(st, breaker, note)
            st.rack.rebreak_warned = True
            st.player(breaker).warnings += 1
            note.append(notes.REBREAKS_WARNED(player=breaker))
            return
        super().decide_choice(st, pid, choice, context, note)
