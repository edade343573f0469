"""The tournament's settings over REST (hub/api/tournament_settings.py, PROTOCOL.md section 16):
the default, bad values refused with 422, the admin token required, the answer and the stored value."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings
from tests.tournaments.test_api import Event


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def test_default_and_bad_settings(c: TestClient) -> None:
    ev = Event(c, players=2)
    assert ev.get()["no_show_minutes"] == 10.0
    for body in ({"no_show_minutes": 0}, {"no_show_minutes": -2}, {"no_show_minutes": "3"},
                 {"no_show_minutes": None}, {"no_show_minutes": True}, {"colour": "red"}, {}):
        r = c.patch(f"/api/tournaments/{ev.tid}", json=body, headers=admin())
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] == "bad_request"
    assert c.patch(f"/api/tournaments/{ev.tid}", json={"no_show_minutes": 2}).status_code == 401
    assert c.patch("/api/tournaments/nope", json={"no_show_minutes": 2}, headers=admin()).status_code == 404
    r = c.patch(f"/api/tournaments/{ev.tid}", json={"no_show_minutes": 2.5}, headers=admin())
    assert r.json() == {"id": ev.tid, "no_show_minutes": 2.5}
    assert ev.get()["no_show_minutes"] == 2.5
