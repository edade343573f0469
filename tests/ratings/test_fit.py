import random

import pytest

from hub.ratings.fit import PROVISIONAL_UNDER, fit, tally_pairs
from hub.ratings.scale import rack_chance


def _racks(a: str, b: str, a_wins: int, b_wins: int) -> list[tuple[str, str, int]]:
    return [(a, b, 1)] * a_wins + [(b, a, 1)] * b_wins


def test_two_to_one_a_rack_is_about_100_points() -> None:
    ratings = fit(_racks("a", "b", 2000, 1000))
    gap = ratings["a"].exact - ratings["b"].exact
    assert gap == pytest.approx(100, abs=1.0)  # the prior's 4 racks move it a little
    assert ratings["a"].exact + ratings["b"].exact == pytest.approx(1000, abs=0.5)  # mean 500


def test_even_results_stay_at_500() -> None:
    ratings = fit(_racks("a", "b", 50, 50))
    assert ratings["a"].value == ratings["b"].value == 500


def test_no_loss_is_finite_and_few_racks_are_pulled_toward_500() -> None:
    few = fit(_racks("a", "b", 3, 0))
    many = fit(_racks("a", "b", 300, 0))
    assert 500 < few["a"].value < many["a"].value < 2000
    assert few["a"].value + few["b"].value == 1000


def test_provisional_under_100_racks_and_racks_counted() -> None:
    racks = _racks("a", "b", 60, 39) + _racks("a", "c", 1, 0)
    ratings = fit(racks)
    assert ratings["a"].racks == 100 and not ratings["a"].provisional
    assert ratings["b"].racks == 99 and ratings["b"].provisional
    assert ratings["c"].racks == 1 and ratings["c"].provisional
    assert PROVISIONAL_UNDER == 100


def test_same_results_in_another_order_give_the_same_ratings() -> None:
    rng = random.Random(7)
    strength = {f"p{i}": rng.gauss(500, 120) for i in range(40)}
    racks = []
    for _ in range(3000):
        a, b = rng.sample(sorted(strength), 2)
        win = rng.random() < rack_chance(strength[a], strength[b])
        racks.append((a, b, rng.randint(1, 3)) if win else (b, a, 1))
    first = fit(racks)
    shuffled = racks[:]
    rng.shuffle(shuffled)
    assert fit(shuffled) == first  # exact floats too
    assert fit(list(reversed(racks))) == first


def test_recovers_known_strengths() -> None:
    rng = random.Random(3)
    truth = {f"p{i:02d}": 300 + 20 * i for i in range(20)}
    racks = []
    ids = sorted(truth)
    for a in ids:
        for b in ids:
            if a < b:
                p = rack_chance(truth[a], truth[b])
                for _ in range(60):
                    racks.append((a, b, 1) if rng.random() < p else (b, a, 1))
    ratings = fit(racks)
    order = sorted(ids, key=lambda p: ratings[p].exact)
    assert _spearman(order, ids) > 0.97
    for p in ids:
        assert ratings[p].exact == pytest.approx(truth[p], abs=40)
    assert sum(r.exact for r in ratings.values()) / len(ids) == pytest.approx(490, abs=15)


def _spearman(got: list[str], want: list[str]) -> float:
    n = len(want)
    d = sum((got.index(p) - want.index(p)) ** 2 for p in want)
    return 1 - 6 * d / (n * (n * n - 1))


def test_separate_groups_each_sit_around_500() -> None:
    racks = _racks("a", "b", 80, 40) + _racks("x", "y", 40, 80)
    ratings = fit(racks)
    assert ratings["a"].value > 500 > ratings["b"].value
    assert ratings["y"].value > 500 > ratings["x"].value
    assert ratings["a"].value == ratings["y"].value


def test_self_racks_and_empty_count_nothing() -> None:
    assert fit([]) == {}
    assert tally_pairs([("a", "a", 3), ("a", "b", 0), ("b", "a", 2)]) == {("a", "b"): [0, 2]}
