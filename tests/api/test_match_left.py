"""A match that leaves a table: every tablet of that table gets `match_left` (where it went, or null)
and then a `state` for the table's current match (PROTOCOL.md section 9); a match that finishes
and stays on its table, followed by the next one, did not leave."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings
from tests.frames import auth_frame
from tests.tournaments.test_api import Event

BODY = {"discipline": "wpa_nine", "format": {"race_to": 3},
        "players": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}]}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


@contextmanager
def tablet(c: TestClient, table_id: str, token: str) -> Iterator[Any]:
    with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json(auth_frame(token))
        assert ws.receive_json()["type"] == "ready"
        yield ws


def until(ws: Any, pred: Any, limit: int = 20) -> list[dict[str, Any]]:
    """Messages up to and including the first for which pred holds."""
    seen = []
    for _ in range(limit):
        msg = ws.receive_json()
        seen.append(msg)
        if pred(msg):
            return seen
    raise AssertionError(f"not seen in {seen}")


def drawn_on_one_table(c: TestClient) -> tuple[Event, str, dict[str, Any]]:
    """Four players drawn on one table: the event, its table and the draw match called to it."""
    ev = Event(c, players=4, tables=1)
    (a,) = ev.table_ids
    ev.draw()
    first = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "called")
    return ev, a, first


def test_a_move_tells_the_old_table_where_the_match_went(c: TestClient) -> None:
    ev = Event(c, tables=2)
    a, b = ev.table_ids
    m = c.post("/api/matches", json={**BODY, "tournament_id": ev.tid, "table_id": a}, headers=admin()).json()
    with tablet(c, a, ev.tables[a]) as old, tablet(c, b, ev.tables[b]) as new:
        moved(c, m, b, old, new)


def moved(c: TestClient, m: dict[str, Any], b: str, old: Any, new: Any) -> None:
    assert c.patch(f"/api/matches/{m['id']}", json={"table_id": b}, headers=admin()).status_code == 200
    left = old.receive_json()
    assert left == {"type": "match_left", "match_id": m["id"], "to": {"table_id": b, "name": "Table 2"}}
    state = old.receive_json()
    assert state["type"] == "state" and state["match"] is None
    arrived = until(new, lambda msg: msg["type"] == "state" and msg["match"] and msg["match"]["id"] == m["id"])
    assert not [msg for msg in arrived if msg["type"] == "match_left"]


def test_a_cancel_tells_the_table_the_match_went_nowhere(c: TestClient) -> None:
    ev = Event(c, tables=1)
    (a,) = ev.table_ids
    m = c.post("/api/matches", json={**BODY, "tournament_id": ev.tid, "table_id": a}, headers=admin()).json()
    with tablet(c, a, ev.tables[a]) as ws:
        assert c.delete(f"/api/matches/{m['id']}", headers=admin()).status_code == 200
        assert ws.receive_json() == {"type": "match_left", "match_id": m["id"], "to": None}
        state = ws.receive_json()
        assert state["type"] == "state" and state["match"] is None


def test_a_requeue_then_the_next_match_on_the_table(c: TestClient) -> None:
    ev, a, first = drawn_on_one_table(c)
    with tablet(c, a, ev.tables[a]) as ws:
        r = c.post(f"/api/tournaments/{ev.tid}/draw/{first['key']}/requeue", headers=admin())
        assert r.status_code == 200
        seen = until(ws, lambda msg: msg["type"] == "state" and msg["match"]
                     and msg["match"]["id"] != first["match_id"])
    assert seen[0] == {"type": "match_left", "match_id": first["match_id"], "to": None}
    assert seen[1]["type"] == "state"


def result_by_hand_then_next(c: TestClient, ws: Any, first: dict[str, Any]) -> list[dict[str, Any]]:
    """Enter 2 : 0 for `first` at the desk; what the table's tablet hears until the next match's state."""
    x, y = first["players"]
    r = c.post(f"/api/matches/{first['match_id']}/result", json={"winner": x, "score": {x: 2, y: 0}},
               headers=admin())
    assert r.status_code == 200
    return until(ws, lambda msg: msg["type"] == "state" and msg["match"] and msg["match"]["id"] != first["match_id"])

def test_a_finished_match_followed_by_the_next_one_did_not_leave(c: TestClient) -> None:
    ev, a, first = drawn_on_one_table(c)
    with tablet(c, a, ev.tables[a]) as ws:
        seen = result_by_hand_then_next(c, ws, first)
    assert not [msg for msg in seen if msg["type"] == "match_left"]
    finished = [msg for msg in seen if msg["match"] and msg["match"]["id"] == first["match_id"]]
    assert finished and finished[-1]["match"]["result"]["entered"] is True


def test_a_reopen_tells_the_table_once_that_the_next_match_left(c: TestClient) -> None:
    """The finished match comes back on its table and the next match called there meanwhile is taken
    off: one `match_left` for it, then the table's state (the reopened match)."""
    ev, a, first = drawn_on_one_table(c)
    with tablet(c, a, ev.tables[a]) as ws:
        seen = result_by_hand_then_next(c, ws, first)
        nxt = seen[-1]["match"]["id"]
        r = c.post(f"/api/tournaments/{ev.tid}/draw/{first['key']}/reopen", headers=admin())
        assert r.status_code == 200, r.text
        seen = until(ws, lambda msg: msg["type"] == "state" and msg["match"]
                     and msg["match"]["id"] == first["match_id"] and msg["match"]["status"] == "scheduled")
    lefts = [i for i, msg in enumerate(seen) if msg["type"] == "match_left"]
    assert [seen[i] for i in lefts] == [{"type": "match_left", "match_id": nxt, "to": None}], seen
    after = seen[lefts[0] + 1]
    assert after["type"] == "state" and after["match"]["id"] == first["match_id"], seen


def test_a_requeue_on_a_paused_table_leaves_it_empty(c: TestClient) -> None:
    ev, a, first = drawn_on_one_table(c)
    with tablet(c, a, ev.tables[a]) as ws:
        assert c.post(f"/api/tables/{a}/pause", headers=admin()).status_code == 200
        r = c.post(f"/api/tournaments/{ev.tid}/draw/{first['key']}/requeue", headers=admin())
        assert r.status_code == 200, r.text
        seen = until(ws, lambda msg: msg["type"] == "match_left")
        assert seen[-1] == {"type": "match_left", "match_id": first["match_id"], "to": None}
        state = ws.receive_json()
        assert state["type"] == "state" and state["match"] is None
