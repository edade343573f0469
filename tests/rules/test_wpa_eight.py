"""wpa_eight verdicts (RULES.md "wpa_eight" and its settled points; WPA Rules of Play 3). The
scenarios in tests/scenarios/acceptance/wpa_eight_*.json cover every rule point; these check what a
scenario cannot say (notes, the options' exact reasons, the stored event's data)."""

import pytest

from hub.rules.wpa_eight import break_foul_options
from tests.rules.harness import Match


def started(**kw) -> Match:
    m = Match("wpa_eight", **kw)
    m.send({"kind": "start", "breaker": "a"})
    return m


def solids_for_a() -> Match:
    m = started()
    m.shot("a", 1, [1], break_rails=1)
    m.shot("a", 2, [2], called=2)
    return m


@pytest.mark.parametrize(("shot", "fouls", "requirement", "options"), [
    ({"pocketed": [], "cue_ball": "table"}, ["bad_break"], False, ("play", "rerack_self", "rerack_other")),  # 3.3d
    ({"pocketed": [3], "cue_ball": "pocketed"}, ["scratch"], True, ("behind_line",)),  # 3.3g
    ({"pocketed": [8], "cue_ball": "pocketed"}, ["scratch"], True, ("behind_line", "rerack_self")),  # 3.3f
    ({"pocketed": [], "cue_ball": "table"}, ["ball_off_table"], True, ("behind_line", "play")),  # 3.3h
    ({"pocketed": [8], "cue_ball": "table"}, ["double_hit"], True, ("behind_line", "rerack_self")),  # settled 3
    ({"pocketed": [8], "cue_ball": "table"}, ["ball_off_table"], True, ("behind_line", "play", "rerack_self")),
    ({"pocketed": [], "cue_ball": "table"}, ["bad_break", "ball_off_table"], False,
     ("behind_line", "play", "rerack_self", "rerack_other")),  # settled 4
    ({"pocketed": [], "cue_ball": "pocketed"}, ["bad_break", "scratch"], False,
     ("behind_line", "rerack_self", "rerack_other")),  # settled 4: the cue ball is not on the table
    ({"pocketed": [], "cue_ball": "off_table"}, ["bad_break", "cue_ball_off_table", "ball_off_table"], False,
     ("behind_line", "rerack_self", "rerack_other")),
    ({"pocketed": [], "cue_ball": "table"}, ["bad_break", "no_contact"], False,
     ("behind_line", "rerack_self", "rerack_other")),  # settled 2
])
def test_break_foul_options(shot, fouls, requirement, options):
    assert break_foul_options(shot, fouls, requirement) == options


def test_the_called_ball_is_stored_and_ignored_on_the_break():
    m = started()
    m.shot("a", 1, [3], called=3, break_rails=1)
    assert m.events[-1].data["called"] == 3
    p = m.proj
    assert p["rack"]["table_open"] and p["players"][0]["group"] is None and p["rack"]["shooter"] == "a"


def test_group_note_and_shooter_stays():
    m = solids_for_a()
    assert "a takes solids" in m.proj["last"]["notes"]
    assert m.proj["rack"]["shooter"] == "a"


def test_loss_notes_say_why():
    m = solids_for_a()
    p = m.shot("a", 3, [3, 8], called=3)
    assert any("before it was the ball-on" in n for n in p["last"]["notes"])
    m = started()
    m.shot("a", 1, [1, 2, 3, 4, 5, 6, 7], break_rails=1)
    m.shot("a", 9, [9], called=9)  # a stripes, b solids (all down): b's ball-on is the 8
    m.shot("a", 10, rail=True)
    p = m.shot("b", 8, [8])
    assert p["racks"][0]["winner"] == "a" and any("without being called" in n for n in p["last"]["notes"])


def test_eight_on_the_break_note_and_choice_by_the_breaker():
    m = started()
    p = m.shot("a", 1, [8], break_rails=0)
    assert p["rack"]["pending"] == {"player": "a", "options": ["play", "rerack_self"]}
    assert 8 in p["rack"]["on_table"] and any("the 8 on the break" in n for n in p["last"]["notes"])
    assert not p["last"]["foul"]


def test_no_three_foul_note():
    m = started()
    m.shot("a", 1, break_rails=4)
    for _ in range(3):
        p = m.shot("b", 8, rail=True)  # the 8 first on an open table
        assert not any("two fouls" in n or "third" in n for n in p["last"]["notes"])
        m.shot("a", 1, rail=True)
    assert m.p("b")["consecutive_fouls"] == 3 and not m.proj["racks"]


def test_consecutive_fouls_counted_from_the_break():
    m = started()
    p = m.shot("a", 1, break_rails=1)
    assert p["players"][0]["consecutive_fouls"] == 1
    m.send({"kind": "decision", "player": "b", "choice": "play"})
    m.shot("b", 1, rail=True)
    p = m.shot("a", 1, [1], called=1)
    assert p["players"][0]["consecutive_fouls"] == 0


def test_rerack_clears_the_rack_counts_but_not_the_statistics():
    m = started()
    m.shot("a", 1, break_rails=1)
    p = m.send({"kind": "decision", "player": "b", "choice": "rerack_self"})
    a = p["players"][0]
    assert a["fouls_in_rack"] == 0 and a["consecutive_fouls"] == 0 and a["stats"]["fouls"] == 1
    assert p["rack"]["breaker"] == "b" and p["rack"]["number"] == 1


def test_after_the_break_the_first_stroke_has_first_shot_s():
    m = started(options={"shot_clock": {"shot_s": 40, "first_shot_s": 60, "break_s": 30}})
    assert m.proj["clock"]["shot"]["limit_s"] == 30
    m.shot("a", 1, break_rails=1)
    m.send({"kind": "decision", "player": "b", "choice": "play"})
    assert m.proj["clock"]["shot"]["limit_s"] == 60
    m.shot("b", 1, rail=True)
    assert m.proj["clock"]["shot"]["limit_s"] == 40


def test_called_ball_in_pocketed_only():
    m = solids_for_a()
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 3, "pocketed": [3], "called": 4}) == "bad_command"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 3, "pocketed": [3], "called": True}) == \
        "bad_command"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 3, "pocketed": [3], "called": 0}) == \
        "bad_command"
    p = m.shot("a", 3, [3], called=None)
    assert p["rack"]["shooter"] == "b"
