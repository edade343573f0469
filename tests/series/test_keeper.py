"""hub/series/keeper.py and refresh.py on SQLite and PostgreSQL (migration 0008_series): the
standings are a read model: a tournament added behind the API's back is found by the sweep, a
merge of people moves points to the person merged into, and a deleted series is gone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from services import wait_until
from spine_helpers import admin

from hub.app import create_app
from hub.series import refresh, store
from hub.settings import Settings
from tests.api.test_series import Event


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    settings: Settings = request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")
    with TestClient(create_app(settings)) as client:
        yield client


def services(c: TestClient) -> Any:
    return c.app.state.services  # type: ignore[attr-defined]


def test_the_sweep_and_a_merge_keep_the_standings(c: TestClient) -> None:
    ev = Event(c, "Week 1")
    for key in ("W1-1", "W1-2"):
        ev.settle(key)
    champion = ev.settle("W2-1")
    engine, keeper = services(c).engine, services(c).series
    # a series made and given the tournament in the store only: no standings until the sweep
    sid = c.portal.call(store.create, engine, "Tour", {"1": 10, "2": 5}, None)
    c.portal.call(store.add_tournament, engine, sid, ev.tid)
    assert c.get(f"/api/series/{sid}").json()["standings"] == []
    assert c.portal.call(keeper.sweep) == 1
    c.portal.call(keeper.idle)
    rows = c.get(f"/api/series/{sid}").json()["standings"]
    assert [(r["person"], r["points"]) for r in rows][0] == (champion, 10) and len(rows) == 4
    assert c.portal.call(keeper.sweep) == 0  # nothing behind any more

    # the runner-up merged into the champion: one person, both places' points, at the next sweep
    runner_up = next(r["person"] for r in rows if r["points"] == 5)
    r = c.post(f"/api/people/{runner_up}/merge", json={"into": champion}, headers=admin())
    assert r.status_code == 200, r.text
    assert c.portal.call(keeper.sweep) == 1
    c.portal.call(keeper.idle)
    rows = wait_until(lambda: (v := c.get(f"/api/series/{sid}").json()["standings"]) and len(v) == 3 and v,
                      what="the merge counted")
    assert rows[0]["person"] == champion and rows[0]["points"] == 10  # a person's best place in an event

    assert c.portal.call(refresh.made_from, engine, sid) == c.portal.call(store.made, engine, sid)
    assert c.delete(f"/api/series/{sid}", headers=admin()).status_code == 200
    assert c.portal.call(refresh.refresh, engine, services(c).tournaments, sid) is False
    assert c.portal.call(keeper.sweep) == 0
