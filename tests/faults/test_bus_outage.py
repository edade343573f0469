"""With the Redis bus unreachable (HUB_BUS_URL points at a port where nothing listens), the store is
still the truth: the hub starts, tablets get their acks, and the events are stored."""

from __future__ import annotations

import asyncio
import json

import httpx
from websockets.asyncio.client import connect

from tests.frames import auth_frame
from tests.hubproc import HubProcess, free_port


def test_tablets_get_acks_without_redis(tmp_path):
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path,
                     env={"HUB_BUS_URL": f"redis://127.0.0.1:{free_port()}/0"})
    try:
        hub.start(timeout=30)
        t = hub.admin_post("/api/tournaments", {"name": "No Redis"})
        tb = hub.admin_post(f"/api/tournaments/{t['id']}/tables", {"name": "T1"})
        m = hub.admin_post("/api/matches", {"tournament_id": t["id"], "table_id": tb["id"], "discipline": "wpa_nine",
                                            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                                            "format": {"race_to": 5}})
        cmds = [{"kind": "start", "breaker": "a"},
                {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "rail": True, "break_rails": 5},
                {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [], "rail": True}]

        async def tablet() -> list[dict]:
            answers = []
            async with connect(f"{hub.ws_base}/ws/tables/{tb['id']}", open_timeout=5) as ws:
                await ws.send(json.dumps(auth_frame(tb["token"])))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "ready"
                for i, cmd in enumerate(cmds):
                    await ws.send(json.dumps({"id": f"n{i}", "match_id": m["id"], "command": cmd}))
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if msg["type"] in ("ack", "reject"):
                            answers.append(msg)
                            break
            return answers

        answers = asyncio.run(tablet())
        assert [a["type"] for a in answers] == ["ack"] * 3, answers
        events = hub.get(f"/api/matches/{m['id']}/events")["events"]
        assert [e["command_id"] for e in events] == ["n0", "n1", "n2"]
        ready = httpx.get(hub.base + "/readyz", timeout=5)
        print(f"\n[bus-outage] acks={len(answers)} stored={len(events)} /readyz={ready.status_code}")
    finally:
        hub.stop()
