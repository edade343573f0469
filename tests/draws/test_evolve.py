"""initial / evolve / fold: values, copy on write, unknown kinds, prefix folds."""

from __future__ import annotations

import dataclasses

import pytest

from hub.draws import TournamentEvent, evolve, fold, initial, projection
from tests.draws.harness import Stream


def test_initial() -> None:
    state = initial("t9")
    assert (state.tournament_id, state.version, state.players, state.draw) == ("t9", 0, (), None)
    assert projection(state) == {"players": [], "draw": None, "queue": [], "standings": None, "paused_tables": [],
                                 "archived": False, "no_show_minutes": 10.0, "version": 0}


def test_evolve_leaves_the_old_state_alone() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    before = s.state
    snapshot = projection(before)
    s.call("W1-1")
    s.result("W1-1", "p1")
    s.do({"kind": "withdraw", "player": "p2"})
    s.do({"kind": "pause_table", "table_id": "tb1"})
    assert projection(before) == snapshot
    assert before.calls == {} and before.results == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.version = 99  # type: ignore[misc]


def test_unknown_kinds_only_advance_the_version() -> None:
    s = Stream()
    s.add(2)
    state = evolve(s.state, TournamentEvent(2, "tournament_renamed", {"name": "Spring Open"}))
    assert state.version == 2 and state.players == s.state.players


def test_fold_equals_evolve_step_by_step() -> None:
    s = Stream()
    s.add(6, seeded=True)
    s.draw("double_elimination")
    s.play("W1-2", "p4")
    s.do({"kind": "update_player", "player": "p3", "changes": {"name": "Renamed"}})
    s.call("W1-4")
    s.do({"kind": "uncall", "key": "W1-4"})
    s.do({"kind": "order_queue", "keys": ["W1-4"]})
    s.play("W1-4", "p3")
    s.do({"kind": "void_result", "key": "W1-4", "match_id": s.match("W1-4")["match_id"]})
    for cut in range(len(s.events) + 1):
        state = fold("t1", s.events[:cut])
        for event in s.events[cut:]:
            state = evolve(state, event)
        assert state == s.state
        assert projection(state) == projection(s.state)


def test_state_mappings_are_read_only() -> None:
    s = Stream()
    s.add(2)
    s.draw("single_elimination")
    s.call("W1-1")
    with pytest.raises(TypeError):
        s.state.calls["W1-1"] = None  # type: ignore[index]
