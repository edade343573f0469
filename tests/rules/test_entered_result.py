"""`result_entered`: a result entered by hand settles a scheduled, live or finished match in every
discipline, is checked against the format, and the desk's undo takes it back (a tablet's is refused)."""

from __future__ import annotations

import pytest

from .harness import Match

CLOCK = {"shot_clock": {"shot_s": 30}}


def entered(m: Match, winner: str | None, score: dict[str, int], reason: str | None = "tablet died") -> dict:
    return m.send({"kind": "result_entered", "winner": winner, "score": score, "reason": reason}, server=True)


@pytest.mark.parametrize(("discipline", "score"), [
    ("wpa_nine", {"a": 5, "b": 3}), ("chinese_eight", {"a": 5, "b": 0}),
    ("golden_nine", {"a": 24, "b": 11}), ("chase_nine", {"a": 12, "b": -5, "c": -7}),
])
def test_a_scheduled_match_settled_by_hand(discipline: str, score: dict[str, int]) -> None:
    m = Match(discipline, options=CLOCK)
    proj = entered(m, "a", score)
    assert proj["status"] == "finished" and proj["winner"] == "a"
    assert {p["id"]: p["score"] for p in proj["players"]} == score
    assert proj["result"]["entered"] is True and proj["result"]["reason"] == "tablet died"
    assert proj["rack"]["phase"] == "over" and proj["clock"]["shot"] is None
    assert proj["last"]["kind"] == "result_entered"
    if discipline in ("wpa_nine", "chinese_eight"):
        assert {p["id"]: p["racks_won"] for p in proj["players"]} == score
    if discipline == "chase_nine":
        assert proj["result"]["ranking"] == ["a", "b", "c"]


def test_a_live_match_with_a_clock_stops_and_an_undo_brings_it_back() -> None:
    m = Match("golden_nine", options=CLOCK)
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [1], break_crossings=4)
    before = m.proj
    assert before["clock"]["shot"] is not None
    proj = entered(m, "b", {"a": 4, "b": 10}, reason=None)
    assert proj["status"] == "finished" and proj["clock"]["shot"] is None and proj["result"]["reason"] is None
    back = m.send({"kind": "undo"}, server=True)  # the desk's reopen
    assert back["status"] == "live" and back["players"] == before["players"] and back["rack"] == before["rack"]


def test_a_finished_match_gets_its_score_corrected() -> None:
    m = Match("wpa_nine", fmt={"race_to": 2})
    entered(m, "a", {"a": 2, "b": 1})
    proj = entered(m, "b", {"a": 1, "b": 2}, reason="scores swapped")
    assert proj["winner"] == "b" and proj["result"]["reason"] == "scores swapped"


def test_chase_nine_shared_top_has_no_winner() -> None:
    m = Match("chase_nine")
    proj = entered(m, None, {"a": 5, "b": 5, "c": -10})
    assert proj["status"] == "finished" and proj["winner"] is None


@pytest.mark.parametrize(("discipline", "fmt", "winner", "score", "says"), [
    ("wpa_nine", {"race_to": 5}, "a", {"a": 3, "b": 4}, "best score"),
    ("wpa_nine", {"race_to": 5}, "a", {"a": 4, "b": 2}, "race to 5"),
    ("wpa_nine", {"race_to": 5}, "a", {"a": 7, "b": 2}, "out of range"),
    ("golden_nine", {"racks": 5}, "a", {"a": 10, "b": 10}, "shared"),
    ("golden_nine", {"racks": 5}, "a", {"a": 10}, "each player"),
    ("golden_nine", {"racks": 5}, "a", {"a": -1, "b": -3}, "out of range"),
    ("golden_nine", {"racks": 5}, "z", {"a": 10, "b": 3}, "one of the match's players"),
    ("golden_nine", {"racks": 5}, None, {"a": 10, "b": 3}, "winner is required"),
    ("golden_nine", {"racks": 5}, "a", {"a": 10.5, "b": 3}, "whole number"),
    ("chase_nine", {"racks": 4}, "a", {"a": 10, "b": 3, "c": 1}, "sum to zero"),
    ("chase_nine", {"racks": 4}, None, {"a": 10, "b": -3, "c": -7}, "winner is required"),
])
def test_refusals(discipline: str, fmt: dict, winner: str | None, score: dict, says: str) -> None:
    m = Match(discipline, fmt=fmt)
    try:
        entered(m, winner, score)
    except Exception as exc:
        assert getattr(exc, "code", None) == "bad_command" and says in str(exc)
    else:
        raise AssertionError("accepted")


def test_only_the_server_enters_a_result() -> None:
    m = Match("golden_nine")
    assert m.reject({"kind": "result_entered", "winner": "a", "score": {"a": 1, "b": 0}}) == "bad_command"


def test_reason_too_long() -> None:
    m = Match("golden_nine")
    assert m.reject({"kind": "result_entered", "winner": "a", "score": {"a": 1, "b": 0}, "reason": "x" * 201},
                    server=True) == "bad_command"


def test_a_tablet_cannot_undo_a_result_the_desk_entered() -> None:
    # PROTOCOL.md section 9: a tablet's undo of a result entered by hand is not_allowed (the desk reopens it)
    m = Match("wpa_nine", fmt={"race_to": 2})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [9], break_rails=4)
    entered(m, "a", {"a": 2, "b": 0})
    assert m.reject({"kind": "undo"}) == "not_allowed"
    assert m.send({"kind": "undo"}, server=True)["status"] == "live"
    assert m.send({"kind": "undo"})["racks"] == []  # the stroke before it is the tablet's again


def test_a_withdrawal_forfeit_names_who_withdrew_and_only_the_desk_undoes_it() -> None:
    m = Match("golden_nine")
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_crossings=4)
    withdrawal = {"kind": "penalty", "player": "b", "type": "forfeit_match", "withdrawn": True}
    assert m.reject(withdrawal) == "bad_command"  # the hub's own, never a tablet's
    assert m.reject({**withdrawal, "type": "forfeit_rack"}, server=True) == "bad_command"
    proj = m.send(withdrawal, server=True)
    assert proj["status"] == "finished" and proj["winner"] == "a"
    assert proj["result"] == {"reason": "penalty", "withdrawn": ["b"]}
    assert m.reject({"kind": "undo"}) == "not_allowed"
    assert m.send({"kind": "undo"}, server=True)["status"] == "live"
    c = Match("chase_nine")
    c.send({"kind": "start", "order": ["a", "b", "c"]})
    proj = c.send({**withdrawal, "player": "c"}, server=True)
    assert proj["result"]["reason"] == "disqualification" and proj["result"]["withdrawn"] == ["c"]


HANDICAP = {"race_to": {"a": 1, "b": 5}}


@pytest.mark.parametrize(("winner", "score"), [("a", {"a": 1, "b": 3}), ("b", {"a": 0, "b": 5}),
                                               ("a", {"a": 1, "b": 4})])
def test_a_handicapped_race_is_won_at_the_winners_own_race(winner: str, score: dict[str, int]) -> None:
    # PROTOCOL.md section 13: 1 - 3 racing to 1 against a race to 5 is a win; the best score need not be it
    m = Match("wpa_nine", fmt=HANDICAP)
    proj = entered(m, winner, score)
    assert proj["status"] == "finished" and proj["winner"] == winner
    assert {p["id"]: p["racks_won"] for p in proj["players"]} == score
    assert {p["id"]: p["race_to"] for p in proj["players"]} == {"a": 1, "b": 5}


@pytest.mark.parametrize(("winner", "score", "says"), [
    ("b", {"a": 1, "b": 5}, "a reached their race to 1 too"),
    ("b", {"a": 0, "b": 3}, "b races to 5: the winner must have won 5 racks, not 3"),
    ("a", {"a": 0, "b": 3}, "a races to 1"),
    ("a", {"a": 2, "b": 0}, "out of range"),
    ("b", {"a": 0, "b": 6}, "0 to the race to 5"),
])
def test_a_handicapped_race_refuses_a_result_nobody_could_reach(winner: str, score: dict, says: str) -> None:
    m = Match("wpa_nine", fmt=HANDICAP)
    try:
        entered(m, winner, score)
    except Exception as exc:
        assert getattr(exc, "code", None) == "bad_command" and says in str(exc), str(exc)
    else:
        raise AssertionError("accepted")
