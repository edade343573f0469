"""REST setup, reads and commands on the fake rules: tokens, statuses, error shape, idempotency."""

from __future__ import annotations

from spine_helpers import admin, bearer, envelope, make_match, make_table


def test_setup_and_reads(fake_rules_client):
    table = make_table(fake_rules_client)
    assert fake_rules_client.get("/api/tournaments").json()["tournaments"][0]["id"] == table["tid"]
    m = make_match(fake_rules_client, table)
    assert m["status"] == "scheduled" and m["version"] == 0 and m["table_id"] == table["table_id"]
    assert fake_rules_client.get(f"/api/matches/{m['id']}").json() == m
    t = fake_rules_client.get(f"/api/tournaments/{table['tid']}").json()
    assert t["tables"][0]["match"]["id"] == m["id"] and t["version"] == 2
    assert fake_rules_client.get("/api/matches?status=scheduled").json()["matches"][0]["id"] == m["id"]
    assert fake_rules_client.get("/api/matches?status=live").json()["matches"] == []


def test_commands_and_events(fake_rules_client):
    table = make_table(fake_rules_client)
    m = make_match(fake_rules_client, table)
    mid, tok = m["id"], bearer(table["token"])
    r = fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}), headers=tok
    )
    assert r.status_code == 200 and r.json() == {"type": "ack", "id": r.json()["id"], "version": 1}
    r = fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "shot", "player": "b"}), headers=tok
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "nope"}), headers=tok)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_command"
    r = fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "shot", "player": "a"}, expected=0), headers=tok
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "version_conflict"
    r = fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "shot", "player": "a"}, expected=1), headers=tok
    )
    assert r.status_code == 200 and r.json()["version"] == 2
    events = fake_rules_client.get(f"/api/matches/{mid}/events?since=1").json()["events"]
    assert [e["version"] for e in events] == [2] and events[0]["kind"] == "shot" and events[0]["voided"] is False
    assert fake_rules_client.get(f"/api/matches/{mid}").json()["players"][0]["score"] == 1


def test_idempotent_retry(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    tok = bearer(table["token"])
    env = envelope(mid, {"kind": "start", "breaker": "a"}, cid="same-id")
    first = fake_rules_client.post(f"/api/matches/{mid}/commands", json=env, headers=tok)
    again = fake_rules_client.post(f"/api/matches/{mid}/commands", json=env, headers=tok)
    assert first.json() == again.json() == {"type": "ack", "id": "same-id", "version": 1}
    # A rejected id is answered with its first reject, even when it would now succeed.
    bad = envelope(mid, {"kind": "shot", "player": "b"}, cid="rej")
    assert (
        fake_rules_client.post(f"/api/matches/{mid}/commands", json=bad, headers=tok).json()["error"]["code"]
        == "not_your_turn"
    )
    fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "shot", "player": "a"}), headers=tok
    )
    again = fake_rules_client.post(f"/api/matches/{mid}/commands", json=bad, headers=tok)
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_your_turn"
    assert len(fake_rules_client.get(f"/api/matches/{mid}/events").json()["events"]) == 2


def test_undo_voids_in_the_stream(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    tok = bearer(table["token"])
    for cmd in ({"kind": "start", "breaker": "a"}, {"kind": "shot", "player": "a"}, {"kind": "undo"}):
        assert (
            fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, cmd), headers=tok).status_code
            == 200
        )
    proj = fake_rules_client.get(f"/api/matches/{mid}").json()
    assert proj["version"] == 3 and proj["players"][0]["score"] == 0 and proj["rack"]["shooter"] == "a"
    events = fake_rules_client.get(f"/api/matches/{mid}/events").json()["events"]
    assert [(e["kind"], e["voided"]) for e in events] == [("start", False), ("shot", True), ("undo", False)]
    assert events[2]["data"] == {"target": 2}


def test_tokens(fake_rules_client):
    table = make_table(fake_rules_client)
    other = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    start = envelope(mid, {"kind": "start", "breaker": "a"})
    assert fake_rules_client.post("/api/tournaments", json={"name": "x"}).status_code == 401
    assert fake_rules_client.post("/api/tournaments", json={"name": "x"}, headers=bearer("wrong")).status_code == 403
    assert (
        fake_rules_client.post("/api/tournaments", json={"name": "x"}, headers=bearer(table["token"])).status_code
        == 403
    )
    assert fake_rules_client.post(f"/api/matches/{mid}/commands", json=start).status_code == 401
    assert (
        fake_rules_client.post(f"/api/matches/{mid}/commands", json=start, headers=bearer("wrong")).status_code == 403
    )
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=start, headers=bearer(other["token"]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=start, headers=admin())
    assert r.status_code == 403
    assert fake_rules_client.get(f"/api/matches/{mid}/events").json()["events"] == []


def test_one_open_match_per_table(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    body = {
        "tournament_id": table["tid"],
        "table_id": table["table_id"],
        "discipline": "golden_nine",
        "players": [{"name": "A"}, {"name": "B"}],
        "format": {"racks": 3},
    }
    r = fake_rules_client.post("/api/matches", json=body, headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_busy"
    tok = bearer(table["token"])
    fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}), headers=tok
    )
    fake_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "concede", "player": "a"}), headers=tok
    )
    r = fake_rules_client.post("/api/matches", json=body, headers=admin())
    assert r.status_code == 201, r.text
    assert [p["id"] for p in r.json()["players"]] == ["p1", "p2"]


def test_undo_cannot_reopen_a_match_on_a_busy_table(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    tok = bearer(table["token"])
    for cmd in ({"kind": "start", "breaker": "a"}, {"kind": "concede", "player": "a"}):
        fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, cmd), headers=tok)
    make_match(fake_rules_client, table)
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "undo"}), headers=tok)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_allowed"
    assert fake_rules_client.get(f"/api/matches/{mid}").json()["status"] == "finished"
    assert len(fake_rules_client.get(f"/api/matches/{mid}/events").json()["events"]) == 2


def test_database_failure_is_503_and_the_retry_is_safe(fake_rules_client, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from hub.store import match_events as store

    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    tok = bearer(table["token"])
    real_append = store.append

    async def failing_append(*args, **kwargs):
        await real_append(*args, **kwargs)  # the commit happened, but its answer was lost
        raise OperationalError("COMMIT", {}, Exception("connection lost"))

    monkeypatch.setattr(store, "append", failing_append)
    env = envelope(mid, {"kind": "start", "breaker": "a"}, cid="lost")
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=env, headers=tok)
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    monkeypatch.setattr(store, "append", real_append)
    r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=env, headers=tok)
    assert r.status_code == 200 and r.json()["version"] == 1
    assert fake_rules_client.get(f"/api/matches/{mid}").json()["version"] == 1
