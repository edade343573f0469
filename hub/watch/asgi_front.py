"""/ws/watch (PROTOCOL.md section 2): public, read-only live channels.

The watch core (`WatchCore`, core.py) starts with the app through this router's lifespan: it
subscribes to the writer, connects the bus named by HUB_BUS_URL and is kept on the app's services
(`services_of(app).watch`). Heartbeats are the server's WebSocket pings (uvicorn's
ws_ping_interval / ws_ping_timeout, 20 s each by default): a socket that stops answering is closed,
and its subscriptions go with it.

This FastAPI endpoint is the fallback, for the app under any ASGI server. `cuehub serve` and
`cuehub demo` give uvicorn a WebSocket protocol of ours (fastws.py) that hands /ws/watch
upgrades to the websockets front of the same core (server.py: same event loop, same feeds, a much
cheaper write per watcher), so this endpoint is not reached there. With HUB_WATCH_PORT set, that
front also listens on a port of its own; `GET /api/config` (hub/api/watch_config.py) tells the
pages where to watch (`watch_url` / `watch_port`, null when unset: /ws/watch on the page's own host).

`since` is honoured on `match:` channels; `table:` and `tournament:` channels always answer a
fresh snapshot (a table may be on another match by then; the tournament projection is a state,
not a stream). Error codes: bad_message, unknown_channel, too_many_subscriptions, unavailable.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect

from hub.bus import bus_for
from hub.guards import access
from hub.guards.peer import address_keys
from hub.services import services_of
from hub.watch.core import Conn, WatchCore
from hub.watch.server import WatchServer

log = logging.getLogger(__name__)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    # Runs inside the app's own lifespan (FastAPI nests router lifespans), so the writer exists.
    state = services_of(app)
    settings = state.settings
    core = WatchCore(state.engine, state.rules, state.writer, bus_for(settings),
                     tournaments=state.tournaments, snapshots_per_address=settings.snapshots_per_address)
    core.match_feeds.max_finished = settings.finished_match_cache  # rings of finished matches kept
    await core.start()
    state.watch = core
    # The websockets front of the same core: uvicorn hands it /ws/watch upgrades on the hub's own
    # port when run with `ws=fastws.watch_protocol(app)` (`cuehub serve`, `cuehub demo`), and it
    # listens on HUB_WATCH_PORT when that is set.
    front = state.watch_front = WatchServer(core, settings)
    state.watch_server = None
    try:
        if settings.watch_port is not None:
            await front.start(settings.watch_host or settings.host, settings.watch_port)
            state.watch_server = front
            log.info("watch gateway on port %s", front.port)
        yield
    finally:
        await front.close()
        await core.close()


router = APIRouter(lifespan=lifespan)


@router.websocket("/ws/watch")
async def watch_socket(ws: WebSocket) -> None:
    await ws.accept()
    if not access.websocket_origin_allowed(ws.scope, services_of(ws.app).settings):  # HUB_ALLOWED_ORIGINS
        await ws.close(code=access.CLOSE_FORBIDDEN_ORIGIN)
        return
    core = services_of(ws.app).watch
    assert core is not None  # this router's lifespan made it

    async def send(text: str) -> None:
        await ws.send_text(text)

    async def close(code: int) -> None:
        await ws.close(code=code)

    conn = Conn(core, send, close)
    # The client as the hub trusts it (peer.ForwardedHeaders rewrote the scope's client already).
    conn.client = tuple(address_keys(ws.client.host if ws.client else ""))
    core.connect(conn)
    sender = conn.start()
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None and message.get("bytes") is not None:
                text = message["bytes"].decode("utf-8", errors="replace")
            await core.handle(conn, text or "")
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        core.disconnect(conn)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender
