"""POST /api/matches (hub/api/setup.py) with a handicapped race (PROTOCOL.md section 13): a race per
player is taken, shown on each player, checked (422 bad_setup, never a 500), and a result by hand is
valid when its winner reached their own race and no one else did."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, make_match, make_table

from hub.app import create_app


@pytest.fixture
def client(sqlite_settings):
    with TestClient(create_app(sqlite_settings)) as c:
        yield c


def _body(table, race_to):
    return {"tournament_id": table["tid"], "table_id": table["table_id"], "discipline": "wpa_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"race_to": race_to}}


def test_a_handicapped_race_is_created_shown_and_settled_by_hand(client):
    table = make_table(client)
    m = make_match(client, table, discipline="wpa_nine", format={"race_to": {"a": 7, "b": 5}})
    assert m["format"]["race_to"] == {"a": 7, "b": 5}
    assert [(p["id"], p["race_to"]) for p in m["players"]] == [("a", 7), ("b", 5)]
    got = client.get(f"/api/matches/{m['id']}").json()
    assert [p["race_to"] for p in got["players"]] == [7, 5]
    r = client.post(f"/api/matches/{m['id']}/result", json={"winner": "a", "score": {"a": 7, "b": 5}},
                    headers=admin())
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_result"  # b reached their race too
    r = client.post(f"/api/matches/{m['id']}/result", json={"winner": "b", "score": {"a": 6, "b": 5}},
                    headers=admin())
    assert r.status_code == 200, r.text
    got = client.get(f"/api/matches/{m['id']}").json()
    assert got["status"] == "finished" and got["winner"] == "b"


def test_an_ordinary_race_shows_its_race_on_each_player(client):
    table = make_table(client)
    m = make_match(client, table, discipline="wpa_nine", format={"race_to": 4})
    assert [p["race_to"] for p in m["players"]] == [4, 4] and m["format"]["race_to"] == 4


@pytest.mark.parametrize("race_to", [{"a": 7, "b": 0}, {"a": 7}, {"a": 7, "b": 5, "c": 3}, {"a": "7", "b": 5},
                                     {"a": 7, "b": None}, {"a": 7, "b": 1.5}, [7, 5], 0])
def test_a_bad_race_is_a_422(client, race_to):
    table = make_table(client)
    r = client.post("/api/matches", json=_body(table, race_to), headers=admin())
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("bad_setup", "bad_request")


def test_a_draw_template_cannot_name_races_per_player(client):
    # A draw's match.format is made before its matches' players are known: a race per player comes
    # with each match (a draw's handicap, PROTOCOL.md section 13), never in the template (422, not a
    # stuck queue later).
    t = client.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()
    client.post(f"/api/tournaments/{t['id']}/players", json={"players": [{"name": n} for n in "ABCD"]},
                headers=admin())
    r = client.post(f"/api/tournaments/{t['id']}/draw", headers=admin(), json={
        "type": "single_elimination", "seeding": "random", "seed": 1,
        "match": {"discipline": "wpa_nine", "format": {"race_to": {"p1": 7, "p2": 5}}}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_setup", r.text
    assert "not a player of the match" in r.json()["error"]["message"]
