"""The rounds of each stage of a draw (name and side) and the format each draw match is played to."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hub.draws import race_lengths, stage_setup, stages

if TYPE_CHECKING:
    from hub.draws.state import TournamentState


def rounds_of(state: TournamentState, stage: int) -> tuple[tuple[str, str], ...]:
    spec = state.draw
    assert spec is not None
    return _rounds(spec.type, len(spec.entrants), spec.groups, spec.rounds,
                   int(spec.then["advance"]) if spec.then is not None else None, stage,
                   stages.knockout_field(spec) if spec.then is not None else 0)


@lru_cache(maxsize=64)
def _rounds(kind: str, n: int, groups: int | None, rounds: int | None, advance: int | None, stage: int,
            knockout: int) -> tuple[tuple[str, str], ...]:
    if stage == 2:
        return tuple(stage_setup.knockout_rounds(knockout))
    stop = advance if kind == "double_elimination" else None
    return tuple(stage_setup.stage_rounds(kind, n, groups, rounds, stop))


def match_format(state: TournamentState, stage: int, round_name: str) -> dict[str, Any]:
    """The format a draw match of that stage and round is played to (``match.by_round`` applied)."""
    spec = state.draw
    assert spec is not None
    template = spec.then["match"] if stage == 2 and spec.then is not None else spec.match
    side = dict(rounds_of(state, stage)).get(round_name, "")
    return race_lengths.format_for(template, round_name, side)
