"""Who may do what (SECURITY.md): admin-only setup, table tokens scoped to their table, hashed
tokens, constant-time comparison, token rotation, origin policy, the table socket's rate limit."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import time

import fake_rules
import pytest
from fastapi.testclient import TestClient
from spine_helpers import ADMIN, admin, bearer, envelope, make_match, make_table
from starlette.websockets import WebSocketDisconnect

from hub.app import create_app
from tests.frames import auth_frame, subscribe_frame


def _closed_with(ws) -> int:
    with pytest.raises(WebSocketDisconnect) as exc:
        for _ in range(1000):
            ws.receive_json()
    return exc.value.code


def _auth(ws, token):
    ws.send_json(auth_frame(token))
    return ws.receive_json()


# --- admin-only setup ---------------------------------------------------------------------------


def test_only_admin_creates_tournaments_tables_matches(fake_rules_client):
    table = make_table(fake_rules_client)
    tid = table["tid"]
    body = {"tournament_id": tid, "table_id": table["table_id"], "discipline": "golden_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 3}}
    calls = [("/api/tournaments", {"name": "X"}), (f"/api/tournaments/{tid}/tables", {"name": "Y"}),
             ("/api/matches", body), (f"/api/tables/{table['table_id']}/token", {})]
    for path, payload in calls:
        for headers, status in [({}, 401), (bearer(table["token"]), 403), (bearer("nope"), 403),
                                ({"Authorization": "Basic " + ADMIN}, 401), (bearer(ADMIN + "x"), 403)]:
            r = fake_rules_client.post(path, json=payload, headers=headers)
            assert r.status_code == status, (path, headers, r.text)
            assert r.json()["error"]["code"] in ("unauthorized", "forbidden")
    assert [t["id"] for t in fake_rules_client.get("/api/tournaments").json()["tournaments"]] == [tid]
    assert fake_rules_client.get(f"/api/tournaments/{tid}").json()["tables"][0]["match"] is None


def test_table_token_writes_only_its_own_tables_matches(fake_rules_client):
    a, b = make_table(fake_rules_client), make_table(fake_rules_client)
    ma, mb = make_match(fake_rules_client, a)["id"], make_match(fake_rules_client, b)["id"]
    # HTTP: b's token on a's match, and the admin token (not a table token), are refused.
    for token in (b["token"], ADMIN):
        r = fake_rules_client.post(f"/api/matches/{ma}/commands", json=envelope(ma, {"kind": "start", "breaker": "a"}),
                        headers=bearer(token))
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    # Socket: a's socket refuses b's match; b's token cannot open a's socket.
    with fake_rules_client.websocket_connect(f"/ws/tables/{a['table_id']}") as ws:
        assert _auth(ws, a["token"])["type"] == "ready"
        ws.send_json(envelope(mb, {"kind": "start", "breaker": "a"}, cid="x1"))
        assert ws.receive_json()["error"]["code"] == "unknown_match"
    with fake_rules_client.websocket_connect(f"/ws/tables/{a['table_id']}") as ws:
        ws.send_json(auth_frame(b["token"]))
        assert _closed_with(ws) == 4401
    assert fake_rules_client.get(f"/api/matches/{ma}").json()["version"] == 0
    assert fake_rules_client.get(f"/api/matches/{mb}").json()["version"] == 0


def test_tokens_are_stored_hashed(fake_rules_client, sqlite_settings):
    table = make_table(fake_rules_client)
    path = sqlite_settings.database_url.split("///", 1)[1]
    db = sqlite3.connect(path)
    try:
        dump = "\n".join(db.iterdump())
        stored = db.execute("SELECT token_hash FROM tables WHERE id = ?", (table["table_id"],)).fetchone()[0]
    finally:
        db.close()
    assert table["token"] not in dump and ADMIN not in dump
    assert stored == hashlib.sha256(table["token"].encode()).hexdigest()
    assert hashlib.sha256(ADMIN.encode()).hexdigest() in dump


def test_token_checks_use_constant_time_comparison(fake_rules_client, monkeypatch):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    fake_rules_client.post("/api/tournaments", json={"name": "X"}, headers=admin())
    assert calls, "the admin token was not compared with hmac.compare_digest"
    calls.clear()
    fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}),
                headers=bearer(table["token"]))
    assert calls, "the table token was not compared with hmac.compare_digest"


# --- rotation -----------------------------------------------------------------------------------


def test_rotation_revokes_the_old_token_everywhere(fake_rules_client):
    table = make_table(fake_rules_client)
    tbid, old = table["table_id"], table["token"]
    mid = make_match(fake_rules_client, table)["id"]
    with fake_rules_client.websocket_connect(f"/ws/tables/{tbid}") as ws:
        assert _auth(ws, old)["type"] == "ready"
        r = fake_rules_client.post(f"/api/tables/{tbid}/token", headers=admin())
        assert r.status_code == 200, r.text
        new = r.json()["token"]
        assert r.json()["id"] == tbid and new != old and r.json()["closed_sockets"] == 1
        assert _closed_with(ws) == 4401
    # The old token: refused over HTTP and on a new socket. The new one works.
    cmd = envelope(mid, {"kind": "start", "breaker": "a"})
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=cmd, headers=bearer(old))
    assert r.status_code == 403
    with fake_rules_client.websocket_connect(f"/ws/tables/{tbid}") as ws:
        ws.send_json(auth_frame(old))
        assert _closed_with(ws) == 4401
    assert fake_rules_client.post(f"/api/matches/{mid}/commands", json=cmd, headers=bearer(new)).status_code == 200
    with fake_rules_client.websocket_connect(f"/ws/tables/{tbid}") as ws:
        assert _auth(ws, new)["match"]["version"] == 1
    assert fake_rules_client.post("/api/tables/nope/token", headers=admin()).status_code == 404


def test_rotation_in_another_process_closes_sockets_at_their_next_frame(sqlite_settings, monkeypatch):
    """Two apps on one database: rotating through one closes the other's socket when it next speaks."""
    from hub.api import table_socket as table_mod

    monkeypatch.setattr(table_mod, "TOKEN_RECHECK_S", 0.0)
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as one, \
            TestClient(create_app(sqlite_settings, rules=fake_rules)) as two:
        table = make_table(one)
        mid = make_match(one, table)["id"]
        with two.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            assert _auth(ws, table["token"])["type"] == "ready"
            assert one.post(f"/api/tables/{table['table_id']}/token", headers=admin()).status_code == 200
            time.sleep(0.01)
            ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}, cid="late"))
            assert _closed_with(ws) == 4401
        assert one.get(f"/api/matches/{mid}").json()["version"] == 0


# --- origins ------------------------------------------------------------------------------------


def test_origin_policy(sqlite_settings):
    settings = sqlite_settings.with_(allowed_origins=("https://hall.example",))
    with TestClient(create_app(settings, rules=fake_rules)) as c:
        table = make_table(c)
        pre = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
        ok = c.options("/api/tournaments", headers={"Origin": "https://hall.example", **pre})
        assert ok.headers.get("access-control-allow-origin") == "https://hall.example"
        bad = c.options("/api/tournaments", headers={"Origin": "https://evil.example", **pre})
        assert "access-control-allow-origin" not in bad.headers
        got = c.get("/api/tournaments", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in got.headers
        url = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(url, headers={"Origin": "https://evil.example"}) as ws:
            assert _closed_with(ws) == 4403
        for headers in ({"Origin": "https://hall.example"}, {}):  # no Origin: a tablet app or a script
            with c.websocket_connect(url, headers=headers) as ws:
                assert _auth(ws, table["token"])["type"] == "ready"


def test_default_origin_policy_allows_every_origin(fake_rules_client):
    table = make_table(fake_rules_client)
    got = fake_rules_client.get("/api/tournaments", headers={"Origin": "https://anywhere.example"})
    assert got.headers.get("access-control-allow-origin") == "*"
    origin = {"Origin": "https://x.example"}
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}", headers=origin) as ws:
        assert _auth(ws, table["token"])["type"] == "ready"


# --- command rate per table socket -------------------------------------------------------------


def test_table_socket_rate_limit_and_flood_close(sqlite_settings):
    settings = sqlite_settings.with_(table_rate_per_s=0.5, table_rate_burst=3)
    with TestClient(create_app(settings, rules=fake_rules)) as c:
        table = make_table(c)
        mid = make_match(c, table)["id"]
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            assert _auth(ws, table["token"])["type"] == "ready"
            ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}, cid="s1"))
            assert ws.receive_json()["type"] == "ack"
            assert ws.receive_json()["type"] == "state"
            ws.send_json(envelope(mid, {"kind": "shot", "player": "a"}, cid="s2"))
            assert ws.receive_json()["type"] == "ack"
            assert ws.receive_json()["type"] == "state"
            ws.send_json(envelope(mid, {"kind": "shot", "player": "b"}, cid="s3"))
            assert ws.receive_json()["type"] == "ack"
            assert ws.receive_json()["type"] == "state"
            ws.send_json(envelope(mid, {"kind": "shot", "player": "a"}, cid="s4"))
            r = ws.receive_json()
            assert r == {
                "type": "reject",
                "id": "s4",
                "error": {"code": "rate_limited", "message": r["error"]["message"]},
            }
            # A flood past a whole burst of rate_limited frames closes the socket 4429.
            for i in range(10):
                ws.send_json(envelope(mid, {"kind": "shot", "player": "a"}, cid=f"f{i}"))
            assert _closed_with(ws) == 4429
        # Rate-limited commands changed nothing and left no stored answer: s4 can be sent again,
        # once the table's budget (shared by its sockets and its HTTP commands) is back.
        assert c.get(f"/api/matches/{mid}").json()["version"] == 3
        resend = envelope(mid, {"kind": "shot", "player": "a"}, cid="s4")
        r = c.post(f"/api/matches/{mid}/commands", json=resend, headers=bearer(table["token"]))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        time.sleep(int(r.headers["Retry-After"]))
        r = c.post(f"/api/matches/{mid}/commands", json=resend, headers=bearer(table["token"]))
        assert r.status_code == 200 and r.json()["version"] == 4


# --- the watch socket: read-only, origin policy -------------------------------------------------


def test_watch_is_read_only(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    with fake_rules_client.websocket_connect("/ws/watch") as ws:
        ws.send_json(subscribe_frame(f"match:{mid}"))
        assert ws.receive_json()["type"] == "snapshot"
        for msg in (
            envelope(mid, {"kind": "start", "breaker": "a"}, cid="w1"),
            auth_frame(table["token"]),
            {**envelope(mid, {"kind": "start", "breaker": "a"}, cid="w2"), "type": "command"},
        ):
            ws.send_json(msg)
            assert ws.receive_json()["type"] == "error"
    assert fake_rules_client.get(f"/api/matches/{mid}").json()["version"] == 0
    assert fake_rules_client.get(f"/api/matches/{mid}/events").json()["events"] == []


def test_watch_origin_policy(sqlite_settings):
    settings = sqlite_settings.with_(allowed_origins=("https://hall.example",))
    with TestClient(create_app(settings, rules=fake_rules)) as c:
        with c.websocket_connect("/ws/watch", headers={"Origin": "https://evil.example"}) as ws:
            assert _closed_with(ws) == 4403
        with c.websocket_connect("/ws/watch", headers={"Origin": "https://hall.example"}) as ws:
            ws.send_json(subscribe_frame("match:nope"))
            assert ws.receive_json()["type"] == "error"


def test_watch_subscription_limit(fake_rules_client):
    from hub.watch.core import MAX_SUBSCRIPTIONS

    tables = [make_table(fake_rules_client) for _ in range(MAX_SUBSCRIPTIONS + 1)]
    with fake_rules_client.websocket_connect("/ws/watch") as ws:
        for tb in tables[:MAX_SUBSCRIPTIONS]:
            ws.send_json(subscribe_frame(f"table:{tb['table_id']}"))
            assert ws.receive_json()["type"] == "snapshot"
        ws.send_json(subscribe_frame(f"table:{tables[-1]['table_id']}"))
        assert ws.receive_json()["error"]["code"] == "too_many_subscriptions"
