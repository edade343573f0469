"""Series over REST (hub/api/series.py, PROTOCOL.md section 13) on the real rules and a SQLite file:
two tournaments of the same people, one finished, one running; the standings by person (shared
places get their band's points), a running event shown apart, the standings kept current as the
second one finishes (the keeper, after the acks), best-k, the CSV with a BOM, and the errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from services import wait_until
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}
NAMES = ["王也", "Zheng Yubo", "Ko Pin-yi", "Fedor Gorst"]
BANDS = {"1": 100, "2": 75, "3": 55}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


class Event:
    """A tournament of four, a single elimination, its matches settled by hand at the desk."""

    def __init__(self, c: TestClient, name: str) -> None:
        self.c = c
        self.tid = c.post("/api/tournaments", json={"name": name}, headers=admin()).json()["id"]
        for i in range(2):
            c.post(f"/api/tournaments/{self.tid}/tables", json={"name": f"T{i}"}, headers=admin())
        r = c.post(f"/api/tournaments/{self.tid}/players", json={"players": [{"name": n} for n in NAMES]},
                   headers=admin())
        self.players = {p["name"]: p for p in r.json()["players"]}
        r = c.post(f"/api/tournaments/{self.tid}/draw", headers=admin(),
                   json={"type": "single_elimination", "seeding": "random", "seed": 7, "match": WPA})
        assert r.status_code == 201, r.text

    def entry(self, key: str) -> dict[str, Any]:
        t = self.c.get(f"/api/tournaments/{self.tid}").json()
        return next(m for m in t["draw"]["matches"] if m["key"] == key)

    def person_of(self, pid: str) -> str:
        return next(p["person"] for p in self.players.values() if p["id"] == pid)

    def settle(self, key: str, first: bool = True) -> str:
        """The first (or second) player of `key` wins 2-0 by hand; their person."""
        e = wait_until(lambda: self.entry(key)["status"] == "called" and self.entry(key), what=f"{key} called")
        winner, loser = e["players"] if first else e["players"][::-1]
        r = self.c.post(f"/api/matches/{e['match_id']}/result", json={"winner": winner, "score": {winner: 2, loser: 0}},
                        headers=admin())
        assert r.status_code == 200, r.text
        wait_until(lambda: self.entry(key)["status"] == "finished", what=f"{key} finished")
        return self.person_of(winner)


def series(c: TestClient, sid: str) -> dict[str, Any]:
    r = c.get(f"/api/series/{sid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_standings_by_person_across_events_live_as_events_finish(c: TestClient) -> None:
    one, two = Event(c, "Week 1"), Event(c, "Week 2")
    assert {p["person"] for p in one.players.values()} == {p["person"] for p in two.players.values()}
    r = c.post("/api/series", json={"name": "Summer tour", "points": BANDS}, headers=admin())
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    for ev in (one, two):
        r = c.post(f"/api/series/{sid}/tournaments", json={"tournament_id": ev.tid}, headers=admin())
        assert r.status_code == 200, r.text
    assert [(t["id"], t["status"]) for t in r.json()["tournaments"]] == [(one.tid, "in_progress"),
                                                                          (two.tid, "in_progress")]
    assert r.json()["standings"] == []

    one.settle("W1-1")
    one.settle("W1-2")
    champion = one.settle("W2-1")
    two.settle("W1-1", first=False)  # week 2 is under way

    s = wait_until(lambda: (v := series(c, sid))["standings"] and v, what="week 1 counted")
    assert [(t["id"], t["status"]) for t in s["tournaments"]] == [(one.tid, "finished"), (two.tid, "in_progress")]
    assert s["tournaments"][0]["champion"]["person"] == champion
    assert [(r["rank"], r["points"]) for r in s["standings"]] == [(1, 100), (2, 75), (3, 55), (3, 55)]
    assert s["standings"][0]["person"] == champion and s["standings"][0]["events"] == 1
    assert s["standings"][2]["results"] == [{"tournament_id": one.tid, "place": 3, "points": 55, "counted": True}]

    etag = c.get(f"/api/series/{sid}").headers["etag"]
    assert c.get(f"/api/series/{sid}", headers={"If-None-Match": etag}).status_code == 304

    two.settle("W1-2")
    champion_two = two.settle("W2-1")
    s = wait_until(lambda: (v := series(c, sid))["tournaments"][1]["status"] == "finished" and v,
                   what="week 2 counted by the keeper")
    top = {r["person"]: r for r in s["standings"]}
    assert top[champion_two]["events"] == 2 and top[champion_two]["points"] >= 100 + 55
    assert sum(r["points"] for r in s["standings"]) == 2 * (100 + 75 + 55 + 55)

    # best 1: only each person's best event counts
    r = c.patch(f"/api/series/{sid}", json={"best": 1}, headers=admin())
    assert r.status_code == 200 and r.json()["best"] == 1
    assert all(r_["points"] == max(x["points"] for x in r_["results"]) for r_ in r.json()["standings"])

    csv = c.get(f"/api/series/{sid}/standings.csv")
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    text = csv.content.decode("utf-8")
    assert text.startswith("\ufeffrank,person,name,points,events,place Week 1,points Week 1")
    assert len(text.strip().splitlines()) == 1 + len(r.json()["standings"])
    assert any(n in text for n in NAMES)

    listed = c.get("/api/series").json()["series"]
    assert [x["id"] for x in listed] == [sid] and listed[0]["standings"]

    r = c.delete(f"/api/series/{sid}/tournaments/{two.tid}", headers=admin())
    assert r.status_code == 200 and [t["id"] for t in r.json()["tournaments"]] == [one.tid]
    assert c.delete(f"/api/series/{sid}", headers=admin()).json() == {"deleted": sid}
    assert c.get(f"/api/series/{sid}").status_code == 404


@pytest.mark.parametrize(("body", "code"), [
    ({"name": "x", "points": {"0": 10}}, "bad_band"),
    ({"name": "x", "points": {"first": 10}}, "bad_band"),
    ({"name": "x", "points": {"1": -5}}, "bad_points"),
    ({"name": "x", "points": {}}, "bad_points"),
    ({"name": "x", "points": {"1": 10}, "best": 0}, "bad_best"),
    ({"name": "", "points": {"1": 10}}, "bad_series"),
    ({"name": "x", "points": {"1": 10}, "colour": "red"}, "bad_request"),
    ([1, 2], "bad_request"),
])
def test_a_bad_series_is_a_422_with_a_code(c: TestClient, body: Any, code: str) -> None:
    r = c.post("/api/series", json=body, headers=admin())
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text


def test_unknown_things_and_no_credential(c: TestClient) -> None:
    assert c.get("/api/series/nope").status_code == 404
    assert c.post("/api/series", json={"name": "x", "points": {"1": 1}}).status_code == 401
    sid = c.post("/api/series", json={"name": "x", "points": {"1": 1}}, headers=admin()).json()["id"]
    r = c.post(f"/api/series/{sid}/tournaments", json={"tournament_id": "tnope"}, headers=admin())
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_tournament"
    assert c.delete(f"/api/series/{sid}/tournaments/tnope", headers=admin()).status_code == 404
    assert c.patch("/api/series/nope", json={"name": "y"}, headers=admin()).status_code == 404
    r = c.patch(f"/api/series/{sid}", json={"points": {"x": 1}}, headers=admin())
    assert r.json()["error"]["code"] == "bad_band"
