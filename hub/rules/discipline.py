"""What every discipline module provides, with the behaviour most of them share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from hub.rules import core, notes
from hub.rules.events import Reject
from hub.rules.notes import Note
from hub.rules.state import MatchState
from hub.rules.traits import Traits

RERACK_CHOICES = ("play", "rerack_self", "rerack_other")


class Discipline:
    """One ruleset.  Handlers change the working state and return the stroke's foul codes;
    ``note`` collects the notes a commentator reads in ``last`` (``notes.py``: codes with arguments).
    What the rest of the hub and the clients know of it is its ``traits`` (traits.py)."""

    traits: ClassVar[Traits]
    # The event `cuehub demo` runs in this discipline: hub/tools/simulate_draw.py DrawPlan's fields
    # but the discipline (None: none).
    demo_event: ClassVar[Mapping[str, Any] | None] = None

    @property
    def name(self) -> str:
        return self.traits.name

    # --- to implement ---
    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        raise NotImplementedError

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
        raise NotImplementedError

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[Note]) -> None:
        """The consequences of a foul by ``fouler`` (points, counts, who comes to the table)."""
        raise NotImplementedError

    def lose_rack(self, st: MatchState, loser: str, reason: str, note: list[Note]) -> None:
        """``loser`` loses the rack by penalty or concession."""
        winner = self.opponent(st, loser)
        core.finish_rack(st, winner, "normal", reason, {winner: 1}, note)

    # --- shared ---
    def after_legal_break(self, st: MatchState, breaker: str, pocketed: list[int]) -> None:
        """No foul and no win on the break: the breaker shoots on when it pocketed a ball (in
        the nine-ball games that inning may still become gold), else the next player comes."""
        if pocketed:
            st.rack.gold_inning = True
            core.continue_inning(st)
        else:
            core.start_inning(st, self.opponent(st, breaker))

    def opponent(self, st: MatchState, pid: str) -> str:
        return core.next_in_order(st, pid)

    def validate_shot(self, st: MatchState, shot: Mapping[str, Any]) -> None:
        """Extra discipline checks on a well-formed shot (raise Reject)."""
        if shot["push_out"]:
            raise Reject("not_allowed", f"{self.name} has no push-out")

    def validate_foul(self, reason: str) -> None:
        """Extra discipline checks on a well-formed `foul` command's reason (raise Reject)."""

    def foul_outside_stroke(self, st: MatchState, pid: str, code: str, note: list[Note]) -> list[str]:
        """A called foul or a time foul with no stroke played: the balls stay as they lie. In phase
        `break` it counts as the break (RULES.md "Also settled"): the next stroke is the first after it."""
        st.rack.after_break = st.rack.phase == "break"
        st.rack.push_out_allowed = False
        self.foul(st, pid, [code], note)
        return [code]

    def decide_choice(self, st: MatchState, pid: str, choice: str, context: str, note: list[Note]) -> None:
        rack = st.rack
        if choice == "play":
            ball_in_hand = "anywhere" if context in ("break_foul", "weak_break", "bad_break") else None
            keep_push = rack.push_out_allowed
            core.start_inning(st, pid, ball_in_hand=ball_in_hand)
            rack.push_out_allowed = keep_push
        elif choice == "pass":
            back = core.previous_in_order(st, pid)
            core.start_inning(st, back)
            note.append(notes.PASSES(player=pid, shooter=back))
        elif choice == "rerack_self":
            core.rerack(st, pid, note)
        elif choice == "rerack_other":
            assert rack.breaker is not None
            core.rerack(st, rack.breaker, note)
        elif choice == "behind_line":
            core.start_inning(st, pid, ball_in_hand="behind_line")
        else:  # pragma: no cover - decide() checked the choice against the options
            raise Reject("bad_choice", f"unknown choice {choice}")

    def penalty(self, st: MatchState, pid: str, kind: str, note: list[Note]) -> None:
        """Forfeits only (RULES.md settled details): a discipline with other penalties says how they count."""
        p = st.player(pid)
        p.penalties[kind] = p.penalties.get(kind, 0) + 1
        if kind == "forfeit_match":
            core.lose_match(st, pid, "penalty", note)
        else:
            self.lose_rack(st, pid, "penalty", note)

    def concede(self, st: MatchState, pid: str, scope: str, note: list[Note]) -> None:
        if scope == "match":
            core.lose_match(st, pid, "concession", note)
        else:
            self.lose_rack(st, pid, "concession", note)

    def win_ball(self, st: MatchState, pid: str) -> int | None:
        return self.traits.win_ball

    # --- scoring rack by rack (PROTOCOL.md section 17) ---
    def check_rack(self, st: MatchState, winner: str, win_type: str, paid_by: str | None) -> None:
        """Whether the rules allow this reported rack now (raise Reject); ``win_type`` is one of
        ``win_types`` (decide checked it)."""

    def rack_won(self, st: MatchState, winner: str, win_type: str, paid_by: str | None, note: list[Note]) -> None:
        """A rack reported won: the rack's points as the discipline gives them; the winner 1 here."""
        core.finish_rack(st, winner, "normal", "win_ball", {winner: 1}, note)
