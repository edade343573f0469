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
