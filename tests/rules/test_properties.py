"""Property tests over random command sequences:
no exception but Reject; a reject changes nothing; balls only leave the table (except
respots and a new rack); chase_nine scores sum to zero; fold(prefix) + evolve(rest) == fold(all)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.rules import Event, Reject, decide, fold, initial, projection, validate_setup
from hub.rules.engine import evolve
from tests.rules.random_play import random_command

DISCIPLINES = ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine"]
RESPOTTABLE = {"golden_nine": {9}, "wpa_nine": {9}, "chase_nine": {9}, "chinese_eight": {8}}


def setup_for(discipline: str, handicap: bool):
    players = [
        {"id": "a", "name": "A"},
        {"id": "b", "name": "B", **({"handicap": "eight"} if handicap and discipline == "golden_nine" else {})},
    ]
    if discipline == "chase_nine":
        players.append({"id": "c", "name": "C"})
    fmt = {"race_to": 3} if discipline in ("wpa_nine", "chinese_eight") else {"racks": 3}
    return validate_setup({"discipline": discipline, "players": players, "format": fmt,
                           "options": {"shot_clock": {"shot_s": 30}}}, match_id="m", tournament_id="t", table_id="tb")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(discipline=st.sampled_from(DISCIPLINES), seed=st.integers(0, 2**32), steps=st.integers(1, 160),
       handicap=st.booleans(), split=st.floats(0, 1))
def test_random_sequences(discipline: str, seed: int, steps: int, handicap: bool, split: float) -> None:
    rnd = random.Random(seed)
    setup = setup_for(discipline, handicap)
    state = initial(setup)
    events: list[Event] = []
    now = 0
    for _ in range(steps):
        before = projection(state)
        cmd = random_command(before, rnd)
        try:
            kind, data = decide(state, cmd)
        except Reject as r:
            assert r.code in {"bad_command", "not_your_turn", "decision_pending", "no_decision_pending", "bad_choice",
                              "not_allowed", "match_over", "not_started", "already_started", "nothing_to_undo"}
            assert projection(state) == before
            continue
        now += rnd.randint(1, 5000)
        ev = Event(len(events) + 1, kind, data, now)
        if kind == "undo":
            events = [
                Event(e.version, e.kind, e.data, e.at, None, True) if e.version == data["target"] else e for e in events
            ]
            events.append(ev)
            state = fold(setup, events)
            continue
        events.append(ev)
        state = evolve(state, ev)
        after = projection(state)
        assert after["version"] == ev.version
        same_rack = after["rack"]["number"] == before["rack"]["number"] and after["rack"]["phase"] not in (
            "break",
            "lag",
            "over",
        )
        if same_rack and before["rack"]["phase"] != "break" and kind == "shot":
            came_back = set(after["rack"]["on_table"]) - set(before["rack"]["on_table"])
            assert came_back <= RESPOTTABLE[discipline], (cmd, came_back)
        if discipline == "chase_nine":
            assert sum(p["score"] for p in after["players"]) == 0
        if after["status"] == "finished":
            assert after["result"] is not None and after["rack"]["phase"] == "over"
    # fold of a prefix, then the rest one by one, equals the fold of the whole
    whole = projection(fold(setup, events))
    assert whole == projection(state)
    cut = int(split * len(events))
    partial = fold(setup, events[:cut])
    for ev in events[cut:]:
        partial = fold(setup, events[: ev.version]) if ev.kind == "undo" else evolve(partial, ev)
    assert projection(partial) == whole
