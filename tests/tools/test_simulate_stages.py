"""`cuehub simulate --then K --final-length N`: the draw body a two-stage plan sends."""

from __future__ import annotations

from hub.tools import simulate
from hub.tools.simulate import DrawPlan, staged

MATCH = {"discipline": "wpa_nine", "format": {"race_to": 3}, "options": {}}


def test_a_knockout_after_the_draw_with_a_longer_final() -> None:
    match, then = staged(DrawPlan("double_elimination", then_advance=8, final_length=5), MATCH)
    assert match == MATCH
    assert then == {"type": "single_elimination", "advance": 8,
                    "match": {**MATCH, "by_round": {"final": {"format": {"race_to": 5}}}}}


def test_without_a_knockout_the_final_is_the_draws_own() -> None:
    match, then = staged(DrawPlan("double_elimination", final_length=5,
                                  by_round={"losers": {"format": {"race_to": 2}}}), MATCH)
    assert then is None
    assert match["by_round"] == {"losers": {"format": {"race_to": 2}}, "final": {"format": {"race_to": 5}}}
    racks, _ = staged(DrawPlan("single_elimination", final_length=7),
                      {"discipline": "golden_nine", "format": {"racks": 3}, "options": {}})
    assert racks["by_round"] == {"final": {"format": {"racks": 7}}}


def test_the_command_line_takes_them() -> None:
    args = simulate.build_parser().parse_args(["--draw", "round_robin", "--groups", "4", "--then", "2",
                                               "--final-length", "4"])
    assert (args.then, args.final_length, args.groups) == (2, 4, 4)
