"""Watcher connections handed over by uvicorn (uvicorn_front.py), kept small while they idle.

A watcher spends nearly all its life idle: subscribed, receiving what the outbox writes, sending
nothing but pongs. websockets' own server keeps, per connection, a handler task (its coroutine
stack: the handler, `async for`, `recv`, the message assembler's wait), a keepalive task
sleeping between pings, and the handshake's request and response with their headers: about
6 KB of Python objects per idle watcher. A `HandedConnection` has none of them once it is open
(what is left: 5.2 KB of Python objects per idle watcher in all, tracemalloc, 1,000 watchers):

- a message from the watcher is handed to the handover's `on_text` from the data callback (a task exists only
  while one is being handled, reading paused if INBOX_LIMIT more wait behind it), not pulled by a
  task waiting in `recv`;
- one `Heartbeat` per server pings every open connection each `ws_ping_s` (the same ping frame,
  written without awaiting) and closes 1011 those that did not answer the previous ping within
  `ws_ping_s`, as websockets' keepalive does;
- the handshake's request is replaced by a shared one (its path only) once the origin is
  checked, the headers of the one parsed are dropped (the protocol's parser keeps that object),
  and the response is dropped; the message assembler (no message reaches it any more) by a
  shared stand-in, and the drain waiters' deque (its 64-slot block) by a list, used only by a
  slow watcher's queued sends;
- what every connection would hold the same is shared through the `Handover`: the callbacks,
  the logger (no adapter and weak proxy each) and the handshake's done future; the connection's
  own fields are slots, so that its `__dict__` (websockets' 27 fields) shares its keys with the
  other connections' instead of growing a table of its own.

`connection_lost` ends the watcher (the handover's `on_gone`), after the message being handled, if any.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, cast

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

log = logging.getLogger(__name__)

INBOX_LIMIT = 16  # messages waiting to be handled beyond which the socket is not read (as websockets' max_queue)
HEARTBEAT_CHUNK = 512  # connections pinged per turn of the loop
CLOSE_SERVICE_RESTART = 1012  # what uvicorn's own WebSocket protocols send when the server stops
_OPEN = State.OPEN
_TEXT, _BINARY, _CONT, _PONG = Opcode.TEXT, Opcode.BINARY, Opcode.CONT, Opcode.PONG


class _NoMessages:
    """The message assembler of a settled connection: nothing is put in it, nothing read from it."""

    def close(self) -> None:
        pass


NO_MESSAGES = _NoMessages()


class HandedConnection(ServerConnection):
    """A watcher's websockets connection whose TCP connection another server accepted (uvicorn,
    fastws.py) and handed over with the upgrade request. It is one of that server's connections
    too (`owner`: uvicorn's `server_state.connections`), so that server's shutdown closes it (1012,
    as uvicorn's own protocol does) and waits for it to be gone."""

    # Slots, not instance attributes: websockets' connection has 27 of its own, and past 30 an
    # instance's __dict__ stops sharing its keys with the others' (a table of its own, 1.6 KB).
    __slots__ = ("owner", "watcher", "settled", "inbox", "reading", "fragments", "ping_sent", "lost", "reaping")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.owner: Any = None
        self.watcher: Any = None  # its server.SocketConn, once open
        self.settled = False  # open, and its messages going to the handover's on_text (see settle)
        self.inbox: deque[str] | None = None  # messages waiting while one is handled (None: none)
        self.reading: asyncio.Task[None] | None = None  # the task handling them, while there is one
        self.fragments: list[bytes] | None = None  # a fragmented message so far
        self.ping_sent = 0  # the heartbeat's beat of the oldest unanswered ping (0: answered)
        self.lost = False
        self.reaping = False
        super().__init__(*args, **kwargs)

    @property
    def handover(self) -> Handover:
        return cast(Handover, self.server)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if self.owner is not None:
            self.owner.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            self.lost = True
            if self.owner is not None:
                self.owner.connections.discard(self)
            if self.settled and self.reading is None:
                self.handover.on_gone(self)

    def shutdown(self) -> None:
        """The owner is stopping: close 1012 (a watcher reconnects), or drop a handshake not done."""
        if self.protocol.state is _OPEN:
            task = self.loop.create_task(self.close(CLOSE_SERVICE_RESTART, "server shutting down"))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
        elif not self.transport.is_closing():
            self.transport.close()

    def settle(self, request: Request) -> None:
        """The handshake is done and the watcher made: from now on messages go to the handover's
        `on_text`, and what it keeps of its handshake is `request` (shared: the path only)."""
        handover = self.handover
        parsed = self.request
        if parsed is not None and parsed is not request:
            # The protocol's parser (a suspended generator) keeps the request it parsed as a local
            # for the connection's life: its headers (about 2 KB) go, whoever holds it.
            parsed.headers = request.headers
        self.request, self.response = request, None
        self.request_rcvd = handover.received  # done: a shared done future instead of its own
        self.logger = self.protocol.logger = handover.logger  # no adapter and proxy of its own
        self.drain_waiters = []  # type: ignore[assignment]  # append/remove/iterate: a list does, smaller
        self.settled = True
        # What reached the assembler between the handshake and now (a subscribe sent with the upgrade);
        # then the assembler goes (nothing reaches it any more; connection_lost only closes it).
        frames = self.recv_messages.frames.queue
        self.recv_messages = NO_MESSAGES  # type: ignore[assignment]
        for frame in frames:
            self._data(frame)
        if self.lost and self.reading is None:
            handover.on_gone(self)  # gone before it was settled

    def process_event(self, event: Any) -> None:
        if not self.settled:
            super().process_event(event)  # the handshake request, and frames until `settle`
            return
        opcode = event.opcode
        if opcode is _PONG:
            self.ping_sent = 0
        elif opcode is _TEXT or opcode is _BINARY or opcode is _CONT:
            self._data(event)

    def _data(self, frame: Frame) -> None:
        if not frame.fin:
            if self.fragments is None:
                self.fragments = []
            self.fragments.append(bytes(frame.data))
            return
        data = frame.data
        if self.fragments is not None:
            data, self.fragments = b"".join([*self.fragments, bytes(data)]), None
        text = bytes(data).decode("utf-8", errors="replace")
        if self.reading is None:
            self.reading = self.loop.create_task(self._read(text))
            return
        if self.inbox is None:
            self.inbox = deque()
        self.inbox.append(text)
        if len(self.inbox) == INBOX_LIMIT:
            self.transport.pause_reading()

    async def _read(self, text: str) -> None:
        """Handle messages one at a time, in order, until none waits; then the task ends."""
        try:
            while True:
                try:
                    await self.handover.on_text(self, text)
                except Exception:
                    log.exception("watch message handler failed")
                inbox = self.inbox
                if not inbox or self.lost:
                    break
                if len(inbox) == INBOX_LIMIT and not self.transport.is_closing():
                    self.transport.resume_reading()
                text = inbox.popleft()
        finally:
            self.reading, self.inbox = None, None
            if self.lost and self.settled:
                self.handover.on_gone(self)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.settled and self.close_deadline is not None and not self.reaping:
            # The peer closed: its TCP connection goes within close_timeout, or is dropped (what
            # websockets' handler would do on its way out).
            self.reaping = True
            self.loop.call_later(self.close_timeout or 1, self._drop)

    def beat(self, payload: bytes, beat: int) -> None:
        """One heartbeat: a ping, or a close 1011 if the last beat's ping went unanswered."""
        if self.protocol.state is not _OPEN:
            return
        if self.ping_sent and beat > self.ping_sent:
            self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
            self.send_data()
            self.reaping = True
            self.loop.call_later(self.close_timeout or 1, self._drop)
            return
        if not self.ping_sent:
            self.ping_sent = beat
        self.protocol.send_ping(payload)
        self.send_data()

    def _drop(self) -> None:
        if not self.transport.is_closing():
            self.transport.abort()


class Heartbeat:
    """Pings every connection of `conns` each `interval` s (one task for all of them)."""

    def __init__(self, conns: set[HandedConnection], interval: float) -> None:
        self.conns = conns
        self.interval = interval
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="watch-heartbeat")

    async def run(self) -> None:
        n = 0
        while True:
            await asyncio.sleep(self.interval)
            n += 1
            payload = struct.pack("!Q", n)
            for i, conn in enumerate(list(self.conns)):
                if i and i % HEARTBEAT_CHUNK == 0:
                    await asyncio.sleep(0)
                try:
                    conn.beat(payload, n)
                except Exception:  # a connection closing under it: the next beat skips it
                    log.debug("heartbeat failed", exc_info=True)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None


def shared_request(path: str) -> Request:
    """What an open connection keeps of its handshake request: the path, no headers."""
    return Request(path, Headers())


class Handover:
    """What a websockets `ServerConnection` asks of its server, for connections handed over by
    another server (no listening socket of its own). Covers websockets 16 (`start_connection_handler`)
    and 17 (`handler`, `handler_tasks`). The handler runs the handshake only (a short task). What
    every settled connection shares lives here too: where its messages go (`on_text`), what ends
    its watcher (`on_gone`), its logger and its handshake's done future."""

    def __init__(self, handler: Any, on_text: Callable[[HandedConnection, str], Awaitable[None]],
                 on_gone: Callable[[HandedConnection], None]) -> None:
        self.handler = handler
        self.on_text = on_text
        self.on_gone = on_gone
        self.handler_tasks: set[asyncio.Task[None]] = set()
        self.serving = True
        self.logger = logging.getLogger("websockets.server")
        self._received: asyncio.Future[None] | None = None

    @property
    def received(self) -> asyncio.Future[None]:
        """A done future: what a settled connection keeps as its `request_rcvd`."""
        if self._received is None:
            self._received = asyncio.get_running_loop().create_future()
            self._received.set_result(None)
        return self._received

    def is_serving(self) -> bool:
        return self.serving

    def start_connection_handler(self, connection: ServerConnection) -> None:
        task = asyncio.get_running_loop().create_task(self.handler(connection))
        self.handler_tasks.add(task)
