"""Bad input of every kind answers 4xx with the error shape, never a 500, and leaves the stream alone."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spine_helpers import admin, bearer, envelope, make_match, make_table


def _is_error(r, status):
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body["error"]) == {"code", "message"}


def test_setup_bad_input(fake_rules_client):
    table = make_table(fake_rules_client)
    _is_error(fake_rules_client.post("/api/tournaments", content=b"{not json", headers=admin()), 422)
    _is_error(fake_rules_client.post("/api/tournaments", json={"name": 5}, headers=admin()), 422)
    _is_error(fake_rules_client.post("/api/tournaments", json=[], headers=admin()), 422)
    _is_error(fake_rules_client.post("/api/tournaments/nope/tables", json={"name": "x"}, headers=admin()), 404)
    _is_error(
        fake_rules_client.post(
            "/api/matches", json={"tournament_id": table["tid"], "table_id": "nope"}, headers=admin()
        ),
        404,
    )
    _is_error(
        fake_rules_client.post(
            "/api/matches",
            json={"tournament_id": table["tid"], "table_id": table["table_id"], "discipline": "snooker", "players": []},
            headers=admin(),
        ),
        422,
    )
    _is_error(fake_rules_client.post("/api/tournaments", content=b"x" * 100_000, headers=admin()), 413)
    _is_error(fake_rules_client.get("/api/matches/nope"), 404)
    _is_error(fake_rules_client.get("/api/matches/nope/events"), 404)
    _is_error(fake_rules_client.get("/api/tournaments/nope"), 404)
    _is_error(fake_rules_client.get("/api/matches?status=bogus"), 422)
    _is_error(fake_rules_client.get("/api/nothing-here"), 404)
    _is_error(fake_rules_client.delete("/api/tournaments"), 405)


def test_command_bad_input(fake_rules_client):
    table = make_table(fake_rules_client)
    mid = make_match(fake_rules_client, table)["id"]
    tok = bearer(table["token"])
    url = f"/api/matches/{mid}/commands"
    _is_error(fake_rules_client.post(url, content=b"[1,", headers=tok), 422)
    _is_error(fake_rules_client.post(url, content=b'{"id": NaN}', headers=tok), 422)
    _is_error(
        fake_rules_client.post(url, json={"id": "", "match_id": mid, "command": {"kind": "start"}}, headers=tok), 422
    )
    _is_error(
        fake_rules_client.post(url, json={"id": "x" * 65, "match_id": mid, "command": {"kind": "start"}}, headers=tok),
        422,
    )
    _is_error(fake_rules_client.post(url, json={"id": "a", "match_id": mid, "command": "start"}, headers=tok), 422)
    _is_error(
        fake_rules_client.post(
            url, json={"id": "a", "match_id": mid, "expected_version": True, "command": {"kind": "start"}}, headers=tok
        ),
        422,
    )
    _is_error(fake_rules_client.post(url, json=envelope("other", {"kind": "start"}), headers=tok), 422)
    _is_error(fake_rules_client.post(url, content=b"x" * 100_000, headers=tok), 413)
    _is_error(fake_rules_client.post(url, content=iter([b"x" * 40_000] * 3), headers=tok), 413)  # chunked, no length
    r = fake_rules_client.post("/api/matches/nope/commands", json=envelope("nope", {"kind": "start"}), headers=tok)
    _is_error(r, 404)
    assert r.json()["error"]["code"] == "unknown_match"
    assert fake_rules_client.get(f"/api/matches/{mid}/events").json()["events"] == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=json_values, cid=json_values)
def test_random_envelopes_never_500(fake_rules_client, command, cid):
    table = fake_rules_client.app_table if hasattr(fake_rules_client, "app_table") else None
    if table is None:
        table = make_table(fake_rules_client)
        table["mid"] = make_match(fake_rules_client, table)["id"]
        fake_rules_client.app_table = table
    mid = table["mid"]
    r = fake_rules_client.post(
        f"/api/matches/{mid}/commands",
        json={"id": cid, "match_id": mid, "command": command},
        headers=bearer(table["token"]),
    )
    assert r.status_code < 500, r.text
    assert "error" in r.json() or r.json()["type"] == "ack"
