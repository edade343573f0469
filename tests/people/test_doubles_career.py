"""A member's strokes in scotch doubles count in that member's own career (PROTOCOL.md sections 12
and 15), over REST on the real rules and SQLite: a doubles rubber of a team match played stroke by
stroke, then each member's profile, match list and head-to-head as the keeper keeps them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from services import wait_until

from hub.app import create_app
from hub.people import facts
from hub.settings import Settings
from tests.people.test_api import profile
from tests.tournaments.test_api import Event
from tests.tournaments.test_rubbers import add_teams, lineup, rubbers

DOUBLES = {"discipline": "wpa_nine", "format": {"race_to": 1}, "options": {},
           "team": {"rubbers": [{"kind": "doubles"}], "to_win": 1}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def test_each_members_strokes_count_in_their_own_career(c: TestClient) -> None:
    ev = Event(c, tables=1)
    teams = {t["id"]: t for t in add_teams(ev, ["China", "Taipei"], size=2)}
    ev.draw(match=DOUBLES)
    a, b = ev.entry("W1-1")["players"]
    for team in (a, b):
        lineup(ev, "W1-1", 1, team, [f"{team}.1", f"{team}.2"])
    ev.until(lambda t: t["draw"]["matches"][0]["team"]["rubbers"][0]["status"] == "called")
    mid = rubbers(ev, "W1-1")[0]["match_id"]
    person = {m["id"]: m["person"] for t in teams.values() for m in t["members"]}
    # a's first member breaks dry, b's first member runs the rack out: b wins the rubber 1-0
    ev.command(mid, {"kind": "start", "breaker": a})
    assert c.get(f"/api/matches/{mid}").json()["rack"]["member"] == person[f"{a}.1"]
    ev.command(mid, {"kind": "shot", "player": a, "first_contact": 1, "break_rails": 4})
    assert c.get(f"/api/matches/{mid}").json()["rack"]["member"] == person[f"{b}.1"]
    ev.command(mid, {"kind": "shot", "player": b, "first_contact": 1, "pocketed": list(range(1, 10)), "intent": "pot"})
    assert ev.settled("W1-1")["winner"] == b

    def career(member: str) -> dict[str, Any]:
        return dict(profile(c, person[member])["stats"]["total"])

    breaker = wait_until(lambda: career(f"{a}.1")["matches"]["played"] == 1 and career(f"{a}.1"),
                         what="the breaker's doubles match in their career")
    assert breaker["matches"]["won"] == 0 and breaker["strokes"]["count"] == 1
    assert breaker["breaks"]["taken"] == 1 and breaker["breaks"]["dry"] == 1
    runner = wait_until(lambda: career(f"{b}.1")["matches"]["played"] == 1 and career(f"{b}.1"),
                        what="the runner's doubles match in their career")
    assert runner["matches"]["won"] == 1 and runner["strokes"]["count"] == 1 and runner["breaks"]["taken"] == 0
    assert runner["intent"]["pot"] == {"strokes": 1, "success": 1}
    # the partner who did not come to the table played no stroke
    partner = career(f"{b}.2")
    assert partner["strokes"]["count"] == 0 and partner["matches"] == {"played": 1, "won": 1, "entered": 0}
    # the member's match list names the match as the side's: won, the side's score, the other side
    listed = c.get(f"/api/people/{person[f'{b}.1']}/matches").json()["matches"]
    (item,) = [m for m in listed if m["match_id"] == mid]
    assert item["won"] and item["score"] == 1 and [o["player_id"] for o in item["opponents"]] == [a]
    # head-to-head: the two members met across the table; partners did not meet
    vs = c.get(f"/api/people/{person[f'{b}.1']}/versus/{person[f'{a}.1']}").json()
    assert vs["total"] == {"matches": 1, "a_wins": 1, "b_wins": 0, "a_racks": 1, "b_racks": 0}
    partners = c.get(f"/api/people/{person[f'{b}.1']}/versus/{person[f'{b}.2']}").json()
    assert partners["total"]["matches"] == 0


def test_side_of_a_member_entry() -> None:
    players = [{"player": "p1", "members": ["p1.1", "p1.2"]}, {"player": "p2"}]
    assert facts.side_of(players, "p1.2") == "p1" and facts.side_of(players, "p2") == "p2"
    setup = {"players": [{"id": "p1", "members": [{"person": "x", "id": "p1.1", "name": "X"},
                                                  {"name": "Y"}]}]}
    assert facts.member_entries(setup) == {"x": "p1.1"}
