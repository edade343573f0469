"""The desk's sign-in (PROTOCOL.md section 8, hub/api/session.py and deps.require_admin): the
cookie, where it is accepted, CSRF, sign-out, expiry, several hub processes on one store."""

from __future__ import annotations

import time
from http.cookies import SimpleCookie

import fake_rules
from fastapi.testclient import TestClient
from spine_helpers import ADMIN, admin, make_table

from hub.app import create_app
from hub.guards.throttle import Backoff, Policies
from hub.store import sessions
from tests.api.peers import Peers
from tests.services import wait_until

CSRF = {"X-Requested-With": "cuehub"}


def sign_in(c: TestClient, token: str = ADMIN):
    return c.post("/api/session", json={"token": token})


def cookie_of(response) -> SimpleCookie:
    jar = SimpleCookie()
    jar.load(response.headers["set-cookie"])
    return jar


def test_sign_in_sets_a_strict_http_only_cookie(fake_rules_client):
    r = sign_in(fake_rules_client)
    assert r.status_code == 204 and r.content == b""
    morsel = cookie_of(r)["cuehub_session"]
    assert morsel.value and ADMIN not in morsel.value
    assert morsel["httponly"] and morsel["samesite"].lower() == "strict" and morsel["path"] == "/"
    assert not morsel["secure"]  # plain HTTP here
    assert r.headers["cache-control"] == "no-store"
    assert fake_rules_client.get("/api/session").json()["signed_in"] is True


def test_cookie_is_secure_over_https(sqlite_settings):
    with TestClient(create_app(sqlite_settings, rules=fake_rules), base_url="https://hub.example") as c:
        r = sign_in(c)
        assert r.status_code == 204 and cookie_of(r)["cuehub_session"]["secure"]
        # Sent back over HTTPS it works; the jar would never send it over plain HTTP.
        assert c.post("/api/tournaments", json={"name": "X"}, headers=CSRF).status_code == 201


def test_wrong_and_malformed_tokens(fake_rules_client):
    r = sign_in(fake_rules_client, "nope")
    assert r.status_code == 401 and r.json()["error"]["code"] == "wrong_token"
    assert "set-cookie" not in r.headers
    for body in ({}, {"token": ""}, {"token": 5}, [ADMIN], {"token": "x" * 600}):
        r = fake_rules_client.post("/api/session", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", body
    assert fake_rules_client.post("/api/session", content=b"token=" + ADMIN.encode(),
                       headers={"Content-Type": "application/x-www-form-urlencoded"}).status_code == 422
    assert fake_rules_client.get("/api/session").json() == {"signed_in": False, "expires_at": None}


def test_cookie_works_wherever_the_admin_token_does(fake_rules_client):
    sign_in(fake_rules_client)
    t = fake_rules_client.post("/api/tournaments", json={"name": "Open"}, headers=CSRF)
    assert t.status_code == 201
    tb = fake_rules_client.post(f"/api/tournaments/{t.json()['id']}/tables", json={"name": "T1"}, headers=CSRF)
    assert tb.status_code == 201
    m = fake_rules_client.post("/api/matches", headers=CSRF, json={
        "tournament_id": t.json()["id"], "table_id": tb.json()["id"], "discipline": "golden_nine",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
    assert m.status_code == 201
    assert fake_rules_client.post(f"/api/tables/{tb.json()['id']}/token", headers=CSRF).status_code == 200
    assert fake_rules_client.post(f"/api/tables/{tb.json()['id']}/pairing", headers=CSRF).status_code == 201
    assert (
        fake_rules_client.patch(f"/api/tables/{tb.json()['id']}", json={"name": "T one"}, headers=CSRF).status_code
        == 200
    )


def test_a_write_with_the_cookie_needs_the_header(fake_rules_client):
    table = make_table(fake_rules_client)
    sign_in(fake_rules_client)
    calls = [
        ("POST", "/api/tournaments", {"name": "X"}),
        ("POST", f"/api/tables/{table['table_id']}/token", None),
        ("POST", f"/api/tables/{table['table_id']}/pairing", None),
        ("PATCH", f"/api/tables/{table['table_id']}", {"name": "Y"}),
    ]
    for method, path, body in calls:
        for headers in ({}, {"X-Requested-With": "XMLHttpRequest"}, {"X-Requested-With": ""}):
            r = fake_rules_client.request(method, path, json=body, headers=headers)
            assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_header_required", (path, headers)
    assert fake_rules_client.get(f"/api/tournaments/{table['tid']}").json()["tables"][0]["name"] == "Table 1"
    # The bearer header needs no such header (no ambient authority), and wins over the cookie.
    assert fake_rules_client.post("/api/tournaments", json={"name": "X"}, headers=admin()).status_code == 201
    r = fake_rules_client.post("/api/tournaments", json={"name": "X"}, headers={"Authorization": "Bearer nope", **CSRF})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"


def test_sign_out_ends_the_session_for_the_old_cookie(fake_rules_client):
    r = sign_in(fake_rules_client)
    old = cookie_of(r)["cuehub_session"].value
    assert fake_rules_client.delete("/api/session").status_code == 403  # a write: the header is needed
    r = fake_rules_client.delete("/api/session", headers=CSRF)
    assert r.status_code == 204
    cleared = cookie_of(r)["cuehub_session"]
    assert cleared.value == "" and cleared["max-age"] == "0"
    # Someone who kept the old cookie: refused, it is gone from the store.
    fake_rules_client.cookies.clear()
    fake_rules_client.cookies.set("cuehub_session", old)
    r = fake_rules_client.post("/api/tournaments", json={"name": "X"}, headers=CSRF)
    assert r.status_code == 401 and r.json()["error"]["code"] == "session_expired"
    assert fake_rules_client.get("/api/session").json()["signed_in"] is False
    # Signing out again (or without a session) is fine.
    assert fake_rules_client.delete("/api/session", headers=CSRF).status_code == 204
    fake_rules_client.cookies.clear()
    assert fake_rules_client.delete("/api/session").status_code == 204


def test_no_credentials_and_a_forged_cookie(fake_rules_client):
    r = fake_rules_client.post("/api/tournaments", json={"name": "X"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    fake_rules_client.cookies.set("cuehub_session", "forged")
    r = fake_rules_client.post("/api/tournaments", json={"name": "X"}, headers=CSRF)
    assert r.status_code == 401 and r.json()["error"]["code"] == "session_expired"


def test_session_ends_when_unused(sqlite_settings, monkeypatch):
    """On a fake clock (the session store's `now_ms`): a session lives its idle time from sign-in,
    and not a millisecond more."""
    now = [sessions.now_ms()]
    monkeypatch.setattr(sessions, "now_ms", lambda: now[0])
    settings = sqlite_settings.with_(session_idle_s=0.3)
    with TestClient(create_app(settings, rules=fake_rules)) as c:
        sign_in(c)
        now[0] += 299
        assert c.post("/api/tournaments", json={"name": "X"}, headers=CSRF).status_code == 201
        now[0] += 1
        r = c.post("/api/tournaments", json={"name": "X"}, headers=CSRF)
        assert r.status_code == 401 and r.json()["error"]["code"] == "session_expired"


def test_hub_processes_on_one_store_agree(sqlite_settings):
    """Two apps on one database stand for two hub processes: a session opened on one works on the
    other, and a sign-out on the other ends it on the first too."""
    with (
        TestClient(create_app(sqlite_settings, rules=fake_rules)) as a,
        TestClient(create_app(sqlite_settings, rules=fake_rules)) as b,
    ):
        value = cookie_of(sign_in(a))["cuehub_session"].value
        b.cookies.set("cuehub_session", value)
        assert b.post("/api/tournaments", json={"name": "X"}, headers=CSRF).status_code == 201
        assert b.delete("/api/session", headers=CSRF).status_code == 204
        r = a.post("/api/tournaments", json={"name": "X"}, headers=CSRF)
        assert r.status_code == 401


def test_a_new_admin_token_ends_old_sessions(sqlite_settings):
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as a:
        value = cookie_of(sign_in(a))["cuehub_session"].value
    with TestClient(create_app(sqlite_settings.with_(admin_token="a-new-token"), rules=fake_rules)) as b:
        b.cookies.set("cuehub_session", value)
        assert b.post("/api/tournaments", json={"name": "X"}, headers=CSRF).status_code == 401


def test_repeated_wrong_tokens_from_one_address_are_slowed(sqlite_settings):
    # Slots of 0.8 s and answers counted quick under 0.5 s: far enough apart that a loaded machine
    # (a first commit, a busy CI box) cannot blur a slowed answer into a quick one.
    quick = Backoff(free=2, first_ms=800, max_ms=1600, hold_ms=1200, refuse_pause_ms=400)
    app = create_app(sqlite_settings, rules=fake_rules, throttle_policies=Policies(sign_in=quick))
    with Peers(app) as at:
        c, other, warm = at("10.0.0.1"), at("10.0.0.2"), at("10.0.0.3")
        sign_in(warm, "wrong")  # the first request of a process (imports, the first commit) is not timed
        took, codes = [], []
        for _ in range(6):
            t0 = time.monotonic()
            r = sign_in(c, "wrong")
            took.append(time.monotonic() - t0)
            codes.append(r.status_code)
        # 2 free, the 3rd takes the first slot at once, the 4th waits 0.8 s, the 5th's slot is
        # 2.4 s away (over the 1.2 s hold): refused after a pause, with Retry-After.
        assert codes[:4] == [401, 401, 401, 401] and 429 in codes[4:], codes
        # the 4th waits for the slot 0.8 s after the 3rd's: measured from the 3rd's start, since a
        # slow 3rd answer (a loaded machine) eats into the 4th's wait
        assert max(took[:3]) < 0.5 and took[2] + took[3] >= 0.75, took
        refused = next(i for i, code in enumerate(codes) if code == 429)
        assert took[refused] >= 0.38
        r = sign_in(c, "wrong")
        if r.status_code == 429:
            assert r.json()["error"]["code"] == "too_many_attempts" and int(r.headers["retry-after"]) >= 1
        # Another address is not slowed, and signs in at once.
        t0 = time.monotonic()
        assert sign_in(other).status_code == 204 and time.monotonic() - t0 < 0.5
        # The slowed address gets in once its slot comes, and is then forgiven.
        r = wait_until(lambda: (got := sign_in(c)).status_code != 429 and got, 12, "the slowed address's slot")
        assert r.status_code == 204
        t0 = time.monotonic()
        assert sign_in(c, "wrong").status_code == 401 and time.monotonic() - t0 < 0.5


def test_the_token_is_never_logged(fake_rules_client, caplog):
    caplog.set_level("DEBUG")
    sign_in(fake_rules_client, "wrong-" + ADMIN)
    sign_in(fake_rules_client)
    assert caplog.records and ADMIN not in caplog.text


def test_openapi_shows_both_schemes(fake_rules_client):
    schemes = fake_rules_client.get("/openapi.json").json()["components"]["securitySchemes"]
    assert schemes["adminToken"]["type"] == "http" and schemes["adminToken"]["scheme"] == "bearer"
    assert schemes["deskSession"]["type"] == "apiKey" and schemes["deskSession"]["in"] == "cookie"
    assert schemes["deskSession"]["name"] == "cuehub_session"
