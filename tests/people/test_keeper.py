"""hub/people/keeper.py and rebuild.py: what no listener saw is found by the sweep, and `cuehub
people rebuild` makes links and read models again from the stored events."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from services import wait_until
from spine_helpers import admin

import hub.rules as rules
from hub.app import create_app
from hub.people.keeper import stale_matches, stale_tournaments
from hub.people.rebuild import links_from_events, rebuild
from hub.settings import Settings
from hub.store.db import make_engine
from hub.store.schema import history_heads, history_matches, history_players, people_entries
from tests.people.test_api import Event


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def played(c: TestClient, person: str) -> int:
    return int(c.get(f"/api/people/{person}").json()["stats"]["total"]["matches"]["played"])


def one_match(c: TestClient) -> tuple[Event, str, str]:
    ev = Event(c, ["Alpha", "Beta"], tables=1)
    ev.draw()
    winner = wait_until(lambda: ev.entry("W1-1")["status"] == "called" and ev.entry("W1-1"))["players"][0]
    ev.play("W1-1", winner)
    person = next(p["person"] for p in ev.players.values() if p["id"] == winner)
    wait_until(lambda: played(c, person) == 1, what="history")
    return ev, ev.entry("W1-1")["match_id"], person


def store(c: TestClient, *statements: Any) -> Any:
    async def run() -> Any:
        async with c.app.state.services.engine.begin() as conn:  # type: ignore[attr-defined]
            for s in statements:
                await conn.execute(s)

    return c.portal.call(run)


def test_the_sweep_finds_what_no_listener_refreshed(c: TestClient) -> None:
    ev, mid, person = one_match(c)
    keeper = c.app.state.services.people  # type: ignore[attr-defined]
    engine = c.app.state.services.engine  # type: ignore[attr-defined]
    # as if the process that stored the last stroke died before its keeper ran: no rows at all
    store(c, history_players.delete(), history_matches.delete(), history_heads.delete(),
          people_entries.update().values(stats=None, place=None))
    assert played(c, person) == 0
    assert mid in c.portal.call(stale_matches, engine) and ev.tid in c.portal.call(stale_tournaments, engine)
    assert c.portal.call(keeper.sweep) >= 2
    wait_until(lambda: played(c, person) == 1, what="the sweep's refresh")
    wait_until(lambda: c.get(f"/api/people/{person}").json()["events"][0]["place"] == 1, what="the place")
    assert c.portal.call(stale_matches, engine) == [] and c.portal.call(stale_tournaments, engine) == []
    # rows of an older version of the match are made again
    store(c, history_matches.update().values(version=1))
    assert c.portal.call(stale_matches, engine, 10) == [mid]


def test_rebuild_puts_back_links_and_read_models(sqlite_settings: Settings) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        _ev, _mid, person = one_match(c)
        before = c.get(f"/api/people/{person}").json()
        (stranger,) = c.post("/api/people", json={"name": "Stranger"}, headers=admin()).json()["people"]
        store(c, people_entries.update().values(person_id=stranger["id"]), history_players.delete(),
              history_matches.delete())
        assert c.get(f"/api/people/{person}").json()["events"] == []

    async def run() -> dict[str, Any]:
        engine = make_engine(sqlite_settings)
        try:
            return await rebuild(engine, rules, progress=False)
        finally:
            await engine.dispose()

    report = asyncio.run(run())
    assert report["entries relinked"] == 2 and report["finished matches"] == 1 and report["tournaments"] == 1
    with TestClient(create_app(sqlite_settings)) as again:
        assert again.get(f"/api/people/{person}").json() == before
        assert again.get(f"/api/people/{stranger['id']}").json()["events"] == []


def test_links_from_events_reads_every_kind() -> None:
    class E:
        def __init__(self, kind: str, data: dict[str, Any]) -> None:
            self.kind, self.data = kind, data

    got = links_from_events([
        E("players_added", {"players": [{"id": "p1", "name": "A", "person": "x", "link": "created"},
                                        {"id": "p2", "name": "B"}]}),
        E("player_updated", {"player": "p1", "changes": {"name": "A2"}}),
        E("players_linked", {"links": {"p2": "y"}, "created": ["p2"]}),
        E("player_updated", {"player": "p2", "changes": {"person": "z"}}),
    ])
    assert got == {"p1": ("x", "created", "A2"), "p2": ("z", "linked", "B")}


def test_links_from_events_take_a_teams_members_as_its_entries() -> None:
    class E:
        def __init__(self, kind: str, data: dict[str, Any]) -> None:
            self.kind, self.data = kind, data

    member = {"id": "p1.1", "person": "x", "name": "A", "link": "created"}
    got = links_from_events([
        E("players_added", {"players": [{"id": "p1", "name": "Team", "members": [member]}]}),
        E("player_updated", {"player": "p1", "changes": {"name": "Team 2"}}),  # the team: no entry of its own
    ])
    assert got == {"p1.1": ("x", "created", "A")}
    got = links_from_events([
        E("players_added", {"players": [{"id": "p1", "name": "Team", "members": [member]}]}),
        E("player_updated", {"player": "p1", "changes": {"members": [{**member, "id": "p1.2", "person": "y"}]}}),
    ])
    assert got == {"p1.2": ("y", "created", "A")}
