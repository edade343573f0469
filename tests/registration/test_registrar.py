"""The registrar (hub/registration/registrar.py) on SQLite and PostgreSQL: sign-ups sent at once
take the cap exactly (the rest waitlisted), each accepted entry is one tournament player linked to a
person, and a withdrawal the registrar did not hear (another process) is followed at the next settle."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.registration.registrar import Registrar
from hub.services import services_of
from hub.settings import Settings


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, sqlite_settings: Settings) -> Iterator[TestClient]:
    settings = sqlite_settings if request.param == "sqlite" else request.getfixturevalue("pg_settings")
    with TestClient(create_app(settings)) as client:
        yield client


def registrar(c: TestClient) -> Registrar:
    reg = services_of(c.app).registration
    assert reg is not None
    return reg


def run(c: TestClient, coro: Any) -> Any:
    async def call() -> Any:
        return await coro()

    assert c.portal is not None
    return c.portal.call(call)


def test_sign_ups_at_once_take_the_cap_exactly(c: TestClient) -> None:
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True, "cap": 5}},
            headers=admin())
    reg = registrar(c)

    async def all_at_once() -> list[Any]:
        return await asyncio.gather(*(reg.apply(tid, {"kind": "sign_up", "name": f"P{i}", "secret_hash": f"h{i}"})
                                      for i in range(16)))

    run(c, all_at_once)
    state = run(c, lambda: reg.state(tid))
    statuses = [e.status for e in state.entries.values()]
    assert statuses.count("accepted") == 5 and statuses.count("waitlisted") == 11
    assert len({e.id for e in state.entries.values()}) == 16
    players = c.get(f"/api/tournaments/{tid}/players").json()["players"]
    accepted = {e.name: e.player for e in state.entries.values() if e.status == "accepted"}
    assert {p["name"]: p["id"] for p in players} == accepted
    assert all(p["person"] for p in players)


def test_a_withdrawal_not_heard_is_followed_at_the_next_settle(c: TestClient) -> None:
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True, "cap": 1}},
            headers=admin())
    c.post(f"/api/tournaments/{tid}/entries", json={"name": "Ann"})
    c.post(f"/api/tournaments/{tid}/entries", json={"name": "Bob"})
    reg = registrar(c)
    reg.forget(tid)  # as if another process held the registration: the writer's listener finds nothing
    pid = c.get(f"/api/tournaments/{tid}/players").json()["players"][0]["id"]
    assert c.delete(f"/api/tournaments/{tid}/players/{pid}", headers=admin()).status_code == 200
    run(c, lambda: reg.settle(tid))
    state = run(c, lambda: reg.state(tid))
    assert [e.status for e in state.entries.values()] == ["cancelled", "accepted"]
    assert [p["name"] for p in c.get(f"/api/tournaments/{tid}/players").json()["players"]] == ["Bob"]


def test_sign_ups_waiting_together_are_stored_in_groups_and_each_answered_its_own(c: TestClient) -> None:
    """50 sign-ups at once (and a duplicate of two of them) to a cap of 40: the waiting ones are
    committed in groups (fewer tournament commands than players), yet exactly 40 are accepted and
    10 waitlisted in the order they were stored, each caller answered its own stored entry, and
    of each duplicated pair exactly one is refused `already_entered`."""
    import sqlalchemy as sa

    from hub.registration.decide import RegistrationReject
    from hub.store import registration_events
    from hub.store.schema import tournament_events

    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True, "cap": 40}},
            headers=admin())
    reg = registrar(c)
    names = [f"P{i}" for i in range(50)] + ["P7", "P21"]

    async def all_at_once() -> list[Any]:
        return await asyncio.gather(*(reg.apply(tid, {"kind": "sign_up", "name": n, "secret_hash": f"h{i}"})
                                      for i, n in enumerate(names)), return_exceptions=True)

    answers = run(c, all_at_once)
    refused = [a for a in answers if isinstance(a, Exception)]
    assert len(refused) == 2 and all(isinstance(r, RegistrationReject) and r.code == "already_entered"
                                     for r in refused)
    stored = {e.data["entry"]["id"] for e in run(c, lambda: registration_events.read(reg.engine, tid))
              if e.kind == "entry_added"}
    for name, answer in zip(names, answers, strict=True):
        if isinstance(answer, Exception):
            continue
        state, event = answer
        entry = state.entries[event.data["entry"]["id"]]
        assert entry.name == name and entry.id in stored  # its own entry, committed before the answer
        assert entry.status in ("accepted", "waitlisted")  # settled before the answer
    state = run(c, lambda: reg.state(tid))
    statuses = [e.status for e in state.entries.values()]
    assert statuses == ["accepted"] * 40 + ["waitlisted"] * 10
    assert [e.id for e in state.waitlist()] == [e.id for e in state.entries.values()][40:]
    players = c.get(f"/api/tournaments/{tid}/players").json()["players"]
    assert [p["id"] for p in players] == [e.player for e in state.entries.values()][:40]

    async def adds() -> int:
        async with reg.engine.connect() as conn:
            return int(await conn.scalar(sa.select(sa.func.count()).select_from(tournament_events).where(
                tournament_events.c.tournament_id == tid, tournament_events.c.kind == "players_added")) or 0)

    assert run(c, adds) < 40  # grouped: 50 callers at once cannot each have waited for a commit of their own
