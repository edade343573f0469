"""redis://host:port/db[?channel=name]: Redis pub/sub between hub processes.

Publishing never blocks the caller: the payload goes to this process's handler at once and is
queued for Redis; one task sends the queue in order and retries (in order) while Redis is away.
Each payload travels as <8-byte origin id><payload>; a process skips its own echo, since it
already delivered it locally.

Pub/sub drops whatever is published while a subscriber is disconnected, so after the subscriber
reconnects the handler gets None: the gateway then rereads its channels from the store (the
truth). A gap seen in a match's versions triggers the same reread for that match.

The channel carries the deployment (Redis pub/sub ignores database numbers: a channel is heard by
every client of the server, whatever its `SELECT`): `cuehub:<deployment>:<channel>`, where
<deployment> is HUB_DEPLOYMENT, or `db<N>` from the URL's database number, and <channel> the URL's
`?channel=` (default `changes`). So `/8` and `/9`, or two `?channel=` names, never hear each other.

Silence: a connection can stop delivering without ever being reset (a NAT or load
balancer that forgot it, a partition). The subscriber therefore sends a PING on its own
connection every `heartbeat_s` (HUB_BUS_HEARTBEAT_S) and expects to hear something (the PONG, or
any message) within STALE_BEATS heartbeats. When it does not, the subscription is declared
silent: the handler gets None at once (resync from the store, which may still be reachable),
the connection is dropped and a new one made (each attempt bounded by the same time), and the
handler gets None again once the new subscription is up. `health()` reports the live
subscription (what `/readyz` shows). The publisher's connection has a socket timeout of the same
length, so a silent publish is retried on a new connection instead of waiting forever, and while
idle it PINGs every heartbeat too (which keeps it known to NATs on the way and finds a silent one
before a change has to wait on it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from hub.bus import Handler

log = logging.getLogger(__name__)

PREFIX = "cuehub"
DEFAULT_CHANNEL = "changes"
# Payloads waiting for Redis while it is away; beyond this the oldest are dropped (the other
# processes then see a version gap, or a reconnect, and reread from the store).
PUBLISH_BACKLOG = 10_000
RECONNECT_S = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
HEARTBEAT_S = 1.0
STALE_BEATS = 3  # heartbeats without a word before the subscription counts as silent


class Silent(Exception):
    """The subscription heard nothing (not even its own PING's answer) for too long."""


def database_number(parts: Any, query: dict[str, list[str]]) -> int:
    path = (parts.path or "").strip("/")
    if parts.scheme == "unix":
        path = query.get("db", ["0"])[0]
    try:
        return int(path or "0")
    except ValueError:
        return 0


def split_url(url: str, deployment: str | None = None) -> tuple[str, str]:
    """(the URL redis-py is given, without our `channel` parameter; the pub/sub channel name)."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    channel = query.pop("channel", [DEFAULT_CHANNEL])[0] or DEFAULT_CHANNEL
    rest = "&".join(f"{k}={v}" for k, vs in query.items() for v in vs)
    deployment = deployment or f"db{database_number(parts, query)}"
    clean = urlunsplit((parts.scheme, parts.netloc, parts.path, rest, parts.fragment))
    return clean, f"{PREFIX}:{deployment}:{channel}"


class RedisBus:
    def __init__(self, url: str, *, deployment: str | None = None, heartbeat_s: float = HEARTBEAT_S) -> None:
        self.url, self.channel = split_url(url, deployment)
        self.origin = os.urandom(8)
        self.heartbeat_s = heartbeat_s
        self.stale_after = STALE_BEATS * heartbeat_s
        self._handler: Handler | None = None
        self._backlog: deque[bytes] = deque()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._pub: aioredis.Redis | None = None
        self._closed = False
        self.reconnects = 0  # subscriber reconnections (tests and metrics read it)
        self.silences = 0  # subscriptions found silent by the heartbeat
        self.subscribed = asyncio.Event()
        self._first_try = asyncio.Event()  # the first SUBSCRIBE confirmed, or failed
        self.pubsub: aioredis.client.PubSub | None = None
        # Why the handler was last given None: "silence" (the heartbeat), "reconnect" (a new
        # subscription after a lost one). The gateway labels its resync metric with it.
        self.resync_cause = "reconnect"
        self.heard = 0.0  # time.monotonic() of the last word on the live subscription
        self.down_reason: str | None = "not subscribed yet"
        self._pub_failing_since: float | None = None
        # Called with the event name ("silence", "reconnect") for metrics; set by the gateway.
        self.on_event: Callable[[str], None] | None = None

    def _client(self, role: str) -> aioredis.Redis:
        # No silent retries inside redis-py: a dropped connection must reach our loops, which
        # reconnect and (for the subscriber) ask the gateway to resync.
        extra: dict[str, Any] = {}
        if role == "pub":
            # A publish that hears nothing back this long is retried on a new connection (the
            # retry may duplicate it: receivers drop versions they have).
            extra["socket_timeout"] = self.stale_after
        return aioredis.Redis.from_url(
            self.url, retry=Retry(NoBackoff(), 0), socket_keepalive=True,
            socket_connect_timeout=min(2.0, self.stale_after),
            client_name=f"cuehub-{role}-{self.origin.hex()}",  # CLIENT LIST shows who is who
            **extra,
        )

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        self._pub = self._client("pub")
        self._tasks = [
            asyncio.create_task(self._subscribe_loop(), name="bus-redis-sub"),
            asyncio.create_task(self._publish_loop(), name="bus-redis-pub"),
        ]
        # Wait (briefly) for the first subscription so changes right after startup are not lost;
        # not past a first attempt that failed (Redis refused or unknown): nothing is lost then
        # either, since the subscription that finally comes up resyncs from the store.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._first_try.wait(), 5)

    def health(self) -> str | None:
        """None when the live subscription is healthy; otherwise why not (for /readyz)."""
        now = time.monotonic()
        if not self.subscribed.is_set():
            return f"bus subscription down: {self.down_reason or 'reconnecting'}"
        quiet = now - self.heard
        if quiet > self.stale_after:
            return f"bus subscription silent for {quiet:.1f}s"
        since = self._pub_failing_since
        if since is not None and self._backlog and now - since > self.stale_after:
            return f"bus publisher failing for {now - since:.1f}s ({len(self._backlog)} waiting)"
        return None

    def _deliver(self, payload: bytes | None) -> None:
        if self._handler is None:
            return
        try:
            self._handler(payload)
        except Exception:
            log.exception("bus handler failed")

    def _event(self, name: str) -> None:
        if self.on_event is not None:
            with contextlib.suppress(Exception):
                self.on_event(name)

    def publish(self, payload: bytes) -> None:
        self._deliver(payload)
        if len(self._backlog) >= PUBLISH_BACKLOG:
            self._backlog.popleft()
        self._backlog.append(self.origin + payload)
        self._wake.set()

    async def _publish_loop(self) -> None:
        failures = 0
        while not self._closed:
            assert self._pub is not None
            if not self._backlog:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self.heartbeat_s)
                except TimeoutError:
                    # Idle: a PING keeps the connection known to NATs and load balancers on the way,
                    # and finds a silent one before a change has to wait on it.
                    try:
                        await asyncio.wait_for(self._pub.ping(), self.stale_after)
                        self._pub_failing_since, failures = None, 0
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:
                        await self._new_publisher(exc, failures)
                        failures += 1
                continue
            try:
                # Pipeline what is queued, in order, in one round trip.
                batch = list(self._backlog)
                async with self._pub.pipeline(transaction=False) as pipe:
                    for item in batch:
                        pipe.publish(self.channel, item)
                    await asyncio.wait_for(pipe.execute(), self.stale_after + 1.0)
                for _ in batch:
                    self._backlog.popleft()
                failures = 0
                self._pub_failing_since = None
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                await self._new_publisher(exc, failures)
                failures += 1

    async def _new_publisher(self, exc: Exception, failures: int) -> None:
        """The publisher's connection failed (or fell silent): a new one, after a backoff."""
        if self._pub_failing_since is None:
            self._pub_failing_since = time.monotonic()
        delay = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
        (log.warning if failures == 0 else log.debug)(  # once per outage, not once per retry
            "redis publish connection failed (%s); retrying in %.2fs", type(exc).__name__, delay)
        # A new connection: the old one may be silent rather than closed.
        old, self._pub = self._pub, self._client("pub")
        if old is not None:
            with contextlib.suppress(Exception, asyncio.TimeoutError):
                await asyncio.wait_for(old.aclose(), 1.0)
        await asyncio.sleep(delay)

    async def _subscribe_loop(self) -> None:
        failures = 0
        # Something may have been published that this process did not hear (a subscription was lost,
        # or the first one could not be made while the process was already serving): resync once up.
        lost = False
        while not self._closed:
            client = self._client("sub")
            pubsub = client.pubsub()
            attempt = time.monotonic()
            try:
                # Bounded: through a silent network even the handshake never answers.
                try:
                    await asyncio.wait_for(pubsub.subscribe(self.channel), self.stale_after)
                except TimeoutError:
                    raise Silent(f"silent: no answer to SUBSCRIBE within {self.stale_after:g}s") from None
                # subscribe() only sends the command: until Redis confirms it, a message published
                # elsewhere is not delivered here (pub/sub keeps nothing). Subscribed means confirmed.
                await self._confirmed(pubsub, attempt + self.stale_after)
                self.pubsub = pubsub
                self.heard = time.monotonic()
                self.down_reason = None
                self.subscribed.set()
                self._first_try.set()
                if lost:
                    self.reconnects += 1
                    self.resync_cause = "reconnect"
                    self._event("reconnect")
                    log.warning("redis subscriber back on %s: resyncing from the store", self.channel)
                    self._deliver(None)
                lost = True
                failures = 0
                await self._listen(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                delay = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
                reason = str(exc) if isinstance(exc, Silent) else type(exc).__name__
                (log.warning if failures == 0 else log.debug)(  # once per outage, not once per retry
                    "redis subscriber lost (%s); reconnecting in %.2fs", reason, delay)
                failures += 1
                lost = True
                self.down_reason = reason
                self._first_try.set()
                was_up = self.subscribed.is_set()
                self.subscribed.clear()
                if isinstance(exc, Silent) and was_up:
                    # Resync now: the store may well be reachable while Redis is not.
                    self.silences += 1
                    self.resync_cause = "silence"
                    self._event("silence")
                    self._deliver(None)
                # An attempt that itself waited (a silent handshake) has backed off already.
                await asyncio.sleep(max(0.0, delay - (time.monotonic() - attempt)))
            finally:
                self.pubsub = None
                with contextlib.suppress(Exception, asyncio.TimeoutError):
                    await asyncio.wait_for(pubsub.aclose(), 1.0)
                with contextlib.suppress(Exception, asyncio.TimeoutError):
                    await asyncio.wait_for(client.aclose(), 1.0)

    async def _confirmed(self, pubsub: aioredis.client.PubSub, deadline: float) -> None:
        """Wait for Redis' confirmation of SUBSCRIBE (raises Silent past the deadline)."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Silent(f"silent: SUBSCRIBE not confirmed within {self.stale_after:g}s")
            try:
                msg = await asyncio.wait_for(
                    pubsub.get_message(ignore_subscribe_messages=False, timeout=min(remaining, 1.0)), remaining + 0.5)
            except TimeoutError:
                continue
            if msg is not None and msg.get("type") == "subscribe":
                return

    async def _listen(self, pubsub: aioredis.client.PubSub) -> None:
        """Deliver messages until the connection fails or falls silent (raises either way)."""
        beat = self.heartbeat_s
        pinged = time.monotonic()
        while not self._closed:
            msg = await pubsub.get_message(ignore_subscribe_messages=False, timeout=min(beat, 1.0))
            now = time.monotonic()
            if msg is not None:
                self.heard = now
                if msg.get("type") == "message":
                    data = msg["data"]
                    if data[:8] != self.origin:  # ours was delivered locally already
                        self._deliver(bytes(data[8:]))
            if now - self.heard > self.stale_after:
                raise Silent(f"silent: nothing heard for {now - self.heard:.1f}s (heartbeat {beat:g}s)")
            if now - pinged >= beat:
                pinged = now
                # In subscribed mode PING is answered ["pong", ""] on this same connection.
                try:
                    await asyncio.wait_for(pubsub.ping(), beat)
                except TimeoutError:
                    raise Silent(f"silent: could not send a PING within {beat:g}s") from None

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
