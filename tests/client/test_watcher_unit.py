"""Watcher resume logic against a minimal in-test watch endpoint (no hub needed).

The endpoint keeps one match channel's history; ``since`` replays it, like PROTOCOL.md says.
"""

from __future__ import annotations

import asyncio
import json

from cuehub_client import Watcher
from websockets.asyncio.server import serve


class FakeWatch:
    def __init__(self) -> None:
        self.history: list[int] = [1]
        self.conns: set = set()
        self.subscribes: list[dict] = []

    def msg(self, kind: str, v: int) -> str:
        return json.dumps({"type": kind, "channel": "match:m1", "version": v, "server_time": 0,
                           "data": {"version": v}, **({"event": {"version": v}} if kind == "update" else {})})

    async def handler(self, ws) -> None:
        self.conns.add(ws)
        try:
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") != "subscribe":
                    continue
                self.subscribes.append(m)
                since = m.get("since")
                if since is None:
                    await ws.send(self.msg("snapshot", self.history[-1]))
                else:
                    for v in self.history:
                        if v > since - 1:  # overlap by one on purpose: the client must drop it
                            await ws.send(self.msg("update", v))
        finally:
            self.conns.discard(ws)

    async def push(self) -> None:
        v = self.history[-1] + 1
        self.history.append(v)
        for ws in list(self.conns):
            await ws.send(self.msg("update", v))


async def test_watcher_resubscribes_with_since_and_drops_duplicates() -> None:
    fake = FakeWatch()
    async with serve(fake.handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        async with Watcher(f"http://127.0.0.1:{port}") as w:
            await w.subscribe("match:m1")
            got = [await w.next(timeout=5)]
            for _ in range(3):
                await fake.push()
            while got[-1].version < 4:
                got.append(await w.next(timeout=5))
            await w.drop_connection()
            await asyncio.sleep(0.05)
            for _ in range(4):  # missed while away
                fake.history.append(fake.history[-1] + 1)
            while got[-1].version < 8:
                got.append(await w.next(timeout=5))
            await fake.push()
            got.append(await w.next(timeout=5))
    assert got[0].type == "snapshot" and got[0].version == 1
    assert [g.version for g in got[1:]] == list(range(2, 10))
    assert w.gaps == 0 and w.reconnects >= 1
    assert fake.subscribes[0].get("since") is None
    assert fake.subscribes[-1]["since"] == 4
