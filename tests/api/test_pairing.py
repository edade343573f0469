"""Pairing tablets with their tables over HTTP (PROTOCOL.md section 8, hub/api/pairing.py):
codes, the tablet's own token on HTTP and the socket, rotation ending them, the backoff and the
hub-wide budget, the table card's link and QR code, renaming a table."""

from __future__ import annotations

import re
import time
from urllib.parse import unquote

import fake_rules
import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer, envelope, make_match, make_table
from starlette.websockets import WebSocketDisconnect

from hub.api import pairing as pairing_api
from hub.api.pairing import qr_data_url
from hub.app import create_app
from hub.guards.throttle import Backoff, Budget, Policies
from tests.api.peers import Peers
from tests.frames import auth_frame


def new_code(c: TestClient, table_id: str) -> dict:
    r = c.post(f"/api/tables/{table_id}/pairing", headers=admin())
    assert r.status_code == 201, r.text
    return r.json()


def test_code_answer(fake_rules_client):
    table = make_table(fake_rules_client)
    before = int(time.time() * 1000)
    out = new_code(fake_rules_client, table["table_id"])
    assert re.fullmatch(r"\d{6}", out["code"])
    assert before + 9.9 * 60_000 <= out["expires_at"] <= int(time.time() * 1000) + 10 * 60_000 + 1000
    assert out["table_id"] == table["table_id"] and out["name"] == "Table 1"
    # The tablet's way in carries the card's secret in the fragment (never sent to a server, never
    # logged): 24 URL-safe characters, 144 bits, another for every card.
    secret = re.fullmatch(r"http://testserver/pair#secret=([A-Za-z0-9_-]{24})", out["link"]).group(1)
    assert secret != re.search(r"#secret=(.+)", new_code(fake_rules_client, table["table_id"])["link"]).group(1)
    assert out["qr"] == qr_data_url(out["link"]) and out["qr"].startswith("data:image/svg+xml")
    svg = unquote(out["qr"].split(",", 1)[1])
    assert svg.startswith("<svg") and "viewBox" in svg and "width=" not in svg.split(">", 1)[0]


def test_codes_need_the_admin(fake_rules_client):
    table = make_table(fake_rules_client)
    path = f"/api/tables/{table['table_id']}/pairing"
    assert fake_rules_client.post(path).status_code == 401
    assert fake_rules_client.post(path, headers=bearer(table["token"])).status_code == 403
    assert fake_rules_client.post("/api/tables/nope/pairing", headers=admin()).status_code == 404


def test_pairing_gives_the_tablet_its_own_token(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    code = new_code(fake_rules_client, table["table_id"])["code"]
    r = fake_rules_client.post("/api/pair", json={"code": code})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    out = r.json()
    assert out["table_id"] == table["table_id"] and out["name"] == "Table 1" and out["tournament_id"] == table["tid"]
    assert out["token"] != table["token"]
    # Once only.
    again = fake_rules_client.post("/api/pair", json={"code": code})
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_found"
    # The tablet's token sends commands over HTTP and opens the table's socket.
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}),
                    headers=bearer(out["token"]))
    assert r.status_code == 200 and r.json()["type"] == "ack"
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json(auth_frame(out["token"]))
        assert ws.receive_json()["type"] == "ready"
    # The table's own token still works, and the tablet is counted.
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "shot", "player": "a"}),
                    headers=bearer(table["token"]))
    assert r.status_code == 200
    assert fake_rules_client.get(f"/api/tables/{table['table_id']}").json() == {
        "id": table["table_id"], "name": "Table 1", "tournament_id": table["tid"], "tablets": 1,
        "tournament_name": "Open", "match_id": mid}


def test_a_tablet_token_opens_no_other_table(fake_rules_client):
    a, b = make_table(fake_rules_client), make_table(fake_rules_client)
    mb = make_match(fake_rules_client, b)["id"]
    token = fake_rules_client.post(
        "/api/pair", json={"code": new_code(fake_rules_client, a["table_id"])["code"]}
    ).json()["token"]
    r = fake_rules_client.post(
        f"/api/matches/{mb}/commands", json=envelope(mb, {"kind": "start", "breaker": "a"}), headers=bearer(token)
    )
    assert r.status_code == 403
    with fake_rules_client.websocket_connect(f"/ws/tables/{b['table_id']}") as ws:
        ws.send_json(auth_frame(token))
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4401
    # Nor is it an admin token.
    assert fake_rules_client.post("/api/tournaments", json={"name": "X"}, headers=bearer(token)).status_code == 403


def test_rotation_ends_every_tablet_token(fake_rules_client):
    table = make_table(fake_rules_client)
    tokens = [
        fake_rules_client.post(
            "/api/pair", json={"code": new_code(fake_rules_client, table["table_id"])["code"]}
        ).json()["token"]
        for _ in range(2)
    ]
    unused = new_code(fake_rules_client, table["table_id"])["code"]
    ws = fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}")
    with ws:
        ws.send_json(auth_frame(tokens[0]))
        assert ws.receive_json()["type"] == "ready"
        r = fake_rules_client.post(f"/api/tables/{table['table_id']}/token", headers=admin())
        assert r.status_code == 200 and r.json()["closed_sockets"] == 1
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4401
    mid = make_match(fake_rules_client, table)["id"]
    for token in [*tokens, table["token"]]:
        r = fake_rules_client.post(
            f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}), headers=bearer(token)
        )
        assert r.status_code == 403
    assert fake_rules_client.post("/api/pair", json={"code": unused}).status_code == 404
    assert fake_rules_client.get(f"/api/tables/{table['table_id']}").json()["tablets"] == 0


def test_wrong_expired_and_malformed_codes(fake_rules_client, monkeypatch):
    table = make_table(fake_rules_client)
    for body in ({"code": "000000"}, {"code": "12345"}, {"code": "abcdef"}, {"code": "1234567"}):
        r = fake_rules_client.post("/api/pair", json=body)
        assert r.status_code in (404, 429), body
        if r.status_code == 404:
            assert r.json()["error"]["code"] == "not_found"
    for body in ({}, {"code": None}, {"code": ["123456"]}, "123456"):
        assert fake_rules_client.post("/api/pair", json=body).status_code == 422, body
    monkeypatch.setattr(pairing_api, "CODE_TTL_MS", 50)
    code = new_code(fake_rules_client, table["table_id"])["code"]
    time.sleep(0.15)
    assert fake_rules_client.post("/api/pair", json={"code": code}).status_code in (404, 429)


def test_codes_typed_with_spaces_or_as_a_number(fake_rules_client):
    table = make_table(fake_rules_client)
    code = new_code(fake_rules_client, table["table_id"])["code"]
    assert fake_rules_client.post("/api/pair", json={"code": f" {code[:3]} {code[3:]} "}).status_code == 200
    code = new_code(fake_rules_client, table["table_id"])["code"]
    assert fake_rules_client.post("/api/pair", json={"code": int(code)}).status_code == 200


def test_several_codes_alive_for_one_table(fake_rules_client):
    table = make_table(fake_rules_client)
    first, second = (
        new_code(fake_rules_client, table["table_id"])["code"],
        new_code(fake_rules_client, table["table_id"])["code"],
    )
    assert fake_rules_client.post("/api/pair", json={"code": first}).status_code == 200
    assert fake_rules_client.post("/api/pair", json={"code": second}).status_code == 200


def _app(settings, policies: Policies):
    return create_app(settings, rules=fake_rules, throttle_policies=policies)


def test_repeated_wrong_codes_from_one_address_are_slowed(sqlite_settings):
    quick = Backoff(free=3, first_ms=300, max_ms=600, hold_ms=400, refuse_pause_ms=100)
    app = _app(sqlite_settings, Policies(pairing=quick))
    with Peers(app) as at:
        guesser, tablet = at("10.1.0.1"), at("10.1.0.2")
        table = make_table(guesser)
        codes, took = [], []
        for n in range(6):
            t0 = time.monotonic()
            codes.append(guesser.post("/api/pair", json={"code": f"{n:06d}"}).status_code)
            took.append(time.monotonic() - t0)
        assert codes[:5] == [404] * 5 and codes[5] == 429, codes
        assert took[4] >= 0.28, took
        # Another tablet pairs at once.
        code = new_code(guesser, table["table_id"])["code"]
        t0 = time.monotonic()
        assert tablet.post("/api/pair", json={"code": code}).status_code == 200
        assert time.monotonic() - t0 < 0.25


def test_wrong_codes_hub_wide_are_budgeted(sqlite_settings):
    """Guessing from many addresses: past the hub-wide budget, every pairing attempt waits for
    the window to end, whoever sends it (the code is not even checked)."""
    app = _app(sqlite_settings, Policies(pairing_hub=Budget(limit=4, window_ms=60_000)))
    with Peers(app) as at:
        clients = [at(f"10.2.0.{i}") for i in range(6)]
        c0 = clients[0]
        table = make_table(c0)
        for i in range(4):
            assert clients[i].post("/api/pair", json={"code": "999999"}).status_code == 404
        code = new_code(c0, table["table_id"])["code"]
        r = clients[5].post("/api/pair", json={"code": code})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
        assert "on this hub" in r.json()["error"]["message"]
        assert 50 <= int(r.headers["retry-after"]) <= 60


def test_link_uses_the_public_url_when_set(sqlite_settings):
    with TestClient(create_app(sqlite_settings.with_(public_url="https://scores.example.org"), rules=fake_rules)) as c:
        table = make_table(c)
        out = new_code(c, table["table_id"])
        assert out["link"].startswith("https://scores.example.org/pair#secret=")


def test_get_and_rename_a_table(fake_rules_client):
    table = make_table(fake_rules_client)
    path = f"/api/tables/{table['table_id']}"
    assert fake_rules_client.patch(path, json={"name": "X"}).status_code == 401
    assert fake_rules_client.patch(path, json={"name": "X"}, headers=bearer(table["token"])).status_code == 403
    for body in ({}, {"name": " "}, {"name": 3}, {"name": "x" * 201}):
        assert fake_rules_client.patch(path, json=body, headers=admin()).status_code == 422, body
    r = fake_rules_client.patch(path, json={"name": " <b>Diamond</b> 1 "}, headers=admin())
    assert r.status_code == 200 and r.json()["name"] == "<b>Diamond</b> 1"
    assert fake_rules_client.get(f"/api/tournaments/{table['tid']}").json()["tables"][0]["name"] == "<b>Diamond</b> 1"
    assert fake_rules_client.get("/api/tables/nope").status_code == 404
    assert fake_rules_client.patch("/api/tables/nope", json={"name": "X"}, headers=admin()).status_code == 404
    # The new name is what pairing answers.
    code = new_code(fake_rules_client, table["table_id"])["code"]
    assert fake_rules_client.post("/api/pair", json={"code": code}).json()["name"] == "<b>Diamond</b> 1"
