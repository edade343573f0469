"""The registration's pure rules (hub/registration/decide.py) folded by hub/registration/state.py:
every state of an entry, promotion, the cap, duplicates, the window, and the players' steps."""

from __future__ import annotations

from typing import Any

import pytest

from hub.draws.events import DrawReject
from hub.registration.decide import decide, next_step
from hub.registration.state import Event, RegistrationState, evolve

NOW = 1_000_000


class Stream:
    """A registration folded from the events its commands decide, as the registrar does."""

    def __init__(self, **settings: Any) -> None:
        self.state = RegistrationState("t1")
        self.events: list[Event] = []
        if settings:
            self.do({"kind": "configure", "registration": settings})

    def do(self, command: dict[str, Any], now: int = NOW, draw_made: bool = False) -> Event | None:
        decided = decide(self.state, command, now, draw_made)
        if decided is None:
            return None
        event = Event(self.state.version + 1, decided[0], decided[1], now)
        self.events.append(event)
        self.state = evolve(self.state, event)
        return event

    def sign_up(self, name: str, **kw: Any) -> str:
        event = self.do({"kind": "sign_up", "name": name, "secret_hash": f"h-{name}", **kw})
        assert event is not None
        return str(event.data["entry"]["id"])

    def status(self, eid: str) -> str:
        entry = self.state.entry(eid)
        assert entry is not None
        return entry.status


def refused(stream: Stream, command: dict[str, Any], **kw: Any) -> str:
    with pytest.raises(DrawReject) as exc:  # RegistrationReject, or the field checks of hub/draws/fields.py
        stream.do(command, **kw)
    return exc.value.code


def test_closed_until_opened_and_after_closes_at_and_once_drawn() -> None:
    s = Stream()
    assert refused(s, {"kind": "sign_up", "name": "Ann", "secret_hash": "h"}) == "registration_closed"
    s.do({"kind": "configure", "registration": {"open": True, "closes_at": NOW + 10}})
    assert s.status(s.sign_up("Ann")) == "pending"
    assert refused(s, {"kind": "sign_up", "name": "Bob", "secret_hash": "h"}, now=NOW + 10) == "registration_closed"
    assert refused(s, {"kind": "sign_up", "name": "Bob", "secret_hash": "h"}, draw_made=True) == "registration_closed"


def test_every_status_of_an_entry() -> None:
    s = Stream(open=True, cap=1, auto_accept=True, check_in={"closes_at": NOW + 100})
    a, b, c, d = (s.sign_up(n) for n in ("Ann", "Bob", "Cat", "Dan"))
    assert [s.status(e) for e in (a, b, c, d)] == ["accepted", "waitlisted", "waitlisted", "waitlisted"]
    s.do({"kind": "reject", "entry": d})
    assert s.status(d) == "rejected"
    s.do({"kind": "cancel", "entry": a, "by": "self"})  # Ann's place goes to Bob
    assert (s.status(a), s.status(b)) == ("cancelled", "accepted")
    entry = s.state.entry(b)
    assert entry is not None and entry.promoted
    s.do({"kind": "check_in", "entry": b, "by": "self"})
    assert s.status(b) == "checked_in"
    s.do({"kind": "accept", "entry": c})  # the desk may accept over the cap
    s.do({"kind": "close_check_in"}, now=NOW + 100)
    assert s.status(c) == "no_show" and s.state.no_shows == (c,)
    assert s.state.counts() == {"pending": 0, "accepted": 0, "waitlisted": 0, "rejected": 1, "cancelled": 1,
                                "checked_in": 1, "no_show": 1, "total": 4}


def test_pending_without_auto_accept_and_the_waitlist_places() -> None:
    s = Stream(open=True)
    ids = [s.sign_up(n) for n in ("Ann", "Bob", "Cat")]
    assert {s.status(e) for e in ids} == {"pending"}
    s.do({"kind": "waitlist", "entry": ids[2]})
    s.do({"kind": "waitlist", "entry": ids[0]})
    assert (s.state.place(ids[2]), s.state.place(ids[0]), s.state.place(ids[1])) == (1, 2, None)


def test_no_promotion_after_the_draw_or_over_a_lowered_cap() -> None:
    s = Stream(open=True, cap=1, auto_accept=True)
    a, b = s.sign_up("Ann"), s.sign_up("Bob")
    s.do({"kind": "cancel", "entry": a, "by": "self"}, draw_made=True)
    assert s.status(b) == "waitlisted"
    s2 = Stream(open=True, cap=2, auto_accept=True)
    a, _, c = s2.sign_up("Ann"), s2.sign_up("Bob"), s2.sign_up("Cat")
    s2.do({"kind": "configure", "registration": {"cap": 1}})
    s2.do({"kind": "cancel", "entry": a})
    assert s2.status(c) == "waitlisted"  # one still plays: the cap of 1 is full


def test_duplicates_fold_and_a_cancelled_entry_may_enter_again() -> None:
    s = Stream(open=True)
    a = s.sign_up("Zoë Wang", contact="138 0000")
    assert refused(s, {"kind": "sign_up", "name": "zoe  WANG", "contact": "138 0000", "secret_hash": "h"}) \
        == "already_entered"
    s.do({"kind": "cancel", "entry": a})
    assert s.status(s.sign_up("zoe wang", contact="138 0000")) == "pending"


@pytest.mark.parametrize("command, code", [
    ({"kind": "accept", "entry": "e9"}, "unknown_entry"),
    ({"kind": "check_in", "entry": "e1", "by": "self"}, "check_in_not_open"),
    ({"kind": "close_check_in"}, "check_in_open"),
    ({"kind": "nope"}, "bad_request"),
    ({"kind": "configure", "registration": {"cap": 5000}}, "bad_request"),
    ({"kind": "configure", "registration": {"check_in": {"opens_at": 9}}}, "bad_request"),
    ({"kind": "configure", "registration": {"check_in": {"closes_at": None}}}, "bad_request"),
    ({"kind": "configure", "registration": {"colour": "red"}}, "bad_request"),
])
def test_refusals(command: dict[str, Any], code: str) -> None:
    s = Stream(open=True, auto_accept=True, check_in={"opens_at": NOW + 50, "closes_at": NOW + 100})
    s.sign_up("Ann")
    assert refused(s, command) == code


def test_the_close_is_stored_once_and_freezes_the_window() -> None:
    s = Stream(open=True, auto_accept=True, check_in={"closes_at": NOW})
    s.sign_up("Ann")
    s.do({"kind": "close_check_in"})
    assert refused(s, {"kind": "close_check_in"}) == "check_in_closed"
    assert refused(s, {"kind": "configure", "registration": {"check_in": {"closes_at": NOW + 5}}}) == "check_in_closed"
    assert refused(s, {"kind": "check_in", "entry": "e1"}) == "check_in_closed"


def test_next_step_adds_players_and_takes_out_the_ones_that_stopped() -> None:
    s = Stream(open=True, auto_accept=True)
    a = s.sign_up("Ann")
    step = next_step(s.state, {})
    assert step is not None and step[0] == "add" and step[1].id == a
    s.do({"kind": "player_added", "entry": a, "player": "p1"})
    assert next_step(s.state, {"p1": False}) is None
    s.do({"kind": "cancel", "entry": a})
    step = next_step(s.state, {"p1": False})
    assert step is not None and step[0] == "out"
    s.do({"kind": "player_out", "entry": a, "how": "removed"})
    assert next_step(s.state, {}) is None


def test_a_refused_player_is_not_tried_again_and_a_desk_withdrawal_is_followed() -> None:
    s = Stream(open=True, auto_accept=True, cap=1)
    a, b = s.sign_up("Ann"), s.sign_up("Bob")
    s.do({"kind": "player_added", "entry": a, "player": "p1"})
    assert s.do({"kind": "player_left", "player": "p7"}) is None  # no entry's player
    s.do({"kind": "player_left", "player": "p1"})
    assert (s.status(a), s.status(b)) == ("cancelled", "accepted")
    s.do({"kind": "player_added", "entry": b, "player": None, "refused": "draw_used"})
    assert next_step(s.state, {"p1": True}) is None


def test_the_fold_is_pure() -> None:
    s = Stream(open=True, auto_accept=True, cap=2)
    for n in ("Ann", "Bob", "Cat"):
        s.sign_up(n)
    s.do({"kind": "cancel", "entry": "e1"})
    again = RegistrationState("t1")
    for event in s.events:
        again = evolve(again, event)
    assert again == s.state
