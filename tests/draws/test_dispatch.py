"""dispatch, match_body, key_of_match, calls, stale_calls, downstream."""

from __future__ import annotations

import pytest

from hub.draws import (
    DrawReject,
    TournamentEvent,
    calls,
    decide,
    dispatch,
    downstream,
    evolve,
    key_of_match,
    match_body,
    stale_calls,
)
from tests.draws.harness import TEMPLATES, Stream


def seeded(n: int, kind: str = "single_elimination") -> Stream:
    s = Stream()
    s.add(n, seeded=True)
    s.draw(kind)
    return s


def test_each_free_table_takes_the_next_key() -> None:
    s = seeded(8)
    tables = [("tb1", True), ("tb2", False), ("tb3", True), ("tb1", True), ("tb4", True)]
    assert dispatch(s.state, tables) == [("W1-1", "tb1"), ("W1-2", "tb3"), ("W1-3", "tb4")]
    assert dispatch(s.state, []) == []


def test_paused_tables_and_tables_holding_a_call_get_nothing() -> None:
    s = seeded(8)
    s.do({"kind": "pause_table", "table_id": "tb1"})
    s.call("W1-1", "tb2")
    # tb2 is said free (its match finished, say) but the result is not taken yet
    assert dispatch(s.state, [("tb1", True), ("tb2", True), ("tb3", True)]) == [("W1-2", "tb3")]
    s.do({"kind": "resume_table", "table_id": "tb1"})
    assert dispatch(s.state, [("tb1", True), ("tb3", True)]) == [("W1-2", "tb1"), ("W1-3", "tb3")]


def test_nothing_when_the_queue_is_empty_or_no_draw() -> None:
    s = Stream()
    s.add(2)
    assert dispatch(s.state, [("tb1", True)]) == []
    s.draw("single_elimination")
    s.call("W1-1")
    assert dispatch(s.state, [("tb2", True)]) == []


def test_nobody_plays_two_at_once() -> None:
    s = seeded(3, "round_robin")
    got = dispatch(s.state, [("tb1", True), ("tb2", True), ("tb3", True)])
    assert len(got) == 1  # three players: one match at a time


def test_match_body() -> None:
    s = Stream()
    s.do({"kind": "add_players", "players": [{"name": "Zheng Yubo", "seed": 1},
                                             {"name": "Yang Fan", "seed": 2, "handicap": "eight"}]})
    s.draw("single_elimination")
    body = match_body(s.state, "W1-1")
    assert body == {
        "discipline": "golden_nine",
        "players": [{"id": "p1", "name": "Zheng Yubo"}, {"id": "p2", "name": "Yang Fan", "handicap": "eight"}],
        "format": {"racks": 5},
        "options": {},
        "draw": {"tournament_id": "t1", "key": "W1-1", "round": "W1"},
    }
    body["format"]["racks"] = 99  # a copy: the state is not changed
    assert match_body(s.state, "W1-1")["format"] == {"racks": 5}
    s.do({"kind": "update_player", "player": "p2", "changes": {"handicap": None, "name": "杨帆"}})
    assert match_body(s.state, "W1-1")["players"][1] == {"id": "p2", "name": "杨帆"}


def test_match_body_handicap_only_for_golden_nine() -> None:
    s = Stream()
    s.do({"kind": "add_players", "players": [{"name": "A", "handicap": "eight"}, {"name": "B"}]})
    s.do({"kind": "make_draw", "type": "single_elimination", "seed": 1, "match": TEMPLATES["wpa_nine"]})
    assert all("handicap" not in p for p in match_body(s.state, "W1-1")["players"])


def test_match_body_refuses_keys_not_ready() -> None:
    s = seeded(4)
    with pytest.raises(DrawReject) as e:
        match_body(s.state, "W2-1")
    assert (e.value.status, e.value.code) == (409, "not_ready")
    with pytest.raises(DrawReject) as e:
        match_body(s.state, "X")
    assert (e.value.status, e.value.code) == (404, "unknown_key")


def test_key_of_match_and_calls() -> None:
    s = seeded(4)
    s.do({"kind": "call", "key": "W1-1", "match_id": "m1", "table_id": "tb1"})
    s.do({"kind": "call", "key": "W1-2", "match_id": "m2", "table_id": "tb2"})
    assert calls(s.state) == {"W1-1": ("m1", "tb1"), "W1-2": ("m2", "tb2")}
    s.result("W1-1", "p1")
    assert calls(s.state) == {"W1-2": ("m2", "tb2")}
    assert key_of_match(s.state, "m1") == "W1-1" and key_of_match(s.state, "m2") == "W1-2"
    s.do({"kind": "uncall", "key": "W1-2"})
    assert key_of_match(s.state, "m2") is None and key_of_match(s.state, "nope") is None
    s.call("W1-2", "tb2")
    assert key_of_match(s.state, "m1") == "W1-1"


def test_a_redraw_forgets_the_old_calls() -> None:
    s = seeded(4)
    s.do({"kind": "call", "key": "W1-1", "match_id": "m1", "table_id": "tb1"})
    s.do({"kind": "make_draw", "type": "single_elimination", "seed": 2, "match": TEMPLATES["golden_nine"],
          "redraw": True})
    assert key_of_match(s.state, "m1") is None and calls(s.state) == {}


def test_stale_calls() -> None:
    s = seeded(4)
    s.play("W1-1", "p1")
    s.play("W1-2", "p2")
    s.call("W2-1")
    assert stale_calls(s.state) == []
    # a voided result stored without decide's check: the call's players are no longer derived so
    match_id = s.match("W1-1")["match_id"]
    forced = TournamentEvent(len(s.events) + 1, "result_voided", {"key": "W1-1", "match_id": match_id})
    state = evolve(s.state, forced)
    assert stale_calls(state) == ["W2-1"]
    kind, data = decide(state, {"kind": "uncall", "key": "W2-1"})
    assert kind == "match_uncalled" and data["key"] == "W2-1"


def test_downstream() -> None:
    s = seeded(4, "double_elimination")
    assert downstream(s.state, "W1-1") == ["W2-1", "L1-1", "L2-1", "GF"]
    assert downstream(s.state, "L1-1") == ["L2-1", "GF"]
    assert downstream(s.state, "GF") == []
    rr = seeded(4, "round_robin")
    assert downstream(rr.state, "A-1") == []
    ch = seeded(6, "chase_groups")
    assert downstream(ch.state, "C1-1") == ["C2-1", "C2-2", "C3-1", "C3-2"]
    with pytest.raises(DrawReject) as e:
        downstream(s.state, "Z1")
    assert e.value.status == 404


def test_match_body_passes_doubles_through() -> None:
    import dataclasses

    s = Stream()
    s.add(2)
    # a doubles draw needs entries of two members (teams): plain players are refused ...
    with pytest.raises(DrawReject) as e:
        s.do({"kind": "make_draw", "type": "single_elimination", "seed": 1,
              "match": {**TEMPLATES["wpa_nine"], "doubles": True}})
    assert (e.value.status, e.value.code) == (422, "doubles_pairs")
    # ... and a draw whose match is doubles passes it on with each entry's members
    s.draw("single_elimination")
    assert "doubles" not in match_body(s.state, "W1-1")
    spec = s.state.draw
    assert spec is not None
    doubled = dataclasses.replace(s.state, draw=dataclasses.replace(spec, match={**spec.match, "doubles": True}))
    body = match_body(doubled, "W1-1")
    assert body["doubles"] is True and all(p["members"] == [] for p in body["players"])
    # (teams of two give their members, in order: tests/draws/test_teams.py)
