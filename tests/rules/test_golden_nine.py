"""golden_nine verdicts, each citing RULES.md ("golden_nine") or the Duya book."""

from __future__ import annotations

from tests.rules.harness import Match


def started(**kw) -> Match:
    m = Match("golden_nine", **kw)
    m.send({"kind": "start", "breaker": "a"})
    return m


def legal_break(m: Match, pocketed=(2,)) -> None:
    m.shot("a", 1, list(pocketed), break_crossings=4)


def test_big_gold_breaker_runs_out_nine_as_ball_on():
    # RULES.md big_gold: the breaker, in the inning of a legal break that pocketed a ball, pockets the 9 as ball-on
    m = started()
    legal_break(m, [1, 2, 3])
    m.shot("a", 4, [4, 5, 6, 7, 8])
    p = m.shot("a", 9, [9])
    assert p["racks"][0]["win_type"] == "big_gold" and p["players"][0]["score"] == 10
    assert p["players"][0]["stats"]["break_and_runs"] == 1


def test_small_gold_breaker_combination_in_break_inning():
    # RULES.md small_gold (b)
    m = started()
    legal_break(m)
    p = m.shot("a", 1, [9])
    assert p["racks"][0]["win_type"] == "small_gold" and p["players"][0]["score"] == 7


def test_small_gold_table_run_by_incoming_player():
    # RULES.md small_gold (c): began the inning with the 1 and the 9 on the table, 9 as ball-on
    m = started()
    m.shot("a", 1, [], break_crossings=5)  # legal, nothing down: b to the table
    m.shot("b", 1, [1, 2, 3, 4, 5, 6, 7, 8])
    p = m.shot("b", 9, [9])
    assert p["racks"][0]["win_type"] == "small_gold" and p["players"][1]["score"] == 7
    assert p["players"][1]["stats"]["table_runs"] == 1


def test_normal_win_combination_outside_gold_inning():
    m = started()
    m.shot("a", 1, [], break_crossings=5)
    p = m.shot("b", 1, [9])  # combination: the 9 was not the ball-on
    assert p["racks"][0]["win_type"] == "normal" and p["players"][1]["score"] == 4


def test_loss_of_chance_options_and_stat():
    # Duya 6.1 / RULES.md: crossings + pocketed < 4 is a loss of chance, not a foul
    m = started()
    p = m.shot("a", 1, [2], break_crossings=2)
    assert p["rack"]["phase"] == "decision"
    assert sorted(p["rack"]["pending"]["options"]) == sorted(["play", "pass", "rerack_self", "rerack_other"])
    assert p["players"][0]["stats"]["loss_of_chance"] == 1
    assert p["players"][1]["score"] == 0 and p["last"]["foul"] is False


def test_loss_of_chance_pass_then_no_big_gold():
    # RULES.md: after a loss of chance whoever shoots begins a new inning: no big gold
    m = started()
    m.shot("a", 1, [2], break_crossings=1)
    m.send({"kind": "decision", "player": "b", "choice": "pass"})
    assert m.proj["rack"]["shooter"] == "a"
    m.shot("a", 1, [1, 3, 4, 5, 6, 7, 8])
    p = m.shot("a", 9, [9])
    assert p["racks"][0]["win_type"] == "small_gold"  # (c): began the inning with 1 and 9


def test_loss_of_chance_nine_respotted():
    m = started()
    p = m.shot("a", 1, [9], break_crossings=0)
    assert 9 in p["rack"]["on_table"]


def test_golden_break_counts_nine_requirement():
    m = started()
    p = m.shot("a", 1, [5, 9], break_crossings=3)
    assert p["players"][0]["stats"]["golden_breaks"] == 1
    assert p["players"][0]["stats"]["break_and_runs"] == 0


def test_break_foul_gives_point_and_ball_in_hand_nine_respotted():
    # Duya 6.2: illegal break: the opponent gets 1 point and ball in hand
    m = started()
    p = m.shot("a", 1, [9], break_crossings=6, cue_ball="pocketed")
    assert p["players"][1]["score"] == 1 and p["rack"]["ball_in_hand"] == "anywhere"
    assert 9 in p["rack"]["on_table"] and p["last"]["fouls"] == ["scratch"]


def test_weak_break_offers_rerack():
    m = started()
    p = m.shot("a", 1, [], break_crossings=1, called_fouls=["weak_break"])
    assert p["players"][1]["score"] == 1
    assert sorted(p["rack"]["pending"]["options"]) == ["play", "rerack_other", "rerack_self"]
    p = m.send({"kind": "decision", "player": "b", "choice": "rerack_self"})
    assert p["rack"]["phase"] == "break" and p["rack"]["breaker"] == "b" and p["rack"]["number"] == 1
    assert p["players"][1]["score"] == 1  # points already scored stand
    assert p["players"][0]["fouls_in_rack"] == 0


def test_break_position_warning_then_foul():
    # Duya 6.1: first a warning, then a foul
    m = started(fmt={"racks": 3})
    p = m.shot("a", 1, [2], break_crossings=4, break_position=True)
    assert p["players"][0]["warnings"] == 1 and p["last"]["foul"] is False
    m.shot("a", 1, [9])  # small gold combination, a breaks again
    p = m.shot("a", 1, [2], break_crossings=4, break_position=True)
    assert p["last"]["fouls"] == ["break_position"] and p["players"][1]["score"] == 1


def test_three_fouls_in_a_rack():
    # RULES.md: the third foul gives 2 instead and ends the rack, won by the opponent (normal, fouls)
    m = started()
    legal_break(m)
    m.shot("a", 3, [], rail=True)
    m.shot("b", 1, [], rail=True)
    p = m.shot("a", 1, [], rail=False)
    assert p["players"][0]["fouls_in_rack"] == 2 and "second foul in this rack" in p["last"]["notes"]
    m.shot("b", 1, [], rail=True)
    p = m.shot("a", None)
    assert p["racks"][0] == {
        "number": 1,
        "breaker": "a",
        "winner": "b",
        "win_type": "normal",
        "reason": "fouls",
        "points": {"a": 0, "b": 4},
    }


def test_eight_handicap_normal_win_and_gold_inning():
    # RULES.md handicap eight: the 8 wins normal; in a gold inning it is no win
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B", "handicap": "eight"}]
    m = started(players=players)
    assert m.p("b")["win_ball"] == 8
    m.shot("a", 1, [], break_crossings=5)
    # b came in with 1 and 9 on the table: the 8 does not win yet
    p = m.shot("b", 1, [1, 2, 3, 4, 5, 6, 7, 8])
    assert p["rack"]["number"] == 1 and p["rack"]["shooter"] == "b"
    assert m.p("b")["win_ball"] == 9
    p = m.shot("b", 9, [], rail=True)  # misses: rack goes on with the 9


def test_eight_handicap_eight_wins_outside_gold():
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B", "handicap": "eight"}]
    m = started(players=players)
    legal_break(m, [1])
    m.shot("a", 2, [], rail=True)  # a misses; b comes in without the 1
    p = m.shot("b", 2, [8])
    assert p["racks"][0]["winner"] == "b" and p["racks"][0]["win_type"] == "normal"
    assert p["players"][1]["score"] == 4


def test_penalties_intentional_foul():
    m = started(fmt={"racks": 5})
    p = m.send({"kind": "penalty", "player": "a", "type": "intentional_foul"})
    assert p["racks"][0]["winner"] == "b" and p["racks"][0]["reason"] == "penalty" and p["players"][1]["score"] == 10
    p = m.send({"kind": "penalty", "player": "a", "type": "intentional_foul"})
    assert p["status"] == "finished" and p["winner"] == "b" and p["result"]["reason"] == "penalty"
    assert len(p["racks"]) == 1


def test_unsportsmanlike_warning_rack_match():
    m = started()
    p = m.send({"kind": "penalty", "player": "a", "type": "unsportsmanlike"})
    assert p["players"][0]["warnings"] == 1 and not p["racks"]
    p = m.send({"kind": "penalty", "player": "a", "type": "unsportsmanlike"})
    assert p["racks"][0]["points"] == {"a": 0, "b": 4}
    p = m.send({"kind": "penalty", "player": "a", "type": "unsportsmanlike"})
    assert p["status"] == "finished" and p["winner"] == "b"


def test_tie_goes_to_extra_rack_by_lag():
    # RULES.md: after the last rack, equal points are settled by one extra rack
    m = started(fmt={"racks": 2})
    m.shot("a", 1, [9], break_crossings=4)  # a: golden break 7
    m.shot("a", 1, [], break_crossings=5)
    m.shot("b", 1, [9])  # combination outside a gold inning: b 4... not a tie yet
    assert m.proj["status"] == "finished" and m.proj["winner"] == "a"
    m2 = started(fmt={"racks": 2})
    m2.shot("a", 1, [9], break_crossings=4)  # a 7
    m2.shot("a", 1, [], break_crossings=5)
    p = m2.shot("b", 1, [1, 2, 3, 4, 5, 6, 7, 8])
    p = m2.shot("b", 9, [9])  # b small gold 7: tie
    assert p["status"] == "live" and p["rack"]["phase"] == "lag" and p["rack"]["number"] == 3
    p = m2.send({"kind": "lag", "winner": "b"})
    assert p["rack"]["pending"] == {"player": "b", "options": ["break", "pass"]}
    p = m2.send({"kind": "decision", "player": "b", "choice": "pass"})
    assert p["rack"]["breaker"] == "a" and p["rack"]["phase"] == "break"
    p = m2.shot("a", 1, [9], break_crossings=4)
    assert p["status"] == "finished" and p["winner"] == "a" and p["result"]["reason"] == "racks"
    assert len(p["racks"]) == 3


def test_stalemate_takes_back_foul_points():
    m = started()
    legal_break(m)
    m.shot("a", 3, [], rail=True)  # foul: b +1
    p = m.send({"kind": "stalemate"})
    assert p["players"][1]["score"] == 0 and p["players"][0]["stats"]["fouls"] == 0
    assert p["rack"]["breaker"] == "a" and p["rack"]["number"] == 1 and p["rack"]["phase"] == "break"
    assert p["rack"]["on_table"] == list(range(1, 10))


def test_timed_match_ends_on_time():
    m = Match("golden_nine", fmt={"minutes": 0.05})
    m.send({"kind": "start", "breaker": "a"})
    p = m.proj
    # the match clock starts with the first break (stroke); a timed match has a shot clock
    assert p["clock"]["match"]["running"] is False and p["clock"]["shot"]["limit_s"] == 30
    p = m.shot("a", 1, [9], break_crossings=4)
    assert p["clock"]["match"]["running"] is True
    p = m.send({"kind": "match_time_expired"}, server=True)
    assert p["status"] == "finished" and p["winner"] == "a" and p["result"]["reason"] == "time"


def test_timed_match_tie_goes_to_extra_rack():
    m = Match("golden_nine", fmt={"minutes": 1})
    m.send({"kind": "start", "breaker": "a"})
    p = m.send({"kind": "match_time_expired"}, server=True)
    assert p["status"] == "live" and p["rack"]["phase"] == "lag" and p["clock"]["match"]["running"] is False
    m.send({"kind": "lag", "winner": "a"})
    m.send({"kind": "decision", "player": "a", "choice": "break"})
    p = m.shot("a", 1, [9], break_crossings=4)
    assert p["status"] == "finished" and p["result"]["reason"] == "time" and p["winner"] == "a"


def test_official_timeout_gives_the_break_timeout_s_more():
    # RULES.md timed match: the match clock stops at the end of every timeout_every_racks-th rack
    # until the next rack's break; the breaker's clock runs once the timeout (timeout_s) is over
    m = Match("golden_nine", fmt={"minutes": 30}, options={"match_clock": {"timeout_every_racks": 1, "timeout_s": 300}})
    m.send({"kind": "start", "breaker": "a"}, at=1_000_000)
    p = m.shot("a", 1, [9], break_crossings=4, at=1_010_000)  # golden break ends rack 1
    assert p["rack"]["number"] == 2 and p["clock"]["match"]["official_timeout"] is True
    assert p["clock"]["match"]["running"] is False
    assert p["clock"]["match"]["official_timeout_until"] == 1_010_000 + 300_000
    assert p["clock"]["shot"]["deadline"] == 1_010_000 + 300_000 + 30_000
    p = m.shot("a", 1, [2], break_crossings=4, at=1_100_000)
    assert p["clock"]["match"]["official_timeout"] is False and p["clock"]["match"]["running"] is True
    # the first break both started the clock and ended rack 1: no match time was used yet
    assert p["clock"]["match"]["remaining_ms"] == 30 * 60_000
    assert p["clock"]["match"]["deadline"] == 1_100_000 + 30 * 60_000


def test_foul_command_during_break_is_a_break_foul():
    m = Match("wpa_nine")
    m.send({"kind": "start", "breaker": "a"})
    p = m.send({"kind": "foul", "player": "a", "reason": "touched_ball"})
    assert sorted(p["rack"]["pending"]["options"]) == ["play", "rerack_other", "rerack_self"]
    m8 = Match("chinese_eight")
    m8.send({"kind": "start", "breaker": "a"})
    p = m8.send({"kind": "foul", "player": "a", "reason": "touched_ball"})
    assert p["rack"]["ball_in_hand"] == "behind_line" and p["rack"]["shooter"] == "b"


def test_weak_break_as_a_foul_command_is_bad_command():
    # RULES.md Also settled: weak_break is judged on a break stroke only (its called_fouls)
    m = started()
    assert m.reject({"kind": "foul", "player": "a", "reason": "weak_break"}) == "bad_command"
    p = m.shot("a", 1, [], break_crossings=4, called_fouls=["weak_break"])
    assert p["rack"]["pending"]["options"] == ["play", "rerack_self", "rerack_other"]
    m.send({"kind": "decision", "player": "b", "choice": "play"})
    assert m.reject({"kind": "foul", "player": "b", "reason": "weak_break"}) == "bad_command"
    assert m.send({"kind": "foul", "player": "b", "reason": "other"})["players"][0]["score"] == 1


CLOCK = {"shot_clock": {"shot_s": 40, "first_shot_s": 50, "break_s": 20, "extension_s": 25}}


def test_foul_before_the_break_stroke_counts_as_the_break():
    # RULES.md Also settled: a foul command or a time foul in phase break: the next stroke gets first_shot_s
    m = started(options=CLOCK)
    p = m.send({"kind": "foul", "player": "a", "reason": "touched_ball"})
    assert p["rack"]["shooter"] == "b" and p["rack"]["ball_in_hand"] == "anywhere"
    assert p["clock"]["shot"]["limit_s"] == 50 and p["players"][1]["score"] == 1
    assert m.shot("b", 1, [], rail=True)["clock"]["shot"]["limit_s"] == 40
    t = started(options=CLOCK)
    p = t.send({"kind": "clock_expired", "player": "a"}, at=t.now + 20_000, server=True)
    assert p["last"]["fouls"] == ["time"] and p["clock"]["shot"] == {**p["clock"]["shot"], "player": "b", "limit_s": 50}


def test_time_foul_before_the_break_starts_the_match_clock_and_ends_the_official_timeout():
    # the foul counts as the break: a timed match's clock starts with it, an official timeout ends with it
    m = Match("golden_nine", fmt={"minutes": 30}, options={"match_clock": {"timeout_every_racks": 1, "timeout_s": 300}})
    m.send({"kind": "start", "breaker": "a"}, at=1_000_000)
    p = m.send({"kind": "clock_expired", "player": "a"}, at=1_030_000, server=True)
    assert p["clock"]["match"]["running"] is True and p["clock"]["match"]["deadline"] == 1_030_000 + 30 * 60_000
    m.shot("b", 1, [1, 2, 3, 4, 5, 6, 7, 8, 9], at=1_040_000)  # b wins rack 1: the official timeout
    p = m.proj
    assert p["rack"]["number"] == 2 and p["clock"]["match"]["official_timeout"] is True
    p = m.send({"kind": "foul", "player": "b", "reason": "other"}, at=1_050_000)
    assert p["clock"]["match"]["official_timeout"] is False and p["clock"]["match"]["running"] is True
    assert p["rack"]["shooter"] == "a" and p["clock"]["shot"]["limit_s"] == 45  # first_shot_s = shot_s by default
