"""chase_nine verdicts (RULES.md "chase_nine"; 追分赛规则)."""

from tests.rules.harness import Match


def started(**kw) -> Match:
    m = Match("chase_nine", **kw)
    m.send({"kind": "start", "order": ["a", "b", "c"]})
    return m


def scores(p):
    return [x["score"] for x in p["players"]]


def test_big_gold_paid_by_both():
    m = started()
    m.shot("a", 1, [1])
    m.shot("a", 2, [2, 3, 4, 5, 6, 7, 8])
    p = m.shot("a", 9, [9])
    assert scores(p) == [10, -5, -5] and p["racks"][0]["win_type"] == "big_gold"
    assert p["rack"]["order"] == ["a", "b", "c"]  # both paid: the cycle is kept


def test_golden_break_small_gold_from_both():
    m = started()
    p = m.shot("a", 1, [9])
    assert scores(p) == [6, -3, -3]


def test_other_player_small_gold_paid_by_upper():
    m = started()
    m.shot("a", 1, [], break_rails=4)  # nothing down: b has 1-9
    m.shot("b", 1, [1, 2, 3, 4, 5, 6, 7, 8])
    p = m.shot("b", 9, [9])
    assert scores(p) == [-6, 6, 0] and p["racks"][0]["win_type"] == "small_gold"
    assert p["rack"]["order"] == ["b", "a", "c"]


def test_free_ball_nine_is_a_foul():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    m.shot("b", None)  # b fouls: b pays a (its 上家); c ball in hand
    p = m.shot("c", 1, [9])
    assert "nine_on_free_ball" in p["last"]["fouls"] and 9 in p["rack"]["on_table"]
    assert sum(scores(p)) == 0 and scores(p) == [1, 0, -1]  # b paid a, c paid b


def test_snooker_pass_redirects_payments():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    p = m.shot("b", 1, [], rail=True, snooker=True)
    assert p["rack"]["pending"] == {"player": "c", "options": ["play", "pass"]}
    p = m.send({"kind": "decision", "player": "c", "choice": "pass"})
    assert p["rack"]["shooter"] == "b"
    p = m.shot("b", 2, [], rail=True)  # foul in the returned inning: pays c, not a
    assert scores(p) == [0, -1, 1]


def test_snooker_pass_win_paid_by_passer():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    m.shot("b", 1, [], rail=True, snooker=True)
    m.send({"kind": "decision", "player": "c", "choice": "pass"})
    p = m.shot("b", 1, [9])
    assert scores(p) == [0, 3, -3]


def test_three_consecutive_fouls():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    m.shot("b", None)
    m.shot("c", 1, [], rail=True)
    m.shot("a", 1, [], rail=True)
    p = m.shot("b", None)
    assert any("two consecutive" in n for n in p["last"]["notes"])
    m.shot("c", 1, [], rail=True)
    m.shot("a", 1, [], rail=True)
    p = m.shot("b", None)
    # b paid 1 three times to a, then a wins the rack paid 3 by b
    assert scores(p) == [6, -6, 0] and p["racks"][0]["reason"] == "fouls"
    assert p["rack"]["order"] == ["a", "b", "c"]


def test_third_rail_safety_loses():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    for _ in range(2):
        m.shot("b", 1, [], rail=True, rail_safety=True)
        m.shot("c", 1, [], rail=True)
        m.shot("a", 1, [], rail=True)
    p = m.shot("b", 1, [], rail=True, rail_safety=True)
    assert p["racks"][0]["reason"] == "rail_safeties" and scores(p) == [6, -6, 0]


def test_intentional_foul_then_disqualification_and_ranking():
    m = started(fmt={"racks": 3})
    p = m.send({"kind": "penalty", "player": "c", "type": "intentional_foul"})
    assert p["racks"][0]["winner"] == "b" and scores(p) == [0, 3, -3]
    p = m.send({"kind": "penalty", "player": "c", "type": "intentional_foul"})
    assert p["status"] == "finished" and p["result"]["reason"] == "disqualification"
    assert p["result"]["ranking"][-1] == "c" and p["winner"] == "b"


def test_match_end_points_ranking_shared_top():
    m = started(fmt={"racks": 1})
    m.shot("a", 1, [], break_rails=4)
    p = m.shot("b", 1, [], rail=True)
    p = m.shot("c", 1, [], rail=True)
    p = m.shot("a", 1, [9])  # a wins normal, paid by c (a's 上家)
    assert p["status"] == "finished" and p["result"]["reason"] == "points"
    assert p["result"]["ranking"] == ["a", "b", "c"] and p["winner"] == "a"
    assert sum(scores(p)) == 0


def test_concede_match_not_allowed():
    m = started()
    assert m.reject({"kind": "concede", "player": "a", "scope": "match"}) == "not_allowed"
    p = m.send({"kind": "concede", "player": "a", "scope": "rack"})
    assert p["racks"][0]["winner"] == "c" and scores(p) == [-3, 0, 3]


def test_foul_before_the_break_stroke_counts_as_the_break():
    # RULES.md Also settled: the next stroke gets first_shot_s (a foul command or a time foul in phase break)
    opts = {"shot_clock": {"shot_s": 40, "first_shot_s": 50, "break_s": 20, "extension_s": 25}}
    m = started(options=opts)
    p = m.send({"kind": "foul", "player": "a", "reason": "other"})
    assert scores(p) == [-1, 0, 1] and p["rack"]["shooter"] == "b" and p["rack"]["ball_in_hand"] == "anywhere"
    assert p["clock"]["shot"]["limit_s"] == 50
    assert m.shot("b", 1, [], rail=True)["clock"]["shot"]["limit_s"] == 40
    t = started(options=opts)
    p = t.send({"kind": "clock_expired", "player": "a"}, at=t.now + 20_000, server=True)
    assert p["last"]["fouls"] == ["time"]
    assert p["clock"]["shot"]["player"] == "b" and p["clock"]["shot"]["limit_s"] == 50
