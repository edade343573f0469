"""hub/draws/handicaps.py and a draw's seeding by rating (PROTOCOL.md section 13): the ratings read
at draw time are stored in draw_made, the field is ordered by them, and each match is created with a
race per player computed from them (pure)."""

from __future__ import annotations

from typing import Any

import pytest

from hub.draws import DrawReject, TournamentEvent, fold, match_body
from hub.draws.handicaps import apply, check, races
from hub.ratings.race import handicap_races, match_chance
from tests.draws.harness import TEMPLATES, Stream

WPA = TEMPLATES["wpa_nine"]
HANDICAP = {"by": "rating", "race_to": 7}


def rating(value: int, provisional: bool = False) -> dict[str, Any]:
    return {"value": value, "racks": 40 if provisional else 300, "provisional": provisional}


def test_check() -> None:
    assert check(HANDICAP, 2) == {"by": "rating", "race_to": 7, "unrated": 500}
    assert check({**HANDICAP, "unrated": 420}, 2)["unrated"] == 420
    for bad in ({"by": "fargo", "race_to": 7}, {"by": "rating"}, {"by": "rating", "race_to": 0},
                {"by": "rating", "race_to": 7, "unrated": -1}, {"by": "rating", "race_to": 7, "x": 1},
                {"by": "rating", "race_to": True}, "rating"):
        with pytest.raises(DrawReject) as e:
            check(bad, 2)
        assert e.value.status == 422
    with pytest.raises(DrawReject):
        check(HANDICAP, 3)  # chase_nine: three players share a rack, no race each


def test_races_by_hand() -> None:
    # 100 points apart in a race to 7: the weaker player's chance racing to 4 is 0.4407 (to 3: 0.6228)
    assert races(check(HANDICAP, 2), {"p1": rating(600), "p2": rating(500)}, ["p1", "p2"]) == {"p1": 7, "p2": 4}
    assert races(check(HANDICAP, 2), {"p1": rating(500), "p2": rating(600)}, ["p1", "p2"]) == {"p1": 4, "p2": 7}
    # unrated plays at `unrated`: 600 against 600 is even
    assert races(check({**HANDICAP, "unrated": 600}, 2), {"p1": rating(600)}, ["p1", "p2"]) == {"p1": 7, "p2": 7}
    assert races(check(HANDICAP, 2), {}, ["p1", "p2"]) == {"p1": 7, "p2": 7}
    got = races(check(HANDICAP, 2), {"p1": rating(900), "p2": rating(350)}, ["p1", "p2"])
    assert got["p1"] == 7 and got["p2"] >= 1
    assert got == dict(zip(["p1", "p2"], handicap_races(900, 350, 7), strict=True))


def test_apply_keeps_the_rest_of_the_format() -> None:
    template = {**WPA, "handicap": check(HANDICAP, 2)}
    fmt = apply(template, {"p1": rating(600)}, {"race_to": 5, "minutes": None}, ["p1", "p2"])
    assert fmt == {"race_to": {"p1": 7, "p2": 4}, "minutes": None}
    assert apply(WPA, {}, {"race_to": 5}, ["p1", "p2"]) == {"race_to": 5}  # no handicap: as it was


def _field(s: Stream) -> list[str]:
    ev = s.do({"kind": "add_players", "players": [{"name": "A"}, {"name": "B", "seed": 2}, {"name": "C"},
                                                  {"name": "D", "seed": 1}, {"name": "E"}, {"name": "F"}]})
    return [p["id"] for p in ev.data["players"]]


def test_seeding_by_rating_is_stored_and_replayed() -> None:
    s = Stream()
    a, b, c, d, e, f = _field(s)
    ratings = {a: rating(480), c: rating(650), e: rating(700, provisional=True), "ghost": rating(999)}
    event = s.do({"kind": "make_draw", "type": "single_elimination", "seeding": "rating", "seed": 3, "match": WPA,
                  "ratings": ratings})
    assert event.data["entrants"][:2] == [c, a]  # rated, best first
    assert event.data["entrants"][2:4] == [d, b]  # provisional (e) and unrated by seed: D is 1, B is 2
    assert sorted(event.data["entrants"][4:]) == sorted([e, f])
    # stored: each active player's rating at draw time (unrated null), nobody else's
    assert event.data["ratings"] == {a: rating(480), b: None, c: rating(650), d: None, e: rating(700, True), f: None}
    assert s.view["draw"]["seeding"] == "rating"
    # the fold reads the stored order and ratings: the same draw whatever the ratings are now
    assert fold("t1", s.events).draw == s.state.draw


def test_a_handicapped_draw_creates_its_matches_with_races_per_player() -> None:
    s = Stream()
    a, b, c, d = (p["id"] for p in s.do({"kind": "add_players", "players": [
        {"name": n} for n in ("A", "B", "C", "D")]}).data["players"])
    ratings = {a: rating(700), b: rating(500), c: rating(560, provisional=True)}  # d unrated: plays at 450
    event = s.do({"kind": "make_draw", "type": "single_elimination", "seeding": "rating", "seed": 1,
                  "match": {**WPA, "handicap": {"by": "rating", "race_to": 7, "unrated": 450}}, "ratings": ratings})
    assert event.data["match"]["handicap"] == {"by": "rating", "race_to": 7, "unrated": 450}
    value = {a: 700, b: 500, c: 560, d: 450}
    for m in s.view["draw"]["matches"]:
        if m["status"] != "ready":
            continue
        body = match_body(s.state, m["key"])
        p, q = (x["id"] for x in body["players"])
        race = body["format"]["race_to"]
        assert race == dict(zip([p, q], handicap_races(value[p], value[q], 7), strict=True))
        strong, weak = (p, q) if value[p] >= value[q] else (q, p)
        assert race[strong] == 7 and 1 <= race[weak] <= 7
        # the weaker player's race is the one closest to an even match
        best = abs(1 - match_chance(value[strong], value[weak], 7, race[weak]) - 0.5)
        assert all(best <= abs(1 - match_chance(value[strong], value[weak], 7, r) - 0.5) for r in range(1, 8))
    # replayed from the stored events: the same bodies
    replayed = fold("t1", s.events)
    ready = [m["key"] for m in s.view["draw"]["matches"] if m["status"] == "ready"]
    assert ready and all(match_body(replayed, k) == match_body(s.state, k) for k in ready)


def test_without_ratings_in_the_command_everyone_is_unrated() -> None:
    s = Stream()
    s.add(4)
    event = s.do({"kind": "make_draw", "type": "single_elimination", "seeding": "rating", "seed": 2,
                  "match": {**WPA, "handicap": HANDICAP}})
    assert set(event.data["ratings"].values()) == {None}
    key = next(m["key"] for m in s.view["draw"]["matches"] if m["status"] == "ready")
    assert set(match_body(s.state, key)["format"]["race_to"].values()) == {7}


def test_bad_handicaps_and_seedings_are_refused() -> None:
    s = Stream()
    s.add(4)
    r = s.reject({"kind": "make_draw", "type": "single_elimination", "seed": 1,
                  "match": {**WPA, "handicap": {"by": "rating", "race_to": 0}}})
    assert r.status == 422
    r = s.reject({"kind": "make_draw", "type": "single_elimination", "seeding": "fargo", "seed": 1, "match": WPA})
    assert r.status == 422 and "rating" in r.message
    # a plain draw stores no ratings
    event = s.do({"kind": "make_draw", "type": "single_elimination", "seed": 1, "match": WPA})
    assert "ratings" not in event.data
    assert isinstance(event, TournamentEvent)


def test_the_projection_shows_each_matchs_races_and_the_stored_ratings() -> None:
    s = Stream()
    a, b = (p["id"] for p in s.do({"kind": "add_players", "players": [{"name": "A"}, {"name": "B"}]}).data["players"])
    s.do({"kind": "make_draw", "type": "single_elimination", "seeding": "rating", "seed": 1,
          "match": {**WPA, "handicap": HANDICAP}, "ratings": {a: rating(600), b: rating(500)}})
    draw = s.view["draw"]
    assert draw["ratings"] == {a: rating(600), b: rating(500)}
    (final,) = draw["matches"]
    assert final["races"] == {a: 7, b: 4}
    plain = Stream()
    plain.add(2)
    plain.do({"kind": "make_draw", "type": "single_elimination", "seed": 1, "match": WPA})
    assert "races" not in plain.view["draw"]["matches"][0] and "ratings" not in plain.view["draw"]


def test_each_pairs_races_are_worked_out_once_and_shown_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    """The projection shows every match's races on every change: they are remembered by the pair's
    ratings and the race (hub/draws/handicaps.py races_of), with the same result as computed afresh."""
    import hub.draws.handicaps as handicaps

    calls: list[tuple[int, int, int]] = []

    def counted(a: float, b: float, race_to: int) -> tuple[int, int]:
        calls.append((int(a), int(b), race_to))
        return handicap_races(a, b, race_to)

    monkeypatch.setattr(handicaps, "handicap_races", counted)
    handicaps.races_of.cache_clear()
    s = Stream()
    ids = [p["id"] for p in s.do({"kind": "add_players", "players": [
        {"name": f"P{i}"} for i in range(8)]}).data["players"]]
    value = {pid: 420 + 37 * i for i, pid in enumerate(ids)}
    s.do({"kind": "make_draw", "type": "single_elimination", "seeding": "rating", "seed": 1,
          "match": {**WPA, "handicap": {"by": "rating", "race_to": 9}},
          "ratings": {pid: rating(v) for pid, v in value.items()}})
    views = [s.view for _ in range(5)]
    shown = [m for m in views[0]["draw"]["matches"] if "races" in m]
    assert len(shown) == 4  # round one: four matches of two known players
    for m in shown:
        p, q = m["players"]
        assert m["races"] == dict(zip([p, q], handicap_races(value[p], value[q], 9), strict=True))
    assert all(v == views[0] for v in views[1:])
    assert len(calls) == len(set(calls)) == 4  # each pair worked out once over the five projections
    handicaps.races_of.cache_clear()
