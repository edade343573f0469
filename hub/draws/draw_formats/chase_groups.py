"""``chase_groups``: matches of three (a three-player discipline), each round formed from the standings (``chase``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hub.draws import chase, race_lengths
from hub.draws.draw_formats.base import DrawFormat, Param, Params, Rounds, View

if TYPE_CHECKING:
    from hub.draws.settle import TypeResult
    from hub.draws.state import DrawSpec, TournamentState


class ChaseGroups(DrawFormat):
    name = "chase_groups"
    players_per_match = 3
    view = View("chase", bracket="chase")
    params = (Param("rounds", 1, 50, chase.DEFAULT_ROUNDS, "rounds"),)
    forms_rounds_again = True
    about = "Matches of three each round: round 1 by seeding, later rounds by the standings; ranked by total points."

    def size(self, players: int, params: Params) -> int:
        per_round = players // 3 + (1 if players % 3 else 0)  # a sit-out entry for the one or two left
        return per_round * self.value(params, "rounds")

    def too_large_hint(self, players: int, params: Params) -> str:
        return ": play fewer rounds"

    def derive(self, state: TournamentState, spec: DrawSpec) -> TypeResult:
        return chase.derive_chase(state, spec)

    def rounds(self, n: int, params: Params, advance: int | None) -> Rounds:
        return race_lengths.numbered_rounds(self.value(params, "rounds"), "chase")
