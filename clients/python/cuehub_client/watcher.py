"""A read-only watcher over ``/ws/watch`` (PROTOCOL.md section 2)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ._util import backoff_delays, ws_url
from .errors import SessionClosed

log = logging.getLogger("cuehub_client.watcher")


@dataclass(frozen=True)
class WatchMessage:
    """A ``snapshot`` or ``update``; ``event`` is the stored event of an update."""

    type: str
    channel: str
    version: int
    data: dict[str, Any]
    event: dict[str, Any] | None = None
    server_time: int | None = None


class Watcher:
    """Subscribe to ``match:{mid}``, ``table:{table_id}`` or ``tournament:{tid}`` channels.

    Iterate (``async for msg in watcher``) to get snapshots and updates in order. The last
    version seen per channel is kept in ``versions``; after the socket drops the watcher
    reconnects and subscribes again with ``since`` so a match channel resumes without gaps.
    Updates at or below a version already seen are dropped (duplicates after a resume).
    """

    def __init__(self, base_url: str, *, reconnect: bool = True, open_timeout: float = 10.0) -> None:
        self.url = ws_url(base_url, "/ws/watch")
        self.reconnect = reconnect
        self.open_timeout = open_timeout
        self.versions: dict[str, int] = {}
        self.latest: dict[str, dict[str, Any]] = {}
        self.channels: list[str] = []
        self.reconnects = 0
        self.gaps = 0  # match-channel updates that skipped a version (should stay 0)
        self._queue: asyncio.Queue = asyncio.Queue()
        self._ws: ClientConnection | None = None
        self._runner: asyncio.Task | None = None
        self._connected: asyncio.Event = asyncio.Event()
        self._closed = False

    async def __aenter__(self) -> Watcher:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self, timeout: float | None = 10.0) -> None:
        if self._runner is None:
            self._runner = asyncio.create_task(self._run(), name="watcher")
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def close(self) -> None:
        self._closed = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._queue.put_nowait(None)

    async def drop_connection(self) -> None:
        """Close the socket as if the network failed; the watcher reconnects with ``since``."""
        if self._ws is not None:
            await self._ws.close(code=1001, reason="client drop")

    async def subscribe(self, channel: str, since: int | None = None) -> None:
        if channel not in self.channels:
            self.channels.append(channel)
        if since is not None:
            self.versions[channel] = since
        await self._send_subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        if channel in self.channels:
            self.channels.remove(channel)
        self.versions.pop(channel, None)
        if self._ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self._ws.send(json.dumps({"type": "unsubscribe", "channel": channel}))

    async def _send_subscribe(self, channel: str) -> None:
        ws = self._ws
        if ws is None:
            return  # sent on (re)connect
        msg: dict[str, Any] = {"type": "subscribe", "channel": channel}
        if channel in self.versions:
            msg["since"] = self.versions[channel]
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(msg))

    # -- reading ------------------------------------------------------------------------
    def __aiter__(self) -> AsyncIterator[WatchMessage]:
        return self

    async def __anext__(self) -> WatchMessage:
        item = await self._queue.get()
        if item is None:
            self._queue.put_nowait(None)
            raise StopAsyncIteration
        return item

    async def next(self, timeout: float | None = None) -> WatchMessage:
        """The next snapshot or update; raises SessionClosed once the watcher is closed."""
        try:
            return await asyncio.wait_for(self.__anext__(), timeout)
        except StopAsyncIteration:
            raise SessionClosed("watcher closed") from None

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind not in ("snapshot", "update"):
            log.debug("ignored message %r", kind)
            return
        ch = str(msg.get("channel"))
        if ch not in self.channels:
            return  # late message after an unsubscribe
        version = int(msg.get("version", 0))
        last = self.versions.get(ch)
        if kind == "update" and last is not None:
            if version <= last:
                return  # already seen (a resume overlapped)
            if ch.startswith("match:") and version != last + 1:
                self.gaps += 1
                log.warning("gap on %s: %s -> %s", ch, last, version)
        self.versions[ch] = version
        data = msg.get("data") or {}
        self.latest[ch] = data
        self._queue.put_nowait(
            WatchMessage(kind, ch, version, data, msg.get("event"), msg.get("server_time"))
        )

    async def _run(self) -> None:
        delays = backoff_delays()
        while not self._closed:
            try:
                async with connect(self.url, open_timeout=self.open_timeout, proxy=None, max_size=None) as ws:
                    self._ws = ws
                    for ch in list(self.channels):
                        await self._send_subscribe(ch)
                    self._connected.set()
                    delays = backoff_delays()
                    async for raw in ws:
                        try:
                            self._handle(json.loads(raw))
                        except ValueError:
                            log.warning("bad message ignored")
            except asyncio.CancelledError:
                raise
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                log.info("watch socket closed (%s)%s", code, "; reconnecting" if self.reconnect else "")
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                log.info("watch connection failed: %s", exc)
            finally:
                self._ws = None
                self._connected.clear()
            if self._closed or not self.reconnect:
                self._queue.put_nowait(None)
                return
            self.reconnects += 1
            await asyncio.sleep(next(delays))
