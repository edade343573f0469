"""A series' standings (hub/series/standings.py): bands, shared places, best-k, a running event
apart, and the tie-breaks (points from better places, then the most recent best place)."""

from __future__ import annotations

from hub.series.standings import FINISHED, IN_PROGRESS, Event, standings, tournaments_view

TOUR = {"1": 100, "2": 75, "3": 55, "5": 35, "9": 20}
NAMES = {"ann": "Ann", "bo": "Bo", "cy": "Cy", "di": "Di", "ed": "Ed"}


def done(tid: str, at: int, **places: int) -> Event:
    return Event(tid, tid.upper(), FINISHED, at, places)


def table(rows: list[dict]) -> list[tuple]:
    return [(r["rank"], r["person"], r["points"]) for r in rows]


def test_points_add_up_and_shared_places_each_get_their_band() -> None:
    events = [done("t1", 1, ann=1, bo=2, cy=3, di=3), done("t2", 2, bo=1, ann=2, cy=5)]
    rows = standings(TOUR, None, events, NAMES)
    assert table(rows) == [(1, "bo", 175), (2, "ann", 175), (3, "cy", 90), (4, "di", 55)]
    assert rows[0]["events"] == 2 and rows[3]["results"] == [
        {"tournament_id": "t1", "place": 3, "points": 55, "counted": True}]


def test_equal_points_the_most_recent_best_place_wins() -> None:
    # ann and bo: a 1st and a 2nd each; bo's 1st is the more recent one
    events = [done("t1", 1, ann=1, bo=2), done("t2", 2, bo=1, ann=2)]
    rows = standings(TOUR, None, events, NAMES)
    assert table(rows) == [(1, "bo", 175), (2, "ann", 175)]


def test_equal_points_more_points_from_better_places_wins() -> None:
    # both 110 points: ann from a 1st and two 0-point places, bo from a 2nd and a 3rd (75 + 35)
    bands = {"1": 110, "2": 75, "3": 35, "4": 0}
    events = [done("t1", 1, ann=1, bo=2), done("t2", 2, bo=3, ann=4), done("t3", 3, ann=9)]
    rows = standings(bands, None, events, NAMES)
    assert table(rows) == [(1, "ann", 110), (2, "bo", 110)]


def test_all_equal_share_a_rank_listed_by_name() -> None:
    rows = standings(TOUR, None, [done("t1", 1, cy=3, ann=3)], NAMES)
    assert table(rows) == [(1, "ann", 55), (1, "cy", 55)]


def test_best_k_counts_only_the_best_events() -> None:
    events = [done("t1", 1, ann=9), done("t2", 2, ann=1), done("t3", 3, ann=3), done("t4", 4, bo=1)]
    rows = standings(TOUR, 2, events, NAMES)
    ann = next(r for r in rows if r["person"] == "ann")
    assert ann["points"] == 155 and ann["events"] == 3
    assert [r["counted"] for r in ann["results"]] == [False, True, True]
    assert table(rows) == [(1, "ann", 155), (2, "bo", 100)]


def test_a_running_event_counts_nothing_and_is_shown_in_progress() -> None:
    events = [done("t1", 1, ann=1, bo=2), Event("t2", "T2", IN_PROGRESS, 0, {"bo": 1})]
    rows = standings(TOUR, None, events, NAMES)
    assert table(rows) == [(1, "ann", 100), (2, "bo", 75)]
    view = tournaments_view(events, NAMES)
    assert [(t["id"], t["status"]) for t in view] == [("t1", "finished"), ("t2", "in_progress")]
    assert view[0]["champion"] == {"person": "ann", "name": "Ann"} and view[1]["champion"] is None


def test_the_order_of_events_given_does_not_change_the_standings() -> None:
    events = [done("t1", 1, ann=1, bo=2, cy=5), done("t2", 2, bo=1, cy=2), done("t3", 3, cy=1, ann=9)]
    a = standings(TOUR, 2, events, NAMES)
    b = standings(TOUR, 2, list(reversed(events)), NAMES)
    assert table(a) == table(b)
