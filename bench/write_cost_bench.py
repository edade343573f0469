"""Write-cost benchmark: what one WebSocket message costs the server's thread per watcher, by how
it is put on the socket. Issue 36 asked whether a faster asyncio WebSocket front (picows: frames
built in C, written with a native send) would cut the watch gateway's per-watcher cost; this
measures the write alone, apart from everything else the fan-out bench (fanout_bench.py) counts.

    python bench/write_cost_bench.py [--watchers 1000] [--rounds 200] [--repeat 5] [--loop uvloop|asyncio]

One process serves three listeners, each with --watchers connections from a drain process (raw
sockets that send a WebSocket upgrade request and then only read):

- `transport`: the hub's way (hub/watch/outbox.py, server.SocketConn): the message framed once,
  the same bytes handed to each socket's `transport.write` (the baseline);
- `send`: the same bytes with a native `send` on the socket's fd when the transport has nothing
  buffered (what picows does in C, `_fast_write`), `transport.write` for what is left;
- `picows`: picows's `WSTransport.send` of the message text (framed per socket in C, then its
  native send), where picows is installed (`pip install picows`; not a dependency).

Rounds of one message to every socket of a listener alternate between the three, with a pause
between rounds (the drain reads everything). It prints, per repetition and as medians, the server
thread's CPU microseconds per message and socket (`time.thread_time`) and the ratio to
`transport` measured in the same repetition. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import selectors
import socket
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.watch.server import text_frame  # noqa: E402  (the frame the hub writes, built the hub's way)

UPGRADE = (b"GET / HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
TEXT = '{"type":"update","channel":"match:m","version":1,"server_time":0,"data":"' + "x" * 1600 + '"}'


def drain(ports: list[int], n: int) -> None:
    """n connections to each port, an upgrade request on each, then read everything forever."""
    sel = selectors.DefaultSelector()
    for port in ports:
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(UPGRADE)
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
    buf = bytearray(1 << 16)
    while True:
        for key, _ in sel.select(1):
            try:
                if not key.fileobj.recv_into(buf):  # type: ignore[union-attr]
                    sel.unregister(key.fileobj)
            except (BlockingIOError, ConnectionResetError):
                pass


class Raw(asyncio.Protocol):
    """A connection of the `transport` and `send` listeners: the request is ignored."""

    def __init__(self, conns: list[Raw]) -> None:
        self.conns = conns
        self.transport: Any = None
        self.fd = -1

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.fd = transport.get_extra_info("socket").fileno()
        self.conns.append(self)

    def data_received(self, data: bytes) -> None:
        pass


def write_transport(conn: Raw, frame: bytes) -> None:
    conn.transport.write(frame)


def write_send(conn: Raw, frame: bytes) -> None:
    transport = conn.transport
    if not transport.get_write_buffer_size():
        try:
            n = os.write(conn.fd, frame)
        except BlockingIOError:
            n = 0
        if n == len(frame):
            return
        frame = frame[n:]
    transport.write(frame)


async def serve_picows(conns: list[Any]) -> int | None:
    try:
        import picows
    except ImportError:
        return None

    class Listener(picows.WSListener):  # type: ignore[misc]
        def on_ws_connected(self, transport: Any) -> None:
            conns.append(transport)

    server = await picows.ws_create_server(lambda _request: Listener(), "127.0.0.1", 0, backlog=4096)
    return int(server.sockets[0].getsockname()[1])


async def bench(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    raw: dict[str, list[Raw]] = {"transport": [], "send": []}
    ports = []
    for name in raw:
        server = await loop.create_server(lambda name=name: Raw(raw[name]), "127.0.0.1", 0, backlog=4096)
        ports.append(int(server.sockets[0].getsockname()[1]))
    picows_conns: list[Any] = []
    pport = await serve_picows(picows_conns)
    if pport is not None:
        ports.append(pport)
    proc = multiprocessing.get_context("spawn").Process(target=drain, args=(ports, args.watchers), daemon=True)
    proc.start()
    expected = args.watchers * len(ports)
    async def all_connected() -> None:
        while len(raw["transport"]) + len(raw["send"]) + len(picows_conns) < expected:  # noqa: ASYNC110
            await asyncio.sleep(0.05)  # three kinds of connection callbacks: polling is simplest

    await asyncio.wait_for(all_connected(), 60)
    await asyncio.sleep(0.5)  # handshakes answered, drained

    data = TEXT.encode()
    frame = text_frame(TEXT)
    writes: dict[str, tuple[list[Any], Callable[[Any], None]]] = {
        "transport": (raw["transport"], lambda c: write_transport(c, frame)),
        "send": (raw["send"], lambda c: write_send(c, frame)),
    }
    if pport is not None:
        import picows

        text = picows.WSMsgType.TEXT
        writes["picows"] = (picows_conns, lambda t: t.send(text, data))
    results: dict[str, list[float]] = {name: [] for name in writes}
    print(f"{args.watchers} sockets per listener, {args.rounds} rounds of one {len(frame)} B message, "
          f"loop {type(loop).__module__}; µs of server thread CPU per message and socket")
    for rep in range(args.repeat):
        spent = dict.fromkeys(writes, 0.0)
        for _ in range(args.rounds):
            for name, (conns, write) in writes.items():
                cpu0 = time.thread_time()
                for conn in conns:
                    write(conn)
                await asyncio.sleep(0)  # uvloop writes what it queued at the end of the turn
                spent[name] += time.thread_time() - cpu0
                await asyncio.sleep(args.pause_ms / 1000)
        base = spent["transport"]
        line = []
        for name, s in spent.items():
            us = 1e6 * s / (args.rounds * args.watchers)
            results[name].append(us)
            line.append(f"{name} {us:.2f} ({s / base:.2f}x)")
        print(f"  rep {rep + 1}: " + ", ".join(line) + f"  (load {os.getloadavg()[0]:.1f})")
    base = statistics.median(results["transport"])
    print("median: " + ", ".join(f"{name} {statistics.median(v):.2f} µs ({statistics.median(v) / base:.2f}x)"
                                 for name, v in results.items()))
    proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--watchers", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pause-ms", type=float, default=5)
    ap.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop")
    args = ap.parse_args()
    if args.loop == "uvloop":
        import uvloop

        uvloop.run(bench(args))
    else:
        asyncio.run(bench(args))


if __name__ == "__main__":
    main()
