"""Heartbeats close dead watcher sockets, on both fronts of /ws/watch.

A real `cuehub serve` process with HUB_WS_PING_S=0.3 and the in-process watch gateway
(HUB_WATCH_PORT): on each port, one watcher that answers pings (the websockets client does) and
one peer that subscribes and then goes silent (it never reads, so it never answers a ping). The
silent one is closed by the server within a few ping periods and its subscription dropped
(`cuehub_watchers_connected` counts only the live ones); the live ones stay open for many periods
and still get the next update.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.frames import subscribe_frame
from tests.production.test_multiprocess import Hub
from tests.services import free_port

ADMIN = "heartbeat-admin"
PING_S = 0.3


class SilentPeer:
    """A raw TCP WebSocket client: handshake, one subscribe frame, then nothing (no pong ever)."""

    def __init__(self, port: int, channel: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws/watch HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.sock.recv(1)
        assert reply.startswith(b"HTTP/1.1 101"), reply
        data, mask = json.dumps(subscribe_frame(channel)).encode(), os.urandom(4)
        self.sock.sendall(bytes((0x81, 0x80 | len(data))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def closed_by_server(self, timeout: float) -> bool:
        """Read (and drop) what the server sent until it ends the connection; False if it never does."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(65536):
                pass
            return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
        finally:
            self.sock.close()


def test_a_silent_watcher_is_closed_by_the_heartbeat_and_a_live_one_stays(tmp_path: Path) -> None:
    watch_port = free_port()
    hub = Hub("hb", {**os.environ, "HUB_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/hb.db",
                     "HUB_BUS_URL": "memory://", "HUB_ADMIN_TOKEN": ADMIN, "HUB_WS_PING_S": str(PING_S),
                     "HUB_WATCH_PORT": str(watch_port)}, tmp_path)
    try:
        hub.wait_ready()
        url = hub.url
        h = {"Authorization": f"Bearer {ADMIN}"}
        tid = httpx.post(url + "/api/tournaments", json={"name": "HB"}, headers=h).json()["id"]
        table = httpx.post(f"{url}/api/tournaments/{tid}/tables", json={"name": "T1"}, headers=h).json()
        match = httpx.post(url + "/api/matches", headers=h, json={
            "tournament_id": tid, "table_id": table["id"], "discipline": "golden_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 5}}).json()
        asyncio.run(_check(hub, watch_port, f"match:{match['id']}", match["id"], table["token"]))
    finally:
        hub.stop()


async def _check(hub: Hub, watch_port: int, channel: str, mid: str, token: str) -> None:
    url, port = hub.url, hub.port

    def watchers() -> float:
        return hub.metric("cuehub_watchers_connected")

    live: list[Any] = []
    for p in (port, watch_port):  # the app's /ws/watch, then the gateway's
        ws = await connect(f"ws://127.0.0.1:{p}/ws/watch")  # answers pings by itself
        await ws.send(json.dumps(subscribe_frame(channel)))
        assert json.loads(await ws.recv())["type"] == "snapshot"
        live.append(ws)
    silent = [await asyncio.to_thread(SilentPeer, p, channel) for p in (port, watch_port)]
    for _ in range(50):
        if await asyncio.to_thread(watchers) == 4:
            break
        await asyncio.sleep(0.05)
    assert await asyncio.to_thread(watchers) == 4
    for peer in silent:  # ping, no pong within PING_S: closed (plus the close handshake's own timeout)
        assert await asyncio.to_thread(peer.closed_by_server, 10 * PING_S + 5)
    for _ in range(100):
        if await asyncio.to_thread(watchers) == 2:
            break
        await asyncio.sleep(0.05)
    assert await asyncio.to_thread(watchers) == 2
    await asyncio.sleep(10 * PING_S)  # many heartbeats later the answering ones are still there
    assert await asyncio.to_thread(watchers) == 2
    r = await asyncio.to_thread(
        httpx.post, f"{url}/api/matches/{mid}/commands", headers={"Authorization": f"Bearer {token}"},
        json={"id": "hb-1", "match_id": mid, "command": {"kind": "start", "breaker": "a"}}, timeout=10)
    assert r.status_code == 200, r.text
    for ws in live:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert msg["type"] == "update" and msg["version"] == 1
        await ws.close()
