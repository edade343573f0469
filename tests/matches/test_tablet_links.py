"""Every tablet of every table for the desk (PROTOCOL.md section 16; hub/matches/tablet_links.py): two
tablets of a table online since they came, one dropping off shows within 5 s with the time it went,
a table with none left is marked, a tablet that stops pinging counts as gone, and the list is admin's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.matches.tablet_links import tablet_ident
from hub.settings import Settings
from tests.frames import auth_frame


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def setup(c: TestClient) -> tuple[str, dict[str, Any], dict[str, Any]]:
    tid = c.post("/api/tournaments", json={"name": "Hall"}, headers=admin()).json()["id"]
    one = c.post(f"/api/tournaments/{tid}/tables", json={"name": "Table 1"}, headers=admin()).json()
    two = c.post(f"/api/tournaments/{tid}/tables", json={"name": "Table 2"}, headers=admin()).json()
    return tid, one, two


def tablets(c: TestClient, tid: str) -> dict[str, dict[str, Any]]:
    r = c.get(f"/api/tournaments/{tid}/tablets", headers=admin())
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()["tables"]}


def until(c: TestClient, tid: str, pred: Any, timeout: float = 5.0) -> tuple[dict[str, dict[str, Any]], float]:
    t0 = time.monotonic()
    while not pred(found := tablets(c, tid)):
        assert time.monotonic() - t0 < timeout, found
        time.sleep(0.1)
    return found, time.monotonic() - t0


def test_tablets_online_then_one_drops_off_within_5_s(c: TestClient) -> None:
    tid, one, two = setup(c)
    assert tablets(c, tid)[one["id"]] == {"id": one["id"], "name": "Table 1", "tablets": [], "dropped": False}
    with c.websocket_connect(f"/ws/tables/{one['id']}") as a:
        a.send_json(auth_frame(one["token"], "tablet-a-0001"))
        assert a.receive_json()["type"] == "ready"
        before = int(time.time() * 1000)
        with c.websocket_connect(f"/ws/tables/{one['id']}") as b:
            b.send_json(auth_frame(one["token"], "tablet-b-0002"))
            assert b.receive_json()["type"] == "ready"
            found, _ = until(c, tid, lambda f: len(f[one["id"]]["tablets"]) == 2)
            assert all(t["online"] for t in found[one["id"]]["tablets"]) and not found[one["id"]]["dropped"]
            assert found[two["id"]]["tablets"] == []
        closed = int(time.time() * 1000)
        found, took = until(c, tid, lambda f: sum(t["online"] for t in f[one["id"]]["tablets"]) == 1)
        assert took < 5.0
        gone = next(t for t in found[one["id"]]["tablets"] if not t["online"])
        assert gone["id"] == tablet_ident({"device": "tablet-b-0002"})
        assert before - 1000 <= gone["since"] <= closed + 1000
        assert not found[one["id"]]["dropped"]
    found, took = until(c, tid, lambda f: f[one["id"]]["dropped"])
    assert took < 5.0 and not any(t["online"] for t in found[one["id"]]["tablets"])


def test_a_tablet_that_stops_pinging_is_gone_within_5_s(c: TestClient) -> None:
    tid, one, _ = setup(c)
    with c.websocket_connect(f"/ws/tables/{one['id']}") as a:
        a.send_json(auth_frame(one["token"], "quiet-tablet-1"))
        assert a.receive_json()["type"] == "ready"
        a.send_json({"type": "ping"})
        assert a.receive_json()["type"] == "pong"
        until(c, tid, lambda f: [t["online"] for t in f[one["id"]]["tablets"]] == [True])
        found, took = until(c, tid, lambda f: f[one["id"]]["dropped"])  # the socket stays open, silent
        assert took < 5.0


def test_the_list_is_for_the_desk(c: TestClient) -> None:
    tid, _, _ = setup(c)
    assert c.get(f"/api/tournaments/{tid}/tablets").status_code == 401
    assert c.get("/api/tournaments/nope/tablets", headers=admin()).status_code == 404
