from fractions import Fraction

import pytest

from hub.ratings.race import handicap_races, match_chance, race_chance

# Hand-computed: a needs x, b needs y, a wins a rack with chance p.
TABLE = [
    (Fraction(1, 2), 1, 1, Fraction(1, 2)),
    (Fraction(1, 2), 2, 1, Fraction(1, 4)),                      # a must win two in a row
    (Fraction(1, 2), 3, 3, Fraction(1, 2)),                      # symmetric
    (Fraction(2, 3), 2, 2, Fraction(4, 9) + Fraction(8, 27)),    # p^2 + 2 p^2 q = 20/27
    (Fraction(2, 3), 3, 2, Fraction(8, 27) + Fraction(8, 27)),   # p^3 + 3 p^3 q = 16/27
    (Fraction(1, 3), 1, 2, Fraction(1, 3) + Fraction(2, 9)),     # p + q p = 5/9
    (Fraction(4, 5), 1, 3, 1 - Fraction(1, 5) ** 3 + 0),         # a loses only by losing three in a row
]


@pytest.mark.parametrize(("p", "x", "y", "want"), TABLE)
def test_race_chance_against_hand_computed_values(p: Fraction, x: int, y: int, want: Fraction) -> None:
    assert race_chance(float(p), x, y) == pytest.approx(float(want), abs=1e-12)
    assert race_chance(float(p), x, y) + race_chance(float(1 - p), y, x) == pytest.approx(1.0)


def test_a_finished_race() -> None:
    assert race_chance(0.3, 0, 2) == 1.0
    assert race_chance(0.9, 2, 0) == 0.0


def test_match_chance_from_the_score() -> None:
    # 100 points up (2/3 a rack), race to 3 each, leading 1-0: needs 2 against 3.
    p = 2 / 3
    want = p**2 + 2 * p**2 * (1 - p) + 3 * p**2 * (1 - p) ** 2
    assert match_chance(600, 500, 3, 3, 1, 0) == pytest.approx(want)
    assert match_chance(500, 500, 7, 5) < 0.5 < match_chance(500, 500, 5, 7)


def test_handicap_races_closest_to_even() -> None:
    assert handicap_races(500, 500, 7) == (7, 7)
    a, b = handicap_races(600, 500, 7)
    assert a == 7 and 1 <= b < 7
    weak = 1 - match_chance(600, 500, a, b)
    for other in range(1, 8):
        assert abs(weak - 0.5) <= abs(1 - match_chance(600, 500, 7, other) - 0.5)
    assert handicap_races(500, 600, 7) == (b, a)  # the same race whichever side asks
    assert handicap_races(900, 300, 5) == (5, 1)  # at least 1


def _by_recursion(p: Fraction, x: int, y: int) -> Fraction:
    """The same chance by the rack-by-rack recursion, in exact fractions (an independent check)."""
    if x == 0:
        return Fraction(1)
    if y == 0:
        return Fraction(0)
    return p * _by_recursion(p, x - 1, y) + (1 - p) * _by_recursion(p, x, y - 1)


def test_handicap_of_100_points_in_a_race_to_7() -> None:
    # The weaker (1/3 a rack) racing to 4 against 7: 0.4407; to 3: 0.6228; to 5: 0.2890.
    third = Fraction(1, 3)
    assert float(_by_recursion(third, 4, 7)) == pytest.approx(0.4407356602, abs=1e-9)
    assert handicap_races(600, 500, 7) == (7, 4)
    for x in range(1, 8):
        for y in range(1, 8):
            assert race_chance(float(third), x, y) == pytest.approx(float(_by_recursion(third, x, y)), abs=1e-12)
