"""walkover, call, uncall, move_call, order_queue, take_result, void_result, pause/resume:
every reject code, and what each accepted command does to the derived draw."""

from __future__ import annotations

import pytest

from hub.draws import calls, projection
from tests.draws.harness import Stream


def seeded(n: int, kind: str = "single_elimination") -> Stream:
    s = Stream()
    s.add(n, seeded=True)
    s.draw(kind)
    return s


@pytest.mark.parametrize("cmd", [
    {"kind": "walkover", "key": "W1-1", "winner": "p1"},
    {"kind": "call", "key": "W1-1", "match_id": "m1", "table_id": "tb1"},
    {"kind": "uncall", "key": "W1-1"},
    {"kind": "move_call", "key": "W1-1", "table_id": "tb1"},
    {"kind": "order_queue", "keys": ["W1-1"]},
    {"kind": "take_result", "key": "W1-1", "match_id": "m1", "winner": "p1", "scores": {}},
    {"kind": "void_result", "key": "W1-1", "match_id": "m1"},
])
def test_no_draw(cmd: dict) -> None:
    s = Stream()
    s.add(4)
    r = s.reject(cmd)
    assert (r.status, r.code) == (409, "no_draw")


@pytest.mark.parametrize("kind", ["walkover", "call", "uncall", "take_result", "void_result"])
def test_unknown_key(kind: str) -> None:
    s = seeded(4)
    r = s.reject({"kind": kind, "key": "W9-9", "match_id": "m", "table_id": "t"}
                 if kind == "call" else {"kind": kind, "key": "W9-9"})
    assert (r.status, r.code) == (404, "unknown_key")
    r = s.reject({"kind": kind, "key": 12})
    assert (r.status, r.code) == (422, "bad_request")


def test_unknown_kind_and_shape() -> None:
    s = Stream()
    for cmd in [{"kind": "explode"}, {}, {"kind": None}, ["kind"], "call"]:
        r = s.reject(cmd)  # type: ignore[arg-type]
        assert (r.status, r.code) == (422, "bad_request")


def test_walkover() -> None:
    s = seeded(5)
    for key, winner, status, code in [
        ("W2-1", "p1", 409, "not_ready"),  # waiting for W1-2
        ("W1-1", "p1", 409, "already_decided"),  # a bye
        ("W1-2", "p1", 422, "not_in_match"),
        ("W1-2", "p77", 404, "unknown_player"),
        ("W1-2", None, 422, "bad_request"),
    ]:
        r = s.reject({"kind": "walkover", "key": key, "winner": winner})
        assert (r.status, r.code) == (status, code), (key, winner)
    s.call("W1-2")
    r = s.reject({"kind": "walkover", "key": "W1-2", "winner": "p4"})
    assert (r.status, r.code) == (409, "match_called") and "tb1" in r.message
    s.do({"kind": "uncall", "key": "W1-2"})
    s.do({"kind": "walkover", "key": "W1-2", "winner": "p5"})
    m = s.match("W1-2")
    assert (m["status"], m["winner"], m["scores"]) == ("walkover", "p5", None)
    assert s.match("W2-1")["players"] == ["p1", "p5"]
    r = s.reject({"kind": "walkover", "key": "W1-2", "winner": "p5"})
    assert (r.status, r.code) == (409, "already_decided")


def test_call_rejects() -> None:
    s = seeded(8, "round_robin")
    queue = s.view["queue"]
    s.do({"kind": "call", "key": queue[0], "match_id": "m1", "table_id": "tb1"})
    a, b = s.match(queue[0])["players"]
    other_with_a = next(k for k in queue[1:] if a in s.match(k)["players"])
    free = next(k for k in queue[1:] if not {a, b} & set(s.match(k)["players"]))
    for cmd, status, code in [
        ({"key": queue[0], "match_id": "m2", "table_id": "tb2"}, 409, "match_called"),
        ({"key": free, "match_id": "m1", "table_id": "tb2"}, 409, "match_taken"),
        ({"key": free, "match_id": "m2", "table_id": "tb1"}, 409, "table_busy"),
        ({"key": other_with_a, "match_id": "m2", "table_id": "tb2"}, 409, "player_busy"),
        ({"key": free, "match_id": "", "table_id": "tb2"}, 422, "bad_request"),
        ({"key": free, "match_id": "m" * 65, "table_id": "tb2"}, 422, "bad_request"),
        ({"key": free, "match_id": "m2"}, 422, "bad_request"),
    ]:
        r = s.reject({"kind": "call", **cmd})
        assert (r.status, r.code) == (status, code), cmd
    s.do({"kind": "pause_table", "table_id": "tb2"})
    r = s.reject({"kind": "call", "key": free, "match_id": "m2", "table_id": "tb2"})
    assert (r.status, r.code) == (409, "table_paused")
    event = s.do({"kind": "call", "key": free, "match_id": "m2", "table_id": "tb3"})
    assert event.kind == "match_called" and event.data["players"] == s.match(free)["players"]
    m = s.match(free)
    assert (m["status"], m["match_id"], m["table_id"]) == ("called", "m2", "tb3")
    assert free not in s.view["queue"]


def test_call_waiting_key() -> None:
    s = seeded(4)
    r = s.reject({"kind": "call", "key": "W2-1", "match_id": "m1", "table_id": "tb1"})
    assert (r.status, r.code) == (409, "not_ready")


def test_uncall_goes_to_the_end_of_the_queue() -> None:
    s = seeded(8)
    assert s.view["queue"] == ["W1-1", "W1-2", "W1-3", "W1-4"]
    r = s.reject({"kind": "uncall", "key": "W1-1"})
    assert (r.status, r.code) == (409, "not_called")
    s.call("W1-1")
    event = s.do({"kind": "uncall", "key": "W1-1"})
    assert event.data == {"key": "W1-1", "match_id": s.events[-2].data["match_id"]}
    assert s.view["queue"] == ["W1-2", "W1-3", "W1-4", "W1-1"]
    assert s.match("W1-1")["match_id"] is None and s.match("W1-1")["status"] == "ready"
    # a match becoming ready later still comes after it
    s.play("W1-2", "p4")
    s.play("W1-3", "p2")
    s.play("W1-4", "p3")
    assert s.view["queue"] == ["W1-1", "W2-2"]


def test_move_call() -> None:
    s = seeded(8)
    s.call("W1-1", "tb1")
    s.call("W1-2", "tb2")
    r = s.reject({"kind": "move_call", "key": "W1-1", "table_id": "tb2"})
    assert (r.status, r.code) == (409, "table_busy")
    s.do({"kind": "pause_table", "table_id": "tb3"})
    r = s.reject({"kind": "move_call", "key": "W1-1", "table_id": "tb3"})
    assert (r.status, r.code) == (409, "table_paused")
    r = s.reject({"kind": "move_call", "key": "W1-3", "table_id": "tb4"})
    assert (r.status, r.code) == (409, "not_called")
    s.do({"kind": "move_call", "key": "W1-1", "table_id": "tb4"})
    assert s.match("W1-1")["table_id"] == "tb4"
    s.call("W1-3", "tb1")  # tb1 is free again


def test_order_queue() -> None:
    s = seeded(8)
    s.do({"kind": "order_queue", "keys": ["W1-3", "W1-2"]})
    assert s.view["queue"] == ["W1-3", "W1-2", "W1-1", "W1-4"]
    s.do({"kind": "order_queue", "keys": ["W1-4"]})  # replaces the previous order
    assert s.view["queue"] == ["W1-4", "W1-1", "W1-2", "W1-3"]
    s.do({"kind": "order_queue", "keys": []})
    assert s.view["queue"] == ["W1-1", "W1-2", "W1-3", "W1-4"]
    for keys, status, code in [
        (["W1-1", "W1-1"], 422, "bad_request"),
        ("W1-1", 422, "bad_request"),
        (["W2-1"], 409, "not_ready"),
        (["W7-1"], 404, "unknown_key"),
    ]:
        r = s.reject({"kind": "order_queue", "keys": keys})
        assert (r.status, r.code) == (status, code), keys
    s.call("W1-1")
    r = s.reject({"kind": "order_queue", "keys": ["W1-1"]})
    assert (r.status, r.code) == (409, "not_ready")


def test_take_result_rejects() -> None:
    s = seeded(8)
    r = s.reject({"kind": "take_result", "key": "W1-1", "match_id": "m1", "winner": "p1", "scores": {"p1": 1, "p8": 0}})
    assert (r.status, r.code) == (409, "not_called")
    s.do({"kind": "call", "key": "W1-1", "match_id": "m1", "table_id": "tb1"})
    good = {"kind": "take_result", "key": "W1-1", "match_id": "m1", "winner": "p1", "scores": {"p1": 5, "p8": 2}}
    for change, status, code in [
        ({"match_id": "m9"}, 409, "wrong_match"),
        ({"winner": None}, 422, "bad_request"),
        ({"winner": "p2"}, 422, "not_in_match"),
        ({"winner": "p99"}, 404, "unknown_player"),
        ({"scores": {"p1": 5}}, 422, "bad_request"),
        ({"scores": {"p1": 5, "p8": 2, "p2": 0}}, 422, "bad_request"),
        ({"scores": {"p1": "5", "p8": 2}}, 422, "bad_request"),
        ({"scores": {"p1": 5.5, "p8": 2}}, 422, "bad_request"),
        ({"scores": None}, 422, "bad_request"),
        ({"ranking": ["p1"]}, 422, "bad_request"),
        ({"ranking": ["p1", "p1"]}, 422, "bad_request"),
        ({"extra": 1}, 422, "bad_request"),
    ]:
        r = s.reject({**good, **change})
        assert (r.status, r.code) == (status, code), change
    event = s.do({**good, "ranking": ["p1", "p8"]})
    assert event.data == {"key": "W1-1", "match_id": "m1", "winner": "p1", "scores": {"p1": 5, "p8": 2},
                          "ranking": ["p1", "p8"]}
    m = s.match("W1-1")
    assert (m["status"], m["winner"], m["scores"], m["match_id"], m["table_id"]) == (
        "finished", "p1", {"p1": 5, "p8": 2}, "m1", "tb1")
    assert s.match("W2-1")["players"] == ["p1", None]
    r = s.reject(good)
    assert (r.status, r.code) == (409, "already_decided")


def test_void_result() -> None:
    s = seeded(4)
    s.play("W1-1", "p1")
    match_id = s.match("W1-1")["match_id"]
    r = s.reject({"kind": "void_result", "key": "W1-2", "match_id": match_id})
    assert (r.status, r.code) == (409, "not_finished")
    r = s.reject({"kind": "void_result", "key": "W1-1", "match_id": "other"})
    assert (r.status, r.code) == (409, "wrong_match")
    s.do({"kind": "void_result", "key": "W1-1", "match_id": match_id})
    m = s.match("W1-1")
    assert (m["status"], m["match_id"], m["table_id"], m["winner"]) == ("called", match_id, "tb1", None)
    assert s.match("W2-1")["players"] == [None, None]
    s.result("W1-1", "p4")
    s.play("W1-2", "p2")
    s.call("W2-1")
    r = s.reject({"kind": "void_result", "key": "W1-1", "match_id": match_id})
    assert (r.status, r.code) == (409, "downstream_started") and "W2-1" in r.message
    s.do({"kind": "uncall", "key": "W2-1"})
    s.do({"kind": "void_result", "key": "W1-1", "match_id": match_id})  # W2-1 only ready: fine
    assert s.match("W2-1")["status"] == "waiting" and "W2-1" not in s.view["queue"]


def test_void_of_a_walkover_is_refused() -> None:
    s = seeded(4)
    s.do({"kind": "walkover", "key": "W1-1", "winner": "p1"})
    r = s.reject({"kind": "void_result", "key": "W1-1", "match_id": "x"})
    assert (r.status, r.code) == (409, "not_finished")


def test_void_grand_final_removes_the_reset() -> None:
    s = seeded(2, "double_elimination")
    s.play("W1-1", "p1")
    s.play("GF", "p2")
    assert s.match("GF2")["status"] == "ready"
    s.do({"kind": "void_result", "key": "GF", "match_id": s.match("GF")["match_id"]})
    assert [m["key"] for m in s.view["draw"]["matches"]] == ["W1-1", "GF"]
    assert s.match("GF")["winner_to"] is None


def test_pause_and_resume() -> None:
    s = Stream()
    s.do({"kind": "pause_table", "table_id": "tb1"})
    assert s.view["paused_tables"] == ["tb1"]
    r = s.reject({"kind": "pause_table", "table_id": "tb1"})
    assert (r.status, r.code) == (409, "table_paused")
    r = s.reject({"kind": "resume_table", "table_id": "tb2"})
    assert (r.status, r.code) == (409, "table_not_paused")
    r = s.reject({"kind": "resume_table"})
    assert (r.status, r.code) == (422, "bad_request")
    s.do({"kind": "resume_table", "table_id": "tb1"})
    assert s.view["paused_tables"] == []


def test_void_refused_when_its_table_or_players_moved_on() -> None:
    s = seeded(4, "round_robin")
    first = s.view["queue"][0]
    s.play(first, s.match(first)["players"][0])  # on tb1
    match_id = s.match(first)["match_id"]
    players = set(s.match(first)["players"])
    again = next(k for k in s.view["queue"] if players & set(s.match(k)["players"]))
    s.call(again, "tb2")
    r = s.reject({"kind": "void_result", "key": first, "match_id": match_id})
    assert (r.status, r.code) == (409, "player_busy")
    s.do({"kind": "uncall", "key": again})
    apart = next(k for k in s.view["queue"] if not players & set(s.match(k)["players"]))
    s.call(apart, "tb1")
    r = s.reject({"kind": "void_result", "key": first, "match_id": match_id})
    assert (r.status, r.code) == (409, "table_busy")
    s.do({"kind": "uncall", "key": apart})
    s.do({"kind": "void_result", "key": first, "match_id": match_id})
    assert s.match(first)["status"] == "called"


def test_a_handicapped_races_result_keeps_each_race_and_a_win_below_the_others_score() -> None:
    # PROTOCOL.md section 13: a 1 - 3 win racing to 1 against a race to 5; the draw keeps the races
    s = seeded(4)
    s.call("W1-1")
    mid, _ = calls(s.state)["W1-1"]
    a, b = s.state.calls["W1-1"].players
    bad = {"kind": "take_result", "key": "W1-1", "match_id": mid, "winner": a, "scores": {a: 1, b: 3}}
    for races in ({a: 1}, {a: 1, b: 0}, {a: 1, b: "5"}, [1, 5]):
        assert s.reject({**bad, "races": races}).code == "bad_request", races
    s.do({**bad, "races": {a: 1, b: 5}})
    entry = next(m for m in projection(s.state)["draw"]["matches"] if m["key"] == "W1-1")
    assert entry["winner"] == a and entry["scores"] == {a: 1, b: 3} and entry["races"] == {a: 1, b: 5}
    plain = next(m for m in projection(s.state)["draw"]["matches"] if m["key"] == "W1-2")
    assert "races" not in plain
