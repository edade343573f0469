"""The hub's port against idle and slow clients (no client can wear a hub down): uvicorn's keyword arguments.

    uvicorn.run(app, ..., **port_options(settings))      # in hub.cli.uvicorn_options (serve, demo)

uvicorn on its own never times out a connection that sends nothing (its keep-alive timer starts
after a first response) nor one that sends its request a byte at a time, and when the process runs
out of file descriptors it stops accepting: 1,100 idle connections under `ulimit -n 1024` locked
out every new tablet. Here, as nginx (client_header_timeout, client_body_timeout) and Apache
(RequestReadTimeout) do it:

- a connection must send a request's head within HUB_HEADER_TIMEOUT_S, counted from connecting or
  from its previous response (a keep-alive connection idle for HUB_KEEP_ALIVE_S is closed first
  by uvicorn), and the body within HUB_BODY_TIMEOUT_S of the head; else it is closed;
- a `ConnectionGuard` counts the port's connections against the process's descriptor limit
  (RLIMIT_NOFILE, less a reserve for the database pool, Redis, logs: RESERVE_MIN or a tenth).
  When a new connection brings the count to that mark, the connections that have been idle the
  longest (no request in flight: never sent one, between requests, or part-way through a head) are
  closed, SHED_BATCH at a time; when none is idle, the new one is closed (accept, then drop).
  Upgraded WebSockets and requests in flight are never shed. So accept() never fails for want
  of a descriptor, and a tablet that connects and sends its upgrade at once always gets in.
- h11's buffer for an incomplete request head is capped (H11_MAX_HEAD) should `--http h11` be used.

The watch gateway's port (hub/watch/server.py, websockets) has its own handshake timeout
(`open_timeout=settings.header_timeout_s`) and its connections count in the same process-wide
guard (`guarded_ws_connection`): idle until their handshake request arrives.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import OrderedDict
from typing import Any

from hub.ops.logbudget import LogBudget, suppressed
from hub.settings import Settings

log = logging.getLogger(__name__)

RESERVE_MIN = 64
SHED_BATCH = 16
H11_MAX_HEAD = 16 * 1024


def fd_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY or soft <= 0 else int(soft)


class ConnectionGuard:
    """The port's connections, the idle ones oldest first, against a ceiling under the fd limit."""

    def __init__(self, ceiling: int | None = None) -> None:
        if ceiling is None:
            limit = fd_limit()
            ceiling = limit - max(RESERVE_MIN, limit // 10)
        self.ceiling = max(8, ceiling)
        self.http: OrderedDict[Any, None] = OrderedDict()  # by last activity, oldest first
        self.upgraded: set[asyncio.BaseTransport] = set()
        self.shed = 0  # connections closed to keep under the ceiling (tests and logs read it)
        self.dropped = 0  # new connections closed because nothing was idle
        self._log_budget = LogBudget(lines=3, window_s=60.0)

    def __len__(self) -> int:
        return len(self.http) + len(self.upgraded)

    def opened(self, proto: Any) -> bool:
        """A new connection; False when it was dropped at once (nothing idle to make room)."""
        self.http[proto] = None
        if len(self) < self.ceiling:
            return True
        self.upgraded = {t for t in self.upgraded if not t.is_closing()}
        over = len(self) - self.ceiling + SHED_BATCH
        if len(self) < self.ceiling:
            return True
        closed = 0
        for old in list(self.http):
            if closed >= over:
                break
            if old is not proto and old.idle():
                old.shed()
                closed += 1
        self.shed += closed
        if closed == 0:
            self.dropped += 1
            proto.shed()
        skipped = self._log_budget.allow("ceiling")
        if skipped is not None:
            log.warning("open connections reached the ceiling of %d (fd limit %d): shed %d idle, %d dropped in all%s",
                        self.ceiling, fd_limit(), self.shed, self.dropped, suppressed(skipped))
        return closed > 0

    def active(self, proto: Any) -> None:
        if proto in self.http:
            self.http.move_to_end(proto)

    def closed(self, proto: Any) -> None:
        self.http.pop(proto, None)

    def upgrade(self, proto: Any, transport: asyncio.BaseTransport) -> None:
        self.http.pop(proto, None)
        self.upgraded.add(transport)


_PROCESS_GUARD: ConnectionGuard | None = None


def process_guard() -> ConnectionGuard:
    """The one guard of this process: the hub's port and the watch gateway's share the descriptors."""
    global _PROCESS_GUARD
    if _PROCESS_GUARD is None:
        _PROCESS_GUARD = ConnectionGuard()
    return _PROCESS_GUARD


def guarded_ws_connection(guard: ConnectionGuard | None = None) -> type[Any]:
    """websockets' ServerConnection counted by the guard (the gateway port, `create_connection=`):
    idle until its handshake request has arrived (websockets' open_timeout bounds that too)."""
    from websockets.asyncio.server import ServerConnection

    the_guard = guard if guard is not None else process_guard()

    class GuardedServerConnection(ServerConnection):
        def idle(self) -> bool:
            return self.request is None

        def shed(self) -> None:
            transport = getattr(self, "transport", None)
            if transport is not None and not transport.is_closing():
                transport.abort()

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            the_guard.opened(self)

        def process_event(self, event: Any) -> None:
            if self.request is None:
                the_guard.upgrade(self, self.transport)  # a handshake under way: not idle any more
            super().process_event(event)

        def connection_lost(self, exc: Exception | None) -> None:
            the_guard.closed(self)
            super().connection_lost(exc)

    return GuardedServerConnection


def guarded_protocol(settings: Settings, guard: ConnectionGuard | None = None) -> type[asyncio.Protocol] | None:
    """uvicorn's httptools protocol with the head/body deadlines and the guard (None without httptools)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return None
    the_guard = guard if guard is not None else process_guard()
    header_s, body_s = settings.header_timeout_s, settings.body_timeout_s

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        guard = the_guard

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None

        def _arm(self, seconds: float | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = None if seconds is None else self.loop.call_later(seconds, self._too_slow)

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def idle(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def shed(self) -> None:
            self._arm(None)
            if not self.transport.is_closing():
                self.transport.abort()  # no lingering: the descriptor is freed now

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm(header_s)
            self.guard.opened(self)

        def connection_lost(self, exc: Exception | None) -> None:
            self._arm(None)
            self.guard.closed(self)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            self.guard.active(self)
            super().data_received(data)

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            if self.parser is not None and not (self.parser.should_upgrade() and self._should_upgrade()):
                self._arm(body_s)

        def on_message_complete(self) -> None:
            super().on_message_complete()
            if self._deadline is not None and not (self.parser.should_upgrade() and self._should_upgrade()):
                self._arm(None)  # the request is read; the app's own time is not bounded here

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.idle():
                self._arm(header_s)  # the next request's head (uvicorn closes it first if idle)

        def handle_websocket_upgrade(self) -> None:
            self._arm(None)
            self.guard.upgrade(self, self.transport)
            super().handle_websocket_upgrade()

    return GuardedHttpToolsProtocol


def port_options(settings: Settings, guard: ConnectionGuard | None = None) -> dict[str, Any]:
    """uvicorn.run / uvicorn.Config keyword arguments for the hub's port."""
    options: dict[str, Any] = {
        "timeout_keep_alive": settings.keep_alive_s,
        "h11_max_incomplete_event_size": H11_MAX_HEAD,
    }
    protocol = guarded_protocol(settings, guard)
    if protocol is not None:
        options["http"] = protocol
    return options
