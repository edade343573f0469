"""hub/people/stats.py: the statistics of a match from its stored events, checked against racks
whose counts are known stroke by stroke (pure: the rules engine and the events, no store)."""

from __future__ import annotations

import contextlib
import random

import pytest

import hub.rules as rules
from hub.people import tally
from hub.people.stats import match_tallies
from hub.rules import Reject
from tests.rules.harness import Match
from tests.rules.random_play import random_command


def summary(m: Match) -> dict[str, dict]:
    found = match_tallies(rules, m.setup, m.events)
    return {pid: tally.summary(t) for pid, t in found.tallies.items()}


def test_break_and_run_a_dry_break_and_an_undone_stroke() -> None:
    m = Match("golden_nine", fmt={"racks": 2})
    m.send({"kind": "start", "breaker": "a"})
    # rack 1: a breaks, pockets the 2, then runs out: a break-and-run
    m.shot("a", 1, [2], break_crossings=4)
    m.shot("a", 1, [1, 3, 4, 5, 6, 7, 8])
    m.shot("a", 9, [9])
    # rack 2: a breaks dry (legal, nothing down); b's stroke entered wrongly, undone, entered again
    m.shot("a", 1, [], break_crossings=5)
    m.shot("b", 1, [1])
    m.send({"kind": "undo"})
    m.shot("b", 1, [], rail=True)
    m.shot("a", 1, [1, 2, 3, 4, 5, 6, 7, 8, 9])
    assert m.proj["status"] == "finished" and m.proj["winner"] == "a"
    s = summary(m)
    a, b = s["a"], s["b"]
    assert a["matches"] == {"played": 1, "won": 1, "entered": 0} and b["matches"]["won"] == 0
    assert a["racks"] == {"played": 2, "won": 2, "won_on_own_break": 2, "won_on_opponent_break": 0}
    assert b["racks"] == {"played": 2, "won": 0, "won_on_own_break": 0, "won_on_opponent_break": 0}
    assert a["breaks"] == {"taken": 2, "balls": 1, "dry": 1, "fouls": 0, "racks_won": 2}
    assert b["breaks"]["taken"] == 0
    assert a["break_and_runs"] == 1 and a["table_runs"] == 0 and a["golden_breaks"] == 0
    assert a["strokes"]["count"] == 5 and b["strokes"]["count"] == 1  # the undone stroke never counts
    assert a["fouls"]["total"] == b["fouls"]["total"] == 0
    # the engine's own counts, as the match projection shows them
    assert {k: a[k] for k in ("break_and_runs", "table_runs", "golden_breaks")} == {
        k: m.p("a")["stats"][k] for k in ("break_and_runs", "table_runs", "golden_breaks")}


def test_a_foul_on_the_break_and_a_rack_won_on_the_opponents_break() -> None:
    m = Match("wpa_nine", fmt={"race_to": 1})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [3], cue_ball="pocketed", break_rails=4)  # scratch on the break
    m.send({"kind": "decision", "player": "b", "choice": "play"})
    m.shot("b", 1, [1, 2, 4, 5, 6, 7, 8, 9])
    assert m.proj["winner"] == "b"
    a, b = summary(m)["a"], summary(m)["b"]
    assert a["breaks"] == {"taken": 1, "balls": 1, "dry": 0, "fouls": 1, "racks_won": 0}
    assert a["fouls"] == {"total": 1, "by_code": {"scratch": 1}}
    assert b["racks"]["won_on_opponent_break"] == 1 and b["racks"]["won_on_own_break"] == 0
    assert b["table_runs"] == m.p("b")["stats"]["table_runs"] == 1


def test_a_foul_before_the_break_stroke_counts_as_the_break() -> None:
    m = Match("wpa_nine", fmt={"race_to": 2})
    m.send({"kind": "start", "breaker": "a"})
    m.send({"kind": "foul", "player": "a", "reason": "touched_ball"})
    s = summary(m)["a"]
    assert s["breaks"] == {"taken": 1, "balls": 0, "dry": 1, "fouls": 1, "racks_won": 0}
    assert s["fouls"]["by_code"] == {"touched_ball": 1} and s["strokes"]["count"] == 0


def test_a_hand_result_is_a_match_and_its_racks_but_no_stroke_statistics() -> None:
    m = Match("wpa_nine", fmt={"race_to": 3})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_rails=4)
    m.send({"kind": "result_entered", "winner": "a", "score": {"a": 3, "b": 1}}, server=True)
    found = match_tallies(rules, m.setup, m.events)
    assert found.entered
    a, b = (tally.summary(found.tallies[p]) for p in "ab")
    assert a["matches"] == {"played": 1, "won": 1, "entered": 1} and b["matches"] == {"played": 1, "won": 0,
                                                                                        "entered": 1}
    assert a["racks"]["played"] == b["racks"]["played"] == 4 and (a["racks"]["won"], b["racks"]["won"]) == (3, 1)
    assert a["breaks"]["taken"] == 0 and a["strokes"]["count"] == 0 and a["strokes"]["timed"] == 0


def test_a_hand_result_in_points_counts_no_racks() -> None:
    m = Match("golden_nine", fmt={"racks": 3})
    m.send({"kind": "result_entered", "winner": "b", "score": {"a": 4, "b": 10}}, server=True)
    b = tally.summary(match_tallies(rules, m.setup, m.events).tallies["b"])
    assert b["matches"] == {"played": 1, "won": 1, "entered": 1} and b["racks"]["played"] == 0


def test_time_per_stroke_leaves_pauses_out() -> None:
    m = Match("wpa_nine", fmt={"race_to": 3}, t0=0)
    m.send({"kind": "start", "breaker": "a"}, at=1_000)
    m.shot("a", 1, [2], break_rails=4, at=11_000)  # 10 s after the start
    m.send({"kind": "pause"}, at=16_000)  # 5 s into the next stroke ...
    m.send({"kind": "resume"}, at=76_000)  # ... a minute paused ...
    m.shot("a", 1, [1], at=79_000)  # ... and 3 s more: 8 s
    m.shot("a", 3, [], rail=True, at=100_000)  # 21 s
    a = summary(m)["a"]["strokes"]
    assert a["count"] == 3 and a["timed"] == 3
    assert a["median_ms"] == 10_250 and a["p90_ms"] == 21_250  # the middle of each half-second bin


def test_entered_at_is_when_the_stroke_was_played() -> None:
    m = Match("wpa_nine", fmt={"race_to": 3}, t0=0)
    m.send({"kind": "start", "breaker": "a"}, at=1_000)
    m.send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "break_rails": 4,
            "entered_at": 4_000}, at=9_000)  # a tablet offline: stored 5 s after the referee entered it
    assert summary(m)["a"]["strokes"]["median_ms"] == 3_250


def test_intent_pot_and_safety_success() -> None:
    m = Match("wpa_nine", fmt={"race_to": 3})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_rails=4)
    m.shot("a", 1, [1], intent="pot")  # pocketed, kept the table: success
    m.shot("a", 3, [], rail=True, intent="pot")  # missed: the turn passes
    m.shot("b", 3, [], rail=True, intent="safety")  # legal safety ...
    m.shot("a", 3, [], rail=True)  # ... a pockets nothing: success
    m.shot("b", 3, [], rail=True, intent="safety")  # a safety ...
    m.shot("a", 3, [3])  # ... a pockets the 3: not a success
    m.shot("a", 4, [], intent="kick")  # no rail: a foul, and a kick counted
    m.shot("b", 5, [], intent="safety")  # a foul (wrong ball first): not a success
    s = summary(m)
    assert s["a"]["intent"] == {"pot": {"strokes": 2, "success": 1}, "safety": {"strokes": 0, "success": 0},
                                "kick": {"strokes": 1}}
    assert s["b"]["intent"]["safety"] == {"strokes": 3, "success": 1}


def test_a_pot_that_wins_the_rack_is_a_success() -> None:
    m = Match("wpa_nine", fmt={"race_to": 3})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_rails=4)
    m.shot("a", 1, [1, 9], intent="pot")  # the 9 on a legal stroke: the rack is a's
    assert summary(m)["a"]["intent"]["pot"] == {"strokes": 1, "success": 1}


def test_intent_is_checked_by_the_rules_and_never_changes_a_verdict() -> None:
    with_intent, without = Match("wpa_nine"), Match("wpa_nine")
    strokes = [("a", 1, [2], {"break_rails": 4}, "pot"), ("a", 1, [], {"rail": True}, "pot"),
               ("b", 1, [], {"rail": True}, "safety"), ("a", 1, [], {}, "kick"), ("b", 1, [1], {}, "pot")]
    for m in (with_intent, without):
        m.send({"kind": "start", "breaker": "a"})
    for player, first, pocketed, facts, intent in strokes:
        assert with_intent.shot(player, first, pocketed, intent=intent, **facts) == without.shot(
            player, first, pocketed, **facts)
    m = Match("wpa_nine")
    m.send({"kind": "start", "breaker": "a"})
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1, "intent": "smash"}) == "bad_command"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1, "intent": 3}) == "bad_command"
    m.shot("a", 1, [2], break_rails=4, intent=None)  # null is none
    assert "intent" not in m.events[-1].data
    m.shot("a", 1, [1], intent="pot")
    assert m.events[-1].data["intent"] == "pot"


def test_a_stalemate_takes_back_the_racks_foul_codes_as_the_engine_takes_back_its_fouls() -> None:
    m = Match("wpa_nine", fmt={"race_to": 3})
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_rails=4)
    m.shot("a", 5, [])  # wrong ball first
    assert m.p("a")["stats"]["fouls"] == 1
    m.send({"kind": "stalemate"})
    a = summary(m)["a"]
    assert a["fouls"]["total"] == m.p("a")["stats"]["fouls"] == 0 and a["fouls"]["by_code"] == {}


@pytest.mark.parametrize("discipline", ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "wpa_eight",
                                        "wpa_ten"])
def test_random_matches_fold_and_agree_with_the_engine(discipline: str) -> None:
    """Random play (mostly legal, some refused, undos, stalemates, pauses): the fold never fails, the
    engine's counts are the engine's, and the counts hold together."""
    rnd = random.Random(hash(discipline) % 1000)
    for _ in range(6):
        m = Match(discipline)
        for _ in range(300):
            with contextlib.suppress(Reject):
                m.send(random_command(m.proj, rnd))
            if m.proj["status"] == "finished":
                break
        found = match_tallies(rules, m.setup, m.events)
        for p in m.proj["players"]:
            t = found.tallies[p["id"]]
            for key in ("break_and_runs", "table_runs", "golden_breaks", "fouls"):
                assert t[key] == p["stats"][key]
            assert t["dry_breaks"] <= t["breaks"] and t["break_fouls"] <= t["breaks"]
            assert t["racks_won"] == t["racks_won_own_break"] + t["racks_won_opponent_break"] == len(
                [r for r in m.proj["racks"] if r["winner"] == p["id"]])
            assert sum(int(v) for v in t["stroke_ms"].values()) <= t["strokes"]
            assert t["matches"] == (1 if m.proj["status"] == "finished" else 0)
