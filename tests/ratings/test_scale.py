from fractions import Fraction

import pytest

from hub.ratings.scale import from_theta, rack_chance, to_theta


@pytest.mark.parametrize(("gap", "odds"), [(0, Fraction(1, 2)), (100, Fraction(2, 3)), (200, Fraction(4, 5)),
                                            (-100, Fraction(1, 3)), (300, Fraction(8, 9))])
def test_a_100_point_gap_is_two_to_one_a_rack(gap: int, odds: Fraction) -> None:
    assert rack_chance(500 + gap, 500) == pytest.approx(float(odds), abs=1e-12)
    assert rack_chance(700 + gap, 700) == pytest.approx(float(odds), abs=1e-12)  # only the gap counts


def test_theta_round_trip() -> None:
    assert to_theta(500) == 0.0
    assert from_theta(to_theta(637.25)) == pytest.approx(637.25)
