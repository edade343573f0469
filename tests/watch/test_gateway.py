"""The websockets watch gateway (hub/watch/server.py) on real sockets, driven on the core with
in-memory bus messages: one frame per change shared by every watcher, slow watchers skipped to the
latest snapshot then closed 4408 while the others get everything, the origin policy, the port's
/healthz and /metrics, and /api/config advertising it. (The protocol itself, snapshot / update /
since / ordering / errors through the gateway, is tests/watch/test_watch.py, parametrized over
both fronts.)"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from hub.app import create_app
from hub.bus.memory import MemoryBus
from hub.ops.metrics import Metrics
from hub.settings import Settings
from hub.watch import core as channels
from hub.watch import outbox as outbox_mod
from hub.watch import server as gateway_mod
from hub.watch import watcher as conn_mod
from hub.watch.core import WatchCore
from hub.watch.server import SocketConn, WatchServer, text_frame
from tests.frames import subscribe_frame

BIG = "x" * 20_000  # a fat projection, so a peer that does not read fills its buffers quickly


def head(v: int) -> dict[str, Any]:
    return {"m": "m1", "t": "t1", "tb": "tb1", "v": v, "new": v == 0, "undo": False, "short": None,
            "at": None if v == 0 else 1}


def publish(gw: WatchCore, v: int, pad: str = "") -> None:
    data = f'{{"version":{v},"pad":"{pad}"}}'
    gw.on_message(head(v), data, "null" if v == 0 else f'{{"version":{v}}}')


@pytest.fixture
async def served() -> AsyncIterator[tuple[WatchCore, WatchServer, Metrics]]:
    metrics = Metrics()
    gw = WatchCore(None, None, None, MemoryBus(), metrics=metrics)  # type: ignore[arg-type]
    await gw.start()
    publish(gw, 0)
    server = WatchServer(gw, Settings())
    await server.start("127.0.0.1", 0)
    try:
        yield gw, server, metrics
    finally:
        await server.close()
        await gw.close()


async def subscribed(url: str) -> Any:
    ws = await connect(url, compression=None, max_size=None)
    await ws.send(json.dumps(subscribe_frame("match:m1")))
    snap = json.loads(await ws.recv())
    assert snap["type"] == "snapshot" and snap["channel"] == "match:m1" and isinstance(snap["server_time"], int)
    return ws


async def six_watchers_in_rounds_of_two(server: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Six subscribed watchers, the outbox writing them in rounds of two sockets and no lone
    update written through (the tests of the outbox's rounds)."""
    monkeypatch.setattr(outbox_mod, "THROUGH_SOCKETS", 0)
    monkeypatch.setattr(outbox_mod, "ROUND_CHUNK", 2)
    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    socks = [await subscribed(url) for _ in range(6)]
    await asyncio.sleep(0.05)
    return socks


async def test_a_snapshot_of_a_quiet_match_carries_the_time_it_is_sent(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screens draw a shot clock against server_time: a snapshot text kept while the match
    did not change would carry the time of its first build (a watcher joining 40 minutes later saw
    a 45 s shot clock as 40 minutes). Watchers joining together share one text."""
    from hub.watch import feeds as feeds_mod
    from hub.wire import watch as wire_watch
    clock = {"now": 1_000_000}
    for mod in (wire_watch, feeds_mod):
        monkeypatch.setattr(mod, "now_ms", lambda: clock["now"], raising=False)
    _, server, _ = served
    url = f"ws://127.0.0.1:{server.port}/ws/watch"

    async def joined() -> int:
        async with connect(url, compression=None, max_size=None) as ws:
            await ws.send(json.dumps(subscribe_frame("match:m1")))
            snap = json.loads(await ws.recv())
            assert snap["type"] == "snapshot" and snap["version"] == 0
            return int(snap["server_time"])

    assert await joined() == 1_000_000
    clock["now"] += 50  # the same crowd: the same text
    assert await joined() == 1_000_000
    clock["now"] += 40 * 60_000  # forty minutes on, nothing played
    assert await joined() == clock["now"]


class StalledPeer:
    """A raw TCP WebSocket client with a tiny receive buffer that subscribes, then stops reading."""

    def __init__(self, port: int) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws/watch HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.sock.recv(1)  # byte by byte: nothing after the headers is consumed
        assert reply.startswith(b"HTTP/1.1 101"), reply
        self.send_text(json.dumps(subscribe_frame("match:m1")))

    def send_text(self, text: str) -> None:
        data, mask = text.encode(), os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        assert len(data) < 126
        self.sock.sendall(bytes((0x81, 0x80 | len(data))) + mask + masked)

    def read_close_code(self, timeout: float = 10) -> int | None:
        """Read what the server sent until its close frame (or the end); that frame's code."""
        self.sock.settimeout(timeout)
        buf, i = b"", 0
        while True:
            while True:  # every whole frame in buf
                if i + 2 > len(buf):
                    break
                op, n, j = buf[i] & 0x0F, buf[i + 1] & 0x7F, i + 2
                if n == 126:
                    n, j = (struct.unpack("!H", buf[j:j + 2])[0], j + 2) if len(buf) >= j + 2 else (None, j)
                elif n == 127:
                    n, j = (struct.unpack("!Q", buf[j:j + 8])[0], j + 8) if len(buf) >= j + 8 else (None, j)
                if n is None or len(buf) < j + n:
                    break
                if op == 0x8:
                    return struct.unpack("!H", buf[j:j + 2])[0] if n >= 2 else None
                i = j + n
            try:
                chunk = self.sock.recv(1 << 20)
            except (TimeoutError, ConnectionResetError):
                return None
            if not chunk:
                return None
            buf += chunk

    def close(self) -> None:
        self.sock.close()


async def collect(ws: Any, until: int, out: list[dict[str, Any]]) -> None:
    while not out or out[-1]["version"] < until:
        out.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))


async def test_one_frame_per_change_for_every_watcher(served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, metrics = served
    built: list[str] = []
    real = gateway_mod.text_frame

    def counting(text: str) -> bytes:
        built.append(text)
        return real(text)

    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    socks = [await subscribed(url) for _ in range(20)]
    monkeypatch.setattr(gateway_mod, "text_frame", counting)
    for v in range(1, 11):
        publish(gw, v)
    for ws in socks:
        got: list[dict[str, Any]] = []
        await collect(ws, 10, got)
        assert [m["version"] for m in got] == list(range(1, 11))
        assert all(m["type"] == "update" and m["data"]["version"] == m["version"] for m in got)
        await ws.close()
    assert len(built) == 10, "framed once per change, not once per watcher"
    assert metrics.fanout_seconds.count() == 10  # stored -> handed out, once per change
    for _ in range(200):  # the server notices the closes
        if metrics.watchers.value() == 0:
            break
        await asyncio.sleep(0.01)
    assert metrics.watchers.value() == 0 and not gw.conns


async def test_updates_of_one_turn_go_out_in_one_write_per_watcher_in_order(served: Any) -> None:
    gw, server, _ = served
    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    socks = [await subscribed(url) for _ in range(5)]
    await asyncio.sleep(0.05)
    writes: dict[int, list[bytes]] = {}
    for conn in gw.conns:
        assert isinstance(conn, SocketConn)
        transport, real = conn.ws.transport, conn.ws.transport.write

        def write(data: bytes, _key: int = id(conn), _real: Any = real) -> None:
            writes.setdefault(_key, []).append(bytes(data))
            _real(data)

        transport.write = write  # type: ignore[method-assign]
    for v in range(1, 8):  # seven updates in the same turn of the loop (a burst off the bus)
        publish(gw, v)
    for ws in socks:
        got: list[dict[str, Any]] = []
        await collect(ws, 7, got)
        assert [m["version"] for m in got] == list(range(1, 8))
    assert len(writes) == 5
    for chunks in writes.values():
        # The first update went straight out (nothing was held); the six after it share one write.
        assert [c.count(b'"type":"update"') for c in chunks] == [1, 6], "the burst is one write per watcher"
    publish(gw, 8)  # a lone update later: written on its own, at once
    for ws in socks:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["version"] == 8
    assert all(len(chunks) == 3 for chunks in writes.values())
    for ws in socks:
        await ws.close()


async def test_a_lone_update_is_written_as_it_is_handed_out_up_to_the_through_limit(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, metrics = served
    monkeypatch.setattr(outbox_mod, "THROUGH_SOCKETS", 4)
    monkeypatch.setattr(outbox_mod, "ROUND_CHUNK", 1)
    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    socks = [await subscribed(url) for _ in range(6)]
    await asyncio.sleep(0.4)  # the snapshots' writes are long over: nothing is held
    order: list[str] = []
    for conn in gw.conns:
        assert isinstance(conn, SocketConn)
        transport, real = conn.ws.transport, conn.ws.transport.write

        def write(data: bytes, _real: Any = real) -> None:
            order.append("write")
            _real(data)

        transport.write = write  # type: ignore[method-assign]
    writes0 = metrics.watch_writes.value()
    publish(gw, 1)
    order.append("handed out")  # publish returned: the update was handed to every watcher
    for ws in socks:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["version"] == 1
    # Four sockets written while the update was handed out, the other two by the outbox afterwards.
    assert order == ["write"] * 4 + ["handed out"] + ["write"] * 2, order
    assert metrics.watch_writes.value() - writes0 == 6
    for ws in socks:
        await ws.close()


async def test_a_round_of_writes_lets_the_loop_run_between_chunks(served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, _ = served
    socks = await six_watchers_in_rounds_of_two(server, monkeypatch)
    order: list[str] = []
    real_flush = SocketConn.flush

    def flush(self: SocketConn) -> None:
        if self.out is not None:
            order.append("write")
        real_flush(self)

    monkeypatch.setattr(SocketConn, "flush", flush)
    publish(gw, 1)
    asyncio.get_running_loop().call_soon(order.append, "table")  # other work, queued after the update
    for ws in socks:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["version"] == 1
    assert order.count("write") == 6
    # Two sockets per turn: the other work ran after the first chunk, before the last one.
    assert order.index("table") == 2, order
    for ws in socks:
        await ws.close()


async def test_a_burst_arriving_mid_round_joins_the_sockets_not_yet_written(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, _ = served
    socks = await six_watchers_in_rounds_of_two(server, monkeypatch)
    publish(gw, 1)
    asyncio.get_running_loop().call_soon(publish, gw, 2)  # lands after the first chunk was written
    frames_per_write: list[int] = []
    real_flush = SocketConn.flush

    def flush(self: SocketConn) -> None:
        if self.out is not None:
            frames_per_write.append(len(self.out) if isinstance(self.out, list) else 1)
        real_flush(self)

    monkeypatch.setattr(SocketConn, "flush", flush)
    for ws in socks:
        got: list[dict[str, Any]] = []
        await collect(ws, 2, got)
        assert [m["version"] for m in got] == [1, 2]
    # The first two sockets got v1 alone then v2; the four the round had not reached got both at once.
    assert sorted(frames_per_write) == [1, 1, 1, 1, 2, 2, 2, 2], frames_per_write
    for ws in socks:
        await ws.close()


async def test_when_busy_a_round_waits_for_more_updates_but_never_past_the_cap(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, metrics = served
    monkeypatch.setattr(outbox_mod.LoopLag, "behind", lambda self: True)  # the loop is behind (lag.py)
    monkeypatch.setattr(outbox_mod, "HOLD_FACTOR", 1e6)  # any round counts as a long one here
    monkeypatch.setattr(outbox_mod, "MAX_HOLD_S", 0.3)
    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    socks = [await subscribed(url) for _ in range(4)]
    await asyncio.sleep(0.4)  # the snapshots' round is long over
    loop = asyncio.get_running_loop()
    writes0, frames0 = metrics.watch_writes.value(), metrics.watch_frames.value()
    t0 = loop.time()
    publish(gw, 1)  # quiet before: written at once
    for ws in socks:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["version"] == 1
    assert loop.time() - t0 < 0.2
    t1 = loop.time()
    publish(gw, 2)  # right after a round: held, so that what follows can join it
    await asyncio.sleep(0.1)
    publish(gw, 3)
    for ws in socks:
        got = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(2)]
        assert [m["version"] for m in got] == [2, 3]
    waited = loop.time() - t1
    assert 0.25 <= waited < 1.0, waited  # held until about MAX_HOLD_S after the last round, no longer
    # 4 writes for v1, then 4 writes carrying v2 and v3 together.
    assert metrics.watch_writes.value() - writes0 == 8
    assert metrics.watch_frames.value() - frames0 == 12
    assert "cuehub_watch_messages_total" in metrics.render()
    for ws in socks:
        await ws.close()


def test_the_outbox_holds_only_a_round_that_follows_a_busy_one() -> None:
    box = outbox_mod.Outbox(Metrics())
    box.last_end, box.last_took = 10.0, 0.005  # a round of 5 ms of CPU (1,000 watchers) ended at t=10
    assert box.hold(10.5) <= 0  # an update 0.5 s later (a few a second): written at once
    assert box.hold(10.02) <= 0  # 20 a second: the next update comes after 2 x the round, no hold
    assert box.hold(10.004) == pytest.approx(0.006)  # right after it: until 2 x the round after its end
    box.last_took = 0.02  # a slower round: still at most MAX_HOLD_S
    assert box.hold(10.0) == pytest.approx(outbox_mod.MAX_HOLD_S)
    box.last_took = 0.06  # a round that cost more than MAX_HOLD_S (thousands of watchers): wait as long
    assert box.hold(10.0) == pytest.approx(0.06)
    assert box.hold(10.05) == pytest.approx(0.01)
    assert box.hold(10.2) <= 0  # the updates stopped coming: the next one is written at once
    box.last_took = 2.0  # however long the last round, the wait is at most BUSY_HOLD_S
    assert box.hold(10.0) == pytest.approx(outbox_mod.BUSY_HOLD_S)


async def test_after_a_long_round_updates_wait_as_long_as_it_took_and_arrive_in_order(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, metrics = served
    monkeypatch.setattr(outbox_mod.LoopLag, "behind", lambda self: True)  # the loop is behind (lag.py)
    monkeypatch.setattr(outbox_mod, "MAX_HOLD_S", 0.01)
    monkeypatch.setattr(outbox_mod, "BUSY_HOLD_S", 0.3)
    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    socks = [await subscribed(url) for _ in range(3)]
    await asyncio.sleep(0.05)
    loop = asyncio.get_running_loop()
    outbox = server.outbox
    outbox.last_end, outbox.last_took = loop.time(), 0.25  # a round that cost 0.25 s just ended
    writes0 = metrics.watch_writes.value()
    t0 = loop.time()
    for v in (1, 2, 3):
        publish(gw, v)
        await asyncio.sleep(0.02)
    for ws in socks:
        got: list[dict[str, Any]] = []
        await collect(ws, 3, got)
        assert [m["version"] for m in got] == [1, 2, 3]
    waited = loop.time() - t0
    assert 0.2 <= waited < 1.0, waited  # held about as long as the last round took (not MAX_HOLD_S)
    assert metrics.watch_writes.value() - writes0 == 3  # one write per socket carried all three
    for ws in socks:
        await ws.close()


async def test_a_round_costs_its_cpu_time_not_the_wall_time_it_was_preempted(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gw, server, _ = served
    socks = await six_watchers_in_rounds_of_two(server, monkeypatch)
    real_flush = SocketConn.flush

    def flush(self: SocketConn) -> int:
        time.sleep(0.02)  # the process off the CPU mid-round (a busy box): wall time, no CPU time
        return real_flush(self)

    monkeypatch.setattr(SocketConn, "flush", flush)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    publish(gw, 1)
    for ws in socks:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["version"] == 1
    wall = loop.time() - t0
    assert wall >= 0.1
    # 20 updates a second after it would not be held (a round would have to cost 1/3 of their gap).
    assert server.outbox.last_took < 0.02, (server.outbox.last_took, wall)
    assert server.outbox.hold(server.outbox.last_end + 0.05) <= 0
    for ws in socks:
        await ws.close()


def test_text_frame_lengths() -> None:
    for n in (0, 125, 126, 65535, 65536):
        f = text_frame("a" * n)
        assert f[0] == 0x81 and f.endswith(b"a" * n)
        assert len(f) - n == (2 if n < 126 else 4 if n < 65536 else 10)


async def test_a_stalled_watcher_is_skipped_then_closed_4408_and_the_others_get_everything(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conn_mod, "STUCK_S", 0.3)
    gw, server, metrics = served
    url = f"ws://127.0.0.1:{server.port}/ws/watch"
    fast = [await subscribed(url) for _ in range(5)]
    stalled = await asyncio.to_thread(StalledPeer, server.port)  # blocking socket: off the loop
    for _ in range(100):
        if len(gw.conns) == 6 and all(c.subs for c in gw.conns):
            break
        await asyncio.sleep(0.01)
    slow = next(
        c for c in gw.conns if isinstance(c, SocketConn) and c.ws.remote_address[1] == stalled.sock.getsockname()[1]
    )
    got: list[list[dict[str, Any]]] = [[] for _ in fast]
    readers = [asyncio.create_task(collect(ws, 600, out)) for ws, out in zip(fast, got, strict=True)]
    for v in range(1, 601):
        publish(gw, v, BIG)
        if v % 10 == 0:
            await asyncio.sleep(0.01)  # the table goes on at its own pace
        assert len(slow.queue or ()) <= channels.QUEUE_LIMIT + 1
    await asyncio.wait_for(asyncio.gather(*readers), 20)
    for out in got:  # every update, in order, nothing skipped
        assert [m["version"] for m in out] == list(range(1, 601))
    assert slow.overflows >= 1 or slow.closing == channels.CLOSE_STUCK
    for _ in range(200):
        if slow.closing == channels.CLOSE_STUCK:
            break
        publish(gw, 600 + _ + 1, BIG)
        await asyncio.sleep(0.02)
    assert slow.closing == channels.CLOSE_STUCK
    assert metrics.slow_watchers.value(action="snapshot") >= 1
    assert metrics.slow_watchers.value(action="closed") == 1
    assert await asyncio.to_thread(stalled.read_close_code) == channels.CLOSE_STUCK
    for _ in range(300):  # it never answers the close: the server drops it anyway
        if slow not in gw.conns:
            break
        await asyncio.sleep(0.01)
    assert slow not in gw.conns and slow.ws.transport.is_closing()
    stalled.close()
    for ws in fast:
        await ws.close()


async def test_origin_policy_and_http_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    metrics = Metrics()
    gw = WatchCore(None, None, None, MemoryBus(), metrics=metrics)  # type: ignore[arg-type]
    await gw.start()
    server = WatchServer(gw, Settings(allowed_origins=("https://club.example",)))
    await server.start("127.0.0.1", 0)
    base = f"127.0.0.1:{server.port}"
    try:
        async with connect(f"ws://{base}/ws/watch", origin="https://evil.example") as ws:  # type: ignore[arg-type]
            with pytest.raises(ConnectionClosed) as info:
                await asyncio.wait_for(ws.recv(), 5)
            assert info.value.rcvd is not None and info.value.rcvd.code == 4403
        async with connect(f"ws://{base}/ws/watch", origin="https://club.example") as ws:  # type: ignore[arg-type]
            await ws.send("not json")
            err = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert err["type"] == "error" and err["error"]["code"] == "bad_message"
            await ws.send(json.dumps(subscribe_frame("moon:1")))
            err = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert err["error"]["code"] == "unknown_channel" and err["channel"] == "moon:1"
        async with httpx.AsyncClient(base_url=f"http://{base}") as http:
            assert (await http.get("/healthz")).status_code == 200
            r = await http.get("/metrics")
            assert r.status_code == 200 and "cuehub_watchers_connected" in r.text
            assert (await http.get("/elsewhere")).status_code == 404
            assert (await http.get("/ws/watch")).status_code == 426  # not an upgrade
    finally:
        await server.close()
        await gw.close()


def test_api_config_advertises_the_gateway(sqlite_settings: Settings) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        assert c.get("/api/config").json() == {"watch_url": None, "watch_port": None}
    with TestClient(create_app(sqlite_settings.with_(watch_port=0, watch_url="/ws/watch"))) as c:
        cfg = c.get("/api/config").json()
        assert cfg["watch_url"] == "/ws/watch" and isinstance(cfg["watch_port"], int) and cfg["watch_port"] > 0
        assert c.app.state.services.watch_server.core is c.app.state.services.watch  # one core, two fronts
