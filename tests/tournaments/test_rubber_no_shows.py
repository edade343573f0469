"""No-shows of a team match's rubbers (PROTOCOL.md sections 15 and 16): a rubber called and not
started within `no_show_minutes` is flagged by `GET .../no_shows` as a called draw match is (its key
the rubber's), its entry in the projection says when it was called and when it is flagged, and
once it has started it is flagged no more."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings
from tests.api.test_no_shows import flagged, wait_for_flags
from tests.tournaments.test_api import Event
from tests.tournaments.test_rubbers import RACE2, add_teams, lineup, rubbers


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def called_rubber(c: TestClient) -> tuple[Event, dict[str, Any]]:
    """One team match of three singles rubbers, one table, a no-show setting of 0.6 s: rubber 1 called."""
    ev = Event(c, tables=1)
    r = c.patch(f"/api/tournaments/{ev.tid}", json={"no_show_minutes": 0.01}, headers=admin())
    assert r.status_code == 200, r.text
    add_teams(ev, ["China", "Japan"], size=3)
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "singles"}] * 3, "to_win": 2}})
    a, b = ev.entry("W1-1")["players"]
    for i in range(1, 4):
        lineup(ev, "W1-1", i, a, [f"{a}.{i}"])
        lineup(ev, "W1-1", i, b, [f"{b}.{i}"])
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == "W1-1")["team"]["rubbers"][0]["status"]
             == "called")
    return ev, rubbers(ev, "W1-1")[0]


def test_a_called_rubber_not_started_is_flagged(c: TestClient) -> None:
    ev, first = called_rubber(c)
    assert first["no_show_at"] - first["called_at"] == 600  # 0.01 minutes
    assert all("no_show_at" not in r for r in rubbers(ev, "W1-1")[1:])  # not called: no clock
    (flag,) = wait_for_flags(c, ev.tid, 1)
    assert flag["key"] == "W1-1/1" and flag["match_id"] == first["match_id"]
    assert flag["table_id"] == first["table_id"] and flag["since_ms"] >= 600


def test_a_started_rubber_is_not_flagged(c: TestClient) -> None:
    ev, first = called_rubber(c)
    wait_for_flags(c, ev.tid, 1)
    players = c.get(f"/api/matches/{first['match_id']}").json()["players"]
    ev.command(first["match_id"], {"kind": "start", "breaker": players[0]["id"]})
    deadline = time.monotonic() + 5
    while flagged(c, ev.tid):  # the start reaches the catalog's status: then the flag is gone
        assert time.monotonic() < deadline, flagged(c, ev.tid)
        time.sleep(0.05)
