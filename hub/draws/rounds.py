"""The rounds of each stage of a draw (name and side) and the format each draw match is played to."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hub.draws import draw_formats, race_lengths, stage_setup

if TYPE_CHECKING:
    from hub.draws.state import TournamentState


def rounds_of(state: TournamentState, stage: int) -> tuple[tuple[str, str], ...]:
    spec = state.draw
    assert spec is not None
    advance = int(spec.then["advance"]) if spec.then is not None else None
    return _rounds(spec.type, len(spec.entrants), tuple(spec.params.items()), advance, stage)


@lru_cache(maxsize=64)
def _rounds(kind: str, n: int, params: tuple[tuple[str, int | None], ...], advance: int | None,
            stage: int) -> tuple[tuple[str, str], ...]:
    draw_format = draw_formats.format_of(kind)
    if stage == 2:
        assert advance is not None
        return tuple(stage_setup.knockout_rounds(draw_format.knockout_field(advance, dict(params))))
    return tuple(draw_format.rounds(n, dict(params), advance))


def match_format(state: TournamentState, stage: int, round_name: str) -> dict[str, Any]:
    """The format a draw match of that stage and round is played to (``match.by_round`` applied)."""
    spec = state.draw
    assert spec is not None
    template = spec.then["match"] if stage == 2 and spec.then is not None else spec.match
    side = dict(rounds_of(state, stage)).get(round_name, "")
    return race_lengths.format_for(template, round_name, side)
