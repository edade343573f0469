"""Rules common to the four disciplines (RULES.md "Common to all four", "Settled details",
"Shot clock") and the reject codes of PROTOCOL.md section 3."""

import pytest

from hub.rules import fold
from tests.rules.harness import Match


def started(d="golden_nine", **kw) -> Match:
    m = Match(d, **kw)
    m.send({"kind": "start", **({"order": ["a", "b", "c"]} if d == "chase_nine" else {"breaker": "a"})})
    return m


@pytest.mark.parametrize("d", ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine"])
def test_rejects_leave_state_unchanged(d):
    m = started(d)
    assert m.reject({"kind": "shot", "player": "b", "first_contact": 1}) == "not_your_turn"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [3, 3]}) == "bad_command"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [16]}) == "bad_command"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": "1"}) == "bad_command"
    assert m.reject({"kind": "fly"}) == "bad_command"
    assert m.reject({"kind": "clock_expired", "player": "a"}) == "bad_command"  # server-made only
    assert m.reject({"kind": "decision", "player": "a", "choice": "play"}) == "no_decision_pending"
    assert (
        m.reject(
            {"kind": "start", "breaker": "a"} if d != "chase_nine" else {"kind": "start", "order": ["a", "b", "c"]}
        )
        == "already_started"
    )
    assert m.reject({"kind": "resume"}) == "not_allowed"
    assert m.reject({"kind": "extension", "player": "a"}) == "not_allowed"  # no shot clock


def test_ball_not_on_table_is_bad_command():
    m = started("wpa_nine")
    m.shot("a", 1, [3], break_rails=1)
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [3]}) == "bad_command"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 3}) == "bad_command"


@pytest.mark.parametrize("d", ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "wpa_eight", "wpa_ten"])
def test_intent_is_optional_checked_and_never_changes_a_verdict(d):
    # PROTOCOL.md section 12: intent is pot, safety or kick; anything else is bad_command
    plain, meant = started(d), started(d)
    for bad in ("smash", 1, True, ["pot"]):
        assert meant.reject({"kind": "shot", "player": "a", "first_contact": 1, "intent": bad}) == "bad_command"
    for intent in ("kick", "safety", "pot"):
        shooter = plain.proj["rack"]["shooter"]
        if shooter is None:
            break
        first = min(plain.proj["rack"]["on_table"])
        assert meant.shot(shooter, first, [], rail=True, break_rails=4, break_crossings=4, intent=intent) == \
            plain.shot(shooter, first, [], rail=True, break_rails=4, break_crossings=4)
        assert meant.events[-1].data["intent"] == intent and "intent" not in plain.events[-1].data


def test_not_started_and_match_over():
    m = Match("wpa_nine", fmt={"race_to": 1})
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1}) == "not_started"
    assert m.reject({"kind": "undo"}) == "nothing_to_undo"
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [9])
    assert m.proj["status"] == "finished" and m.proj["rack"]["phase"] == "over"
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1}) == "match_over"
    p = m.send({"kind": "undo"})  # RULES.md: an undo after the match finished reopens it
    assert p["status"] == "live" and p["rack"]["phase"] == "break"


def test_decision_codes():
    m = started()
    m.shot("a", 1, [2], break_crossings=1)
    assert m.reject({"kind": "shot", "player": "b", "first_contact": 1}) == "decision_pending"
    assert m.reject({"kind": "decision", "player": "a", "choice": "play"}) == "not_your_turn"
    assert m.reject({"kind": "decision", "player": "b", "choice": "dance"}) == "bad_choice"
    assert m.proj["rack"]["shooter"] is None  # Settled details: null during a decision


def test_lag_then_choice():
    m = Match("golden_nine")
    p = m.send({"kind": "lag", "winner": "b"})
    assert p["status"] == "scheduled" and p["rack"]["pending"] == {"player": "b", "options": ["break", "pass"]}
    p = m.send({"kind": "decision", "player": "b", "choice": "break"})
    assert p["status"] == "live" and p["rack"]["breaker"] == "b" and p["rack"]["phase"] == "break"


def test_undo_steps_back_and_equals_fold_of_the_rest():
    m = started()
    m.shot("a", 1, [2], break_crossings=4)
    m.shot("a", 3, [], rail=True)  # foul
    before = m.proj
    p = m.send({"kind": "undo"})
    assert p["players"][1]["score"] == 0 and p["rack"]["shooter"] == "a"
    p = m.send({"kind": "undo"})  # steps one further back: the break
    assert p["rack"]["phase"] == "break" and p["rack"]["on_table"] == list(range(1, 10))
    p = m.send({"kind": "undo"})  # start can be undone
    assert p["status"] == "scheduled"
    assert m.reject({"kind": "undo"}) == "nothing_to_undo"
    remaining = [e for e in m.events if not e.voided and e.kind != "undo"]
    assert remaining == []
    assert before["version"] == 3 and p["version"] == 6


def test_pause_blocks_strokes():
    m = started()
    m.send({"kind": "pause", "reason": "dispute"})
    assert m.reject({"kind": "shot", "player": "a", "first_contact": 1}) == "not_allowed"
    assert m.reject({"kind": "shot", "player": "b", "first_contact": 1}) == "not_allowed"  # before any other check
    assert m.reject({"kind": "pause"}) == "not_allowed"
    m.send({"kind": "resume"})
    m.shot("a", 1, [2], break_crossings=4)


def test_shot_clock_limits_extension_pause_and_expiry():
    opts = {"shot_clock": {"shot_s": 45, "first_shot_s": 60, "break_s": 30, "extension_s": 30}}
    m = Match("golden_nine", options=opts)
    p = m.send({"kind": "start", "breaker": "a"}, at=10_000)
    assert p["clock"]["shot"] == {"player": "a", "limit_s": 30, "extended": False, "running": True,
                                  "deadline": 40_000, "warn_at": 30_000, "countdown_at": 35_000}
    assert m.reject({"kind": "extension", "player": "a"}) == "not_allowed"  # never on a break
    p = m.shot("a", 1, [2], break_crossings=4, at=20_000)
    assert p["clock"]["shot"]["limit_s"] == 60 and p["clock"]["shot"]["deadline"] == 80_000
    p = m.send({"kind": "extension", "player": "a"}, at=25_000)
    assert p["clock"]["shot"]["deadline"] == 110_000 and p["clock"]["shot"]["extended"] is True
    assert p["players"][0]["extensions_left"] == 0
    assert m.reject({"kind": "extension", "player": "a"}) == "not_allowed"
    p = m.send({"kind": "pause"}, at=30_000)
    assert p["clock"]["shot"]["running"] is False and p["clock"]["shot"]["remaining_ms"] == 80_000
    p = m.send({"kind": "resume"}, at=100_000)
    assert p["clock"]["shot"]["deadline"] == 180_000
    p = m.send({"kind": "clock_expired", "player": "a"}, at=180_000, server=True)
    assert p["last"]["fouls"] == ["time"] and p["players"][1]["score"] == 1
    assert p["rack"]["shooter"] == "b" and p["clock"]["shot"]["limit_s"] == 45
    assert m.reject({"kind": "clock_expired", "player": "a"}, server=True) == "not_allowed"
    p = m.send({"kind": "undo"}, at=190_000)  # the clock starts again with its full limit
    assert p["clock"]["shot"]["player"] == "a" and p["clock"]["shot"]["deadline"] == 190_000 + 60_000


def test_fold_is_deterministic_and_matches_evolve():
    m = started("chase_nine")
    m.shot("a", 1, [1])
    m.shot("a", 2, [], rail=True)
    m.shot("b", None)
    from hub.rules import projection
    assert projection(fold(m.setup, m.events)) == m.proj
    assert projection(fold(m.setup, m.events)) == projection(fold(m.setup, list(m.events)))
