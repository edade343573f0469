"""On a real `cuehub serve`: a table-socket frame far over the cap (2 MiB > uvicorn's ws_max_size of
1 MiB) closes the socket 1009; a frame just over HUB_MAX_BODY_BYTES gets a bad_command reject."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.frames import auth_frame
from tests.hubproc import HubProcess


def test_frame_limits_on_a_real_server(tmp_path):
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path)
    try:
        hub.start()
        t = hub.admin_post("/api/tournaments", {"name": "Big"})
        tb = hub.admin_post(f"/api/tournaments/{t['id']}/tables", {"name": "T1"})

        async def run() -> tuple[dict, int | None]:
            async with connect(f"{hub.ws_base}/ws/tables/{tb['id']}", max_size=None) as ws:
                await ws.send(json.dumps(auth_frame(tb["token"])))
                assert json.loads(await ws.recv())["type"] == "ready"
                await ws.send("x" * (70 * 1024))
                small = json.loads(await asyncio.wait_for(ws.recv(), 10))
                await ws.send("x" * (2 << 20))
                try:
                    await asyncio.wait_for(ws.recv(), 10)
                except ConnectionClosed as closed:
                    return small, closed.rcvd.code if closed.rcvd else None
                return small, None

        small, code = asyncio.run(run())
        assert small["type"] == "reject" and small["error"]["code"] == "bad_command"
        assert code == 1009
        assert hub.get("/healthz") == {"status": "ok"}
    finally:
        hub.stop()
