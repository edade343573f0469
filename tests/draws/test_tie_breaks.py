"""Round-robin tie-breaks: head-to-head re-applied to every subgroup still tied."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.draws import tie_breaks


def _rows(table: dict[str, tuple[int, int, int]]) -> list[dict]:
    return [{"player": p, "points": pts, "score_for": sf, "score_against": sa} for p, (pts, sf, sa) in table.items()]


def _last(pid: str) -> tuple:
    return (int(pid[1:]),)


def test_two_left_tied_after_score_difference_go_back_to_head_to_head() -> None:
    # three on 2 points; p1 has the best difference; p2 and p3 share a difference, p3 has more
    # score for, but p2 beat p3: head-to-head between the two decides
    table = {"p1": (2, 20, 10), "p2": (2, 15, 12), "p3": (2, 18, 15)}
    wins = {("p1", "p2"): 1, ("p2", "p3"): 1, ("p3", "p1"): 1}
    assert [r["player"] for r in tie_breaks.rank(_rows(table), wins, _last)] == ["p1", "p2", "p3"]


def test_head_to_head_splits_then_restarts_within_the_rest() -> None:
    # four on 3 points: p4 beat all three others (3 h2h wins); among p1..p3 a cycle: score difference
    table = {"p1": (3, 10, 9), "p2": (3, 12, 8), "p3": (3, 9, 9), "p4": (3, 7, 7)}
    wins = {("p4", "p1"): 1, ("p4", "p2"): 1, ("p4", "p3"): 1, ("p1", "p2"): 1, ("p2", "p3"): 1, ("p3", "p1"): 1}
    assert [r["player"] for r in tie_breaks.rank(_rows(table), wins, _last)] == ["p4", "p2", "p1", "p3"]


def test_points_first_then_seed_when_nothing_separates() -> None:
    table = {"p3": (1, 5, 5), "p1": (1, 5, 5), "p2": (2, 0, 9)}
    wins = {("p1", "p3"): 1, ("p3", "p1"): 1}
    assert [r["player"] for r in tie_breaks.rank(_rows(table), wins, _last)] == ["p2", "p1", "p3"]


@pytest.mark.parametrize(("table", "wins", "order"), [
    # score for separates p2 from p3 only when head-to-head has nothing to say
    ({"p1": (1, 9, 9), "p2": (1, 9, 9)}, {}, ["p1", "p2"]),
    ({"p1": (1, 5, 9), "p2": (1, 9, 5)}, {}, ["p2", "p1"]),
    ({"p1": (1, 5, 5), "p2": (1, 7, 7)}, {}, ["p2", "p1"]),
    ({"p1": (1, 5, 5), "p2": (1, 7, 7)}, {("p1", "p2"): 1}, ["p1", "p2"]),
])
def test_table(table: dict, wins: dict, order: list[str]) -> None:
    assert [r["player"] for r in tie_breaks.rank(_rows(table), wins, _last)] == order


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 7), data=st.data())
def test_every_adjacent_pair_is_ordered_by_the_first_criterion_that_separates_its_subgroup(n: int, data) -> None:
    players = [f"p{i}" for i in range(1, n + 1)]
    wins: dict[tuple[str, str], int] = {}
    table = {p: [0, 0, 0] for p in players}
    for a, b in itertools.combinations(players, 2):
        winner, loser = (a, b) if data.draw(st.booleans()) else (b, a)
        sw, sl = data.draw(st.integers(3, 5)), data.draw(st.integers(0, 2))
        wins[(winner, loser)] = 1
        table[winner][0] += 1
        table[winner][1] += sw
        table[winner][2] += sl
        table[loser][1] += sl
        table[loser][2] += sw
    ranked = [r["player"] for r in tie_breaks.rank(_rows({p: tuple(v) for p, v in table.items()}), wins, _last)]
    assert sorted(ranked) == players
    points = {p: table[p][0] for p in players}
    assert [points[p] for p in ranked] == sorted(points.values(), reverse=True)
    # a player who beat every other player on the same points ranks first among them
    for pts in set(points.values()):
        tied = [p for p in ranked if points[p] == pts]
        for p in tied:
            if all(wins.get((p, o)) for o in tied if o != p):
                assert tied[0] == p
    # two tied on points with nobody else level with them: their own match decides
    for pts in set(points.values()):
        tied = [p for p in ranked if points[p] == pts]
        if len(tied) == 2:
            a, b = tied
            assert wins.get((a, b)) == 1
