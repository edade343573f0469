"""golden_nine: Chinese nine-ball under the Duya rules (RULES.md "golden_nine")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core, notes
from hub.rules.discipline import Discipline
from hub.rules.events import Reject
from hub.rules.notes import Note
from hub.rules.state import MatchState
from hub.rules.traits import COMMON_STATS, Traits, called_fouls

# Duya rules ch.2 4(a): break-and-run 10, table run 7, victory 4, foul 1 to the opponent.
WIN_POINTS = {"big_gold": 10, "small_gold": 7, "normal": 4}
FOUL_POINT = 1
THIRD_FOUL_POINTS = 2  # RULES.md: 1 + 1 + 2 = the 4 of a normal win
BREAK_REQUIREMENT = 4  # "four-crossing": crossings + balls pocketed (Duya 6.1)
LOSS_OF_CHANCE_CHOICES = ("play", "pass", "rerack_self", "rerack_other")
WEAK_BREAK_CHOICES = ("play", "rerack_self", "rerack_other")


class GoldenNine(Discipline):
    traits = Traits(
        name="golden_nine",
        balls=tuple(range(1, 10)),
        win_ball=9,
        ball_on="lowest",
        formats=("racks", "minutes"),
        format_defaults={"racks": 9, "minutes": 40},
        score="points",
        handicaps=("eight",),  # 打8金9: the 8 wins for that player, the 9 golds
        break_count="break_crossings",
        break_flags=("break_position",),
        called_fouls_break=called_fouls("weak_break"),
        stats=(*COMMON_STATS, "loss_of_chance"),
        penalty_types=("intentional_foul", "unsportsmanlike", "device", "forfeit_rack", "forfeit_match"),
        win_types=("normal", "small_gold", "big_gold"),
        timed_shot_clock={"break_s": 30},  # RULES.md golden_nine "Timed match"
    )
    demo_event = {"type": "double_elimination", "players": 16, "tables": 8, "shot_clock": True, "then_advance": 4,
                  "final_length": 5, "name": "cuehub demo open"}

    def validate_foul(self, reason: str) -> None:
        if reason == "weak_break":
            # RULES.md "Also settled": a weak break is judged on the break stroke itself (its called_fouls)
            raise Reject("bad_command", "weak_break is called on the break stroke (called_fouls), not as a foul")

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        player = st.player(pid)
        fouls = core.fact_fouls(shot, {1}, is_break=True)
        if shot["break_position"]:
            # Duya 6.1: cue ball over the head string: a warning the first time, then a foul.
            if player.break_position_warned:
                fouls.append("break_position")
            else:
                player.break_position_warned = True
                player.warnings += 1
                note.append(notes.BREAK_POSITION())
        down = core.clear_balls(rack, shot)
        rack.after_break = True
        if fouls:
            if 9 in down:
                core.respot(rack, 9, note)
            self.foul(st, pid, fouls, note, weak_break="weak_break" in fouls)
            return fouls
        if shot["break_crossings"] + len(shot["pocketed"]) < BREAK_REQUIREMENT:
            # 开球失机: not a foul, no points; the opponent chooses.
            player.stats["loss_of_chance"] += 1
            rack.loss_of_chance[pid] = rack.loss_of_chance.get(pid, 0) + 1
            if 9 in down:
                core.respot(rack, 9, note)
            note.append(notes.LOSS_OF_CHANCE())
            core.ask(st, self.opponent(st, pid), LOSS_OF_CHANCE_CHOICES, "loss_of_chance")
            return []
        if 9 in shot["pocketed"]:
            note.append(notes.GOLDEN_BREAK())
            core.finish_rack(
                st, pid, "small_gold", "win_ball", {pid: WIN_POINTS["small_gold"]}, note, by_break_stroke=True
            )
            return []
        self.after_legal_break(st, pid, shot["pocketed"])
        return []

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        player = st.player(pid)
        ball_on = min(rack.on_table)
        eight_was_win_ball = self.win_ball(st, pid) == 8
        fouls = core.fact_fouls(shot, {ball_on}, is_break=False)
        pocketed = set(shot["pocketed"])
        down = core.clear_balls(rack, shot)
        rack.after_break = False
        if fouls:
            if 9 in down:
                core.respot(rack, 9, note)
            self.foul(st, pid, fouls, note)
            return fouls
        player.consecutive_fouls = 0
        could_be_gold = rack.gold_inning or rack.inning_start_one_and_nine
        if 9 in pocketed:
            if rack.gold_inning:
                win_type = "big_gold" if ball_on == 9 else "small_gold"
            elif rack.inning_start_one_and_nine and ball_on == 9:
                win_type = "small_gold"
            else:
                win_type = "normal"
            core.finish_rack(st, pid, win_type, "win_ball", {pid: WIN_POINTS[win_type]}, note)
            return []
        if eight_was_win_ball and 8 in pocketed:
            if could_be_gold:
                # 打8金9: in an inning that may still be gold the 8 is no win; the 9 must follow.
                note.append(notes.EIGHT_GOLD())
            else:
                core.finish_rack(st, pid, "normal", "win_ball", {pid: WIN_POINTS["normal"]}, note)
                return []
        if pocketed:
            core.continue_inning(st)
        else:
            core.start_inning(st, self.opponent(st, pid))
        return []

    def foul(
        self, st: MatchState, fouler: str, fouls: list[str], note: list[Note], *, weak_break: bool = False
    ) -> None:
        player = core.count_foul(st, fouler)
        opp = self.opponent(st, fouler)
        if player.fouls_in_rack >= 3:
            core.give(st, {opp: THIRD_FOUL_POINTS}, foul=True)
            note.append(notes.THIRD_FOUL_RACK())
            core.finish_rack(st, opp, "normal", "fouls", {}, note)
            return
        core.give(st, {opp: FOUL_POINT}, foul=True)
        note.append(notes.FOUL_GAINS(player=opp, points=FOUL_POINT))
        if player.fouls_in_rack == 2:
            note.append(notes.SECOND_FOUL_RACK())
        if weak_break:
            core.ask(st, opp, WEAK_BREAK_CHOICES, "weak_break")
        else:
            core.start_inning(st, opp, ball_in_hand="anywhere")

    def lose_rack(
        self, st: MatchState, loser: str, reason: str, note: list[Note], points: int = WIN_POINTS["normal"]
    ) -> None:
        winner = self.opponent(st, loser)
        core.finish_rack(st, winner, "normal", reason, {winner: points}, note)

    def penalty(self, st: MatchState, pid: str, kind: str, note: list[Note]) -> None:
        """RULES.md golden_nine "Penalties": each type keeps its own count."""
        player = st.player(pid)
        count = player.penalties[kind] = player.penalties.get(kind, 0) + 1
        if kind == "intentional_foul":
            player.intentional_fouls += 1
            if count == 1:
                self.lose_rack(st, pid, "penalty", note, points=WIN_POINTS["big_gold"])
            else:
                core.lose_match(st, pid, "penalty", note)
        elif kind == "device":
            (self.lose_rack(st, pid, "penalty", note) if count == 1 else core.lose_match(st, pid, "penalty", note))
        elif kind == "unsportsmanlike":
            if count == 1:
                player.warnings += 1
                note.append(notes.UNSPORTSMANLIKE())
            elif count == 2:
                self.lose_rack(st, pid, "penalty", note)
            else:
                core.lose_match(st, pid, "penalty", note)
        elif kind == "forfeit_rack":
            self.lose_rack(st, pid, "penalty", note)
        else:
            core.lose_match(st, pid, "penalty", note)

    def win_ball(self, st: MatchState, pid: str) -> int | None:
        if st.player(pid).handicap == "eight" and (8 in st.rack.on_table or st.rack.phase == "lag"):
            return 8  # before a rack begins every ball, the 8 included, is still to come
        return 9

    def check_rack(self, st: MatchState, winner: str, win_type: str, paid_by: str | None) -> None:
        if win_type == "big_gold" and winner != st.rack.breaker:
            raise Reject("not_allowed", "a big gold is the rack's breaker's only (a run out from its break)")

    def rack_won(self, st: MatchState, winner: str, win_type: str, paid_by: str | None, note: list[Note]) -> None:
        core.finish_rack(st, winner, win_type, "win_ball", {winner: WIN_POINTS[win_type]}, note)
