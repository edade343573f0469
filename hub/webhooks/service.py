"""Delivering webhooks apart from the command path (see hub/webhooks/__init__.py).

- `emit` puts the event in a bounded inbox and returns: a command's ack never waits for a receiver.
  A full inbox (the store away for long) drops the event and counts it (`dropped`).
- The storer takes events from the inbox, stores one delivery per hook that wants it (a hook with
  MAX_PENDING deliveries waiting gets new ones as `dropped`: its queue is bounded), and wakes the
  hook's worker.
- One worker per hook: it holds the hook's lease (one process at a time delivers a hook, so its
  order holds across processes), sends its oldest pending delivery, and only then the next. A JSON
  POST with X-Cuehub-Event, X-Cuehub-Delivery (the same id on every retry) and X-Cuehub-Signature
  (`sha256=` + hex HMAC-SHA256 of the body with the hook's secret); a 2xx within TIMEOUT_S is success.
  Anything else (an error, a timeout, a redirect: none is followed) is retried after a backoff that
  doubles from `backoff_s` up to MAX_BACKOFF_S, until RETRY_FOR_MS after the event (at least an hour),
  then it is `failed` and the next goes. At most MAX_SENDING requests are in flight hub-wide.
- Everything is in the store: a restarted hub finds the pending deliveries and goes on (a hub that
  stops lets go of its leases; one that crashed holds them LEASE_MS more).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.ops.logbudget import LogBudget
from hub.store import webhooks as store
from hub.store.db import now_ms
from hub.store.outage import log_failure

log = logging.getLogger(__name__)
_LOG_BUDGET = LogBudget(lines=3, window_s=60.0)  # scan failures (the store away, or a bug)

INBOX = 10_000
MAX_PENDING = 10_000
TIMEOUT_S = 5.0
BACKOFF_S = 2.0
MAX_BACKOFF_S = 300.0
RETRY_FOR_MS = 3_900_000  # an hour and five minutes of retries
LEASE_MS = 30_000
MAX_SENDING = 16
SCAN_S = 5.0
HOOKS_TTL_S = 5.0  # a hook added or removed through another hub process counts here within this


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Webhooks:
    def __init__(self, engine: AsyncEngine, *, now: Callable[[], int] = now_ms, holder: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._engine = engine
        self._now = now
        self.holder = holder or uuid.uuid4().hex
        self.backoff_s = BACKOFF_S  # tests shorten it
        self.retry_for_ms = RETRY_FOR_MS
        self._inbox: asyncio.Queue[tuple[str, dict[str, Any], int]] = asyncio.Queue(INBOX)
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._sending = asyncio.Semaphore(MAX_SENDING)
        self._client = httpx.AsyncClient(timeout=TIMEOUT_S, follow_redirects=False, transport=transport,
                                         headers={"User-Agent": "cuehub-webhooks"})
        self._hooks: list[Any] | None = None  # cached rows; None: read again
        self._hooks_at = 0.0  # monotonic time they were read (another process may add or remove one)
        self.dropped = 0

    # --- life -------------------------------------------------------------------------------

    async def start(self) -> None:
        # Before the hub serves: the hooks, and the deliveries a previous run left waiting.
        self._hooks = await store.every(self._engine)
        self._hooks_at = time.monotonic()
        if self._hooks:
            for hook_id in await store.with_pending(self._engine):
                self._poke(hook_id)
        self._tasks = [asyncio.create_task(self._store_loop(), name="webhooks-store"),
                       asyncio.create_task(self._scan_loop(), name="webhooks-scan")]

    async def stop(self) -> None:
        tasks = [*self._tasks, *self._workers.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._workers.clear()
        await self._client.aclose()
        with contextlib.suppress(Exception):  # the next start (or another process) takes them at once
            await store.release(self._engine, None, self.holder)

    def changed(self) -> None:
        """A hook was added or removed: read them again before the next event."""
        self._hooks = None

    # --- in ---------------------------------------------------------------------------------

    def emit(self, event: str, data: dict[str, Any]) -> None:
        try:
            self._inbox.put_nowait((event, data, self._now()))
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("webhooks: inbox full, %s dropped (%d so far)", event, self.dropped)

    async def _store_loop(self) -> None:
        while True:
            batch = [await self._inbox.get()]
            while not self._inbox.empty() and len(batch) < 200:
                batch.append(self._inbox.get_nowait())
            for _ in range(50):  # the store away: try again for a while, then let the batch go
                try:
                    await self._store(batch)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("webhooks: storing %d events failed", len(batch))
                    await asyncio.sleep(1.0)

    async def _store(self, batch: list[tuple[str, dict[str, Any], int]]) -> None:
        if self._hooks is None or time.monotonic() - self._hooks_at > HOOKS_TTL_S:
            self._hooks = await store.every(self._engine)
            self._hooks_at = time.monotonic()
        rows = []
        for event, data, at in batch:
            for hook in self._hooks:
                if event in hook.events:
                    delivery = "d" + secrets.token_hex(12)
                    body = json.dumps({"id": delivery, "event": event, "at": at, "data": data},
                                      separators=(",", ":"), ensure_ascii=False)
                    rows.append({"id": delivery, "hook_id": hook.id, "event": event, "body": body})
        if rows:
            for hook_id in await store.enqueue(self._engine, rows, self._now(), MAX_PENDING):
                self._poke(hook_id)

    # --- out --------------------------------------------------------------------------------

    async def _scan_loop(self) -> None:
        """Hooks with deliveries waiting that no worker here serves (after a restart; after another
        process let go of one): a worker each. Only while there are hooks (as last read: at start,
        after a change here, and at most HOOKS_TTL_S old whenever an event is stored)."""
        while True:
            await asyncio.sleep(SCAN_S)
            try:
                if self._hooks is None:
                    self._hooks = await store.every(self._engine)
                    self._hooks_at = time.monotonic()
                if self._hooks:  # a hub with no webhooks asks the store nothing more
                    for hook_id in await store.with_pending(self._engine):
                        self._poke(hook_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store away for a moment: the next scan tries again
                log_failure(log, _LOG_BUDGET, "webhooks: scan failed", exc)

    def _poke(self, hook_id: str) -> None:
        self._wake.setdefault(hook_id, asyncio.Event()).set()
        task = self._workers.get(hook_id)
        if task is None or task.done():
            self._workers[hook_id] = asyncio.create_task(self._worker(hook_id), name=f"webhook-{hook_id}")

    async def _worker(self, hook_id: str) -> None:
        wake = self._wake.setdefault(hook_id, asyncio.Event())
        try:
            while True:
                wake.clear()
                now = self._now()
                if not await store.claim(self._engine, hook_id, self.holder, now, LEASE_MS):
                    return  # another process delivers this hook; the scan looks again later
                hook = await store.get(self._engine, hook_id)
                row = await store.head(self._engine, hook_id)
                if hook is None or row is None:
                    await store.release(self._engine, hook_id, self.holder)
                    return
                if row.next_at > now:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(wake.wait(), min((row.next_at - now) / 1000, LEASE_MS / 3000))
                    continue
                async with self._sending:
                    await self._attempt(hook, row)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("webhooks: worker of %s failed", hook_id)
        finally:
            self._workers.pop(hook_id, None)

    async def _attempt(self, hook: Any, row: Any) -> None:
        body = row.body.encode()
        headers = {"Content-Type": "application/json", "X-Cuehub-Event": row.event,
                   "X-Cuehub-Delivery": row.id, "X-Cuehub-Signature": sign(hook.secret, body)}
        started = time.monotonic()
        code: int | None = None
        error: str | None = None
        try:
            answer = await self._client.post(hook.url, content=body, headers=headers)
            code = answer.status_code
            if not 200 <= code < 300:
                error = f"HTTP {code}"
        except httpx.HTTPError as exc:
            error = (type(exc).__name__ + (f": {exc}" if str(exc) else ""))[:200]
        latency = round((time.monotonic() - started) * 1000)
        attempts = row.attempts + 1
        now = self._now()
        if error is None:
            await store.settle(self._engine, row.id, status=store.DELIVERED, attempts=attempts, last_code=code,
                               last_error=None, latency_ms=latency, done_at=now)
            return
        if now - row.created_at >= self.retry_for_ms:
            await store.settle(self._engine, row.id, status=store.FAILED, attempts=attempts, last_code=code,
                               last_error=error, latency_ms=latency, done_at=now)
            return
        delay = min(self.backoff_s * 2 ** (attempts - 1), MAX_BACKOFF_S)
        await store.settle(self._engine, row.id, attempts=attempts, last_code=code, last_error=error,
                           latency_ms=latency, next_at=now + round(delay * 1000))
