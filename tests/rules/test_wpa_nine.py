"""wpa_nine verdicts (RULES.md "wpa_nine"; 美式九球标准规则)."""

from tests.rules.harness import Match


def started(**kw) -> Match:
    m = Match("wpa_nine", **kw)
    m.send({"kind": "start", "breaker": "a"})
    return m


def test_bad_break_is_a_foul_with_rerack_options():
    # 四.3: a ball pocketed or four object balls to a cushion, else foul
    m = started()
    p = m.shot("a", 1, [], break_rails=3)
    assert p["last"]["fouls"] == ["bad_break"] and p["players"][0]["consecutive_fouls"] == 1
    assert sorted(p["rack"]["pending"]["options"]) == ["play", "rerack_other", "rerack_self"]
    p = m.send({"kind": "decision", "player": "b", "choice": "play"})
    assert p["rack"]["shooter"] == "b" and p["rack"]["ball_in_hand"] == "anywhere" and p["rack"]["push_out_allowed"]


def test_nine_on_break_wins_and_on_foul_is_respotted():
    m = started()
    p = m.shot("a", 1, [9], break_rails=0)
    assert p["racks"][0]["winner"] == "a" and p["players"][0]["score"] == 1
    p = m.shot("a", 1, [9], cue_ball="pocketed")
    assert 9 in p["rack"]["on_table"] and p["rack"]["phase"] == "decision"


def test_push_out_then_pass():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    p = m.shot("b", None, [], push_out=True)
    assert p["last"]["foul"] is False
    assert p["rack"]["pending"] == {"player": "a", "options": ["play", "pass"]}
    p = m.send({"kind": "decision", "player": "a", "choice": "pass"})
    assert p["rack"]["shooter"] == "b" and p["rack"]["push_out_allowed"] is False


def test_push_out_not_allowed_later():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    m.shot("b", 1, [], rail=True)
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1, "push_out": True}) == "not_allowed"


def test_push_out_pockets_nine_respotted():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    p = m.shot("b", 3, [9], push_out=True)
    assert 9 in p["rack"]["on_table"] and not p["racks"]


def test_three_consecutive_fouls_lose_the_rack():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    m.shot("b", 2, [], rail=True)  # foul 1
    m.shot("a", 1, [], rail=True)
    p = m.shot("b", None)  # foul 2
    assert p["players"][1]["consecutive_fouls"] == 2 and any("two fouls" in n for n in p["last"]["notes"])
    m.shot("a", 1, [], rail=True)
    p = m.shot("b", 1, [], cue_ball="pocketed")
    assert p["racks"][0]["winner"] == "a" and p["racks"][0]["reason"] == "fouls"
    assert p["players"][0]["score"] == 1


def test_legal_stroke_resets_consecutive_fouls():
    m = started()
    m.shot("a", 1, [], break_rails=4)
    m.shot("b", 2, [], rail=True)
    m.shot("a", 1, [], rail=True)
    p = m.shot("b", 1, [], rail=True)
    assert p["players"][1]["consecutive_fouls"] == 0


def test_race_to_ends_match():
    m = started(fmt={"race_to": 2})
    m.shot("a", 1, [9], break_rails=0)
    p = m.shot("a", 1, [9], break_rails=0)
    assert p["status"] == "finished" and p["winner"] == "a" and p["result"] == {"reason": "race"}


def test_forfeit_and_other_penalties():
    m = started()
    assert m.reject({"kind": "penalty", "player": "a", "type": "device"}) == "not_allowed"
    p = m.send({"kind": "penalty", "player": "a", "type": "forfeit_rack"})
    assert p["racks"][0]["winner"] == "b" and p["racks"][0]["reason"] == "penalty"


def test_alternate_break():
    m = started(fmt={"race_to": 5, "break": "alternate"})
    p = m.shot("a", 1, [9])
    assert p["rack"]["breaker"] == "b"
    p = m.shot("b", 1, [9])
    assert p["rack"]["breaker"] == "a"


def test_alternate_break_follows_rack_one_breaker_despite_a_rerack():
    # RULES.md settled details: rack 1's breaker breaks the odd racks, whatever a rerack did
    m = started(fmt={"race_to": 5, "break": "alternate"})
    m.shot("a", 1, [], break_rails=1)  # bad break
    m.send({"kind": "decision", "player": "b", "choice": "rerack_self"})  # b breaks rack 1 again
    p = m.shot("b", 1, [9])
    assert p["racks"][0]["breaker"] == "b" and p["rack"]["number"] == 2 and p["rack"]["breaker"] == "b"
    p = m.shot("b", 1, [9])
    assert p["rack"]["number"] == 3 and p["rack"]["breaker"] == "a"


def test_a_handicapped_race_is_played_to_each_players_own_race():
    # PROTOCOL.md section 13: a wins at 3, b at 1; b's single rack ends it although a leads 2 - 1
    m = started(fmt={"race_to": {"a": 3, "b": 1}})
    assert [(p["id"], p["race_to"]) for p in m.proj["players"]] == [("a", 3), ("b", 1)]
    m.shot("a", 1, [9], break_rails=0)
    p = m.shot("a", 1, [9], break_rails=0)
    assert p["status"] == "live" and m.p("a")["racks_won"] == 2  # 2 is not a's race
    p = m.shot("a", 1, [], break_rails=4)
    p = m.shot("b", 1, [9])
    assert p["status"] == "finished" and p["winner"] == "b" and p["result"] == {"reason": "race"}
    assert [m.p(x)["racks_won"] for x in "ab"] == [2, 1]


def test_a_handicapped_race_the_stronger_player_wins_at_the_longer_race():
    m = started(fmt={"race_to": {"a": 3, "b": 2}})
    for _ in range(2):
        p = m.shot("a", 1, [9], break_rails=0)
    assert p["status"] == "live"
    p = m.shot("a", 1, [9], break_rails=0)
    assert p["status"] == "finished" and p["winner"] == "a" and m.p("b")["racks_won"] == 0
