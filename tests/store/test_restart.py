"""A restart (a new app on the same database file) keeps every acknowledged event."""

from __future__ import annotations

import uuid

import fake_rules
from fastapi.testclient import TestClient
from spine_helpers import bearer, envelope, make_match, make_table

from hub.app import create_app


def test_restart_keeps_acknowledged_events(sqlite_settings):
    acked = []
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as c:
        table = make_table(c)
        mid = make_match(c, table)["id"]
        tok = bearer(table["token"])
        cmds = (
            [{"kind": "start", "breaker": "a"}] + [{"kind": "shot", "player": p} for p in "abab"] + [{"kind": "undo"}]
        )
        for cmd in cmds:
            env = envelope(mid, cmd, cid=str(uuid.uuid4()))
            r = c.post(f"/api/matches/{mid}/commands", json=env, headers=tok)
            assert r.status_code == 200
            acked.append((env, r.json()["version"]))
        before = c.get(f"/api/matches/{mid}").json()
        events_before = c.get(f"/api/matches/{mid}/events").json()
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as c:
        assert c.get(f"/api/matches/{mid}").json() == before
        assert c.get(f"/api/matches/{mid}/events").json() == events_before
        assert [e["version"] for e in events_before["events"]] == [v for _, v in acked]
        # Retries after the restart still get their first answers.
        for env, version in acked:
            assert c.post(f"/api/matches/{mid}/commands", json=env, headers=tok).json()["version"] == version
        assert c.get(f"/api/matches/{mid}").json()["version"] == len(acked)
