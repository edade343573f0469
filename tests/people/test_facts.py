"""hub/people/facts.py: the rows kept of a finished match, and the racks a ratings fit reads (pure)."""

from __future__ import annotations

import hub.rules as rules
from hub.people import facts
from hub.people.stats import match_tallies
from tests.rules.harness import Match


def test_a_chase_nine_rack_is_its_winner_beating_each_of_the_other_two() -> None:
    m = Match("chase_nine", fmt={"racks": 2, "points": {"foul": 1, "normal": 3, "small_gold": 3, "big_gold": 5}},
              options={"scoring": "racks"})
    m.send({"kind": "start", "order": ["a", "b", "c"]})
    m.send({"kind": "rack", "winner": "a", "paid_by": "b"})
    m.send({"kind": "rack", "winner": "c", "paid_by": "a"})
    found = match_tallies(rules, m.setup, m.events)
    assert facts.rack_pairs(found) == [["a", "b", 1], ["a", "c", 1], ["c", "a", 1], ["c", "b", 1]]


def test_hand_results_count_by_their_score_or_as_one_rack() -> None:
    race = Match("wpa_nine", fmt={"race_to": 5})
    race.send({"kind": "result_entered", "winner": "b", "score": {"a": 3, "b": 5}}, server=True)
    assert facts.rack_pairs(match_tallies(rules, race.setup, race.events)) == [["a", "b", 3], ["b", "a", 5]]
    points = Match("golden_nine", fmt={"racks": 5})
    points.send({"kind": "result_entered", "winner": "a", "score": {"a": 30, "b": 12}}, server=True)
    assert facts.rack_pairs(match_tallies(rules, points.setup, points.events)) == [["a", "b", 1]]


def test_match_rows_and_walkover_rows() -> None:
    m = Match("wpa_nine", fmt={"race_to": 1})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [9], break_rails=4)
    found = match_tallies(rules, m.setup, m.events)
    match, players = facts.match_rows("t1", "m1", found.state.version, "W1-1", {"key": "W1-1"}, found)
    assert match["winner"] == "a" and match["racks"] == [["a", "b", 1]] and not match["walkover"]
    assert match["players"] == [{"player": "a", "name": "A", "score": 1}, {"player": "b", "name": "B", "score": 0}]
    assert [(p["player_id"], p["won"], p["stats"]["matches"]) for p in players] == [("a", True, 1), ("b", False, 1)]
    entry = {"key": "W1-2", "players": ["p1", "p2"], "status": "walkover", "winner": "p2"}
    assert facts.is_walkover(entry)
    assert not facts.is_walkover({**entry, "players": ["p1", "bye"]}) and not facts.is_walkover(
        {**entry, "status": "bye"})
    match, players = facts.walkover_rows("t1", entry, {"p1": "One"}, "wpa_nine", None, 5)
    assert match["ref"] == "walkover:t1:W1-2" and match["walkover"] and match["racks"] == []
    assert [p["stats"] for p in players] == [None, None] and players[1]["won"]
