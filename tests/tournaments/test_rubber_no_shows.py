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


# --- the desk's three choices on a flagged rubber (its key with a slash, `{key:path}`) -----------------

def team_of(member: str) -> str:
    return member.split(".")[0]


def test_walkover_of_a_rubber_gives_it_to_the_side_there(c: TestClient) -> None:
    ev, first = called_rubber(c)
    wait_for_flags(c, ev.tid, 1)
    here = c.get(f"/api/matches/{first['match_id']}").json()["players"][0]["id"]
    r = c.post(f"/api/tournaments/{ev.tid}/draw/W1-1/1/walkover", json={"winner": here}, headers=admin())
    assert r.status_code == 200, r.text
    t = ev.until(lambda t: rubbers(ev, "W1-1")[0]["status"] == "finished")
    done = rubbers(ev, "W1-1")[0]
    assert done["winner"] == team_of(here)
    result = c.get(f"/api/matches/{first['match_id']}").json()
    away = next(p for p in result["players"] if p["id"] != here)
    assert result["winner"] == here and result["result"]["reason"] == f"no-show: {away['name']}"
    team = next(m for m in t["draw"]["matches"] if m["key"] == "W1-1")["team"]
    assert team["score"][team_of(here)] == 1  # the team match's score follows the rubber's result
    assert not any(f["key"] == "W1-1/1" for f in flagged(c, ev.tid))


def test_walkover_of_a_rubber_names_a_side_by_its_team_too(c: TestClient) -> None:
    ev, first = called_rubber(c)
    a = ev.entry("W1-1")["players"][1]
    url = f"/api/tournaments/{ev.tid}/draw/W1-1/1/walkover"
    assert c.post(url, json={"winner": "nobody"}, headers=admin()).json()["error"]["code"] == "not_in_match"
    assert c.post(url, json={"winner": a}, headers=admin()).status_code == 200
    ev.until(lambda t: rubbers(ev, "W1-1")[0]["winner"] == a)


def test_requeue_of_a_rubber_takes_it_off_and_calls_the_next_first(c: TestClient) -> None:
    ev, first = called_rubber(c)
    wait_for_flags(c, ev.tid, 1)
    r = c.post(f"/api/tournaments/{ev.tid}/draw/W1-1/1/requeue", headers=admin())
    assert r.status_code == 200, r.text
    ev.until(lambda t: rubbers(ev, "W1-1")[1]["status"] == "called")  # the one table: rubber 2 goes first
    one = rubbers(ev, "W1-1")[0]
    assert one["status"] == "ready" and one.get("match_id") != first["match_id"]
    assert rubbers(ev, "W1-1")[1]["table_id"] == first["table_id"]


def test_wait_on_a_rubber_pushes_its_flag_back(c: TestClient) -> None:
    ev, _ = called_rubber(c)
    wait_for_flags(c, ev.tid, 1)
    r = c.post(f"/api/tournaments/{ev.tid}/draw/W1-1/1/wait", json={"minutes": 5}, headers=admin())
    assert r.status_code == 200, r.text
    assert r.json()["key"] == "W1-1/1" and r.json()["no_show_at"] > time.time() * 1000 + 4 * 60_000
    assert flagged(c, ev.tid) == []
    assert rubbers(ev, "W1-1")[0]["no_show_at"] == r.json()["no_show_at"]


def test_what_does_not_apply_to_a_rubber_is_refused_with_a_code(c: TestClient) -> None:
    ev, first = called_rubber(c)
    base = f"/api/tournaments/{ev.tid}/draw"
    for action in ("walkover", "requeue", "wait"):  # rubber 2 is not on a table; there is no rubber 9
        r = c.post(f"{base}/W1-1/2/{action}", json={"winner": first["match_id"]}, headers=admin())
        assert (r.status_code, r.json()["error"]["code"]) == (409, "not_called"), (action, r.text)
        r = c.post(f"{base}/W1-1/9/{action}", json={}, headers=admin())
        assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_key"), (action, r.text)
    players = c.get(f"/api/matches/{first['match_id']}").json()["players"]
    ev.command(first["match_id"], {"kind": "start", "breaker": players[0]["id"]})
    for action in ("walkover", "requeue"):  # being played: the table's business
        r = c.post(f"{base}/W1-1/1/{action}", json={"winner": players[0]["id"]}, headers=admin())
        assert (r.status_code, r.json()["error"]["code"]) == (409, "match_started"), (action, r.text)
    r = c.post(f"{base}/W1-1/1/call", json={}, headers=admin())  # a rubber is never called by hand: as before
    assert r.status_code == 404
