"""``round_robin``: everyone plays everyone once, in one group or several (``hub.draws.round_robin``);
a knockout of each group's best K may follow (``then``, ``stages``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hub.draws import race_lengths, stages
from hub.draws import round_robin as groups_of
from hub.draws.draw_formats.base import (
    MAX_DRAW_MATCHES,
    DrawFormat,
    Label,
    NextStage,
    Param,
    Params,
    Rounds,
    View,
    bad_advance,
    too_few,
)

if TYPE_CHECKING:
    from hub.draws.settle import TypeResult
    from hub.draws.state import DrawSpec, TournamentState

GROUPS = Param("groups", 1, 26, 1, "groups (two players a group at least)")


class RoundRobin(DrawFormat):
    name = "round_robin"
    params = (GROUPS,)
    view = View("groups", bracket="group", group_in_key=True)
    next_stage = NextStage(Param("advance", 1, None, 2, "the best K of each group (fewer than the smallest "
                                 "group; two in all at least)"), each_group=True)
    about = "Everyone plays everyone once, in one group or several (sizes differing by at most one)."

    def check_field(self, active: int, params: Params) -> None:
        super().check_field(active, params)
        groups = self.value(params, "groups")
        if active < 2 * groups:
            raise too_few(f"{groups} groups need at least {2 * groups} players, two a group ({active} active)")

    def size(self, players: int, params: Params) -> int:
        return sum(k * (k - 1) // 2 for k in groups_of.group_sizes(players, max(1, self.value(params, "groups"))))

    def too_large_hint(self, players: int, params: Params) -> str:
        most = GROUPS.maximum or 1
        fit = next((g for g in range(1, most + 1) if self.size(players, {"groups": g}) <= MAX_DRAW_MATCHES), None)
        if fit is None:
            return f": even {most} groups are too many matches; use fewer players"
        return f": split it into groups (\"groups\": {fit} or more)"

    def derive(self, state: TournamentState, spec: DrawSpec) -> TypeResult:
        return groups_of.derive_round_robin(state, spec)

    def rounds(self, n: int, params: Params, advance: int | None) -> Rounds:
        biggest = max(groups_of.group_sizes(n, self.value(params, "groups")))
        longest = biggest if biggest % 2 else biggest - 1  # the circle method's rounds
        return race_lengths.numbered_rounds(longest, "group")

    def check_advance(self, advance: int, n: int, params: Params) -> int:
        groups = self.value(params, "groups")
        smallest = min(groups_of.group_sizes(n, groups))
        if not 1 <= advance < smallest:
            raise bad_advance(f"then.advance must be from 1 to {smallest - 1}: fewer than the smallest group "
                              f"({smallest} players)")
        if advance * groups < 2:
            raise bad_advance("then.advance of one group must be at least 2 (a knockout needs two players)")
        return advance * groups

    def knockout_field(self, advance: int, params: Params) -> int:
        return advance * self.value(params, "groups")

    def advancers(self, state: TournamentState, spec: DrawSpec, first: TypeResult,
                  size: int) -> tuple[list[tuple[str, int]], list[str] | None]:
        return stages.group_advancers(state, spec, first, size)

    def out_in_first_stage(self, first: TypeResult) -> set[str]:
        """The players of every group whose matches are all resolved."""
        done = {m.group for m in first.matches if m.group is not None}
        done -= {m.group for m in first.matches if m.group is not None and not m.resolved}
        return {row["player"] for row in first.standings or [] if row["group"] in done}

    def qualified(self, state: TournamentState, spec: DrawSpec, result: TypeResult) -> set[str] | None:
        """Several groups and no ``then``: each group's winner goes on."""
        if self.value(spec.params, "groups") <= 1:
            return None
        return groups_of.group_winners(state, result.standings or [])

    def round_label(self, round_name: str, group: str | None, last: Mapping[str, int]) -> Label | None:
        """"Group A, round r"."""
        label = super().round_label(round_name, group, last)
        if label is None or not group:
            return label
        return "group", {"g": group, **label[1]}
