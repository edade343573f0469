"""The check-in's close (hub/registration/check_in_clock.py) happens with no request arriving, once,
and after a restart when it passed while the hub was down (derived from the stored streams); the
settle at start takes a step a crash cut short."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from spine_helpers import admin, bearer

from hub.app import create_app
from hub.services import services_of
from hub.settings import Settings


def _setup(c: TestClient, closes_in_ms: int) -> tuple[str, list[dict[str, Any]]]:
    """Two accepted entries, Ann checked in; the window then closes `closes_in_ms` from now."""
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    far = int(time.time() * 1000) + 600_000
    r = c.patch(f"/api/tournaments/{tid}", json={"registration": {
        "open": True, "auto_accept": True, "check_in": {"closes_at": far}}}, headers=admin())
    assert r.status_code == 200
    made = [c.post(f"/api/tournaments/{tid}/entries", json={"name": n}).json() for n in ("Ann", "Bob")]
    assert c.post("/api/entries/self/check_in", headers=bearer(made[0]["secret"])).status_code == 200
    closes = int(time.time() * 1000) + closes_in_ms
    r = c.patch(f"/api/tournaments/{tid}", json={"registration": {"check_in": {"closes_at": closes}}}, headers=admin())
    assert r.status_code == 200
    return tid, made


def _entries(c: TestClient, tid: str) -> dict[str, Any]:
    body: dict[str, Any] = c.get(f"/api/tournaments/{tid}/entries", headers=admin()).json()
    return body


def test_the_window_closes_by_itself(sqlite_settings: Settings) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        tid, made = _setup(c, 1_000)
        clock = services_of(c.app).check_in_clock
        assert clock is not None and clock.armed(tid) is not None
        for _ in range(100):  # no request meanwhile
            if clock.armed(tid) is None:
                break
            time.sleep(0.1)
        assert clock.armed(tid) is None
        listed = _entries(c, tid)
        assert listed["registration"]["check_in_closed"] and listed["no_shows"] == [made[1]["entry"]["id"]]
        players = c.get(f"/api/tournaments/{tid}/players").json()["players"]
        assert [p["name"] for p in players] == ["Ann"]


def test_a_close_that_passed_while_down_happens_at_the_start(sqlite_settings: Settings) -> None:
    app = create_app(sqlite_settings)
    with TestClient(app) as c:
        tid, made = _setup(c, 1_000)
        closes = _entries(c, tid)["registration"]["check_in"]["closes_at"]
    time.sleep(max(0.0, closes / 1000 - time.time()) + 0.2)  # the hub is down at the close
    with TestClient(create_app(sqlite_settings)) as c:
        for _ in range(50):
            listed = _entries(c, tid)
            if listed["registration"]["check_in_closed"]:
                break
            time.sleep(0.1)
        assert listed["no_shows"] == [made[1]["entry"]["id"]]
        assert [e["status"] for e in listed["entries"]] == ["checked_in", "no_show"]
        assert [p["name"] for p in c.get(f"/api/tournaments/{tid}/players").json()["players"]] == ["Ann"]


def test_moving_the_window_rearms_the_timer(sqlite_settings: Settings) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        tid, _ = _setup(c, 60_000)
        clock = services_of(c.app).check_in_clock
        assert clock is not None
        later = int(time.time() * 1000) + 120_000
        c.patch(f"/api/tournaments/{tid}", json={"registration": {"check_in": {"closes_at": later}}}, headers=admin())
        assert clock.armed(tid) == later
        c.patch(f"/api/tournaments/{tid}", json={"registration": {"check_in": None}}, headers=admin())
        assert clock.armed(tid) is None
