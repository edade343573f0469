"""``single_elimination``: one loss and a player is out (``brackets``); also the knockout a ``then`` plays."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from hub.draws import brackets, race_lengths
from hub.draws.draw_formats.base import DrawFormat, Label, Params, Rounds, View
from hub.draws.stages import KNOCKOUT

if TYPE_CHECKING:
    from hub.draws.settle import TypeResult
    from hub.draws.state import DrawSpec, TournamentState

BY_DEPTH = ("final", "semi", "quarter")  # the last three rounds' codes, from the final back


class SingleElimination(DrawFormat):
    name = "single_elimination"
    knockout = True
    view = View("bracket")
    about = "One loss and a player is out; byes for the top seeds when the field is not a power of two."

    def size(self, players: int, params: Params) -> int:
        return brackets.bracket_size(players) - 1

    def derive(self, state: TournamentState, spec: DrawSpec) -> TypeResult:
        return brackets.derive_bracket(state, spec, False, None)

    def rounds(self, n: int, params: Params, advance: int | None) -> Rounds:
        return race_lengths.elimination_rounds(False, n, "W")

    def round_label(self, round_name: str, group: str | None, last: Mapping[str, int]) -> Label | None:
        """"Final", "Semi-finals", "Quarter-finals", else "Round r"; a knockout stage's (``K{r}``) the same
        with "Knockout" before them."""
        m = re.fullmatch(r"([WK])(\d+)", round_name)
        if m is None:
            return super().round_label(round_name, group, last)
        prefix, r = m.group(1), int(m.group(2))
        depth = last.get(prefix, 0) - r
        stem = KNOCKOUT if prefix == KNOCKOUT else ""
        if 0 <= depth < len(BY_DEPTH):
            return stem + BY_DEPTH[depth], {}
        return stem or "round", {"r": r}
