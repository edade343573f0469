"""What the rules do for a tablet that was offline (docs/realtime.md, "Protocol choices"):

- a turn command that names no player is taken for the player at the table;
- a turn command entered (`entered_at`) before the shot clock ran out takes back the time foul
  stored after it (the expiry is voided, the command judged as if it had not happened);
- `link_lost` / `link_restored` (server-made) pause and resume the shot clock, and are never undone.
"""

from __future__ import annotations

import pytest

from hub.rules import Event, decide, fold, projection
from tests.rules.harness import Match

CLOCK = {"shot_clock": {"shot_s": 30, "break_s": 30, "extension_s": 20}}


def started(d: str = "golden_nine", **kw) -> Match:
    m = Match(d, options=kw.pop("options", CLOCK), **kw)
    m.send({"kind": "start", **({"order": ["a", "b", "c"]} if d == "chase_nine" else {"breaker": "a"})})
    return m


def folded(m: Match) -> dict:
    """The projection of a fresh fold of the stored events: what a restarted hub would show."""
    return projection(fold(m.setup, m.events))


# --- a stroke that names no player ------------------------------------------------------------


@pytest.mark.parametrize("d", ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine"])
def test_a_stroke_without_player_is_the_shooters(d):
    m = started(d)
    breaks = {"break_crossings": 4} if d == "golden_nine" else {"break_rails": 4}
    first = 1
    p = m.send({"kind": "shot", "first_contact": first, "pocketed": [], **breaks})
    assert m.events[-1].data["player"] == "a"  # stored with the player it was taken for
    after = p["rack"]["shooter"]
    assert after != "a"
    p = m.send(
        {
            "kind": "shot",
            "player": None,
            "first_contact": min(p["rack"]["on_table"]) if d != "chinese_eight" else 2,
            "pocketed": [],
            "rail": True,
        }
    )
    assert m.events[-1].data["player"] == after
    assert p == folded(m)


def test_four_strokes_across_two_turn_changes_without_players_keep_the_order():
    m = started()
    m.send({"kind": "shot", "first_contact": 1, "pocketed": [3], "break_crossings": 4})  # a shoots on
    m.send({"kind": "shot", "first_contact": 1, "pocketed": [], "rail": True})  # a's safety: b
    m.send({"kind": "shot", "first_contact": 1, "pocketed": [1]})  # b pots: b shoots on
    m.send({"kind": "shot", "first_contact": 2, "pocketed": [], "rail": False})  # b: no rail, foul: a
    assert [e.data["player"] for e in m.events[1:]] == ["a", "a", "b", "b"]
    p = m.proj
    assert p["rack"]["shooter"] == "a" and p["rack"]["ball_in_hand"] == "anywhere"
    assert p["last"]["fouls"] == ["no_rail"]


def test_other_turn_commands_without_player():
    m = started("golden_nine")
    m.send({"kind": "shot", "first_contact": 1, "pocketed": [3], "break_crossings": 4})
    m.send({"kind": "extension"})
    assert m.events[-1].data["player"] == "a" and m.p("a")["extensions_left"] == 0
    m.send({"kind": "foul", "reason": "touched_ball"})
    assert m.events[-1].data["player"] == "a" and m.p("b")["score"] == 1
    m.send({"kind": "concede", "scope": "rack"})
    assert m.events[-1].data["player"] == "b"  # b was at the table after a's foul
    assert m.proj["racks"][-1]["winner"] == "a"


def test_a_decision_without_player_is_the_choosers():
    m = started("golden_nine")
    p = m.send({"kind": "shot", "first_contact": 1, "pocketed": [], "break_crossings": 1})  # loss of chance
    assert p["rack"]["pending"]["player"] == "b"
    m.send({"kind": "decision", "choice": "play"})
    assert m.events[-1].data["player"] == "b"
    assert m.proj["rack"]["shooter"] == "b"


def test_no_player_at_the_table_gives_the_usual_codes():
    m = Match("golden_nine")
    assert m.reject({"kind": "shot", "first_contact": 1}) == "not_started"
    m.send({"kind": "start", "breaker": "a"})
    m.send({"kind": "shot", "first_contact": 1, "pocketed": [], "break_crossings": 1})  # b decides
    assert m.reject({"kind": "shot", "first_contact": 1}) == "decision_pending"
    assert m.reject({"kind": "foul", "reason": "other"}) == "decision_pending"
    m.send({"kind": "decision", "choice": "play"})
    assert m.reject({"kind": "decision", "choice": "play"}) == "no_decision_pending"
    assert (
        m.reject({"kind": "shot", "player": "a", "first_contact": 1}) == "not_your_turn"
    )  # a named player still counts
    m.send({"kind": "pause"})
    assert m.reject({"kind": "shot", "first_contact": 1}) == "not_allowed"  # paused first, as always
    m.send({"kind": "resume"})
    m.send({"kind": "concede", "scope": "match"})
    assert m.reject({"kind": "shot", "first_contact": 1}) == "match_over"


def test_lag_has_nobody_at_the_table():
    m = Match("golden_nine")
    m.send({"kind": "lag", "winner": "a"})
    m.send({"kind": "decision", "choice": "break"})
    assert m.events[-1].data["player"] == "a"
    assert m.proj["rack"]["shooter"] == "a"


# --- entered before the shot clock ran out -----------------------------------------------------


def expired_after_break(entered_offset: int = -500) -> tuple[Match, int]:
    """a breaks legally and shoots on; a's clock (30 s) runs out and the hub stores the time foul.
    Returns the match and the ms at which a stroke was entered relative to the expiry."""
    m = started()
    m.send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [3], "break_crossings": 4}, at=2_000_000)
    deadline = m.proj["clock"]["shot"]["deadline"]
    assert deadline == 2_030_000
    m.send({"kind": "clock_expired", "player": "a"}, at=deadline + 5, server=True)
    assert m.proj["rack"]["shooter"] == "b" and m.p("b")["score"] == 1
    return m, deadline + entered_offset


def test_a_stroke_entered_before_the_expiry_takes_the_time_foul_back():
    m, entered = expired_after_break(-500)
    p = m.send({"kind": "shot", "first_contact": 1, "pocketed": [1], "entered_at": entered}, at=2_040_000)
    ev = m.events[-1]
    assert ev.data["voids"] == 2 + 1 and ev.data["player"] == "a" and ev.data["entered_at"] == entered
    assert m.events[2].voided  # the clock_expired
    assert p["rack"]["shooter"] == "a" and m.p("b")["score"] == 0  # no time foul: a potted the 1
    assert "entered before the shot clock ran out: the time foul is taken back" in p["last"]["notes"]
    assert p == folded(m)


def test_named_player_too_and_after_link_events():
    m, entered = expired_after_break(-100)
    m.send({"kind": "link_lost", "since": entered - 5000}, at=2_031_000, server=True)
    m.send({"kind": "link_restored"}, at=2_050_000, server=True)
    p = m.send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [], "rail": True, "entered_at": entered},
               at=2_050_010)
    assert m.events[-1].data["voids"] == 3
    assert p["rack"]["shooter"] == "b" and m.p("b")["score"] == 0  # a's safety, no foul
    assert p == folded(m)


@pytest.mark.parametrize("why", ["entered after the expiry", "entered before the turn", "named the other player",
                                 "another event since"])
def test_the_time_foul_stands(why):
    m, entered = expired_after_break(+200 if why == "entered after the expiry" else -500)
    cmd = {"kind": "shot", "first_contact": 1, "pocketed": [], "rail": True, "entered_at": entered}
    if why == "entered before the turn":
        cmd["entered_at"] = 1_999_000
    if why == "named the other player":
        cmd["player"] = "b"
    if why == "another event since":
        m.send({"kind": "pause"})
        m.send({"kind": "resume"})
    m.send(cmd)
    assert "voids" not in m.events[-1].data
    assert not m.events[2].voided
    assert m.events[-1].data["player"] == "b" and m.p("b")["score"] == 1


def test_a_command_refused_on_the_earlier_turn_is_judged_on_the_match_as_it_is():
    m = started()
    m.send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [3], "break_crossings": 4}, at=2_000_000)
    m.send({"kind": "extension", "player": "a"}, at=2_001_000)  # a's only extension
    deadline = m.proj["clock"]["shot"]["deadline"]
    m.send({"kind": "clock_expired", "player": "a"}, at=deadline, server=True)
    # An extension entered before the expiry: a had none left, so it is b's, on the match as it is.
    m.send({"kind": "extension", "entered_at": deadline - 100})
    assert "voids" not in m.events[-1].data and m.events[-1].data["player"] == "b"
    assert not m.events[3].voided and m.p("b")["score"] == 1
    # The 3 went down on the break: refused on both.
    assert (
        m.reject({"kind": "shot", "first_contact": 1, "pocketed": [3], "entered_at": deadline - 100}) == "bad_command"
    )


def test_undo_of_the_superseding_stroke_leaves_the_expiry_void():
    m, entered = expired_after_break(-500)
    m.send({"kind": "shot", "first_contact": 1, "pocketed": [1], "entered_at": entered})
    p = m.send({"kind": "undo"})
    assert p["rack"]["shooter"] == "a" and m.p("b")["score"] == 0
    assert p == folded(m)


def test_entered_at_shape():
    m = started()
    assert m.reject({"kind": "shot", "first_contact": 1, "entered_at": "soon", "break_crossings": 4}) == "bad_command"
    assert m.reject({"kind": "shot", "first_contact": 1, "entered_at": -1, "break_crossings": 4}) == "bad_command"
    assert m.reject({"kind": "shot", "first_contact": 1, "entered_at": True, "break_crossings": 4}) == "bad_command"
    m.send({"kind": "shot", "first_contact": 1, "entered_at": 5, "break_crossings": 4, "pocketed": [2]})
    assert m.events[-1].data["entered_at"] == 5


# --- the link ------------------------------------------------------------------------------------


def test_link_lost_pauses_the_clock_from_when_the_tablet_was_last_heard():
    m = started()
    start_at = m.events[0].at
    p = m.send({"kind": "link_lost", "since": start_at + 4000}, at=start_at + 7000, server=True)
    shot = p["clock"]["shot"]
    assert shot["running"] is False and shot["remaining_ms"] == 26_000 and shot["reason"] == "link"
    assert p["link"] == {"lost": True, "since": start_at + 4000}
    assert p["last"]["kind"] == "start"  # a link event is not play
    p = m.send({"kind": "link_restored"}, at=start_at + 60_000, server=True)
    assert p["clock"]["shot"]["running"] is True and p["clock"]["shot"]["deadline"] == start_at + 60_000 + 26_000
    assert p["link"] == {"lost": False, "since": None}
    assert p == folded(m)


def test_link_lost_since_before_the_turn_keeps_the_whole_limit_and_never_goes_negative():
    m = started()
    start_at = m.events[0].at
    p = m.send({"kind": "link_lost", "since": start_at - 99_000}, at=start_at + 1000, server=True)
    assert p["clock"]["shot"]["remaining_ms"] == 30_000
    m2 = started()
    p = m2.send({"kind": "link_lost", "since": m2.events[0].at + 45_000}, at=m2.events[0].at + 50_000, server=True)
    assert p["clock"]["shot"]["remaining_ms"] == 0


def test_link_events_are_server_made_and_only_when_they_change_something():
    m = started()
    assert m.reject({"kind": "link_lost", "since": 1}) == "bad_command"  # not from a tablet
    assert m.reject({"kind": "link_restored"}, server=True) == "not_allowed"
    assert m.reject({"kind": "link_lost"}, server=True) == "bad_command"
    m.send({"kind": "link_lost", "since": m.now}, server=True)
    assert m.reject({"kind": "link_lost", "since": m.now}, server=True) == "not_allowed"
    assert m.reject({"kind": "clock_expired", "player": "a"}, server=True) == "not_allowed"
    no_clock = Match("golden_nine")
    no_clock.send({"kind": "start", "breaker": "a"})
    assert no_clock.reject({"kind": "link_lost", "since": 1}, server=True) == "not_allowed"


def test_strokes_while_the_link_is_lost_start_a_paused_clock_and_the_referee_pause_is_kept():
    m = started()
    m.send({"kind": "link_lost", "since": m.now}, server=True)
    p = m.send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "break_crossings": 4})
    assert p["clock"]["shot"]["running"] is False and p["clock"]["shot"]["remaining_ms"] == 30_000
    m.send({"kind": "pause"})
    assert m.proj["clock"]["shot"]["reason"] == "pause"
    m.send({"kind": "resume"})  # the link is still lost: the clock stays stopped
    assert m.proj["clock"]["shot"]["running"] is False and m.proj["clock"]["shot"]["reason"] == "link"
    m.send({"kind": "pause"})
    p = m.send({"kind": "link_restored"}, server=True)  # the referee's pause still holds
    assert p["clock"]["shot"]["running"] is False and p["paused"] is True
    p = m.send({"kind": "resume"})
    assert p["clock"]["shot"]["running"] is True
    assert p == folded(m)


def test_undo_never_voids_a_link_event():
    m = started()
    m.send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "break_crossings": 4})
    m.send({"kind": "link_lost", "since": m.now}, server=True)
    m.send({"kind": "link_restored"}, server=True)
    m.send({"kind": "undo"})
    assert m.events[1].voided and not m.events[2].voided and not m.events[3].voided
    assert m.proj["rack"]["phase"] == "break"


def test_a_finished_match_shows_no_lost_link():
    m = started("wpa_nine", fmt={"race_to": 1})
    m.send({"kind": "link_lost", "since": m.now}, server=True)
    p = m.send({"kind": "concede", "player": "a", "scope": "match"})
    assert p["status"] == "finished" and p["link"]["lost"] is False


def test_decide_is_pure_on_the_state_it_is_given():
    m, entered = expired_after_break(-500)
    before = projection(m.state)
    kind, data = decide(m.state, {"kind": "shot", "first_contact": 1, "pocketed": [1], "entered_at": entered})
    assert projection(m.state) == before and kind == "shot" and data["voids"] == 3
    again = decide(m.state, {"kind": "shot", "first_contact": 1, "pocketed": [1], "entered_at": entered})
    assert again == (kind, data)
    assert isinstance(m.events[0], Event)
