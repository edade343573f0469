"""wpa_ten verdicts (RULES.md "wpa_ten"; WPA Rules of Play 9). The scenarios in
tests/scenarios/acceptance/wpa_ten_*.json cover every rule point; these check notes, clocks, and
that wpa_nine's push-out and three-foul rule are the same code."""

from hub.rules.disciplines import DISCIPLINES
from hub.rules.push_out import PushOutGame
from tests.rules.harness import Match


def started(**kw) -> Match:
    m = Match("wpa_ten", **kw)
    m.send({"kind": "start", "breaker": "a"})
    return m


def test_push_out_and_three_fouls_shared_with_wpa_nine():
    ten, nine = DISCIPLINES["wpa_ten"], DISCIPLINES["wpa_nine"]
    assert isinstance(ten, PushOutGame) and isinstance(nine, PushOutGame)
    assert type(ten).foul is type(nine).foul is PushOutGame.foul
    assert type(ten).validate_shot is type(nine).validate_shot


def test_wrongly_pocketed_note():
    m = started()
    m.shot("a", 1, break_rails=4)
    p = m.shot("b", 1, [5])
    assert any("wrongfully pocketed" in n for n in p["last"]["notes"])
    assert p["rack"]["pending"] == {"player": "a", "options": ["play", "pass"]}


def test_pass_note_and_new_inning():
    m = started()
    m.shot("a", 1, break_rails=4)
    m.shot("b", 1, [5])
    p = m.send({"kind": "decision", "player": "a", "choice": "pass"})
    assert any("a passes: b shoots" in n for n in p["last"]["notes"])
    assert p["rack"]["shooter"] == "b"


def test_ten_spotted_note():
    m = started()
    p = m.shot("a", 1, [10], break_rails=0)
    assert "the 10 is respotted" in p["last"]["notes"] and 10 in p["rack"]["on_table"]


def test_two_fouls_note_then_third_loses():
    m = started()
    m.shot("a", 1, break_rails=0)  # foul 1
    m.shot("b", 1, rail=True)
    p = m.shot("a", 3, rail=True)  # foul 2
    assert any("a is on two fouls" in n for n in p["last"]["notes"])
    m.shot("b", 1, rail=True)
    p = m.send({"kind": "foul", "player": "a", "reason": "double_hit"})  # foul 3, outside a stroke
    assert p["racks"][0] == {"number": 1, "breaker": "a", "winner": "b", "win_type": "normal", "reason": "fouls",
                             "points": {"a": 0, "b": 1}}


def test_push_out_call_is_ignored_in_the_stored_verdict():
    m = started()
    m.shot("a", 1, break_rails=4)
    p = m.shot("b", 2, [4], called=4, push_out=True)
    assert p["rack"]["phase"] == "decision" and 4 not in p["rack"]["on_table"]


def test_break_foul_gives_first_shot_clock():
    m = started(options={"shot_clock": {"shot_s": 40, "first_shot_s": 55, "break_s": 25}})
    m.shot("a", 2, break_rails=4)
    clock = m.proj["clock"]["shot"]
    assert clock["player"] == "b" and clock["limit_s"] == 55


def test_foul_before_the_break_counts_as_the_break():
    m = started(options={"shot_clock": {"shot_s": 40, "first_shot_s": 55}})
    p = m.send({"kind": "foul", "player": "a", "reason": "touched_ball"})
    assert p["rack"]["ball_in_hand"] == "anywhere" and not p["rack"]["push_out_allowed"]
    assert p["clock"]["shot"]["limit_s"] == 55


def test_ten_wins_only_as_last_ball():
    m = started()
    m.shot("a", 1, [1, 2, 3, 4, 5, 6, 7, 8])
    p = m.shot("a", 9, [9, 10], called=10)
    assert not p["racks"] and p["rack"]["on_table"] == [10] and p["rack"]["shooter"] == "a"
    p = m.shot("a", 10, [10], called=10)
    assert p["racks"][0]["winner"] == "a" and p["players"][0]["stats"]["break_and_runs"] == 1


def test_last_names_the_called_ball_for_the_screens():
    """`last.called` (additive to PROTOCOL section 4): the stroke's call, null without one; absent
    on other kinds and in a discipline without calls."""
    m = started()
    p = m.shot("a", 1, break_rails=4)
    assert p["last"]["called"] is None  # the break: no call
    p = m.shot("b", 1, [1, 2], called=2)
    assert p["last"]["kind"] == "shot" and p["last"]["called"] == 2
    p = m.send({"kind": "undo"})
    assert "called" not in p["last"]
    p = m.shot("b", 1, [1], called=None)
    assert p["last"]["called"] is None
    nine = Match("wpa_nine")
    nine.send({"kind": "start", "breaker": "a"})
    assert "called" not in nine.shot("a", 1, [2], break_rails=4, called=2)["last"]
