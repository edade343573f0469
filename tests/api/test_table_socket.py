"""The table socket: auth, ready, ack/reject, state pushes from any source, malformed frames."""

from __future__ import annotations

import pytest
from services import wait_until
from spine_helpers import bearer, envelope, make_match, make_table
from starlette.websockets import WebSocketDisconnect

from tests.frames import auth_frame


def _auth(ws, token):
    ws.send_json(auth_frame(token))
    return ws.receive_json()


@pytest.mark.parametrize("first", [auth_frame("wrong"), {"type": "hello"}, "not json"])
def test_bad_auth_closes_4401(fake_rules_client, first):
    table = make_table(fake_rules_client)
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        if isinstance(first, str):
            ws.send_text(first)
        else:
            ws.send_json(first)
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4401


def test_other_tables_token_closes_4401(fake_rules_client):
    table, other = make_table(fake_rules_client), make_table(fake_rules_client)
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json(auth_frame(other["token"]))
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4401


def test_session(fake_rules_client):
    table = make_table(fake_rules_client)
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ready = _auth(ws, table["token"])
        assert ready["type"] == "ready" and ready["match"] is None and isinstance(ready["server_time"], int)
        m = make_match(fake_rules_client, table)
        mid = m["id"]
        pushed = ws.receive_json()
        assert pushed["type"] == "state" and pushed["match"]["id"] == mid and "server_time" in pushed

        ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}, cid="c1"))
        assert ws.receive_json() == {"type": "ack", "id": "c1", "version": 1}
        state = ws.receive_json()
        assert state["type"] == "state" and state["match"]["version"] == 1 and state["match"]["status"] == "live"

        ws.send_json(envelope(mid, {"kind": "shot", "player": "b"}, cid="c2"))
        r = ws.receive_json()
        assert r["type"] == "reject" and r["id"] == "c2" and r["error"]["code"] == "not_your_turn"

        ws.send_json(envelope(mid, {"kind": "start", "breaker": "a"}, cid="c1"))  # retry: same answer, no state
        assert ws.receive_json() == {"type": "ack", "id": "c1", "version": 1}

        # A change made over HTTP reaches the tablet too.
        r = fake_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "shot", "player": "a"}),
                        headers=bearer(table["token"]))
        assert r.status_code == 200
        state = ws.receive_json()
        assert state["type"] == "state" and state["match"]["version"] == 2

        # Malformed frames: bad_command, the session goes on.
        ws.send_text("{nope")
        assert ws.receive_json() == {"type": "reject", "id": None,
                                     "error": {"code": "bad_command", "message": "malformed JSON"}}
        ws.send_json({"id": "c3", "match_id": mid})
        r = ws.receive_json()
        assert r["id"] == "c3" and r["error"]["code"] == "bad_command"
        ws.send_json([1, 2])
        assert ws.receive_json()["error"]["code"] == "bad_command"
        ws.send_json(envelope("nope", {"kind": "start"}, cid="c4"))
        assert ws.receive_json()["error"]["code"] == "unknown_match"
        ws.send_text("x" * 100_000)
        assert ws.receive_json()["error"]["code"] == "bad_command"

        ws.send_json(envelope(mid, {"kind": "shot", "player": "b"}, cid="c5", expected=2))
        assert ws.receive_json() == {"type": "ack", "id": "c5", "version": 3}
        assert ws.receive_json()["match"]["version"] == 3


def test_ready_carries_the_current_match(fake_rules_client):
    table = make_table(fake_rules_client)
    m = make_match(fake_rules_client, table)
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        assert _auth(ws, table["token"])["match"]["id"] == m["id"]


def test_other_tables_match_is_refused(fake_rules_client):
    table, other = make_table(fake_rules_client), make_table(fake_rules_client)
    theirs = make_match(fake_rules_client, other)["id"]
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        _auth(ws, table["token"])
        ws.send_json(envelope(theirs, {"kind": "start", "breaker": "a"}, cid="x"))
        assert ws.receive_json()["error"]["code"] == "unknown_match"
    assert fake_rules_client.get(f"/api/matches/{theirs}").json()["version"] == 0


# --- presence -----------------------------------------------------------------------------


def test_a_ping_is_answered_with_a_pong_and_counts_as_heard(fake_rules_client):
    table = make_table(fake_rules_client)
    with fake_rules_client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        assert _auth(ws, table["token"])["type"] == "ready"
        ws.send_json({"type": "ping"})
        pong = ws.receive_json()
        assert pong["type"] == "pong" and isinstance(pong["server_time"], int)
        seen = fake_rules_client.app.state.services.presence.attendance(table["table_id"])
        assert seen.known and seen.present
    # Its socket closed: the server side handles the close on its own loop (older Starlette test
    # clients return before it has), so wait for it.
    presence = fake_rules_client.app.state.services.presence
    wait_until(lambda: not presence.attendance(table["table_id"]).present, 5, "the closed socket no longer present")
    assert presence.attendance(table["table_id"]).known


def test_a_tablet_that_comes_back_finds_its_link_restored_before_ready(sqlite_settings):
    """The real rules: a live match whose link was lost is restored when a tablet authenticates,
    so the `ready` it gets shows the clock running again."""
    from fastapi.testclient import TestClient

    from hub.app import create_app

    with TestClient(create_app(sqlite_settings)) as c:
        table = make_table(c)
        mid = make_match(c, table, options={"shot_clock": {"shot_s": 30, "break_s": 30}})["id"]
        r = c.post(f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}),
                   headers=bearer(table["token"]))
        assert r.status_code == 200
        writer = c.app.state.services.writer
        at = c.get(f"/api/matches/{mid}").json()["version"]
        answer = c.portal.call(writer.submit_server, mid, {"kind": "link_lost", "since": 0}, at)
        assert answer.version == at + 1
        assert c.get(f"/api/matches/{mid}").json()["link"]["lost"] is True
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ready = _auth(ws, table["token"])
            assert ready["match"]["link"]["lost"] is False and ready["match"]["clock"]["shot"]["running"] is True
        kinds = [e["kind"] for e in c.get(f"/api/matches/{mid}/events").json()["events"]]
        assert kinds == ["start", "link_lost", "link_restored"]
