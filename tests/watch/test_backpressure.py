"""A watcher that cannot keep up never slows the others: bounded queue, skip to the latest
snapshot, 4408 when it stays stuck. Driven on the gateway core with in-memory sockets."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from hub.bus.memory import MemoryBus
from hub.watch import core as channels
from hub.watch import watcher as conn_mod
from hub.watch.core import Conn, WatchCore


def head(v: int) -> dict[str, Any]:
    return {"m": "m1", "t": "t1", "tb": "tb1", "v": v, "new": v == 0, "undo": False, "short": None}


def publish(gw: WatchCore, v: int) -> None:
    gw.on_message(head(v), f'{{"version":{v}}}', "null" if v == 0 else f'{{"version":{v}}}')


class Sock:
    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.got: list[dict[str, Any]] = []
        self.gate = gate
        self.closed: int | None = None

    async def send(self, text: str) -> None:
        self.got.append(json.loads(text))
        if self.gate is not None:
            await self.gate.wait()

    async def close(self, code: int) -> None:
        self.closed = code


async def watcher(gw: WatchCore, sock: Sock) -> Conn:
    conn = Conn(gw, sock.send, sock.close)
    gw.connect(conn)
    assert await gw.subscriptions.subscribe_match(conn, "match:m1", "m1", None)
    conn.start()
    return conn


async def test_slow_watcher_skips_to_the_latest_snapshot_and_others_get_everything() -> None:
    gw = WatchCore(None, None, None, MemoryBus())  # type: ignore[arg-type]
    publish(gw, 0)
    gate = asyncio.Event()
    fast_socks = [Sock() for _ in range(20)]
    slow_sock = Sock(gate)
    fast = [await watcher(gw, s) for s in fast_socks]
    slow = await watcher(gw, slow_sock)
    for v in range(1, 501):
        publish(gw, v)
        if v % 8 == 0:
            await asyncio.sleep(0)  # the table goes on at its own pace
    await asyncio.sleep(0.05)
    for s in fast_socks:
        first = s.got[0]
        assert first["type"] == "snapshot" and all(m["type"] == "update" for m in s.got[1:])
        assert [m["version"] for m in s.got] == list(range(first["version"], 501))  # no gap, no skip
    # The slow one is held at its first send; its queue stayed bounded and it was skipped ahead.
    assert len(slow.queue or ()) <= channels.QUEUE_LIMIT
    assert slow.overflows >= 1
    gate.set()
    await asyncio.sleep(0.05)
    versions = [m["version"] for m in slow_sock.got]
    assert versions == sorted(set(versions)), "strictly increasing per channel"
    assert versions[-1] == 500
    assert any(m["type"] == "snapshot" and m["version"] > 0 for m in slow_sock.got)
    assert slow_sock.closed is None
    for conn in [*fast, slow]:
        conn.task.cancel()  # type: ignore[union-attr]


async def test_a_watcher_stuck_for_good_is_closed_4408(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conn_mod, "STUCK_S", 0.05)
    gw = WatchCore(None, None, None, MemoryBus())  # type: ignore[arg-type]
    publish(gw, 0)
    stuck_sock = Sock(asyncio.Event())  # never set: a peer that stopped reading
    ok_sock = Sock()
    stuck = await watcher(gw, stuck_sock)
    ok = await watcher(gw, ok_sock)
    v = 0
    for _ in range(8):  # bursts the healthy watcher absorbs; the stuck one's queue keeps growing
        for _ in range(channels.QUEUE_LIMIT // 2):
            v += 1
            publish(gw, v)
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.05)
    assert stuck_sock.closed == channels.CLOSE_STUCK
    assert stuck.task is not None and stuck.task.done()
    assert [m["version"] for m in ok_sock.got] == list(range(ok_sock.got[0]["version"], v + 1))
    ok.task.cancel()  # type: ignore[union-attr]
