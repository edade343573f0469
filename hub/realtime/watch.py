"""/ws/watch (PROTOCOL.md section 2): public, read-only live channels.

The gateway (channels.py) starts with the app through this router's lifespan: it subscribes to
the writer, connects the bus named by HUB_BUS_URL and is kept on `app.state.watch`. Heartbeats are
the server's WebSocket pings (uvicorn's ws_ping_interval / ws_ping_timeout, 20 s each by
default): a socket that stops answering is closed, and its subscriptions go with it.

`since` is honoured on `match:` channels; `table:` and `tournament:` channels always answer a
fresh snapshot (a table may be on another match by then; the tournament projection is a state,
not a stream). Error codes: bad_message, unknown_channel, too_many_subscriptions, unavailable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import asynccontextmanager
from typing import AsyncIterator

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect

from hub.api import access
from hub.bus import make_bus
from hub.realtime.channels import Conn, Gateway

log = logging.getLogger(__name__)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    # Runs inside the app's own lifespan (FastAPI nests router lifespans), so the writer exists.
    state = app.state
    gateway = Gateway(state.engine, state.rules, state.writer, make_bus(state.settings.bus_url))
    await gateway.start()
    state.watch = gateway
    try:
        yield
    finally:
        await gateway.close()


router = APIRouter(lifespan=lifespan)


@router.websocket("/ws/watch")
async def watch_socket(ws: WebSocket) -> None:
    await ws.accept()
    if not access.websocket_origin_allowed(ws.scope, ws.app.state.settings):  # HUB_ALLOWED_ORIGINS
        await ws.close(code=access.CLOSE_FORBIDDEN_ORIGIN)
        return
    gateway: Gateway = ws.app.state.watch

    async def send(text: str) -> None:
        await ws.send_text(text)

    async def close(code: int) -> None:
        await ws.close(code=code)

    conn = Conn(gateway, send, close)
    gateway.connect(conn)
    sender = conn.start()
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None and message.get("bytes") is not None:
                text = message["bytes"].decode("utf-8", errors="replace")
            await gateway.handle(conn, text or "")
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        gateway.disconnect(conn)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender
