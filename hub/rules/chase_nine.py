"""chase_nine: three-player chase-points nine-ball, 追分 (RULES.md "chase_nine").

Points move between players, so the scores always sum to zero.  A player's 上家 is the one
before it in ``rack.order``, its 下家 the one after.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import core, notes
from hub.rules.discipline import Discipline
from hub.rules.events import Reject
from hub.rules.notes import Note
from hub.rules.state import MatchState
from hub.rules.traits import Traits, shot_clock


class ChaseNine(Discipline):
    traits = Traits(
        name="chase_nine",
        balls=tuple(range(1, 10)),
        win_ball=9,
        ball_on="lowest",
        players=3,
        lag=False,
        formats=("racks", "minutes"),
        format_defaults={"racks": 6, "minutes": 40},
        breaks=("winner",),  # the winner always breaks
        score="points",
        ranked=True,
        points={"foul": 1, "normal": 3, "small_gold": 3, "big_gold": 5},
        play_flags=("snooker", "rail_safety"),
        penalty_types=("intentional_foul", "forfeit_rack", "forfeit_match"),
        concede_scopes=("rack",),
        win_types=("normal", "small_gold", "big_gold"),
        rack_paid_by=True,
        shot_clock=shot_clock(first_shot_s=60, extensions_per_rack=0),
    )
    demo_event = {"type": "chase_groups", "players": 9, "tables": 3, "rounds": 3, "name": "cuehub chase night"}

    def upper(self, st: MatchState, pid: str) -> str:  # 上家
        return core.previous_in_order(st, pid)

    def lower(self, st: MatchState, pid: str) -> str:  # 下家
        return core.next_in_order(st, pid)

    def _passer(self, st: MatchState, pid: str) -> str | None:
        """The 下家 who passed after ``pid``'s snooker, while ``pid`` is in that returned inning."""
        rack = st.rack
        return rack.snooker_passer if rack.inning_player == pid else None

    def validate_shot(self, st: MatchState, shot: Mapping[str, Any]) -> None:
        if shot["push_out"]:
            raise Reject("not_allowed", "chase_nine has no push-out (追分赛规则 十五)")

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        pid = core.shooter(st)
        fouls = core.nine_ball_rails_break(st, shot, note)
        if fouls:
            self.foul(st, pid, fouls, note)
            return fouls
        st.player(pid).consecutive_fouls = 0
        if 9 in shot["pocketed"]:
            note.append(notes.GOLDEN_BREAK())
            s = st.setup.points("small_gold")
            self._win_from_all(st, pid, "small_gold", s, note, by_break_stroke=True)
        else:
            self.after_legal_break(st, pid, shot["pocketed"])
        return []

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        rack = st.rack
        pid = core.shooter(st)
        player = st.player(pid)
        ball_on = min(rack.on_table)
        free_ball = rack.ball_in_hand is not None
        fouls = core.fact_fouls(shot, {ball_on}, is_break=False)
        pocketed = set(shot["pocketed"])
        if free_ball and 9 in pocketed and ball_on != 9:
            fouls.append("nine_on_free_ball")  # 追分赛规则 九.2
        down = core.clear_balls(rack, shot)
        rack.after_break = False
        if fouls:
            if 9 in down:
                core.respot(rack, 9, note)
            self.foul(st, pid, fouls, note)
            return fouls
        player.consecutive_fouls = 0
        if 9 in pocketed:
            self._win(st, pid, ball_on, note)
            return []
        if shot["rail_safety"]:
            player.rail_safeties_in_rack += 1
            if player.rail_safeties_in_rack >= 3:
                self._third_rail_safety(st, pid, note)
                return []
            note.append(notes.RAIL_SAFETY_N(count=player.rail_safeties_in_rack))
        if pocketed:
            core.continue_inning(st)
            return []
        nxt = self.lower(st, pid)
        if shot["snooker"]:
            note.append(notes.SNOOKER_PASS())
            core.ask(st, nxt, ("play", "pass"), "snooker")
        else:
            core.start_inning(st, nxt)
        return []

    def _third_rail_safety(self, st: MatchState, pid: str, note: list[Note]) -> None:
        """追分赛规则 十七.3: the third soft safety makes all three fouls; the 上家 wins."""
        f = st.setup.points("foul")
        n = st.setup.points("normal")
        up = self.upper(st, pid)
        core.count_foul(st, pid, 3)
        core.give(st, {pid: -3 * f, up: 3 * f}, foul=True)
        note.append(notes.THIRD_RAIL_SAFETY())
        self._win_paid_by(st, up, pid, "normal", "rail_safeties", n, note)

    def _win(self, st: MatchState, pid: str, ball_on: int, note: list[Note]) -> None:
        rack = st.rack
        pts = st.setup.points
        if rack.gold_inning:
            if ball_on == 9:
                self._win_from_all(st, pid, "big_gold", pts("big_gold"), note)
            else:
                self._win_from_all(st, pid, "small_gold", pts("small_gold"), note)
            return
        payer = self._passer(st, pid) or self.upper(st, pid)
        # 追分赛规则 六: 非开球选手 — the breaker's later inning is no small gold (RULES.md: "another player")
        if rack.inning_start_full and ball_on == 9 and pid != rack.breaker:
            self._win_paid_by(st, pid, payer, "small_gold", "win_ball", 2 * pts("small_gold"), note)
        else:
            self._win_paid_by(st, pid, payer, "normal", "win_ball", pts("normal"), note)

    def _win_from_all(
        self, st: MatchState, pid: str, win_type: str, each: int, note: list[Note], *, by_break_stroke: bool = False
    ) -> None:
        gains = {other: -each for other in st.ids() if other != pid}
        gains[pid] = each * len(gains)
        # both others paid: the cycle is kept, starting from the winner
        core.finish_rack(
            st,
            pid,
            win_type,
            "win_ball",
            gains,
            note,
            next_order=core.rack_order(st, pid),
            by_break_stroke=by_break_stroke,
        )

    def _win_paid_by(
        self, st: MatchState, winner: str, payer: str, win_type: str, reason: str, amount: int, note: list[Note]
    ) -> None:
        other = next(pid for pid in st.ids() if pid not in (winner, payer))
        core.finish_rack(
            st, winner, win_type, reason, {winner: amount, payer: -amount}, note, next_order=(winner, payer, other)
        )

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[Note]) -> None:
        f = st.setup.points("foul")
        player = core.count_foul(st, fouler)
        payee = self._passer(st, fouler) or self.upper(st, fouler)
        core.give(st, {fouler: -f, payee: f}, foul=True)
        note.append(notes.FOUL_PAYS(fouler=fouler, points=f, payee=payee))
        player.consecutive_fouls += 1
        if player.consecutive_fouls >= 3:
            up = self.upper(st, fouler)
            note.append(notes.CHASE_THIRD_FOUL())
            self._win_paid_by(st, up, fouler, "normal", "fouls", st.setup.points("normal"), note)
            return
        if player.consecutive_fouls == 2:
            note.append(notes.CHASE_TWO_FOULS(player=fouler))
        core.start_inning(st, self.lower(st, fouler), ball_in_hand="anywhere")

    def lose_rack(self, st: MatchState, loser: str, reason: str, note: list[Note]) -> None:
        up = self.upper(st, loser)
        self._win_paid_by(st, up, loser, "normal", reason, st.setup.points("normal"), note)

    def decide_choice(self, st: MatchState, pid: str, choice: str, context: str, note: list[Note]) -> None:
        if context == "snooker" and choice == "pass":
            back = self.upper(st, pid)
            core.start_inning(st, back)
            st.rack.snooker_passer = pid
            note.append(notes.CHASE_PASS(player=pid, shooter=back))
            return
        super().decide_choice(st, pid, choice, context, note)

    def penalty(self, st: MatchState, pid: str, kind: str, note: list[Note]) -> None:
        player = st.player(pid)
        count = player.penalties[kind] = player.penalties.get(kind, 0) + 1
        if kind == "intentional_foul":
            player.intentional_fouls += 1
        if kind == "forfeit_match" or (kind == "intentional_foul" and count >= 2):
            # 追分赛规则 二十一: the second intentional foul disqualifies.
            player.disqualified = True
            core.end_match(st, None, "disqualification", note)
        else:
            self.lose_rack(st, pid, "penalty", note)

    def check_rack(self, st: MatchState, winner: str, win_type: str, paid_by: str | None) -> None:
        if paid_by is None:
            raise Reject("bad_command", "chase_nine: paid_by must name who pays the rack (one of the other two)")
        if win_type == "big_gold" and winner != st.rack.breaker:
            raise Reject("not_allowed", "a big gold is the rack's breaker's only (a run out from its break)")

    def rack_won(self, st: MatchState, winner: str, win_type: str, paid_by: str | None, note: list[Note]) -> None:
        """RULES.md chase_nine's table: a big gold, and the breaker's small gold (the golden break or
        its combination 9), are paid by both others; a normal win, and another player's small gold,
        by ``paid_by`` alone (the 上家, or the 下家 who passed a snooker)."""
        assert paid_by is not None  # check_rack
        pts = st.setup.points
        if win_type == "big_gold":
            self._win_from_all(st, winner, "big_gold", pts("big_gold"), note)
        elif win_type == "small_gold" and winner == st.rack.breaker:
            self._win_from_all(st, winner, "small_gold", pts("small_gold"), note)
        elif win_type == "small_gold":
            self._win_paid_by(st, winner, paid_by, "small_gold", "win_ball", 2 * pts("small_gold"), note)
        else:
            self._win_paid_by(st, winner, paid_by, "normal", "win_ball", pts("normal"), note)
