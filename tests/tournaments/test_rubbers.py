"""Team matches run by the flow (hub/tournaments/rubbers.py) over REST on the real rules and SQLite:
lineups named at the desk, rubbers called to free tables several at once, one live rubber per member,
the team match won at `to_win` with the rubbers not started dropped, the team advanced in the draw."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings
from tests.tournaments.test_api import Event

RACE2 = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def add_teams(ev: Event, names: list[str], size: int = 5) -> list[dict[str, Any]]:
    body = {"players": [{"name": n, "members": [{"name": f"{n} {i}"} for i in range(1, size + 1)], "captain": 0}
                        for n in names]}
    r = ev.c.post(f"/api/tournaments/{ev.tid}/players", json=body, headers=admin())
    assert r.status_code == 201, r.text
    return list(r.json()["players"])


def lineup(ev: Event, key: str, rubber: int, team: str, members: list[str], expect: int = 200) -> dict[str, Any]:
    r = ev.c.post(f"/api/tournaments/{ev.tid}/draw/{key}/lineup",
                  json={"rubber": rubber, "team": team, "members": members}, headers=admin())
    assert r.status_code == expect, r.text
    return dict(r.json())


def rubbers(ev: Event, key: str) -> list[dict[str, Any]]:
    return list(ev.entry(key)["team"]["rubbers"])


def win_rubber(ev: Event, key: str, i: int, team: str) -> None:
    r = rubbers(ev, key)[i - 1]
    assert r["status"] == "called", r
    players = ev.c.get(f"/api/matches/{r['match_id']}").json()["players"]
    loser = next(p["id"] for p in players if not p["id"].startswith(team + ".") and p["id"] != team)
    ev.command(r["match_id"], {"kind": "start", "breaker": loser})
    ev.command(r["match_id"], {"kind": "concede", "player": loser, "scope": "match"})
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"][i - 1]["status"]
             == "finished")


def test_a_five_rubber_match_to_three_played_in_parallel(c: TestClient) -> None:
    ev = Event(c, tables=3)
    usa, europe = add_teams(ev, ["USA", "Europe"])
    assert [m["id"] for m in usa["members"]] == [f"{usa['id']}.{i}" for i in range(1, 6)]
    assert all(m["person"] for m in usa["members"]) and usa["captain"] == 0
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "singles"}] * 5, "to_win": 3}})
    key = "W1-1"
    a, b = ev.entry(key)["players"]
    members = {t["id"]: [m["id"] for m in t["members"]] for t in (usa, europe)}
    assert ev.entry(key)["status"] == "ready" and ev.get()["tables"][0].get("match_id") is None
    # Hidden until both have named: the public projection says who has named, not whom.
    desk = lineup(ev, key, 1, a, [members[a][0]])
    assert desk["team"]["rubbers"][0]["lineups"] == {a: [members[a][0]]}
    public = rubbers(ev, key)[0]
    assert public["named"] == [a] and public["lineups"] == {} and members[a][0] not in str(ev.entry(key))
    for i in range(1, 6):
        for team in (a, b):
            if (i, team) != (1, a):
                lineup(ev, key, i, team, [members[team][i - 1]])
    # Three tables: three rubbers at once
    ev.until(lambda t: sum(r["status"] == "called" for r in
                           next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"]) == 3)
    assert [r["status"] for r in rubbers(ev, key)] == ["called"] * 3 + ["ready"] * 2
    assert ev.entry(key)["status"] == "called"
    assert rubbers(ev, key)[0]["lineups"] == {a: [members[a][0]], b: [members[b][0]]}
    win_rubber(ev, key, 1, a)
    win_rubber(ev, key, 2, b)
    win_rubber(ev, key, 3, a)
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"][4]["status"]
             == "called")
    assert ev.entry(key)["team"]["score"] == {a: 2, b: 1}
    fifth = rubbers(ev, key)[4]["match_id"]
    assert c.get(f"/api/matches/{fifth}").json()["status"] == "scheduled"
    win_rubber(ev, key, 4, a)
    done = ev.settled(key)
    assert done["winner"] == a and done["scores"] == {a: 3, b: 1}
    assert [r["status"] for r in done["team"]["rubbers"]] == ["finished"] * 4 + ["dropped"]
    t = ev.get()
    assert t["draw"]["champion"] == a and t["draw"]["status"] == "finished"
    # the fifth rubber, on its table when the fourth decided it, is taken off and never played
    ev.until(lambda t: c.get(f"/api/matches/{fifth}").status_code == 404)  # gone for every reader
    # exports count rubbers: the team match's scores are rubbers won, and the placings say them
    results = c.get(f"/api/tournaments/{ev.tid}/results.json").json()
    (row,) = [m for m in results["matches"] if m["key"] == key]
    assert sorted(p["score"] for p in row["players"]) == [1, 3]
    places = {p["player"]: p for p in results["placings"]}
    assert (places[a]["won"], places[a]["rubbers_won"], places[a]["rubbers_lost"]) == (1, 3, 1)
    assert (places[b]["lost"], places[b]["rubbers_won"], places[b]["rubbers_lost"]) == (1, 1, 3)
    # a member's entry is theirs: the person's page lists the event under the member's id
    person = next(m["person"] for t in (usa, europe) for m in t["members"] if m["id"] == members[a][0])
    events = c.get(f"/api/people/{person}").json()["events"]
    assert [(e["tournament_id"], e["player_id"]) for e in events] == [(ev.tid, members[a][0])]
    csv = c.get(f"/api/tournaments/{ev.tid}/placings.csv").content.decode("utf-8-sig").splitlines()
    assert csv[0].endswith("rubbers_won,rubbers_lost") and csv[1].endswith(",3,1")


def test_a_member_plays_one_live_rubber_at_a_time(c: TestClient) -> None:
    ev = Event(c, tables=2)
    add_teams(ev, ["China", "Japan"], size=2)
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "singles"}] * 3, "to_win": 2}})
    key = "W1-1"
    a, b = ev.entry(key)["players"]
    for i in range(1, 4):  # the same members in every rubber: one table at a time
        lineup(ev, key, i, a, [f"{a}.1"])
        lineup(ev, key, i, b, [f"{b}.1"])
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"][0]["status"]
             == "called")
    assert [r["status"] for r in rubbers(ev, key)] == ["called", "ready", "ready"]
    win_rubber(ev, key, 1, b)
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == key)["team"]["rubbers"][1]["status"]
             == "called")
    assert rubbers(ev, key)[2]["status"] == "ready"


def test_teams_members_and_lineups_refused_with_codes(c: TestClient) -> None:
    ev = Event(c, tables=1)
    url = f"/api/tournaments/{ev.tid}/players"
    first = add_teams(ev, ["Taipei"], size=2)[0]
    person = first["members"][0]["person"]
    r = c.post(url, json={"name": "Other", "members": [{"person": person}, {"name": "X"}]}, headers=admin())
    assert (r.status_code, r.json()["error"]["code"]) == (409, "person_entered")
    r = c.post(url, json={"name": "Pair", "members": [{"person": "nobody-known"}]}, headers=admin())
    assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_person")
    other = add_teams(ev, ["Manila"], size=2)[0]
    # PATCH: new members until the team has played; an old member's person is free again
    r = c.patch(f"{url}/{other['id']}", json={"members": [{"name": "New One"}, {"name": "New Two"}]}, headers=admin())
    assert r.status_code == 200, r.text
    assert [m["id"] for m in r.json()["members"]] == [f"{other['id']}.3", f"{other['id']}.4"]
    assert [m["name"] for m in r.json()["members"]] == ["New One", "New Two"]
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "singles"}, {"kind": "doubles"}], "to_win": 2}})
    a = ev.entry("W1-1")["players"][0]
    assert lineup(ev, "W1-1", 1, a, ["nobody"], expect=422)["error"]["code"] == "not_member"
    assert lineup(ev, "W1-1", 2, a, [f"{a}.1"], expect=422)["error"]["code"] == "lineup_size"
    r = c.post(f"/api/tournaments/{ev.tid}/draw/W1-1/lineup", json={"rubber": 1, "team": a, "members": ["x"]})
    assert r.status_code == 401
    assert c.get(f"/api/tournaments/{ev.tid}/draw/W1-1/lineup").status_code == 401


def test_a_doubles_rubber_is_created_with_both_members_a_side(c: TestClient) -> None:
    ev = Event(c, tables=1)
    add_teams(ev, ["Germany", "Spain"], size=2)
    ev.draw(match={**RACE2, "team": {"rubbers": [{"kind": "doubles"}, {"kind": "singles"}], "to_win": 1}})
    a, b = ev.entry("W1-1")["players"]
    lineup(ev, "W1-1", 1, a, [f"{a}.2", f"{a}.1"])
    lineup(ev, "W1-1", 1, b, [f"{b}.1", f"{b}.2"])
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == "W1-1")["team"]["rubbers"][0]["status"]
             == "called")
    mid = rubbers(ev, "W1-1")[0]["match_id"]
    match = c.get(f"/api/matches/{mid}").json()
    assert [p["id"] for p in match["players"]] == [a, b] and match["draw"]["key"] == "W1-1/1"
