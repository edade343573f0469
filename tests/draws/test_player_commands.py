"""add_players / update_player / withdraw / remove_player: fields, ids, seeds, and what the draw freezes."""

from __future__ import annotations

import pytest

from hub.draws import fold, projection
from tests.draws.harness import Stream


def test_ids_in_order_of_addition_and_normalised_fields() -> None:
    s = Stream()
    first = s.do({"kind": "add_players", "players": [{"name": "  Zheng Yubo ", "club": " ", "seed": 1},
                                                     {"name": "杨帆", "club": "Shanghai", "handicap": "eight"}]})
    assert first.data["players"] == [
        {"id": "p1", "name": "Zheng Yubo", "club": None, "seed": 1, "handicap": None},
        {"id": "p2", "name": "杨帆", "club": "Shanghai", "seed": None, "handicap": "eight"}]
    second = s.do({"kind": "add_players", "players": [{"name": "Wu"}]})
    assert [p["id"] for p in second.data["players"]] == ["p3"]
    assert [p["status"] for p in s.view["players"]] == ["active"] * 3


BAD_PLAYERS = [
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": "x" * 200}, "name"),
    ({"name": 5}, "name"),
    ({}, "name"),
    ({"name": "a\nb"}, "name"),
    ({"name": "A", "club": "c" * 101}, "club"),
    ({"name": "A", "club": 3}, "club"),
    ({"name": "A", "seed": 0}, "seed"),
    ({"name": "A", "seed": 10000}, "seed"),
    ({"name": "A", "seed": True}, "seed"),
    ({"name": "A", "seed": "1"}, "seed"),
    ({"name": "A", "handicap": "nine"}, "handicap"),
    ({"name": "A", "rating": 1500}, "rating"),
    ("Alice", "object"),
]


@pytest.mark.parametrize("player, field", BAD_PLAYERS)
def test_bad_player_fields(player: object, field: str) -> None:
    r = Stream().reject({"kind": "add_players", "players": [player]})
    assert (r.status, r.code) == (422, "bad_request")
    assert field in r.message


@pytest.mark.parametrize("players", [[], "A", None, [{"name": "A"}] * 513])
def test_bad_player_lists(players: object) -> None:
    r = Stream().reject({"kind": "add_players", "players": players})
    assert (r.status, r.code) == (422, "bad_request")


def test_unknown_command_fields() -> None:
    r = Stream().reject({"kind": "add_players", "players": [{"name": "A"}], "tournament": "t1"})
    assert (r.status, r.code) == (422, "bad_request") and "tournament" in r.message


def test_a_taken_seed_adds_the_player_unseeded_naming_the_holder() -> None:
    s = Stream()
    s.do({"kind": "add_players", "players": [{"name": "Zheng Yubo", "seed": 3}]})
    event = s.do({"kind": "add_players", "players": [{"name": "B", "seed": 3}]})
    assert event.data["players"][0]["seed"] is None
    assert event.data["players"][0]["seed_taken"] == {"seed": 3, "holder": "Zheng Yubo"}
    event = s.do({"kind": "add_players", "players": [{"name": "C", "seed": 4}, {"name": "D", "seed": 4}]})
    assert [p["seed"] for p in event.data["players"]] == [4, None]
    assert event.data["players"][1]["seed_taken"] == {"seed": 4, "holder": "C"}
    assert [p["seed"] for p in s.view["players"]] == [3, None, 4, None]
    r = s.reject({"kind": "update_player", "player": "p2", "changes": {"seed": 3}})
    assert (r.status, r.code) == (409, "seed_taken") and "Zheng Yubo" in r.message
    s.do({"kind": "update_player", "player": "p1", "changes": {"seed": 3}})  # its own seed: fine


def test_too_many_players() -> None:
    s = Stream()
    s.do({"kind": "add_players", "players": [{"name": f"P{i}"} for i in range(512)]})
    s.do({"kind": "add_players", "players": [{"name": f"Q{i}"} for i in range(512)]})
    r = s.reject({"kind": "add_players", "players": [{"name": "late"}]})
    assert (r.status, r.code) == (422, "bad_request")


def test_after_the_draw() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    assert s.view["draw"]["stale"] is False
    s.do({"kind": "add_players", "players": [{"name": "Late"}]})  # no result yet: a late entry
    view = s.view
    assert view["draw"]["stale"] is True and "p5" not in view["draw"]["entrants"]
    assert view["players"][-1]["status"] == "active"
    r = s.reject({"kind": "update_player", "player": "p1", "changes": {"seed": 9}})
    assert (r.status, r.code) == (409, "draw_made")
    r = s.reject({"kind": "update_player", "player": "p1", "changes": {"seed": None}})
    assert (r.status, r.code) == (409, "draw_made")
    s.do({"kind": "update_player", "player": "p1", "changes": {"seed": 1, "name": "New Name", "club": "X",
                                                                 "handicap": "eight"}})
    player = s.view["players"][0]
    assert (player["name"], player["club"], player["handicap"], player["seed"]) == ("New Name", "X", "eight", 1)


def test_update_rejects() -> None:
    s = Stream()
    s.add(2)
    for cmd, status, code in [
        ({"player": "p9", "changes": {"name": "X"}}, 404, "unknown_player"),
        ({"player": 1, "changes": {"name": "X"}}, 422, "bad_request"),
        ({"player": "p1", "changes": {}}, 422, "bad_request"),
        ({"player": "p1", "changes": {"rating": 3}}, 422, "bad_request"),
        ({"player": "p1", "changes": {"name": ""}}, 422, "bad_request"),
        ({"player": "p1"}, 422, "bad_request"),
        ({"player": "p1", "changes": ["name"]}, 422, "bad_request"),
    ]:
        r = s.reject({"kind": "update_player", **cmd})
        assert (r.status, r.code) == (status, code), cmd
    s.do({"kind": "update_player", "player": "p1", "changes": {"club": ""}})
    assert s.view["players"][0]["club"] is None


def test_withdraw_rejects() -> None:
    s = Stream()
    s.add(3, seeded=True)
    r = s.reject({"kind": "withdraw", "player": "p7"})
    assert (r.status, r.code) == (404, "unknown_player")
    s.do({"kind": "withdraw", "player": "p3"})
    r = s.reject({"kind": "withdraw", "player": "p3"})
    assert (r.status, r.code) == (409, "withdrawn") and "Player 3" in r.message
    assert s.view["players"][2]["status"] == "withdrawn"
    s.draw("single_elimination")
    s.play("W1-1", "p1")
    r = s.reject({"kind": "withdraw", "player": "p1"})
    assert (r.status, r.code) == (409, "draw_finished")


def test_late_entries_until_the_first_result_then_a_redraw_takes_them_in() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "add_players", "players": [{"name": "Late"}]})
    s.draw("single_elimination", redraw=True)
    assert s.view["draw"]["stale"] is False and "p5" in s.view["draw"]["entrants"]
    key = s.view["queue"][0]
    s.play(key, s.match(key)["players"][0])
    r = s.reject({"kind": "add_players", "players": [{"name": "Too late"}]})
    assert (r.status, r.code) == (409, "draw_used")


def test_a_walkover_also_ends_late_entries() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "walkover", "key": "W1-1", "winner": s.match("W1-1")["players"][0]})
    r = s.reject({"kind": "add_players", "players": [{"name": "Too late"}]})
    assert (r.status, r.code) == (409, "draw_used")


def test_a_player_removed_before_the_draw_is_gone_and_their_id_never_comes_back() -> None:
    s = Stream()
    s.add(4, seeded=True)
    event = s.do({"kind": "remove_player", "player": "p2"})
    assert (event.kind, event.data) == ("player_removed", {"player": "p2", "name": "Player 2"})
    assert [p["id"] for p in s.view["players"]] == ["p1", "p3", "p4"]  # gone, not withdrawn
    assert all(p["status"] == "active" for p in s.view["players"])
    r = s.reject({"kind": "remove_player", "player": "p2"})
    assert (r.status, r.code) == (404, "unknown_player")
    # Its seed is free again; the next player gets a new id, not p2.
    added = s.do({"kind": "add_players", "players": [{"name": "Late", "seed": 2}]}).data["players"]
    assert [(p["id"], p["seed"]) for p in added] == [("p5", 2)]
    s.do({"kind": "remove_player", "player": "p5"})
    assert s.do({"kind": "add_players", "players": [{"name": "Later"}]}).data["players"][0]["id"] == "p6"
    s.draw("single_elimination")
    assert sorted(s.view["draw"]["entrants"]) == ["p1", "p3", "p4", "p6"]
    # The draw holds them now: withdraw instead.
    r = s.reject({"kind": "remove_player", "player": "p3"})
    assert (r.status, r.code) == (409, "draw_made") and "Player 3" in r.message and "withdraw" in r.message


def test_remove_rejects_bad_commands() -> None:
    s = Stream()
    s.add(2)
    for cmd in ({"kind": "remove_player"}, {"kind": "remove_player", "player": 3},
                {"kind": "remove_player", "player": "p1", "why": "x"}):
        r = s.reject(cmd)
        assert (r.status, r.code) == (422, "bad_request"), cmd


def test_a_removal_folds_the_same_from_the_stream() -> None:
    s = Stream()
    s.add(5)
    s.do({"kind": "remove_player", "player": "p1"})
    s.do({"kind": "remove_player", "player": "p4"})
    s.add(1)
    again = fold("t1", s.events)
    assert projection(again) == s.view
    assert [p["id"] for p in s.view["players"]] == ["p2", "p3", "p5", "p6"]
    assert [p.entry for p in again.players] == [1, 2, 4, 5]  # the order of entry, as it was
