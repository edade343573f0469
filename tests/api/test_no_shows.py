"""No-shows over REST (PROTOCOL.md section 16): the flag with a short setting, the desk's three
choices, and the flag after a restart (derived from stored facts and the clock)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

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


def started_event(c: TestClient, minutes: float = 0.01) -> Event:
    ev = Event(c, players=4, tables=2)
    r = c.patch(f"/api/tournaments/{ev.tid}", json={"no_show_minutes": minutes}, headers=admin())
    assert r.status_code == 200, r.text
    assert r.json()["no_show_minutes"] == minutes
    ev.draw()
    return ev


def flagged(c: TestClient, tid: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/tournaments/{tid}/no_shows")
    assert r.status_code == 200, r.text
    return r.json()["flagged"]


def wait_for_flags(c: TestClient, tid: str, n: int, timeout: float = 5.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while len(found := flagged(c, tid)) != n:
        assert time.monotonic() < deadline, found
        time.sleep(0.05)
    return found


def test_a_called_match_not_started_is_flagged_with_its_time(c: TestClient) -> None:
    ev = started_event(c)
    called = [m for m in ev.get()["draw"]["matches"] if m["status"] == "called"]
    assert len(called) == 2 and all(m["no_show_at"] - m["called_at"] == 600 for m in called)
    flags = wait_for_flags(c, ev.tid, 2)
    assert {f["key"] for f in flags} == {m["key"] for m in called}
    assert all(f["since_ms"] >= 600 for f in flags)


def test_wait_walkover_and_requeue_clear_the_flag(c: TestClient) -> None:
    ev = started_event(c)
    first, second = wait_for_flags(c, ev.tid, 2)
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{first['key']}/wait", json={"minutes": 1}, headers=admin())
    assert r.status_code == 200, r.text
    assert {f["key"] for f in flagged(c, ev.tid)} == {second["key"]}
    there = second["players"][1]
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{second['key']}/walkover", json={"winner": there}, headers=admin())
    assert r.status_code == 200, r.text
    assert ev.entry(second["key"])["winner"] == there
    assert all(f["key"] != second["key"] for f in flagged(c, ev.tid))
    assert c.post(f"/api/tournaments/{ev.tid}/draw/{second['key']}/wait", headers=admin()).status_code == 409
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{first['key']}/requeue", headers=admin())
    assert r.status_code == 200, r.text


def test_a_started_match_is_not_flagged(c: TestClient) -> None:
    ev = started_event(c)
    first, _ = wait_for_flags(c, ev.tid, 2)
    ev.command(first["match_id"], {"kind": "start", "breaker": first["players"][0]})
    assert all(f["key"] != first["key"] for f in flagged(c, ev.tid))


def test_the_flag_survives_a_restart(sqlite_settings: Settings) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        ev = started_event(c, minutes=0.02)
        keys = {f["key"] for f in wait_for_flags(c, ev.tid, 2)}
    with TestClient(create_app(sqlite_settings)) as c:
        assert {f["key"] for f in flagged(c, ev.tid)} == keys
        assert c.get(f"/api/tournaments/{ev.tid}").json()["no_show_minutes"] == 0.02
