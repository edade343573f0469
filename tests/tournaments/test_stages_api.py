"""PROTOCOL.md section 11 over REST on the real rules: race lengths per round reach the matches the
hub creates, two-stage draws show both stages, bad settings are 422 and store nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin
from test_api import WPA, Event

from hub.app import create_app
from hub.settings import Settings


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def test_each_round_plays_its_race_and_the_match_shows_it(c: TestClient) -> None:
    ev = Event(c, players=4, tables=2)
    match = {**WPA, "by_round": {"final": {"format": {"race_to": 3}}}}
    t = ev.draw("single_elimination", match=match, seeding="seeded")
    called = [m for m in t["draw"]["matches"] if m["status"] == "called"]
    assert len(called) == 2
    for m in called:
        assert c.get(f"/api/matches/{m['match_id']}").json()["format"]["race_to"] == 2
    rounds = t["draw"]["stages"][0]["rounds"]
    assert [(r["round"], r["side"], r["format"]["race_to"]) for r in rounds] == [("W1", "winners", 2),
                                                                                  ("W2", "final", 3)]
    ev.win(called[0]["key"], called[0]["players"][0])
    ev.win(called[1]["key"], called[1]["players"][0])
    final = ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == "W2-1")["status"] == "called")
    entry = next(m for m in final["draw"]["matches"] if m["key"] == "W2-1")
    assert c.get(f"/api/matches/{entry['match_id']}").json()["format"]["race_to"] == 3


@pytest.mark.parametrize(("body", "code"), [
    ({"type": "single_elimination", "match": {**WPA, "by_round": {"L1": {"format": {"race_to": 3}}}}}, "bad_request"),
    ({"type": "single_elimination", "match": {**WPA, "by_round": {"final": {"format": {"race_to": 0}}}}}, "bad_setup"),
    ({"type": "single_elimination", "match": {**WPA, "by_round": {"final": 3}}}, "bad_request"),
    ({"type": "double_elimination", "match": WPA, "then": {"type": "single_elimination", "advance": 3}},
     "bad_advance"),
    ({"type": "round_robin", "groups": 2, "match": WPA,
      "then": {"type": "single_elimination", "advance": 1, "match": {**WPA, "format": {"race_to": -1}}}}, "bad_setup"),
])
def test_bad_stage_settings_are_422_and_store_nothing(c: TestClient, body: dict, code: str) -> None:
    ev = Event(c, players=8)
    r = c.post(f"/api/tournaments/{ev.tid}/draw", json=body, headers=admin())
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code
    assert ev.get()["draw"] is None


def test_groups_then_knockout_shows_both_stages(c: TestClient) -> None:
    ev = Event(c, players=8, tables=2)
    t = ev.draw("round_robin", groups=2, seeding="seeded",
                then={"type": "single_elimination", "advance": 2,
                      "match": {**WPA, "format": {"race_to": 3}}})
    first, second = t["draw"]["stages"]
    assert (first["stage"], first["type"], first["status"], first["groups"]) == (1, "round_robin", "running", 2)
    assert (second["stage"], second["type"], second["status"], second["advance"]) == (
        2, "single_elimination", "waiting", 2)
    assert second["entrants"] is None and second["seeding"] == "results"
    assert [r["round"] for r in second["rounds"]] == ["K1", "K2"]
    assert {r["format"]["race_to"] for r in second["rounds"]} == {3}
    knockout = [m for m in t["draw"]["matches"] if m["stage"] == 2]
    assert [m["key"] for m in knockout] == ["K1-1", "K1-2", "K2-1"]
    assert all(m["status"] == "waiting" and m["players"] == [None, None] for m in knockout)
    assert {m["stage"] for m in t["draw"]["matches"] if m["bracket"] == "group"} == {1}
