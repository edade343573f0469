"""/ws/watch on uvicorn's own port, served by the watch gateway (gateway.py) instead of the ASGI app.

`cuehub serve` and `cuehub demo` run uvicorn with `ws=watch_protocol(app)` (hub/cli.py:
`uvicorn_options`). uvicorn parses every HTTP request as usual; when one asks to upgrade to a
WebSocket it hands the connection (the transport and the request head, as bytes) to the class
given as `ws`. This one looks at the request's path:

- `/ws/watch`: the connection becomes a websockets `ServerConnection` of the app's `WatchServer`
  (`services_of(app).watch_front`, made by watch.py's lifespan around the app's own `core.WatchCore`):
  the same handshake, frames, strict parsing, closes, heartbeats and frame cap as the gateway port,
  the same coalesced writes (`Outbox`), the same event loop and core as the rest of the app;
- any other path (`/ws/tables/...`): uvicorn's own WebSocket protocol (`auto`), the ASGI app as
  before.

The watcher's connection counts in uvicorn's server state, so uvicorn's shutdown closes it (1012,
as uvicorn's own protocol does) and waits for it to be gone. Under another server (or uvicorn
with its default `ws`) the app's FastAPI `/ws/watch` serves the same protocol, only slower.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hub.watch.server import PATH

_PATH = PATH.encode()

# The asyncio.Protocol callbacks a transport makes; once the choice is made they are the chosen
# protocol's own bound methods (instance attributes: no extra call per packet).
_CALLBACKS = ("data_received", "eof_received", "connection_lost", "pause_writing", "resume_writing")


def _adopt(transport: Any, chooser: asyncio.Protocol, protocol: asyncio.Protocol) -> None:
    if not transport.is_closing() and transport.get_protocol() is chooser:
        transport.set_protocol(protocol)


def watch_protocol(app: Any) -> type[asyncio.Protocol]:
    """The class for uvicorn's `ws` option: /ws/watch to `services_of(app).watch_front`, every other
    WebSocket path to uvicorn's own protocol (`auto`: websockets-sansio on recent uvicorn)."""
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    if AutoWebSocketsProtocol is None:  # pragma: no cover - websockets is a dependency
        raise RuntimeError("uvicorn has no WebSocket protocol (install websockets)")
    fallback: Callable[..., asyncio.Protocol] = AutoWebSocketsProtocol

    class WatchOrAppProtocol(asyncio.Protocol):
        """Chooses, from the upgrade request's path, who serves the connection."""

        def __init__(self, config: Any, server_state: Any, app_state: Any = None, **kwargs: Any) -> None:
            self._args: dict[str, Any] | None = {"config": config, "server_state": server_state,
                                                 "app_state": app_state, **kwargs}
            self._transport: asyncio.BaseTransport | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self._transport = transport

        def data_received(self, data: bytes) -> None:
            # uvicorn's first call: the request head it parsed ("GET /ws/watch?x HTTP/1.1\r\n...").
            parts = data.split(b" ", 2)
            target = parts[1] if len(parts) > 2 else b""
            services = getattr(app.state, "services", None)  # None before the app's lifespan
            front = None if services is None else services.watch_front
            args = self._args
            assert args is not None
            protocol: Any
            if target.split(b"?", 1)[0] == _PATH and front is not None and front.accepting:
                protocol = front.connection(owner=args["server_state"])
            else:
                protocol = fallback(**args)
            for name in _CALLBACKS:
                setattr(self, name, getattr(protocol, name))
            transport, self._transport, self._args = self._transport, None, None
            assert transport is not None
            protocol.connection_made(transport)
            protocol.data_received(data)
            # uvicorn now calls transport.set_protocol(self): from then on every callback is
            # `protocol`'s own method (the attributes above). On the next turn of the loop the
            # transport is given `protocol` itself, and this object is gone.
            asyncio.get_running_loop().call_soon(_adopt, transport, self, protocol)

        def connection_lost(self, exc: Exception | None) -> None:  # before the choice: nothing to do
            pass

    return WatchOrAppProtocol
