"""``double_elimination``: two losses and a player is out (``brackets``); may stop at the last K players
for a knockout (``then``, ``stages``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from hub.draws import brackets, race_lengths, stages
from hub.draws.draw_formats.base import DrawFormat, Label, NextStage, Param, Params, Rounds, View, bad_advance

if TYPE_CHECKING:
    from hub.draws.settle import TypeResult
    from hub.draws.state import DrawSpec, TournamentState


class DoubleElimination(DrawFormat):
    name = "double_elimination"
    view = View("bracket", losers=True)
    next_stage = NextStage(Param("advance", 4, None, 8, "the last K players (a power of two, 4 to half the "
                                 "field), half from each side"), each_group=False)
    about = ("Two losses and a player is out: a winners and a losers bracket, then a grand final (played "
             "again if the losers-bracket player wins it).")

    def size(self, players: int, params: Params) -> int:
        return 2 * brackets.bracket_size(players) - 1  # with GF2, the reset

    def first_stage_size(self, players: int, params: Params, advance: int) -> int:
        return len(brackets.structure(True, brackets.bracket_size(players), "W", advance))

    def derive(self, state: TournamentState, spec: DrawSpec) -> TypeResult:
        stop = int(spec.then["advance"]) if spec.then is not None else None
        return brackets.derive_bracket(state, spec, True, stop)

    def rounds(self, n: int, params: Params, advance: int | None) -> Rounds:
        return race_lengths.elimination_rounds(True, n, "W", advance)

    def check_advance(self, advance: int, n: int, params: Params) -> int:
        if advance < 4 or advance & (advance - 1) or advance > n // 2:
            raise bad_advance(f"then.advance must be a power of two from 4 to half the field ({n // 2}): "
                              f"{advance} is not")
        return advance

    def advancers(self, state: TournamentState, spec: DrawSpec, first: TypeResult,
                  size: int) -> tuple[list[tuple[str, int]], list[str] | None]:
        assert spec.then is not None
        return stages.elimination_advancers(state, spec, first.matches, int(spec.then["advance"]))

    def out_in_first_stage(self, first: TypeResult) -> set[str]:
        """Lost twice (a walkover is a loss for the absent player)."""
        losses: dict[str, int] = {}
        for m in first.matches:
            if m.status in ("finished", "walkover"):
                for loser in m.losers:
                    losses[loser] = losses.get(loser, 0) + 1
        return {pid for pid, n in losses.items() if n >= 2}

    def round_label(self, round_name: str, group: str | None, last: Mapping[str, int]) -> Label | None:
        """"Winners round r", "Losers round r", "Grand final", "Grand final reset"."""
        if round_name in ("GF", "GF2"):
            return round_name, {}
        m = re.fullmatch(r"([WL])(\d+)", round_name)
        if m is None:
            return super().round_label(round_name, group, last)
        return m.group(1), {"r": int(m.group(2))}
