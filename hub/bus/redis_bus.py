"""redis://host:port/db[?channel=name]: Redis pub/sub between hub processes.

Publishing never blocks the caller: the payload goes to this process's handler at once and is
queued for Redis; one task sends the queue in order and retries (in order) while Redis is away.
Each payload travels as <8-byte origin id><payload>; a process skips its own echo, since it
already delivered it locally.

Pub/sub drops whatever is published while a subscriber is disconnected, so after the subscriber
reconnects the handler gets None: the gateway then rereads its channels from the store (the
truth). A gap seen in a match's versions triggers the same reread for that match.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from urllib.parse import parse_qs, urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from hub.bus import Handler

log = logging.getLogger(__name__)

DEFAULT_CHANNEL = "cuehub:changes"
# Payloads waiting for Redis while it is away; beyond this the oldest are dropped (the other
# processes then see a version gap, or a reconnect, and reread from the store).
PUBLISH_BACKLOG = 10_000
RECONNECT_S = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)


def _split(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    channel = query.pop("channel", [DEFAULT_CHANNEL])[0]
    rest = "&".join(f"{k}={v}" for k, vs in query.items() for v in vs)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, rest, parts.fragment)), channel


class RedisBus:
    def __init__(self, url: str) -> None:
        self.url, self.channel = _split(url)
        self.origin = os.urandom(8)
        self._handler: Handler | None = None
        self._backlog: deque[bytes] = deque()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._pub: aioredis.Redis | None = None
        self._closed = False
        self.reconnects = 0  # subscriber reconnections (tests and metrics read it)
        self.subscribed = asyncio.Event()
        self.pubsub: aioredis.client.PubSub | None = None

    def _client(self, role: str) -> aioredis.Redis:
        # No silent retries inside redis-py: a dropped connection must reach our loops, which
        # reconnect and (for the subscriber) ask the gateway to resync.
        return aioredis.Redis.from_url(
            self.url, retry=Retry(NoBackoff(), 0), socket_keepalive=True, socket_connect_timeout=2,
            client_name=f"cuehub-{role}-{self.origin.hex()}",  # CLIENT LIST shows who is who
        )

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        self._pub = self._client("pub")
        self._tasks = [
            asyncio.create_task(self._subscribe_loop(), name="bus-redis-sub"),
            asyncio.create_task(self._publish_loop(), name="bus-redis-pub"),
        ]
        # Wait (briefly) for the first subscription so changes right after startup are not lost.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.subscribed.wait(), 5)

    def _deliver(self, payload: bytes | None) -> None:
        if self._handler is None:
            return
        try:
            self._handler(payload)
        except Exception:
            log.exception("bus handler failed")

    def publish(self, payload: bytes) -> None:
        self._deliver(payload)
        if len(self._backlog) >= PUBLISH_BACKLOG:
            self._backlog.popleft()
        self._backlog.append(self.origin + payload)
        self._wake.set()

    async def _publish_loop(self) -> None:
        failures = 0
        while not self._closed:
            if not self._backlog:
                self._wake.clear()
                await self._wake.wait()
                continue
            assert self._pub is not None
            try:
                # Pipeline what is queued, in order, in one round trip.
                batch = list(self._backlog)
                async with self._pub.pipeline(transaction=False) as pipe:
                    for item in batch:
                        pipe.publish(self.channel, item)
                    await pipe.execute()
                for _ in batch:
                    self._backlog.popleft()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                delay = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
                failures += 1
                log.warning("redis publish failed (%s); retrying in %.2fs", exc, delay)
                await asyncio.sleep(delay)

    async def _subscribe_loop(self) -> None:
        failures = 0
        connected_before = False
        while not self._closed:
            client = self._client("sub")
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                self.pubsub = pubsub
                if connected_before:
                    self.reconnects += 1
                    self._deliver(None)  # whatever was published meanwhile is lost: resync
                connected_before = True
                failures = 0
                self.subscribed.set()
                while not self._closed:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    data = msg["data"]
                    if data[:8] == self.origin:
                        continue  # ours, delivered locally already
                    self._deliver(bytes(data[8:]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                delay = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
                failures += 1
                log.warning("redis subscriber lost (%s); reconnecting in %.2fs", exc, delay)
                self.subscribed.clear()
                await asyncio.sleep(delay)
            finally:
                self.pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pub is not None:
            with contextlib.suppress(Exception):
                await self._pub.aclose()
        self._handler = None
