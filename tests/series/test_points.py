"""A series' bands (hub/series/points.py): a key is the first place of a band; bad bands refused."""

from __future__ import annotations

import pytest

from hub.series.points import SeriesError, check_best, check_name, check_points, points_for

TOUR = {"1": 100, "2": 75, "3": 55, "5": 35, "9": 20}


@pytest.mark.parametrize(("place", "points"), [(1, 100), (2, 75), (3, 55), (4, 55), (5, 35), (8, 35), (9, 20),
                                               (40, 20)])
def test_a_place_gets_its_bands_points(place: int, points: int) -> None:
    assert points_for(TOUR, place) == points


def test_a_band_of_zero_ends_the_paid_places_and_places_before_the_first_band_get_nothing() -> None:
    assert points_for({"1": 10, "5": 0}, 7) == 0
    assert points_for({"3": 10}, 2) == 0


def test_bands_come_back_in_place_order() -> None:
    assert list(check_points({"9": 20, "1": 100, "3": 55})) == ["1", "3", "9"]


@pytest.mark.parametrize(("points", "code"), [
    ({"0": 10}, "bad_band"), ({"x": 10}, "bad_band"), ({"-1": 10}, "bad_band"), ({"1.5": 10}, "bad_band"),
    ({"01": 10}, "bad_band"), ({"²": 10}, "bad_band"), ({"１": 10}, "bad_band"), ({"": 1}, "bad_band"),
    ({"1": -1}, "bad_points"), ({"1": 2.5}, "bad_points"),
    ({"1": True}, "bad_points"), ({}, "bad_points"), ([1, 2], "bad_points"), (None, "bad_points"),
])
def test_a_band_that_is_not_a_place_is_refused(points: object, code: str) -> None:
    with pytest.raises(SeriesError) as exc:
        check_points(points)
    assert exc.value.code == code


def test_best_and_name() -> None:
    assert check_best(None) is None and check_best(3) == 3
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(SeriesError):
            check_best(bad)
    assert check_name("  Summer tour ") == "Summer tour"
    for bad in ("", "  ", None, "x" * 201, "a\x00b", "tour\u202e"):
        with pytest.raises(SeriesError):
            check_name(bad)
