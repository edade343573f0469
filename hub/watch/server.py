"""The watch gateway: /ws/watch (PROTOCOL.md section 2) on the `websockets` library's own server.

Same channels, history, `since` replay, ordering, slow-watcher rules and error codes as the FastAPI
endpoint (watch.py): both are fronts of one core, `core.WatchCore`. What differs is the write
path. Starlette + uvicorn cost one awaited ASGI send per watcher per message; here an update is
framed once per change (`Item.frame`, not once per socket as `websockets.broadcast()` does) and
handed to the `Outbox` (outbox.py), which writes each socket's waiting frames in one `transport.write`,
ROUND_CHUNK sockets per turn of the loop (the hub runs between chunks). While the event loop keeps
up, nothing is held: an update is written to each socket as it is handed out (to the first
THROUGH_SOCKETS of them; the rest on the next turns of the loop). Only when the loop falls behind
(lag.py: its thread running 90 % of the time, averaged over about a second) is a round held back a
little so that several updates share a write (see outbox.py): one syscall carries them all, which
is what lets a process deliver more than `broadcast()`, one write per message per socket.

A watcher whose transport buffer is over HIGH_WATER (a peer that does not read) is not written to;
its updates queue in its `Conn` (bounded: beyond QUEUE_LIMIT it skips to the latest snapshot, and
it is closed 4408 if it stays stuck), drained by a sender task that exists only while something is
queued.

Three ways to run it:
- in the hub process, on the hub's own port: `cuehub serve` and `cuehub demo` hand uvicorn's
  /ws/watch upgrades to it (uvicorn_front.py); same event loop, same `core.WatchCore` object as the
  app (fed by the same writer and bus). Those connections (handed.py) have no task of their own
  once open: messages come through callbacks, one heartbeat task pings them all, and they keep
  neither their handshake's headers nor a `__dict__` table of their own (about 6 KB per idle
  watcher against 15 KB with websockets' own server);
- in the hub process, also on `HUB_WATCH_PORT` (`cuehub serve --watch-port`), a listener of its own;
- as a process of its own, `cuehub gateway --bus-url redis://... --database-url ...`: no writer,
  fed by the Redis bus, reading the store only for `since` replays, resyncs and first loads.

Besides /ws/watch the port answers `GET /healthz`, `GET /readyz` (the live bus subscription's
health, 503 with the reason when it is down or silent) and `GET /metrics` (the gateway's own metrics
when it is a process of its own, the app's when in-process).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import struct
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from hub.guards.access import CLOSE_FORBIDDEN_ORIGIN, origin_allowed
from hub.guards.peer import TrustedProxies, address_keys
from hub.ops.heap import freeze_startup_heap
from hub.ops.metrics import CONTENT_TYPE, Metrics
from hub.ops.ports import guarded_ws_connection
from hub.settings import Settings
from hub.watch.core import Conn, Item, WatchCore
from hub.watch.handed import CLOSE_SERVICE_RESTART, HandedConnection, Handover, Heartbeat, shared_request
from hub.watch.outbox import Outbox

__all__ = ["CLOSE_SERVICE_RESTART", "PATH", "HandedConnection", "Outbox", "SocketConn", "WatchServer"]

log = logging.getLogger(__name__)

PATH = "/ws/watch"
# Bytes waiting in a socket's transport beyond which updates queue instead (about 40 updates of a
# typical match): a healthy watcher on a LAN never gets near it.
HIGH_WATER = 64 * 1024
MAX_SIZE = 1 << 20  # a frame this large closes 1009; anything over subscriptions.MAX_FRAME is bad_message
OPEN = State.OPEN
OPEN_TIMEOUT = 10  # s for the opening handshake (websockets' default)
CLOSE_TIMEOUT = 1  # s for the closing handshake, then the TCP connection is dropped (Conn.run waits 2 s)


def text_frame(text: str) -> bytes:
    """`text` as one unmasked, uncompressed, final WebSocket text frame (what a server sends)."""
    data = text.encode("utf-8")
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return struct.pack("!BBH", 0x81, 126, n) + data
    return struct.pack("!BBQ", 0x81, 127, n) + data


class SocketConn(Conn):
    """A watcher on the websockets server: written without awaiting while its buffer has room."""

    __slots__ = ("ws", "outbox", "out", "out_bytes")
    lazy = True

    def __init__(self, gateway: WatchCore, ws: ServerConnection, outbox: Outbox) -> None:
        super().__init__(gateway, self._send_queued, self._close_with)
        self.ws = ws
        self.outbox = outbox
        self.out: bytes | list[bytes] | None = None  # frame(s) for the next round (None: not in the outbox)
        self.out_bytes = 0

    def write_now(self, item: Item) -> bool:
        ws = self.ws
        if ws.protocol.state is not OPEN:
            return True  # closing: nothing more goes out (the handler forgets it)
        if ws.send_in_progress is not None or ws.transport.get_write_buffer_size() + self.out_bytes > HIGH_WATER:
            return False
        text = self._resolve(item)
        if text is None:
            return True
        if text is item.text:
            frame = item.frame
            if frame is None:
                frame = item.frame = text_frame(text)  # once per change, shared by every watcher
        else:
            frame = text_frame(text)  # a snapshot: per watcher, on subscribe or after a skip
        self.outbox.add(self, frame)
        return True

    def write(self, frame: bytes) -> bool:
        """Write `frame` now (nothing waits for this socket in the outbox), unless it is closing."""
        if self.ws.protocol.state is not OPEN or self.ws.transport.is_closing():
            return False
        self.ws.transport.write(frame)
        return True

    def flush(self) -> int:
        """Write what the outbox holds for this socket in one write (one syscall), unless it is
        closing; how many frames that was."""
        out, self.out, self.out_bytes = self.out, None, 0
        if out is None or self.ws.protocol.state is not OPEN or self.ws.transport.is_closing():
            return 0
        if isinstance(out, list):
            self.ws.transport.write(b"".join(out))
            return len(out)
        self.ws.transport.write(out)
        return 1

    async def _send_queued(self, text: str) -> None:
        self.flush()  # frames already handed to the outbox go first: order is kept
        # websockets' send waits for the buffer to drain below its low-water mark when it is full.
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(text)

    async def _close_with(self, code: int) -> None:
        self.flush()
        # A peer that stopped reading never answers the close: drop the TCP connection after
        # close_timeout (websockets does; this is in case the wait itself was cut short).
        try:
            await self.ws.close(code)
        finally:
            if not self.ws.transport.is_closing():
                self.ws.transport.abort()


class WatchServer:
    """The websockets front of one `core.WatchCore`: a listener of its own (`start`) and/or
    connections handed over by uvicorn (`connection`, fastws.py); one outbox for both."""

    def __init__(self, core: WatchCore, settings: Settings, metrics: Metrics | None = None) -> None:
        self.core = core
        self.settings = settings
        self.metrics = metrics if metrics is not None else core.metrics
        self.server: Server | None = None
        self.outbox = Outbox(self.metrics)
        self.handover = Handover(self._serve_handed, self._on_text, self._on_gone)
        self.handed: set[HandedConnection] = set()  # handed-over connections past their handshake
        self.heartbeat = Heartbeat(self.handed, settings.ws_ping_s)
        self.request = shared_request(PATH)
        self.proxies = TrustedProxies(settings.trusted_proxies)

    def client(self, ws: ServerConnection) -> tuple[str, ...]:
        """The counters of a watcher's address: the TCP peer, or the client a trusted proxy's
        X-Forwarded-For names (no ASGI middleware sees these sockets: HUB_TRUSTED_PROXIES here)."""
        peer = ws.remote_address[0] if ws.remote_address else None
        forwarded = ws.request.headers.get("X-Forwarded-For") if ws.request is not None else None
        return tuple(address_keys(self.proxies.client(None if peer is None else str(peer), forwarded)))

    @property
    def accepting(self) -> bool:
        """Whether handed-over connections are taken (False once `close` began)."""
        return self.handover.serving

    def connection(self, owner: Any = None) -> HandedConnection:
        """An asyncio protocol for one TCP connection whose upgrade request another server read:
        give it the transport (`connection_made`) and the request head (`data_received`)."""
        protocol = ServerProtocol(max_size=MAX_SIZE)  # no extensions: no per-connection deflate
        conn = HandedConnection(
            protocol, self.handover,
            ping_interval=None, ping_timeout=None,  # the shared Heartbeat pings it (handed.py)
            close_timeout=CLOSE_TIMEOUT, write_limit=HIGH_WATER,
        )
        conn.owner = owner
        return conn

    async def _serve_handed(self, connection: ServerConnection) -> None:
        """A handed-over connection's handshake; then, if its origin is allowed, its watcher is
        made and the connection settled (handed.py: messages through callbacks, pinged by the
        heartbeat): this task ends, the connection lives on without one. A handshake that fails
        or times out drops the TCP connection."""
        ws: HandedConnection = connection  # type: ignore[assignment]
        try:
            async with asyncio.timeout(OPEN_TIMEOUT):
                await ws.handshake(self._process_request, None, None)
            if ws.protocol.state is not OPEN:
                ws.transport.abort()
                return
            if not origin_allowed(self.settings, ws.request.headers.get("Origin") if ws.request else None):
                await ws.close(CLOSE_FORBIDDEN_ORIGIN)
                return
            conn = SocketConn(self.core, ws, self.outbox)
            conn.client = self.client(ws)
            ws.watcher = conn
            self.core.connect(conn)
            self.handed.add(ws)
            self.heartbeat.start()
            ws.settle(self.request)
        except Exception:
            ws.transport.abort()  # a handshake that failed or timed out
        finally:
            self.handover.handler_tasks.discard(asyncio.current_task())

    async def _on_text(self, ws: HandedConnection, text: str) -> None:
        await self.core.handle(ws.watcher, text)

    def _on_gone(self, ws: HandedConnection) -> None:
        self.handed.discard(ws)
        conn: SocketConn = ws.watcher
        self.core.disconnect(conn)
        task = conn.task
        if task is not None and not task.done() and conn.closing is None:
            task.cancel()  # a close code being sent finishes by itself (the connection is gone)

    async def start(self, host: str, port: int) -> None:
        self.server = await serve(
            self._handler, host, port,
            compression=None,  # frames are built once and shared: no per-connection deflate
            process_request=self._process_request,
            max_size=MAX_SIZE,
            # Heartbeats: a ping every ws_ping_s; a socket that does not answer within as long is closed.
            ping_interval=self.settings.ws_ping_s, ping_timeout=self.settings.ws_ping_s,
            close_timeout=CLOSE_TIMEOUT,  # then the TCP connection is dropped (Conn.run waits 2 s)
            open_timeout=self.settings.header_timeout_s,  # a handshake not done by then is dropped
            create_connection=guarded_ws_connection(),  # counted against the fd limit (hub/ops/ports.py)
            write_limit=HIGH_WATER,
            server_header=None,
        )

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        self.handover.serving = False  # a handshake still going answers 503
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)
            self.server = None
        await self.heartbeat.close()
        # Handed-over watchers (uvicorn normally closed them before the app's shutdown), and
        # handshakes still going.
        for ws in list(self.handed):
            ws.shutdown()
        waits = [ws.connection_lost_waiter for ws in self.handed] + list(self.handover.handler_tasks)
        if waits:
            await asyncio.wait(waits, timeout=CLOSE_TIMEOUT + 2)
            for ws in list(self.handed):
                ws.transport.abort()
            for task in self.handover.handler_tasks:
                task.cancel()

    def _process_request(self, ws: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == PATH:
            return None  # the handshake goes on (a request without Upgrade gets 426)
        if path == "/healthz":
            return ws.respond(200, '{"status":"ok"}\n')
        if path == "/readyz":  # the live bus subscription: stale -> 503 with the reason
            health = getattr(self.core.bus, "health", None)
            reason = health() if callable(health) else None
            body = {"status": "ready" if reason is None else "unavailable",
                    "checks": {"bus": "ok" if reason is None else f"unreachable: {str(reason)[:200]}"}}
            response = ws.respond(200 if reason is None else 503, json.dumps(body) + "\n")
            response.headers["Content-Type"] = "application/json"
            return response
        if path == "/metrics":
            response = ws.respond(200, self.metrics.render())
            response.headers["Content-Type"] = CONTENT_TYPE
            return response
        return ws.respond(404, "not found\n")

    async def _handler(self, ws: ServerConnection) -> None:
        if not origin_allowed(self.settings, ws.request.headers.get("Origin") if ws.request else None):
            await ws.close(CLOSE_FORBIDDEN_ORIGIN)  # HUB_ALLOWED_ORIGINS, as on the app's /ws/watch
            return
        core = self.core
        conn = SocketConn(core, ws, self.outbox)
        conn.client = self.client(ws)
        core.connect(conn)
        try:
            async for message in ws:
                text = message if isinstance(message, str) else message.decode("utf-8", errors="replace")
                await core.handle(conn, text)
        except ConnectionClosed:
            pass
        finally:
            core.disconnect(conn)
            task = conn.task
            if task is not None and not task.done():
                if conn.closing is not None:  # let it finish sending the close code
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(asyncio.shield(task), 2)
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task


# --- `cuehub gateway`: a process of its own -----------------------------------------------------


async def run_gateway(settings: Settings, host: str, port: int, stop: asyncio.Event | None = None) -> None:
    """Serve /ws/watch fed by the bus at settings.bus_url until `stop` is set (or forever)."""
    from hub.bus import bus_for
    from hub.store.db import make_engine

    engine = make_engine(settings)
    rules = importlib.import_module("hub.rules")
    metrics = Metrics()
    core = WatchCore(engine, rules, None, bus_for(settings), metrics=metrics,
                     snapshots_per_address=settings.snapshots_per_address)
    core.match_feeds.max_finished = settings.finished_match_cache
    await core.start()
    server = WatchServer(core, settings, metrics)
    await server.start(host, port)
    freeze_startup_heap()
    log.info("watch gateway on %s:%s, bus %s", host, server.port, settings.bus_url.split("?")[0])
    print(f"cuehub gateway: ws://{host}:{server.port}{PATH}", flush=True)
    try:
        await (stop.wait() if stop is not None else asyncio.Future())
    finally:
        await server.close()
        await core.close()
        await engine.dispose()


def main_gateway(settings: Settings, host: str, port: int) -> None:
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        uvloop = None  # type: ignore[assignment]
    import signal

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await run_gateway(settings, host, port, stop)

    if uvloop is not None:
        uvloop.run(run())
    else:
        asyncio.run(run())
