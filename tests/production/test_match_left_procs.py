"""Across processes: a tablet on process B follows a move made through process A (`match_left`,
then the table's state), PostgreSQL and the Redis bus (skipped without them locally)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from tests.frames import auth_frame
from tests.production.test_multiprocess import AUTH, hub_env, start_hub  # noqa: F401 - fixtures

BODY = {"discipline": "wpa_nine", "format": {"race_to": 3},
        "players": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}]}


def test_a_tablet_on_b_is_told_of_a_move_made_through_a(start_hub: Any) -> None:  # noqa: F811
    a, b = start_hub("a"), start_hub("b")
    with httpx.Client(base_url=a.url, headers=AUTH, timeout=10) as c:
        tid = c.post("/api/tournaments", json={"name": "Open"}).json()["id"]
        t1 = c.post(f"/api/tournaments/{tid}/tables", json={"name": "Table 1"}).json()
        t2 = c.post(f"/api/tournaments/{tid}/tables", json={"name": "Table 2"}).json()
        m = c.post("/api/matches", json={**BODY, "tournament_id": tid, "table_id": t1["id"]}).json()

    async def run() -> list[dict[str, Any]]:
        async with websockets.connect(f"{b.url.replace('http', 'ws')}/ws/tables/{t1['id']}") as ws:
            await ws.send(json.dumps(auth_frame(t1["token"])))
            ready = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert ready["type"] == "ready" and ready["match"]["id"] == m["id"]
            async with httpx.AsyncClient(base_url=a.url, headers=AUTH, timeout=10) as c:
                r = await c.patch(f"/api/matches/{m['id']}", json={"table_id": t2["id"]})
                assert r.status_code == 200, r.text
            return [json.loads(await asyncio.wait_for(ws.recv(), 10)) for _ in range(2)]

    left, state = asyncio.run(run())
    assert left == {"type": "match_left", "match_id": m["id"], "to": {"table_id": t2["id"], "name": "Table 2"}}
    assert state["type"] == "state" and state["match"] is None
