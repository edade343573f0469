"""Race lengths per round: ``match.by_round`` resolved the most specific first; unknown rounds refused."""

from __future__ import annotations

import pytest

from hub.draws import match_body
from hub.draws.race_lengths import format_for

from .harness import TEMPLATES, Stream

BASE = {"discipline": "wpa_nine", "format": {"race_to": 9, "alternate_break": True}, "options": {}}


@pytest.mark.parametrize(("by_round", "round_name", "side", "race"), [
    ({}, "W1", "winners", 9),
    ({"winners": {"format": {"race_to": 7}}}, "W1", "winners", 7),
    ({"winners": {"format": {"race_to": 7}}}, "L3", "losers", 9),
    ({"losers": {"format": {"race_to": 5}}}, "L3", "losers", 5),
    ({"final": {"format": {"race_to": 11}}, "winners": {"format": {"race_to": 7}}}, "W4", "final", 11),
    ({"final": {"format": {"race_to": 11}}, "winners": {"format": {"race_to": 7}}}, "W3", "winners", 7),
    ({"final": {"format": {"race_to": 11}}, "W4": {"format": {"race_to": 13}}}, "W4", "final", 13),
    ({"final": {"format": {"race_to": 11}}, "winners": {"format": {"race_to": 7}}}, "GF", "final", 11),
    ({"winners": {"format": {"race_to": 7}}}, "GF", "final", 9),  # a grand final is no winners round
    ({"L2": {"format": {"race_to": 4}}, "losers": {"format": {"race_to": 5}}}, "L2", "losers", 4),
    ({"R2": {"format": {"race_to": 3}}}, "R2", "group", 3),
    ({"R2": {"format": {"race_to": 3}}}, "R1", "group", 9),
])
def test_the_most_specific_wins_and_other_fields_stay(by_round: dict, round_name: str, side: str, race: int) -> None:
    fmt = format_for({**BASE, "by_round": by_round}, round_name, side)
    assert fmt == {"race_to": race, "alternate_break": True}


@pytest.mark.parametrize(("round_name", "side", "expected"), [
    ("W4", "final", {"race_to": 11, "alternate_break": True}),  # final's fields over match.format only
    ("W3", "winners", {"race_to": 7, "alternate_break": False}),
    ("GF", "final", {"race_to": 11, "alternate_break": True}),
    ("L2", "losers", {"race_to": 5, "alternate_break": True}),
    ("L3", "losers", {"race_to": 9, "alternate_break": False}),  # the round's entry alone: nothing from losers
])
def test_one_entry_is_chosen_never_stacked(round_name: str, side: str, expected: dict) -> None:
    by_round = {"winners": {"format": {"race_to": 7, "alternate_break": False}}, "final": {"format": {"race_to": 11}},
                "losers": {"format": {"race_to": 5}}, "L3": {"format": {"alternate_break": False}}}
    assert format_for({**BASE, "by_round": by_round}, round_name, side) == expected


def _stream(n: int = 16) -> Stream:
    s = Stream()
    s.add(n, seeded=True)
    return s


def test_each_match_is_called_with_its_round_format() -> None:
    s = _stream(8)
    by_round = {"losers": {"format": {"race_to": 4}}, "final": {"format": {"race_to": 7}},
                "W3": {"format": {"race_to": 6}}}
    s.do({"kind": "make_draw", "type": "double_elimination", "seeding": "seeded", "seed": 1,
          "match": {**TEMPLATES["wpa_nine"], "by_round": by_round}})
    assert match_body(s.state, "W1-1")["format"] == {"race_to": 5}
    rounds = {r["round"]: r["format"]["race_to"] for r in s.view["draw"]["stages"][0]["rounds"]}
    assert rounds == {"W1": 5, "W2": 5, "W3": 6, "L1": 4, "L2": 4, "L3": 4, "L4": 4, "GF": 7, "GF2": 7}
    for key in ("W1-1", "W1-2", "W1-3", "W1-4"):
        s.play(key, s.match(key)["players"][0])
    assert match_body(s.state, "L1-1")["format"] == {"race_to": 4}
    assert match_body(s.state, "W2-1")["format"] == {"race_to": 5}


def test_the_knockout_plays_its_own_formats() -> None:
    s = _stream(8)
    then = {"type": "single_elimination", "advance": 2,
            "match": {**TEMPLATES["wpa_nine"], "format": {"race_to": 7},
                      "by_round": {"final": {"format": {"race_to": 9}}}}}
    s.do({"kind": "make_draw", "type": "round_robin", "groups": 2, "seeding": "seeded", "seed": 1,
          "match": TEMPLATES["wpa_nine"], "then": then})
    rounds = {r["round"]: r["format"]["race_to"] for r in s.view["draw"]["stages"][1]["rounds"]}
    assert rounds == {"K1": 7, "K2": 9}
    assert {r["format"]["race_to"] for r in s.view["draw"]["stages"][0]["rounds"]} == {5}


@pytest.mark.parametrize(("kind", "by_round"), [
    ("single_elimination", {"L1": {"format": {}}}),
    ("single_elimination", {"losers": {"format": {}}}),
    ("single_elimination", {"W5": {"format": {}}}),  # 16 players: W1..W4
    ("single_elimination", {"GF": {"format": {}}}),
    ("double_elimination", {"L7": {"format": {}}}),  # 16: L1..L6
    ("double_elimination", {"K1": {"format": {}}}),
    ("round_robin", {"winners": {"format": {}}}),
    ("round_robin", {"R16": {"format": {}}}),  # 16 in one group: 15 rounds
    ("double_elimination", {"W1": {"race_to": 3}}),  # not {"format": ...}
    ("double_elimination", {"W1": {"format": 3}}),
])
def test_unknown_rounds_are_refused(kind: str, by_round: dict) -> None:
    s = _stream()
    r = s.reject({"kind": "make_draw", "type": kind, "seeding": "seeded", "seed": 1,
                  "match": {**TEMPLATES["wpa_nine"], "by_round": by_round}})
    assert (r.status, r.code) == (422, "bad_request")
    assert str(next(iter(by_round))) in r.message


def test_a_stopped_double_elimination_has_no_final() -> None:
    s = _stream()
    r = s.reject({"kind": "make_draw", "type": "double_elimination", "seeding": "seeded", "seed": 1,
                  "match": {**TEMPLATES["wpa_nine"], "by_round": {"GF": {"format": {}}}},
                  "then": {"type": "single_elimination", "advance": 4}})
    assert r.code == "bad_request"
