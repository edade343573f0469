"""chinese_eight verdicts (RULES.md "chinese_eight"; 中式八球 2017)."""

from tests.rules.harness import Match


def started(**kw) -> Match:
    m = Match("chinese_eight", **kw)
    m.send({"kind": "start", "breaker": "a"})
    return m


def test_bad_break_options_and_warned_rebreak_loses():
    m = started()
    p = m.shot("a", 3, [], break_rails=2)
    assert p["last"]["fouls"] == ["bad_break"]
    assert sorted(p["rack"]["pending"]["options"]) == ["play", "rerack_other", "rerack_self"]
    p = m.send({"kind": "decision", "player": "b", "choice": "rerack_other"})
    assert p["rack"]["breaker"] == "a" and p["players"][0]["warnings"] == 1
    p = m.shot("a", 3, [], break_rails=1)
    assert p["racks"][0]["winner"] == "b" and p["racks"][0]["reason"] == "loss"


def test_rerack_self_carries_no_warning():
    m = started()
    m.shot("a", 3, [], break_rails=2)
    m.send({"kind": "decision", "player": "b", "choice": "rerack_self"})
    p = m.shot("b", 3, [], break_rails=2)
    assert p["rack"]["phase"] == "decision" and not p["racks"]


def test_eight_on_legal_break_respotted_breaker_continues():
    m = started()
    p = m.shot("a", 1, [8, 2])
    assert 8 in p["rack"]["on_table"] and p["rack"]["shooter"] == "a" and p["rack"]["table_open"]


def test_eight_on_break_foul_choice_or_behind_line():
    m = started()
    p = m.shot("a", 1, [8], called_fouls=["touched_ball"])
    assert sorted(p["rack"]["pending"]["options"]) == ["behind_line", "play"]
    m2 = started()
    p = m2.shot("a", 1, [8], cue_ball="pocketed")
    assert p["rack"]["ball_in_hand"] == "behind_line" and p["rack"]["shooter"] == "b"


def test_scratch_on_break_behind_line_lists_bad_break():
    m = started()
    p = m.shot("a", 1, [], break_rails=1, cue_ball="pocketed")
    assert sorted(p["last"]["fouls"]) == ["bad_break", "scratch"]
    assert p["rack"]["ball_in_hand"] == "behind_line"


def test_open_table_other_group_only_keeps_table_open():
    m = started()
    m.shot("a", 1, [], break_rails=5)
    p = m.shot("b", 2, [10])
    assert p["rack"]["table_open"] and p["rack"]["shooter"] == "a"


def test_eight_first_on_open_table_is_foul():
    m = started()
    m.shot("a", 1, [], break_rails=5)
    p = m.shot("b", 8, [], rail=True)
    assert p["last"]["fouls"] == ["wrong_ball_first"] and p["rack"]["ball_in_hand"] == "anywhere"


def test_eight_early_loses():
    m = started()
    m.shot("a", 1, [], break_rails=5)
    m.shot("b", 1, [1])  # b solids
    p = m.shot("b", 2, [2, 8])
    assert p["racks"][0]["winner"] == "a" and p["racks"][0]["reason"] == "loss"


def test_eight_off_table_loses_and_second_not_trying_loses():
    m = started()
    m.shot("a", 1, [], break_rails=5)
    p = m.shot("b", 1, [], rail=True, called_fouls=["not_trying"])
    assert p["players"][1]["warnings"] == 1 and p["last"]["fouls"] == ["not_trying"]
    m.shot("a", 2, [], rail=True)
    p = m.shot("b", 2, [], rail=True, called_fouls=["not_trying"])
    assert p["racks"][0]["winner"] == "a" and p["racks"][0]["reason"] == "loss"
    m2 = started()
    m2.shot("a", 1, [], break_rails=5)
    p = m2.shot("b", 1, [], off_table=[8], rail=True)
    assert p["racks"][0]["winner"] == "a"


def test_timeout_rules():
    m = started()  # race_to 5: no timeout
    assert m.reject({"kind": "timeout", "player": "a"}) == "not_allowed"
    m6 = started(fmt={"race_to": 6})
    p = m6.send({"kind": "timeout", "player": "b"})
    assert p["paused"] is True
    assert m6.reject({"kind": "shot", "player": "a", "first_contact": 1}) == "not_allowed"
    m6.send({"kind": "resume"})
    assert m6.reject({"kind": "timeout", "player": "b"}) == "not_allowed"  # once per match


def test_not_trying_on_a_break_stroke_warns_and_counts_for_the_rack():
    # RULES.md Also settled: as on any other stroke; the second in the rack loses it
    m = started()
    p = m.shot("a", 1, [], break_rails=4, called_fouls=["not_trying"])
    assert p["players"][0]["warnings"] == 1 and p["players"][0]["fouls_in_rack"] == 1
    assert p["rack"]["ball_in_hand"] == "behind_line" and p["rack"]["shooter"] == "b" and p["racks"] == []
    m.shot("b", 3, [], rail=True)
    p = m.shot("a", 3, [], rail=True, called_fouls=["not_trying"])
    assert p["racks"][0]["winner"] == "b" and p["racks"][0]["reason"] == "loss" and p["players"][0]["warnings"] == 1


def test_not_trying_on_the_warned_rebreak_warns_once_and_the_rack_is_lost():
    m = started()
    m.shot("a", 1, [], break_rails=2)
    m.send({"kind": "decision", "player": "b", "choice": "rerack_other"})  # a warned
    p = m.shot("a", 1, [], break_rails=2, called_fouls=["not_trying"])
    assert p["racks"][0]["winner"] == "b" and p["racks"][0]["reason"] == "loss"
    assert p["players"][0]["warnings"] == 2 and "bad_break" in p["last"]["fouls"]
