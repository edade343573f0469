"""wpa_eight: WPA eight-ball, call shot (RULES.md "wpa_eight"; WPA Rules of Play 3).

After the break a stroke keeps the shooter at the table only when it is legal and its ``called``
ball counts (1.6): on an open table any ball but the 8, which gives the shooter the called ball's
group (3.4); on a closed table a ball of the shooter's group, or the 8 once it is the ball-on. There
is no push-out and no three-foul rule (3.9); the 8 is the only ball ever spotted (3.6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core, groups, notes
from hub.rules.discipline import Discipline
from hub.rules.notes import Note
from hub.rules.state import MatchState
from hub.rules.traits import Traits

EIGHT = 8
EIGHT_ON_BREAK_CHOICES = ("play", "rerack_self")  # 3.3(e): the breaker's choice
BAD_BREAK_CHOICES = ("play", "rerack_self", "rerack_other")  # 3.3(d): the opponent's
# Break fouls after which the incoming player may also take the table as it lies (3.3h).
PLAY_ON_BREAK_FOULS = frozenset({"bad_break", "ball_off_table"})


def break_foul_options(shot: Mapping[str, Any], fouls: list[str], requirement: bool) -> tuple[str, ...]:
    """The incoming player's options after a break foul (RULES.md wpa_eight "Break", settled 2-4)."""
    if fouls == ["bad_break"]:
        return BAD_BREAK_CHOICES
    options = ["behind_line"]  # 3.3(f)-(h): ball in hand behind the head string, always offered
    if set(fouls) <= PLAY_ON_BREAK_FOULS and shot["cue_ball"] == "table":
        options.append("play")  # 3.3(h): only object balls left the table
    if EIGHT in shot["pocketed"] or not requirement:
        options.append("rerack_self")  # 3.3(f), 3.3(d)
    if not requirement:
        options.append("rerack_other")  # 3.3(d)
    return tuple(options)


class WpaEight(Discipline):
    traits = Traits(name="wpa_eight", balls=tuple(range(1, 16)), win_ball=EIGHT, ball_on="group", groups=True,
                    call_shot=True, stats=("break_and_runs", "table_runs", "fouls"))  # nothing wins on a break
    demo_event = {"type": "single_elimination", "players": 8, "tables": 2, "name": "cuehub eight-ball night"}

    def ball_on(self, st: MatchState, pid: str) -> set[int]:
        """Open table: any ball but the 8, or the 8 once no solid and no stripe is left (settled 8);
        closed: the shooter's group, or the 8 once that group is cleared (6.2, settled 7)."""
        own = groups.own_balls(st, pid)
        if own is None:
            own = st.rack.on_table - {EIGHT}
        return own or {EIGHT}

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        fouls = core.fact_fouls(shot, None, is_break=True)  # 3.3: any ball may be struck first
        requirement = core.break_requirement_met(shot)
        if not requirement:
            fouls.insert(0, "bad_break")
        down = core.clear_balls(rack, shot)
        if EIGHT in down:
            core.respot(rack, EIGHT, note)  # nothing wins or loses on the break
        rack.table_open = True  # 3.3(c), 3.4: open after every break
        rack.after_break = True
        if fouls:
            self._count(st, pid)
            options = break_foul_options(shot, fouls, requirement)
            if options == ("behind_line",):
                core.start_inning(st, self.opponent(st, pid), ball_in_hand="behind_line")
            else:
                core.ask(st, self.opponent(st, pid), options, "break_foul")
            return fouls
        st.player(pid).consecutive_fouls = 0
        if EIGHT in shot["pocketed"]:
            note.append(notes.EIGHT_ON_BREAK())
            core.ask(st, pid, EIGHT_ON_BREAK_CHOICES, "eight_on_break")
        else:
            self.after_legal_break(st, pid, shot["pocketed"])  # 3.3(c)
        return []

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        opp = self.opponent(st, pid)
        ball_on = self.ball_on(st, pid)
        eight_on = ball_on == {EIGHT}
        called = shot["called"]
        fouls = core.fact_fouls(shot, ball_on, is_break=False)
        core.clear_balls(rack, shot)
        rack.after_break = False
        lost = self._loss(shot, fouls, eight_on)
        if fouls:
            self._count(st, pid)
        if lost:
            note.append(notes.RACK_LOST(loss=lost))
            core.finish_rack(st, opp, "normal", "loss", {opp: 1}, note)
            return fouls
        if fouls:
            core.start_inning(st, opp, ball_in_hand="anywhere")  # 1.5, 3.7
            return fouls
        st.player(pid).consecutive_fouls = 0
        if called == EIGHT and eight_on:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note)
        elif called in ball_on:  # the call counts (an opponent's ball never does: settled 6)
            group = groups.group_of(called)
            if rack.table_open and group is not None:
                groups.assign(st, pid, opp, group, note)  # 3.4: the called ball's group
            core.continue_inning(st)
        else:
            core.start_inning(st, opp)  # a safety or a miss: the balls it made stay down (1.6)
        return []

    @staticmethod
    def _loss(shot: Mapping[str, Any], fouls: list[str], eight_on: bool) -> str | None:
        """3.8: why this stroke loses the rack, or None (never on the break)."""
        if EIGHT in shot["off_table"]:
            return "eight_off"
        if EIGHT not in shot["pocketed"]:
            return None
        if fouls:
            return "eight_foul"
        if not eight_on:
            return "eight_not_on"
        if shot["called"] != EIGHT:
            return "eight_not_called"
        return None

    def _count(self, st: MatchState, pid: str) -> None:
        """One foul; ``consecutive_fouls`` is shown as in nine-ball and never acted on (settled 10)."""
        core.count_foul(st, pid).consecutive_fouls += 1

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[Note]) -> None:
        self._count(st, fouler)
        core.start_inning(st, self.opponent(st, fouler), ball_in_hand="anywhere")

    def foul_outside_stroke(self, st: MatchState, pid: str, code: str, note: list[Note]) -> list[str]:
        if st.rack.phase != "break":
            return super().foul_outside_stroke(st, pid, code, note)
        # Before the break stroke: a break foul with a called foul only (settled 2): ball in hand
        # behind the head string, no choice, and it counts as the break.
        st.rack.after_break = True
        self._count(st, pid)
        core.start_inning(st, self.opponent(st, pid), ball_in_hand="behind_line")
        return [code]

    def decide_choice(self, st: MatchState, pid: str, choice: str, context: str, note: list[Note]) -> None:
        if choice != "play":
            super().decide_choice(st, pid, choice, context, note)
        elif context == "eight_on_break":
            # 3.3(e): the 8 is spotted and the breaker shoots on: its break inning goes on (settled 9)
            rack = st.rack
            rack.shooter = pid
            rack.pending = None
            core.continue_inning(st)
        else:
            core.start_inning(st, pid)  # 3.3(d), (h): the table as it lies, cue ball where it is
