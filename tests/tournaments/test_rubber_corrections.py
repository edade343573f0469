"""Corrections and withdrawals in a team match, through the flow (hub/tournaments/rubbers.py) over REST
on the real rules and SQLite: a rubber's result entered by hand over a played one derives the team
match again (reopened, its dropped rubber played; the draw following), and a team withdrawn mid
team match loses it by walkover with no rubber left on a table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer, envelope

from hub.app import create_app
from hub.settings import Settings
from tests.tournaments.test_api import Event
from tests.tournaments.test_rubbers import RACE2, add_teams, lineup, rubbers, win_rubber


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def rubber_status(key: str, i: int):  # noqa: ANN201 (a predicate on the projection)
    return lambda t: next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"][i - 1]["status"]


def three_rubbers(ev: Event, called: int = 3) -> tuple[str, str]:
    """Two teams of three, a team match of three singles rubbers to 2, every lineup named; waits
    until rubber `called` is called (3 with three tables free, 1 with one)."""
    add_teams(ev, ["USA", "Europe"], size=3)
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "singles"}] * 3, "to_win": 2}})
    a, b = ev.entry("W1-1")["players"]
    for i in range(1, 4):
        lineup(ev, "W1-1", i, a, [f"{a}.{i}"])
        lineup(ev, "W1-1", i, b, [f"{b}.{i}"])
    ev.until(lambda t: rubber_status("W1-1", called)(t) == "called")
    return a, b


def test_a_rubber_corrected_by_hand_reopens_the_team_match_and_the_other_team_wins(c: TestClient) -> None:
    ev = Event(c, tables=3)
    a, b = three_rubbers(ev)
    key = "W1-1"
    win_rubber(ev, key, 1, a)
    win_rubber(ev, key, 2, a)
    done = ev.settled(key)
    assert (done["winner"], done["scores"]) == (a, {a: 2, b: 0}) and ev.get()["draw"]["champion"] == a
    third = rubbers(ev, key)[2]
    assert third["status"] == "dropped"
    second = rubbers(ev, key)[1]["match_id"]
    # the desk enters rubber 2 for Europe (the tablet's score was wrong): 1-1, the team match is open again
    r = c.post(f"/api/matches/{second}/result", json={"winner": f"{b}.2", "score": {f"{b}.2": 2, f"{a}.2": 1},
                                                      "reason": "scoresheet"}, headers=admin())
    assert r.status_code == 200, r.text
    t = ev.until(lambda t: rubber_status(key, 3)(t) == "called")
    entry = next(m for m in t["draw"]["matches"] if m["key"] == key)
    assert entry["status"] == "called" and entry["team"]["score"] == {a: 1, b: 1}
    assert entry["team"]["rubbers"][1]["winner"] == b and t["draw"]["champion"] is None
    win_rubber(ev, key, 3, b)
    done = ev.settled(key)
    assert (done["winner"], done["scores"]) == (b, {a: 1, b: 2})
    assert ev.get()["draw"]["champion"] == b
    # entering the same result again changes nothing
    r = c.post(f"/api/matches/{second}/result", json={"winner": f"{b}.2", "score": {f"{b}.2": 2, f"{a}.2": 1}},
               headers=admin())
    assert r.status_code == 200, r.text
    assert ev.entry(key)["winner"] == b


def test_a_rubber_corrected_after_the_next_team_match_started_is_refused(c: TestClient) -> None:
    ev = Event(c, tables=2)
    add_teams(ev, ["A", "B", "C", "D"], size=2)
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "singles"}], "to_win": 1}})
    semis = [m for m in ev.get()["draw"]["matches"] if m["round"] == ev.entry("W1-1")["round"]]
    for m in semis:
        for team in m["players"]:
            lineup(ev, m["key"], 1, team, [f"{team}.1"])
    for m in semis:
        ev.until(lambda t, k=m["key"]: rubber_status(k, 1)(t) == "called")
        win_rubber(ev, m["key"], 1, m["players"][0])
    final = ev.entry("W1-1")["winner_to"]
    for team in ev.entry(final)["players"]:
        lineup(ev, final, 1, team, [f"{team}.1"])
    ev.until(lambda t: rubber_status(final, 1)(t) == "called")
    fmid = rubbers(ev, final)[0]["match_id"]
    ev.command(fmid, {"kind": "start", "breaker": ev.c.get(f"/api/matches/{fmid}").json()["players"][0]["id"]})
    semi = ev.entry("W1-1")
    mid = semi["team"]["rubbers"][0]["match_id"]
    loser = semi["players"][1]
    r = c.post(f"/api/matches/{mid}/result", json={"winner": f"{loser}.1", "score": {f"{loser}.1": 2,
                                                                                    f"{semi['players'][0]}.1": 0}},
               headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "result_used", r.text
    assert final in r.text
    assert ev.entry("W1-1")["winner"] == semi["players"][0]
    # nor may the rubber's tablet undo its end: the final depends on it
    r = c.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "undo"}),
               headers=bearer(ev.tables[c.get(f"/api/matches/{mid}").json()["table_id"]]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_allowed", r.text
    assert c.get(f"/api/matches/{mid}").json()["status"] == "finished"
    assert ev.entry("W1-1")["winner"] == semi["players"][0]


def test_a_team_withdrawn_mid_team_match_loses_it_and_no_rubber_stays_on_a_table(c: TestClient) -> None:
    ev = Event(c, tables=3)
    a, b = three_rubbers(ev)
    key = "W1-1"
    first, second, third = (r["match_id"] for r in rubbers(ev, key))
    players = c.get(f"/api/matches/{second}").json()["players"]
    ev.command(second, {"kind": "start", "breaker": players[0]["id"]})  # rubber 2 is being played
    assert c.get(f"/api/matches/{second}").json()["status"] == "live"
    r = c.post(f"/api/tournaments/{ev.tid}/players/{a}/withdraw", headers=admin())
    assert r.status_code == 200, r.text
    t = ev.until(lambda t: all(r["status"] != "called" for r in
                               next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"]))
    entry = next(m for m in t["draw"]["matches"] if m["key"] == key)
    assert (entry["status"], entry["winner"]) == ("walkover", b) and t["draw"]["champion"] == b
    # the rubber being played was forfeited by the withdrawn side; the ones not started went off their tables
    assert [r["status"] for r in entry["team"]["rubbers"]] == ["walkover", "finished", "walkover"]
    assert entry["team"]["rubbers"][1]["winner"] == b
    assert c.get(f"/api/matches/{second}").json()["winner"] == f"{b}.2"
    for mid in (first, third):
        ev.until(lambda t, mid=mid: c.get(f"/api/matches/{mid}").status_code == 404)
    ev.until(lambda t: all(tb.get("match") is None or tb["match"]["status"] == "finished" for tb in t["tables"]))
    assert [tb["status"] for tb in ev.get()["tables"]] == ["free"] * 3


def test_a_rubber_undone_on_its_tablet_is_played_on_and_the_team_match_open_again(c: TestClient) -> None:
    ev = Event(c, tables=3)
    a, b = three_rubbers(ev)
    key = "W1-1"
    win_rubber(ev, key, 1, a)
    win_rubber(ev, key, 2, a)
    assert ev.settled(key)["winner"] == a
    second = rubbers(ev, key)[1]["match_id"]
    ev.command(second, {"kind": "undo"})  # the concession taken back: rubber 2 is live again
    t = ev.until(lambda t: rubber_status(key, 2)(t) == "called")
    entry = next(m for m in t["draw"]["matches"] if m["key"] == key)
    assert entry["status"] == "called" and entry["winner"] is None and entry["team"]["score"] == {a: 1, b: 0}
    assert t["draw"]["champion"] is None
    ev.until(lambda t: rubber_status(key, 3)(t) == "called")  # the dropped rubber is called again meanwhile
    r = c.post(f"/api/matches/{second}/result", json={"winner": f"{b}.2", "score": {f"{b}.2": 2, f"{a}.2": 1}},
               headers=admin())  # played on: Europe's member wins it
    assert r.status_code == 200, r.text
    ev.until(lambda t: rubber_status(key, 2)(t) == "finished")
    win_rubber(ev, key, 3, b)
    done = ev.settled(key)
    assert (done["winner"], done["scores"]) == (b, {a: 1, b: 2})


def test_a_rubber_undone_takes_its_table_back_from_the_next_rubber_not_started(c: TestClient) -> None:
    ev = Event(c, tables=1)
    a, _b = three_rubbers(ev, called=1)
    key = "W1-1"
    win_rubber(ev, key, 1, a)
    ev.until(lambda t: rubber_status(key, 2)(t) == "called")
    first, second = rubbers(ev, key)[0]["match_id"], rubbers(ev, key)[1]["match_id"]
    ev.command(first, {"kind": "undo"})  # the first rubber is played on, on its table
    t = ev.until(lambda t: rubber_status(key, 1)(t) == "called" and rubber_status(key, 2)(t) == "ready")
    assert next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["score"] == {a: 0, _b: 0}
    assert c.get(f"/api/matches/{first}").json()["status"] == "live"
    ev.until(lambda t: c.get(f"/api/matches/{second}").status_code == 404)  # taken off, never played
    assert ev.get()["tables"][0]["match"]["id"] == first


def test_a_team_match_is_not_reopened_as_one(c: TestClient) -> None:
    ev = Event(c, tables=3)
    a, _b = three_rubbers(ev)
    win_rubber(ev, "W1-1", 1, a)
    win_rubber(ev, "W1-1", 2, a)
    ev.settled("W1-1")
    r = c.post(f"/api/tournaments/{ev.tid}/draw/W1-1/reopen", headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "team_match", r.text
    assert ev.entry("W1-1")["winner"] == a


def test_a_desk_walkover_of_a_team_match_being_played(c: TestClient) -> None:
    ev = Event(c, tables=3)
    _a, b = three_rubbers(ev)
    key = "W1-1"
    first, second, _third = (r["match_id"] for r in rubbers(ev, key))
    ev.command(first, {"kind": "start", "breaker": c.get(f"/api/matches/{first}").json()["players"][0]["id"]})
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{key}/walkover", json={"winner": b}, headers=admin())
    assert r.status_code == 200, r.text
    t = ev.until(lambda t: all(x["status"] != "called" for x in
                               next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"]))
    entry = next(m for m in t["draw"]["matches"] if m["key"] == key)
    assert (entry["status"], entry["winner"]) == ("walkover", b) and t["draw"]["champion"] == b
    assert c.get(f"/api/matches/{first}").json()["winner"] == f"{b}.1"  # the live one forfeited by the loser
    ev.until(lambda t: c.get(f"/api/matches/{second}").status_code == 404)
