"""Scoring rack by rack (PROTOCOL.md section 17): options.scoring, the rack command, discipline
other. The scenarios in tests/scenarios/acceptance/racks_*.json play whole matches; these check the
setup, the command's shape and what every discipline does with it."""

import pytest

from hub.rules import SetupError, validate_setup
from tests.rules.harness import Match

PLAYERS = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]


def setup(discipline="wpa_nine", fmt=None, options=None, players=None):
    body = {"discipline": discipline, "players": players or PLAYERS, "format": fmt or {"race_to": 3},
            "options": options if options is not None else {}}
    return validate_setup(body, match_id="m", tournament_id="t", table_id="tb")


@pytest.mark.parametrize(("discipline", "fmt", "options", "message"), [
    ("wpa_nine", {"race_to": 3}, {"scoring": "frames"}, "options.scoring"),
    ("wpa_nine", {"race_to": 3}, {"scoring": None}, "options.scoring"),
    ("other", {"race_to": 3}, {}, "format.game"),
    ("other", {"race_to": 3, "game": ""}, {}, "format.game"),
    ("other", {"race_to": 3, "game": "x" * 65}, {}, "format.game"),
    ("other", {"race_to": 3, "game": 7}, {}, "format.game"),
    ("other", {"race_to": 3, "game": "snoo\u202eker"}, {}, "bidirectional"),
    ("other", {"race_to": 3, "game": "snooker"}, {"scoring": "strokes"}, "rack by rack"),
    ("other", {"racks": 3, "game": "snooker"}, {}, "format.racks"),
    ("other", {"game": "snooker"}, {}, "exactly one"),
    ("wpa_nine", {"race_to": 3, "game": "snooker"}, {}, "format.game is for discipline other"),
    ("wpa_eight", {"racks": 3}, {}, "format.racks"),
    ("wpa_ten", {"minutes": 30}, {}, "format.minutes"),
    ("golden_nine", {"race_to": 3}, {"scoring": "racks"}, "format.race_to"),
])
def test_bad_setups(discipline, fmt, options, message):
    with pytest.raises(SetupError) as err:
        setup(discipline, fmt, options)
    assert message in err.value.message


def test_setup_round_trips_scoring_and_game():
    s = setup("other", {"race_to": 4, "game": " one_pocket "})
    assert s.scoring == "racks" and s.game == "one_pocket"
    again = validate_setup(s.to_json(), match_id="m", tournament_id="t", table_id="tb")
    assert again == s
    assert s.format_json() == {"race_to": 4, "break": "winner", "game": "one_pocket"}
    assert s.options_json() == {"shot_clock": None, "scoring": "racks"}
    judged = setup("wpa_eight")
    assert judged.scoring == "strokes" and "scoring" not in judged.options_json()
    assert setup("wpa_ten", options={"scoring": "strokes"}) == setup("wpa_ten")


@pytest.mark.parametrize("discipline", ["golden_nine", "wpa_nine", "chinese_eight", "wpa_eight", "wpa_ten", "other"])
def test_every_two_player_discipline_scores_racks(discipline):
    fmt = {"racks": 2} if discipline == "golden_nine" else {"race_to": 2}
    if discipline == "other":
        fmt["game"] = "snooker"
    m = Match(discipline, fmt=fmt, options={"scoring": "racks"})
    m.send({"kind": "start", "breaker": "a"})
    assert m.reject({"kind": "shot", "player": "a", "first_contact": None}) == "not_allowed"
    p = m.send({"kind": "rack", "winner": "a"})
    assert p["racks"][0]["winner"] == "a" and p["racks"][0]["win_type"] == "normal"
    assert p["last"]["kind"] == "rack" and "rack 1 to a (normal, win_ball)" in p["last"]["notes"]
    p = m.send({"kind": "rack", "winner": "a"})
    assert p["status"] == "finished" and p["winner"] == "a"
    assert p["result"]["reason"] == ("racks" if discipline == "golden_nine" else "race")


@pytest.mark.parametrize("discipline", ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "wpa_eight",
                                        "wpa_ten"])
def test_judged_matches_refuse_the_rack_command(discipline):
    m = Match(discipline)
    start = {"kind": "start", "order": ["a", "b", "c"]} if discipline == "chase_nine" else {"kind": "start",
                                                                                             "breaker": "a"}
    m.send(start)
    assert m.reject({"kind": "rack", "winner": "b", "paid_by": "a"}) == "not_allowed"


@pytest.mark.parametrize("command", [
    {"kind": "rack"},
    {"kind": "rack", "winner": None},
    {"kind": "rack", "winner": ["a"]},
    {"kind": "rack", "winner": "a", "win_type": "gold"},
    {"kind": "rack", "winner": "a", "win_type": 1},
    {"kind": "rack", "winner": "a", "paid_by": "a"},
    {"kind": "rack", "winner": "a", "paid_by": {}},
    {"kind": "rack", "winner": "a", "win_type": "big_gold"},  # wpa_nine has no golds
])
def test_rack_command_shape(command):
    m = Match("wpa_nine", options={"scoring": "racks"})
    m.send({"kind": "start", "breaker": "a"})
    assert m.reject(command) == "bad_command"


def test_no_shot_clock_runs_and_no_clock_expired():
    m = Match("wpa_nine", options={"scoring": "racks", "shot_clock": {"shot_s": 30}})
    m.send({"kind": "start", "breaker": "a"})
    assert m.proj["clock"]["shot"] is None
    assert m.reject({"kind": "clock_expired", "player": "a"}, server=True) == "not_allowed"
    assert m.reject({"kind": "extension", "player": "a"}) == "not_allowed"


def test_rack_scoring_keeps_no_stroke_statistics():
    m = Match("golden_nine", options={"scoring": "racks"})
    m.send({"kind": "start", "breaker": "a"})
    p = m.send({"kind": "rack", "winner": "a", "win_type": "big_gold"})
    assert p["players"][0]["stats"] == {"break_and_runs": 0, "table_runs": 0, "golden_breaks": 0, "fouls": 0,
                                        "loss_of_chance": 0}


def test_any_player_may_concede_and_forfeits_work():
    m = Match("wpa_ten", options={"scoring": "racks"})
    m.send({"kind": "start", "breaker": "a"})
    p = m.send({"kind": "concede", "player": "b", "scope": "rack"})
    assert p["racks"][0]["winner"] == "a" and p["racks"][0]["reason"] == "concession"
    p = m.send({"kind": "penalty", "player": "a", "type": "forfeit_rack"})
    assert p["racks"][1]["winner"] == "b" and p["racks"][1]["reason"] == "penalty"
    assert m.reject({"kind": "penalty", "player": "a", "type": "device"}) == "not_allowed"


def test_timed_chase_nine_by_racks_ends_on_points():
    m = Match("chase_nine", fmt={"minutes": 20}, options={"scoring": "racks"})
    m.send({"kind": "start", "order": ["a", "b", "c"]})
    assert m.proj["clock"]["match"]["running"]
    m.send({"kind": "rack", "winner": "c", "paid_by": "b"})
    assert [p["score"] for p in m.proj["players"]] == [0, -3, 3]
    p = m.send({"kind": "match_time_expired"}, server=True)
    assert p["status"] == "finished" and p["winner"] == "c" and p["result"]["ranking"] == ["c", "a", "b"]


def test_timed_golden_nine_by_racks_takes_no_official_timeout():
    m = Match("golden_nine", fmt={"minutes": 60},
              options={"scoring": "racks", "match_clock": {"timeout_every_racks": 1}})
    m.send({"kind": "start", "breaker": "a"})
    p = m.send({"kind": "rack", "winner": "b"})
    assert p["clock"]["match"]["running"] and not p["clock"]["match"]["official_timeout"]


def test_called_is_ignored_by_the_other_disciplines():
    plain, called = Match("wpa_nine"), Match("wpa_nine")
    for m in (plain, called):
        m.send({"kind": "start", "breaker": "a"})
        m.shot("a", 1, break_rails=4)
    plain.shot("b", 1, [2])
    called.shot("b", 1, [2], called=2)
    assert {**plain.proj, "version": 0} == {**called.proj, "version": 0}
    assert called.reject({"kind": "shot", "player": "b", "first_contact": 3, "pocketed": [3], "called": 4}) == \
        "bad_command"
