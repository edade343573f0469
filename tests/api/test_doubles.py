"""Scotch doubles over HTTP (PROTOCOL.md section 15): `doubles: true` on POST /api/matches, its 422
codes (a three-player discipline, a side without two members), the member due through commands,
out_of_turn refused in singles, and the member stored with the match (GET answers the same)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer, envelope, make_table

from hub.app import create_app

SIDES = [
    {"id": "a", "name": "Ann & Al", "members": [{"person": "a1", "name": "Ann"}, {"person": "a2", "name": "Al"}]},
    {"id": "b", "name": "Bo & Bea", "members": [{"name": "Bo"}, {"name": "Bea"}]},
]


@pytest.fixture
def client(sqlite_settings):
    with TestClient(create_app(sqlite_settings)) as c:
        yield c


def _body(table, **over):
    return {"tournament_id": table["tid"], "table_id": table["table_id"], "discipline": "wpa_nine",
            "players": SIDES, "format": {"race_to": 3}, "doubles": True, **over}


def _send(client, table, mid, command):
    return client.post(f"/api/matches/{mid}/commands", json=envelope(mid, command), headers=bearer(table["token"]))


def test_bad_doubles_setups_answer_422_with_a_code(client):
    table = make_table(client)
    for over, code in [
        ({"discipline": "chase_nine", "format": {"racks": 3},
          "players": [*SIDES, {"id": "c", "name": "C"}]}, "doubles_not_allowed"),
        ({"players": [SIDES[0], {"id": "b", "name": "B"}]}, "doubles_members"),
        ({"players": [SIDES[0], {"id": "b", "name": "B", "members": [{"name": "Bo"}]}]}, "doubles_members"),
        ({"doubles": False}, "doubles_members"),
        ({"doubles": 1}, "doubles_members"),
    ]:
        r = client.post("/api/matches", json=_body(table, **over), headers=admin())
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == code, over


def test_a_doubles_match_over_http(client):
    table = make_table(client)
    r = client.post("/api/matches", json=_body(table), headers=admin())
    assert r.status_code == 201, r.text
    match = r.json()
    mid = match["id"]
    assert match["doubles"] is True and match["format"]["break"] == "alternate"
    assert [m["name"] for m in match["players"][1]["members"]] == ["Bo", "Bea"]
    bad = _send(client, table, mid, {"kind": "start", "breaker": "a", "members": {"a": ["a1", "x"]}})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_command"
    assert _send(client, table, mid, {"kind": "start", "breaker": "a",
                                      "members": {"a": ["a2", "a1"]}}).status_code == 200
    proj = client.get(f"/api/matches/{mid}").json()
    assert proj["rack"]["member"] == "a2"
    assert [m["person"] for m in proj["players"][0]["members"]] == ["a2", "a1"]
    shot = {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [], "break_rails": 4}
    assert _send(client, table, mid, shot).status_code == 200
    assert client.get(f"/api/matches/{mid}").json()["rack"]["member"] == "b.1"
    foul = {"kind": "shot", "player": "b", "first_contact": 1, "pocketed": [], "rail": True,
            "called_fouls": ["out_of_turn"]}
    assert _send(client, table, mid, foul).status_code == 200
    proj = client.get(f"/api/matches/{mid}").json()
    assert proj["last"]["fouls"] == ["out_of_turn"] and proj["rack"]["member"] == "a1"
    assert _send(client, table, mid, {"kind": "undo"}).status_code == 200
    assert client.get(f"/api/matches/{mid}").json()["rack"]["member"] == "b.1"
    short = client.get("/api/matches?status=live").json()["matches"][0]
    assert short["rack"]["member"] == "b.1" and len(short["players"][0]["members"]) == 2


def test_out_of_turn_in_singles_is_refused(client):
    table = make_table(client)
    body = _body(table, players=[{"id": "a", "name": "A"}, {"id": "b", "name": "B"}])
    del body["doubles"]
    mid = client.post("/api/matches", json=body, headers=admin()).json()["id"]
    assert _send(client, table, mid, {"kind": "start", "breaker": "a"}).status_code == 200
    r = _send(client, table, mid, {"kind": "foul", "player": "a", "reason": "out_of_turn"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_allowed"


def test_a_draws_match_takes_doubles(client):
    tid = make_table(client)["tid"]
    names = [{"name": n} for n in ("A", "B", "C", "D")]
    assert client.post(f"/api/tournaments/{tid}/players", json={"players": names}, headers=admin()).status_code == 201
    chase = {"discipline": "chase_nine", "format": {"racks": 3}, "doubles": True}
    r = client.post(f"/api/tournaments/{tid}/draw", json={"type": "chase", "match": chase}, headers=admin())
    assert r.status_code == 422 and r.json()["error"]["code"] == "doubles_not_allowed", r.text
    # entries without two members each (teams of two) could never be called: refused
    r = client.post(f"/api/tournaments/{tid}/draw", headers=admin(), json={
        "type": "single_elimination", "match": {"discipline": "wpa_nine", "format": {"race_to": 3}, "doubles": True}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "doubles_pairs", r.text


def test_match_stats_give_each_member_their_own(client):
    table = make_table(client)
    mid = client.post("/api/matches", json=_body(table), headers=admin()).json()["id"]
    _send(client, table, mid, {"kind": "start", "breaker": "a"})
    _send(client, table, mid, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "break_rails": 4})
    _send(client, table, mid, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [], "rail": True})
    stats = client.get(f"/api/matches/{mid}/stats").json()
    side = next(p for p in stats["players"] if p["player_id"] == "a")
    assert side["stats"]["total"]["strokes"]["count"] == 2
    counts = {m["person"]: m["stats"]["total"]["strokes"]["count"] for m in side["members"]}
    breaks = {m["person"]: m["stats"]["total"]["breaks"]["taken"] for m in side["members"]}
    assert counts == {"a1": 1, "a2": 1} and breaks == {"a1": 1, "a2": 0}
