"""Sign-ups decided as a group (hub/registration/groups.py `decide_group`) and the players' adds
taken in a row (hub/registration/decide.py `adds_in_a_row`): the same outcome as one at a time."""

from __future__ import annotations

import asyncio
from typing import Any

from hub.registration.decide import RegistrationReject, adds_in_a_row, decide
from hub.registration.groups import Waiting, decide_group
from hub.registration.state import Event, RegistrationState, evolve

NOW = 1_000_000


def configured(**settings: Any) -> RegistrationState:
    state = RegistrationState("t1")
    decided = decide(state, {"kind": "configure", "registration": settings}, NOW, False)
    assert decided is not None
    return evolve(state, Event(1, decided[0], decided[1], NOW))


def group(names: list[str]) -> list[Waiting]:
    loop = asyncio.new_event_loop()
    try:
        return [({"kind": "sign_up", "name": n, "secret_hash": f"h{i}"}, loop.create_future())
                for i, n in enumerate(names)]
    finally:
        loop.close()


def test_a_group_takes_the_cap_in_its_order_and_refuses_its_own_duplicates() -> None:
    state = configured(open=True, auto_accept=True, cap=2)
    waiting = group(["Ann", "Bob", "Ann", "Cy", "Di"])
    taken, refused = decide_group(state, waiting, NOW, False)
    assert [e.version for _, e in taken] == [2, 3, 4, 5]
    assert [e.data["entry"]["name"] for _, e in taken] == ["Ann", "Bob", "Cy", "Di"]
    assert [done for done, _ in taken] == [waiting[i][1] for i in (0, 1, 3, 4)]
    assert len(refused) == 1 and refused[0][0] is waiting[2][1]
    assert isinstance(refused[0][1], RegistrationReject) and refused[0][1].code == "already_entered"
    for _, event in taken:
        state = evolve(state, event)
    assert [e.status for e in state.entries.values()] == ["accepted", "accepted", "waitlisted", "waitlisted"]


def test_a_closed_registration_refuses_the_whole_group() -> None:
    taken, refused = decide_group(configured(open=False), group(["Ann", "Bob"]), NOW, False)
    assert taken == [] and [r.code for _, r in refused if isinstance(r, RegistrationReject)] == [
        "registration_closed", "registration_closed"]


def test_adds_in_a_row_stop_at_the_limit_and_skip_the_waitlist() -> None:
    state = configured(open=True, auto_accept=True, cap=3)
    for i, (_, event) in enumerate(decide_group(state, group(["A", "B", "C", "D"]), NOW, False)[0]):
        assert event.version == i + 2
        state = evolve(state, event)
    assert [e.name for e in adds_in_a_row(state, {}, 10)] == ["A", "B", "C"]  # D is waitlisted
    assert [e.name for e in adds_in_a_row(state, {}, 2)] == ["A", "B"]
