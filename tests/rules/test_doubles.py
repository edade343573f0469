"""Scotch doubles (PROTOCOL.md section 15, hub/rules/doubles.py): the member due across innings and
racks, the break through the four members, out_of_turn, undo, the setup's checks."""

import pytest

from hub.rules import SetupError, fold, projection, validate_setup
from tests.rules.harness import Match

SIDES = [
    {"id": "a", "name": "Ann & Al", "members": [{"person": "a1", "name": "Ann"}, {"person": "a2", "name": "Al"}]},
    {"id": "b", "name": "Bo & Bea", "members": [{"name": "Bo"}, {"name": "Bea"}]},
]


def doubles(discipline="wpa_nine", fmt=None, players=None, **kw):
    return Match(discipline, players=players or SIDES, fmt=fmt or {"race_to": 3}, doubles=True, **kw)


def due(m):
    return m.proj["rack"]["member"]


def test_setup_members_and_the_break_default():
    m = doubles()
    assert m.setup.doubles and m.setup.break_mode == "alternate"
    proj = m.proj
    assert proj["doubles"] is True
    assert proj["players"][0]["members"] == [{"person": "a1", "name": "Ann"}, {"person": "a2", "name": "Al"}]
    # a member named without a person gets the side's own stand-in id
    assert proj["players"][1]["members"] == [{"person": "b.1", "name": "Bo"}, {"person": "b.2", "name": "Bea"}]
    assert proj["rack"]["member"] is None  # nobody is at the table before the start
    assert doubles(fmt={"race_to": 3, "break": "winner"}).setup.break_mode == "winner"
    again = validate_setup(m.setup.to_json(), match_id="m1", tournament_id="t1", table_id="tb1")
    assert again == m.setup


def test_a_singles_match_has_no_members():
    m = Match("wpa_nine")
    m.send({"kind": "start", "breaker": "a"})
    assert m.proj["doubles"] is False and m.proj["rack"]["member"] is None
    assert m.proj["players"][0]["members"] is None
    assert m.setup.break_mode == "winner"


def test_order_across_innings_and_racks():
    m = doubles("wpa_nine", fmt={"race_to": 5, "break": "winner"})
    m.send({"kind": "start", "breaker": "a"})
    assert due(m) == "a1"
    m.shot("a", 1, [2], break_rails=4)  # a pocketed on the break: a shoots on, the other member
    assert m.proj["rack"]["shooter"] == "a" and due(m) == "a2"
    m.shot("a", 1, [], rail=True)  # a2 misses
    assert m.proj["rack"]["shooter"] == "b" and due(m) == "b.1"
    m.shot("b", 1, [1])
    assert due(m) == "b.2"
    m.shot("b", 4, [], rail=True)  # wrong ball first: a foul, ball in hand for a
    assert m.proj["last"]["fouls"] == ["wrong_ball_first"]
    assert m.proj["rack"]["shooter"] == "a" and due(m) == "a1"  # a's third turn
    m.shot("a", 3, [9])  # a1 wins the rack on a combination
    assert m.proj["racks"][0]["winner"] == "a"
    # winner breaks: a breaks rack 2 with its member due (a had three turns: a2)
    assert m.proj["rack"]["breaker"] == "a" and due(m) == "a2"
    m.shot("a", 1, [], break_rails=4)
    assert due(m) == "b.1"  # b's order goes on from rack 1: two turns had, b.1 is due


def test_alternate_breaks_pass_through_the_four_members():
    m = doubles(fmt={"race_to": 3})
    m.send({"kind": "start", "breaker": "a"})
    breakers = []
    for side in ("a", "b", "a", "b", "a"):
        assert m.proj["rack"]["breaker"] == side
        breakers.append(due(m))
        m.shot(side, 1, [9], break_rails=4)  # the nine on the break wins the rack
    assert breakers == ["a1", "b.1", "a2", "b.2", "a1"]
    assert m.proj["status"] == "finished" and m.proj["winner"] == "a"
    assert m.proj["rack"]["member"] is None


def test_start_gives_the_order():
    m = doubles()
    assert m.reject({"kind": "start", "breaker": "a", "members": {"a": ["a1", "b.1"]}}) == "bad_command"
    assert m.reject({"kind": "start", "breaker": "a", "members": {"c": ["a1", "a2"]}}) == "bad_command"
    assert m.reject({"kind": "start", "breaker": "a", "members": ["a2", "a1"]}) == "bad_command"
    m.send({"kind": "start", "breaker": "b", "members": {"a": ["a2", {"person": "a1"}], "b": ["b.2", "b.1"]}})
    assert [x["person"] for x in m.p("a")["members"]] == ["a2", "a1"]
    assert due(m) == "b.2"
    m.shot("b", 1, [], break_rails=4)
    assert due(m) == "a2"
    single = Match("wpa_nine")
    assert single.reject({"kind": "start", "breaker": "a", "members": {"a": ["a"]}}) == "bad_command"


def test_lag_may_give_the_order():
    m = doubles()
    m.send({"kind": "lag", "winner": "b", "members": {"b": ["b.2", "b.1"]}})
    m.send({"kind": "decision", "player": "b", "choice": "break"})
    assert due(m) == "b.2"


def test_out_of_turn_is_a_called_foul_of_doubles_only():
    m = doubles()
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [], break_rails=4)
    assert due(m) == "b.1"
    m.shot("b", 1, [1], called_fouls=["out_of_turn"])  # b.2 played it: a foul, the 1 stays down
    last = m.proj["last"]
    assert last["foul"] and last["fouls"] == ["out_of_turn"] and last["player"] == "b"
    assert m.proj["rack"]["shooter"] == "a" and m.proj["rack"]["ball_in_hand"] == "anywhere"
    assert due(m) == "a2"
    m.shot("a", 2, [], rail=True)
    assert due(m) == "b.2"  # the turn counted as b.1's: b's order goes on
    m.send({"kind": "foul", "player": "b", "reason": "out_of_turn"})  # b.1 came to the table instead
    assert m.proj["last"]["fouls"] == ["out_of_turn"] and due(m) == "a1"
    single = Match("wpa_nine")
    single.send({"kind": "start", "breaker": "a"})
    assert single.reject({"kind": "shot", "player": "a", "first_contact": 1, "called_fouls": ["out_of_turn"],
                          "break_rails": 4}) == "not_allowed"
    assert single.reject({"kind": "foul", "player": "a", "reason": "out_of_turn"}) == "not_allowed"


def test_undo_puts_the_member_back_and_the_fold_agrees():
    m = doubles()
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_rails=4)
    m.shot("a", 1, [1])
    assert due(m) == "a1"
    m.send({"kind": "undo"})
    assert due(m) == "a2"
    m.send({"kind": "undo"})
    assert due(m) == "a1" and m.proj["rack"]["phase"] == "break"
    m.shot("a", 1, [], break_rails=4)
    assert due(m) == "b.1"
    assert projection(fold(m.setup, m.events)) == m.proj


def test_time_foul_takes_the_members_turn():
    m = doubles(options={"shot_clock": {"shot_s": 30}})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [], break_rails=4)
    m.send({"kind": "clock_expired", "player": "b"}, server=True, at=m.now + 31_000)
    assert m.proj["last"]["fouls"] == ["time"] and due(m) == "a2"
    m.shot("a", 1, [], rail=True)
    assert due(m) == "b.2"


@pytest.mark.parametrize("discipline", ["golden_nine", "chinese_eight", "wpa_eight", "wpa_ten"])
def test_every_two_player_discipline_plays_doubles(discipline):
    fmt = {"racks": 3} if discipline == "golden_nine" else {"race_to": 3}
    m = doubles(discipline, fmt=fmt)
    m.send({"kind": "start", "breaker": "b"})
    assert due(m) == "b.1"
    count = "break_crossings" if discipline == "golden_nine" else "break_rails"
    m.shot("b", 1, [], **{count: 4})
    assert m.proj["rack"]["shooter"] == "a" and due(m) == "a1"
    m.shot("a", None, [])  # no contact: a foul
    assert m.proj["last"]["foul"] and due(m) == "b.2"


def test_racks_scoring_sides_win_racks():
    m = doubles("wpa_nine", options={"scoring": "racks"})
    m.send({"kind": "start", "breaker": "a"})
    for winner in ("a", "b", "a", "a"):
        m.send({"kind": "rack", "winner": winner})
    assert m.proj["winner"] == "a" and m.p("a")["score"] == 3
    assert m.p("b")["members"][1]["name"] == "Bea"


@pytest.mark.parametrize(("body", "code", "message"), [
    ({"discipline": "chase_nine", "players": SIDES + [{"id": "c", "name": "C"}], "format": {"racks": 3}},
     "doubles_not_allowed", "two sides"),
    ({"players": [SIDES[0], {"id": "b", "name": "B"}]}, "doubles_members", "exactly 2"),
    ({"players": [SIDES[0], {"id": "b", "name": "B", "members": [{"name": "Bo"}]}]}, "doubles_members", "exactly 2"),
    ({"players": [SIDES[0], {"id": "b", "name": "B", "members": [{"name": "Bo"}, {"name": ""}]}]},
     "doubles_members", "name"),
    ({"players": [SIDES[0], {"id": "b", "name": "B", "members": [{"name": "Bo"}, "Bea"]}]},
     "doubles_members", "object"),
    ({"players": [SIDES[0], {"id": "b", "name": "B", "members": [{"person": "a1", "name": "Ann"}, {"name": "Bea"}]}]},
     "doubles_members", "differ"),
    ({"players": [SIDES[0], {"id": "b", "name": "B", "members": [{"person": 7, "name": "X"}, {"name": "Bea"}]}]},
     "doubles_members", "person"),
    ({"doubles": "yes"}, "doubles_members", "true or false"),
    ({"doubles": False}, "doubles_members", "doubles: true"),
])
def test_bad_doubles_setups(body, code, message):
    full = {"discipline": "wpa_nine", "players": SIDES, "format": {"race_to": 3}, "doubles": True, **body}
    with pytest.raises(SetupError) as err:
        validate_setup(full, match_id="m", tournament_id="t", table_id="tb")
    assert err.value.code == code and message in err.value.message


def test_a_push_out_passed_back_brings_the_partner():
    m = doubles()
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [], break_rails=4)
    assert due(m) == "b.1" and m.proj["rack"]["push_out_allowed"]
    m.shot("b", 3, [], push_out=True)  # b.1 pushes out
    assert m.proj["rack"]["pending"]["player"] == "a" and due(m) == "a2"  # a chooses; a2 would play
    m.send({"kind": "decision", "player": "a", "choice": "pass"})
    assert m.proj["rack"]["shooter"] == "b" and due(m) == "b.2"  # b shoots again: its other member


def test_the_order_is_kept_through_a_later_lag():
    m = doubles("golden_nine", fmt={"racks": 2})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [9], break_crossings=4)
    m.shot("b", 1, [9], break_crossings=4)  # one rack each: the extra rack begins with a lag
    assert m.proj["rack"]["phase"] == "lag" and m.proj["rack"]["extra"]
    assert m.reject({"kind": "lag", "winner": "a", "members": {"a": ["a2", "a1"]}}) == "bad_command"
    m.send({"kind": "lag", "winner": "a"})
    m.send({"kind": "decision", "player": "a", "choice": "break"})
    assert due(m) == "a2"  # a had one turn: its order goes on through the extra rack
