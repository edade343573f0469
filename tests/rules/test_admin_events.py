"""Server-made paperwork events: `player_renamed` (a rename reaches every match, finished ones too)
and `table_moved` (a scheduled match goes to another table). Neither touches play: clocks, `last`
and what an undo voids stay as they were."""

from __future__ import annotations

import pytest

from hub.rules import SetupError, validate_setup

from .harness import Match

CLOCK = {"shot_clock": {"shot_s": 30}}


def started(discipline: str = "golden_nine", **kw) -> Match:
    m = Match(discipline, options=CLOCK, **kw)
    m.send({"kind": "start", "breaker": "a"})
    return m


def test_rename_changes_the_name_only():
    m = started()
    m.shot("a", 1, [1], break_crossings=4)
    before = m.proj
    after = m.send({"kind": "player_renamed", "player": "a", "name": "  Zheng Yubo "}, server=True)
    assert m.p("a")["name"] == "Zheng Yubo"
    assert after["version"] == before["version"] + 1
    for field in ("clock", "last", "rack", "racks", "status"):
        assert after[field] == before[field], field


def test_rename_is_not_undone_and_does_not_shield_the_stroke_before_it():
    m = started()
    m.shot("a", 1, [1], break_crossings=4)
    m.send({"kind": "player_renamed", "player": "b", "name": "Yang Fan"}, server=True)
    m.send({"kind": "undo"})
    assert m.p("b")["name"] == "Yang Fan"  # the rename stands
    assert m.proj["rack"]["phase"] == "break"  # the break was what the undo voided


def test_rename_after_the_match_is_over():
    m = started("wpa_nine", fmt={"race_to": 1})
    m.send({"kind": "concede", "player": "a", "scope": "match"})
    assert m.proj["status"] == "finished"
    m.send({"kind": "player_renamed", "player": "a", "name": "A. Later"}, server=True)
    assert m.p("a")["name"] == "A. Later" and m.proj["status"] == "finished"


def test_admin_kinds_need_the_server():
    m = started()
    assert m.reject({"kind": "player_renamed", "player": "a", "name": "x"}) == "bad_command"
    assert m.reject({"kind": "table_moved", "table_id": "tb2"}) == "bad_command"


@pytest.mark.parametrize("command", [
    {"kind": "player_renamed", "player": "zz", "name": "x"},
    {"kind": "player_renamed", "player": "a", "name": ""},
    {"kind": "player_renamed", "player": "a", "name": "x" * 101},
    {"kind": "player_renamed", "player": "a"},
    {"kind": "player_renamed", "player": "a", "name": "\u202enaF gnaY"},  # a bidi override (hub/rules/names.py)
    {"kind": "player_renamed", "player": "a", "name": "\u200b"},  # nothing left once invisibles go
    {"kind": "table_moved", "table_id": ""},
    {"kind": "table_moved", "table_id": 7},
])
def test_bad_shapes(command):
    m = Match("golden_nine")
    assert m.reject(command, server=True) == "bad_command"


def test_move_only_before_the_start():
    m = Match("golden_nine")
    moved = m.send({"kind": "table_moved", "table_id": "tb2"}, server=True)
    assert moved["table_id"] == "tb2" and moved["status"] == "scheduled"
    m.send({"kind": "start", "breaker": "a"})
    assert m.proj["table_id"] == "tb2"
    assert m.reject({"kind": "table_moved", "table_id": "tb3"}, server=True) == "already_started"


def test_draw_reference_in_setup_and_projection():
    draw = {"tournament_id": "t1", "key": "W1-3", "round": "W1"}
    m = Match("golden_nine")
    assert m.proj["draw"] is None
    body = {"discipline": "golden_nine", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
            "format": {"racks": 5}, "draw": draw}
    setup = validate_setup(body, match_id="m", tournament_id="t1", table_id="tb")
    assert dict(setup.draw) == draw and setup.to_json()["draw"] == draw
    for bad in ({"key": "W1-3"}, {**draw, "key": ""}, {**draw, "extra": "x"}, "W1-3"):
        with pytest.raises(SetupError):
            validate_setup({**body, "draw": bad}, match_id="m", tournament_id="t1", table_id="tb")
