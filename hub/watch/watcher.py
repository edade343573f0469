"""One watcher socket as the watch core sees it: its subscriptions and its bounded outbox.

`Conn` is what both fronts (watch.py's FastAPI endpoint, gateway.py's websockets server) hand to
`core.WatchCore`: `push(item)` never awaits; a front that can write without awaiting overrides
`write_now`, otherwise `run` (the sender task) drains the queue one message at a time. A watcher
that falls QUEUE_LIMIT messages behind skips to each channel's latest snapshot; one whose send
has been stuck for STUCK_S is closed 4408. A delta update (`Item.base`: tournament channels) that
has to wait keeps only the latest per channel: it replaces the one waiting, and when its `base` is
not what the watcher was last sent, the channel's latest snapshot goes instead (a gap is a snapshot).

Messages are texts built once per change and channel (hub/wire/watch.py `message`), spliced from JSON already made.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hub.ops.metrics import Metrics
from hub.wire.watch import error_text

CLOSE_STUCK = 4408
QUEUE_LIMIT = 64  # live messages waiting per watcher; beyond, the watcher skips to snapshots
STUCK_S = 10.0  # a watcher that overflows while one send has been waiting this long is closed (4408)

SNAP, UPD, ERR = 0, 1, 2


class Snapshots(Protocol):
    """What a Conn needs from the core: each channel's latest snapshot, and the metrics."""

    metrics: Metrics

    def snapshot(self, channel: str) -> tuple[str | None, int, str] | None: ...


@dataclass(slots=True)
class Item:
    kind: int
    channel: str
    key: str | None = None  # the match an update belongs to
    version: int = 0
    text: str | None = None
    forced: bool = False  # replays and errors: not counted against the live limit
    frame: bytes | None = None  # `text` as one WebSocket frame, built once by the first front that needs it
    base: int | None = None  # a delta update: the version it applies to (None: a whole projection)


@dataclass(slots=True)
class Sub:
    """One subscription of one socket: what was last sent on it, and what waits for a replay.
    (Plain fields, not a (match, version) tuple per update: nothing the garbage collector tracks
    is allocated per watcher per update, so a busy fan-out does not feed it long-lived objects.)"""

    pending: list[Item] | None = None  # live updates held back while a `since` replay is read
    key: str | None = None  # the match (or tournament) last sent on this channel
    version: int | None = None  # ... and its version; None: nothing sent yet (updates wait for a snapshot)


class Conn:
    """One watcher socket: its subscriptions and its bounded outbox, drained by `run`.

    A front whose socket can take a message without awaiting overrides `write_now`; then a message
    is written at once whenever nothing is queued ahead of it, and queued (for `run`) otherwise.
    With `lazy` the sender task exists only while something is queued (an idle watcher costs no
    task)."""

    __slots__ = ("gateway", "_send", "_close", "subs", "queue", "forced", "wake", "send_started",
                 "closing", "overflows", "task", "sending", "client")
    lazy = False

    def __init__(self, gateway: Snapshots, send: Callable[[str], Awaitable[None]],
                 close: Callable[[int], Awaitable[None]]) -> None:
        self.gateway = gateway
        self._send = send
        self._close = close
        self.subs: dict[str, Sub] = {}
        # Created on first use: an idle watcher of the gateway never needs them (about 1.6 KB).
        self.queue: deque[Item] | None = None
        self.forced = 0
        self.wake: asyncio.Event | None = None
        self.send_started = 0.0
        self.closing: int | None = None
        self.overflows = 0
        self.task: asyncio.Task[None] | None = None
        self.sending = False
        # The counters of the client's address (hub/guards/peer.py address_keys; the front sets them):
        # the snapshot budget per address (budgets.AddressBudgets). Empty: not known.
        self.client: tuple[str, ...] = ()

    def push(self, item: Item) -> None:
        if self.closing is not None:
            return
        if item.kind == UPD:
            sub = self.subs.get(item.channel)
            if sub is None:
                return
            if sub.pending is not None and not item.forced:
                sub.pending.append(item)
                return
        if not self.queue and not self.sending and self.write_now(item):
            return
        if item.base is not None and self.queue and self._replace_waiting(item):
            return
        if not item.forced and self.queue is not None and len(self.queue) - self.forced >= QUEUE_LIMIT:
            self._overflow()
            return
        if item.forced:
            self.forced += 1
        if self.queue is None:
            self.queue = deque()
        self.queue.append(item)
        self._kick()

    def _replace_waiting(self, item: Item) -> bool:
        """A delta update while one of its channel waits: keep only the latest (True: done)."""
        queue = self.queue
        assert queue is not None
        for i in range(len(queue) - 1, -1, -1):
            waiting = queue[i]
            if waiting.channel == item.channel and not waiting.forced and waiting.kind in (UPD, SNAP):
                if waiting.kind == UPD:
                    queue[i] = item
                return True  # a waiting snapshot is read when sent: it covers this update too
        return False

    def write_now(self, item: Item) -> bool:
        """Hand `item` to the socket without awaiting; False to queue it for the sender instead."""
        return False

    def _kick(self) -> None:
        if self.wake is not None:
            self.wake.set()
        if self.lazy and (self.task is None or self.task.done()):
            self.start()

    def _overflow(self) -> None:
        """Too far behind: drop what is queued and send each channel's latest snapshot instead;
        if nothing was sent for STUCK_S, give up on the socket (4408)."""
        self.queue = deque()
        self.forced = 0
        self._kick()
        if self.sending and time.monotonic() - self.send_started > STUCK_S:
            self.gateway.metrics.slow_watcher("closed")
            self.closing = CLOSE_STUCK
            if self.task is not None and self.sending:
                self.task.cancel()  # its send is stuck on a peer that does not read
            return
        self.overflows += 1
        self.gateway.metrics.slow_watcher("snapshot")
        for ch, sub in self.subs.items():
            if sub.pending is None:
                self.queue.append(Item(SNAP, ch))

    def _resolve(self, item: Item) -> str | None:
        """The text to send for a queued item, or None to skip it (stale, or already covered)."""
        if item.kind == ERR:
            return item.text
        sub = self.subs.get(item.channel)
        if sub is None:
            return None
        if item.kind == SNAP:
            snap = self.gateway.snapshot(item.channel)
            if snap is None:
                return None
            sub.key, sub.version, text = snap
            return text
        if sub.version is None or sub.key != item.key or item.version <= sub.version:
            return None
        if item.base is not None and item.base != sub.version:  # missed one: the whole state instead
            snap = self.gateway.snapshot(item.channel)
            if snap is None:
                return None
            sub.key, sub.version, text = snap
            return text
        sub.version = item.version
        return item.text

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self.run())
        return self.task

    async def run(self) -> None:
        """The sender: one message at a time, in queue order."""
        try:
            while True:
                while not self.queue and self.closing is None:
                    if self.lazy:
                        self.task = None
                        return
                    if self.wake is None:
                        self.wake = asyncio.Event()
                    self.wake.clear()
                    await self.wake.wait()
                if self.closing is not None:
                    break
                item = self.queue.popleft()  # type: ignore[union-attr]  # not empty, so not None
                if item.forced:
                    self.forced -= 1
                text = self._resolve(item)
                if text is None:
                    continue
                self.sending, self.send_started = True, time.monotonic()
                await self._send(text)
                self.sending = False
        except asyncio.CancelledError:
            if self.closing is None:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        with contextlib.suppress(Exception, asyncio.TimeoutError):
            await asyncio.wait_for(self._close(self.closing), 2)

    def close_with(self, code: int) -> None:
        """Close the socket with `code` after the message being sent (nothing queued goes out)."""
        if self.closing is None:
            self.closing = code
            self._kick()

    def error(self, code: str, msg: str, channel: Any = None) -> None:
        self.push(Item(ERR, "", text=error_text(code, msg, channel), forced=True))

