"""Property tests over random command sequences, for every discipline judged stroke by stroke and
scored rack by rack:
no exception but Reject; a reject changes nothing; balls only leave the table (except
respots and a new rack); chase_nine scores sum to zero; fold(prefix) + evolve(rest) == fold(all);
undoing the last k accepted commands gives the fold of the ones before them."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.rules import Event, Reject, decide, fold, initial, projection, validate_setup
from hub.rules.engine import evolve
from tests.rules.random_play import random_command

JUDGED = ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "wpa_eight", "wpa_ten"]
# (discipline, scoring): every judged discipline stroke by stroke and rack by rack, and other.
GAMES = [(d, "strokes") for d in JUDGED] + [(d, "racks") for d in JUDGED] + [("other", "racks")]
RESPOTTABLE = {"golden_nine": {9}, "wpa_nine": {9}, "chase_nine": {9}, "chinese_eight": {8}, "wpa_eight": {8},
               "wpa_ten": {10}, "other": set()}
REJECT_CODES = {"bad_command", "not_your_turn", "decision_pending", "no_decision_pending", "bad_choice",
                "not_allowed", "match_over", "not_started", "already_started", "nothing_to_undo"}


def setup_for(discipline: str, handicap: bool, scoring: str = "strokes"):
    players = [
        {"id": "a", "name": "A"},
        {"id": "b", "name": "B", **({"handicap": "eight"} if handicap and discipline == "golden_nine" else {})},
    ]
    if discipline == "chase_nine":
        players.append({"id": "c", "name": "C"})
    fmt: dict = {"racks": 3} if discipline in ("golden_nine", "chase_nine") else {"race_to": 3}
    if discipline == "other":
        fmt["game"] = "one_pocket"
    return validate_setup({"discipline": discipline, "players": players, "format": fmt,
                           "options": {"shot_clock": {"shot_s": 30}, "scoring": scoring}},
                          match_id="m", tournament_id="t", table_id="tb")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), steps=st.integers(1, 160),
       handicap=st.booleans(), split=st.floats(0, 1))
def test_random_sequences(game: tuple[str, str], seed: int, steps: int, handicap: bool, split: float) -> None:
    discipline, scoring = game
    rnd = random.Random(seed)
    setup = setup_for(discipline, handicap, scoring)
    state = initial(setup)
    events: list[Event] = []
    now = 0
    for _ in range(steps):
        before = projection(state)
        cmd = random_command(before, rnd)
        try:
            kind, data = decide(state, cmd)
        except Reject as r:
            assert r.code in REJECT_CODES
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


def _without_undo_traces(proj: dict) -> dict:
    """A projection without what an undo itself changes: the version, `last`, and the shot clock's
    deadline (it starts again with its full limit, RULES.md)."""
    shot = proj["clock"]["shot"]
    return {**proj, "version": None, "last": None,
            "clock": {**proj["clock"], "shot": shot and {"player": shot["player"], "limit_s": shot["limit_s"]}}}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), steps=st.integers(1, 120),
       handicap=st.booleans(), back=st.floats(0, 1))
def test_undo_gives_the_fold_of_what_is_left(game: tuple[str, str], seed: int, steps: int, handicap: bool,
                                             back: float) -> None:
    """Any sequence of accepted commands, then undo after undo: each step equals the fold of the
    commands not undone (RULES.md: the projection must then equal the fold of the remaining events)."""
    discipline, scoring = game
    rnd = random.Random(seed)
    setup = setup_for(discipline, handicap, scoring)
    state = initial(setup)
    events: list[Event] = []
    for _ in range(steps):
        cmd = random_command(projection(state), rnd)
        if cmd["kind"] == "undo":
            continue
        try:
            kind, data = decide(state, cmd)
        except Reject:
            continue
        events.append(Event(len(events) + 1, kind, data, 1000 * (len(events) + 1)))
        state = evolve(state, events[-1])
    accepted = list(events)
    for n in range(len(accepted) - 1, len(accepted) - 1 - int(back * len(accepted)), -1):
        kind, data = decide(state, {"kind": "undo"})
        assert data == {"target": accepted[n].version}
        events = [Event(e.version, e.kind, e.data, e.at, None, e.version == data["target"] or e.voided)
                  for e in events]
        events.append(Event(len(events) + 1, kind, data, 1000 * (len(events) + 1)))
        state = fold(setup, events)
        assert _without_undo_traces(projection(state)) == _without_undo_traces(
            projection(fold(setup, accepted[:n])))
