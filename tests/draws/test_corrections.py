"""Corrections of the draw: reinstating a player, reopening a walkover, a result taken again,
a reopened result sent back to the queue, archiving; each refused once a match depends on it."""

from __future__ import annotations

from hub.draws import affected_calls
from tests.draws.harness import Stream


def four() -> Stream:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")  # W1-1 p1 v p4, W1-2 p2 v p3
    return s


def test_reinstate_opens_the_walkovers_of_a_withdrawal_again() -> None:
    s = four()
    s.do({"kind": "withdraw", "player": "p4"})
    assert s.match("W1-1")["status"] == "walkover"
    s.do({"kind": "reinstate", "player": "p4"})
    assert s.match("W1-1")["status"] == "ready" and "W1-1" in s.view["queue"]
    assert {p["id"]: p["status"] for p in s.view["players"]}["p4"] == "active"
    r = s.reject({"kind": "reinstate", "player": "p4"})
    assert (r.status, r.code) == (409, "not_withdrawn")


def test_reinstate_refused_once_the_walkover_fed_a_played_match() -> None:
    s = four()
    s.do({"kind": "withdraw", "player": "p4"})  # W1-1 to p1 by walkover
    s.play("W1-2", "p2")
    s.call("W2-1")  # p1 v p2: called, not finished
    assert affected_calls(s.state, "player_reinstated", {"player": "p4"}) == [("W2-1", s.match("W2-1")["match_id"])]
    s.result("W2-1", "p1")  # the final: the draw is over
    r = s.reject({"kind": "reinstate", "player": "p4"})
    assert (r.status, r.code) == (409, "draw_finished")


def test_reinstate_refused_names_the_match_played_since() -> None:
    s = Stream()
    s.add(8, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "withdraw", "player": "p8"})  # W1-1 p1 v p8: to p1
    s.play("W1-2", s.match("W1-2")["players"][0])
    s.play("W2-1", "p1")
    r = s.reject({"kind": "reinstate", "player": "p8"})
    assert (r.status, r.code) == (409, "result_used") and "W2-1" in r.message


def test_void_walkover_puts_the_match_back_in_the_queue() -> None:
    s = four()
    s.do({"kind": "walkover", "key": "W1-1", "winner": "p1"})
    assert "W1-1" not in s.view["queue"]
    s.do({"kind": "void_walkover", "key": "W1-1"})
    assert s.match("W1-1")["status"] == "ready" and s.view["queue"][-1] == "W1-1"
    assert s.match("W2-1")["players"][0] is None


def test_void_walkover_refusals() -> None:
    s = four()
    r = s.reject({"kind": "void_walkover", "key": "W1-1"})
    assert (r.status, r.code) == (409, "not_walkover")
    s.do({"kind": "withdraw", "player": "p4"})
    r = s.reject({"kind": "void_walkover", "key": "W1-1"})
    assert (r.status, r.code) == (409, "withdrawn") and "Player 4" in r.message and "reinstate" in r.message
    s.do({"kind": "walkover", "key": "W1-2", "winner": "p2"})
    s.play("W2-1", "p1")
    r = s.reject({"kind": "void_walkover", "key": "W1-2"})
    assert (r.status, r.code) == (409, "result_used") and "W2-1" in r.message
    r = s.reject({"kind": "void_walkover", "key": "W9-9"})
    assert (r.status, r.code) == (404, "unknown_key")


def test_a_result_taken_again_replaces_it_and_moves_the_winner() -> None:
    s = four()
    s.play("W1-1", "p1", {"p1": 5, "p4": 2})
    mid = s.match("W1-1")["match_id"]
    assert s.match("W2-1")["players"][0] == "p1"
    s.do({"kind": "take_result", "key": "W1-1", "match_id": mid, "winner": "p4", "scores": {"p1": 3, "p4": 5}})
    assert s.match("W1-1")["winner"] == "p4" and s.match("W1-1")["scores"] == {"p1": 3, "p4": 5}
    assert s.match("W2-1")["players"][0] == "p4"
    r = s.reject({"kind": "take_result", "key": "W1-1", "match_id": mid, "winner": "p4", "scores": {"p1": 3, "p4": 5}})
    assert (r.status, r.code) == (409, "already_decided")


def test_a_result_taken_again_is_refused_once_its_winner_played_on() -> None:
    s = four()
    s.play("W1-1", "p1")
    s.play("W1-2", "p2")
    s.play("W2-1", "p1")
    mid = s.match("W1-1")["match_id"]
    r = s.reject({"kind": "take_result", "key": "W1-1", "match_id": mid, "winner": "p4", "scores": {"p1": 1, "p4": 3}})
    assert (r.status, r.code) == (409, "result_used") and "W2-1" in r.message
    # the same winner with another score changes nobody's match: taken
    s.do({"kind": "take_result", "key": "W1-1", "match_id": mid, "winner": "p1", "scores": {"p1": 3, "p4": 2}})
    assert s.match("W1-1")["scores"] == {"p1": 3, "p4": 2}


def test_void_result_requeue_lets_the_match_go() -> None:
    s = four()
    s.play("W1-1", "p1")
    mid = s.match("W1-1")["match_id"]
    s.do({"kind": "void_result", "key": "W1-1", "match_id": mid, "requeue": True})
    m = s.match("W1-1")
    assert m["status"] == "ready" and m["match_id"] is None and s.view["queue"][-1] == "W1-1"


def test_archive_and_unarchive() -> None:
    s = four()
    s.do({"kind": "archive"})
    assert s.view["archived"] is True
    assert s.reject({"kind": "archive"}).code == "archived"
    s.do({"kind": "unarchive"})
    assert s.view["archived"] is False
    assert s.reject({"kind": "unarchive"}).code == "not_archived"


def test_chase_reinstate_forms_the_round_again_while_nothing_is_called() -> None:
    s = Stream()
    s.add(6, seeded=True)
    s.draw("chase_groups", rounds=1)
    s.do({"kind": "withdraw", "player": "p6"})
    assert len([m for m in s.view["draw"]["matches"] if m["status"] == "ready"]) == 1
    s.do({"kind": "reinstate", "player": "p6"})
    ready = [m for m in s.view["draw"]["matches"] if m["status"] == "ready"]
    assert len(ready) == 2 and "p6" in {p for m in ready for p in m["players"]}
