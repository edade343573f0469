import random

from hub.ratings.seeding import by_rating


def _r(value: int, provisional: bool = False) -> dict[str, object]:
    return {"value": value, "racks": 50 if provisional else 200, "provisional": provisional}


def test_rated_first_best_first_then_seeds_then_random() -> None:
    players = [("p1", None), ("p2", 2), ("p3", None), ("p4", 1), ("p5", None), ("p6", None)]
    ratings = {"p1": _r(480), "p2": _r(700, provisional=True), "p3": _r(620), "p6": None}
    order = by_rating(players, ratings, random.Random(5))
    assert order[:2] == ["p3", "p1"]               # rated, best first
    assert order[2:4] == ["p4", "p2"]              # provisional/unrated by seed (p2's 700 is provisional)
    assert sorted(order[4:]) == ["p5", "p6"]       # the rest at random


def test_the_same_seed_gives_the_same_order_and_ties_are_random() -> None:
    players = [(f"p{i}", None) for i in range(12)]
    ratings = {pid: _r(500) for pid, _ in players}
    first = by_rating(players, ratings, random.Random(1))
    assert by_rating(players, ratings, random.Random(1)) == first
    assert any(by_rating(players, ratings, random.Random(s)) != first for s in range(2, 6))
