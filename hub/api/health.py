"""Probes, as orchestrators and load balancers expect them.

- `GET /healthz`, liveness: the process is up and its event loop answers. It never touches the
  database: a database blip must not make an orchestrator restart every hub at once.
- `GET /readyz`, readiness: this process can take traffic now. `store`: the database answers a
  read and takes a write (below); `bus`: the fan-out bus's live subscription is healthy (the bus's
  own `health()` when it has one: None means healthy, else the reason, e.g. "bus subscription
  silent for 3.4s" when its heartbeat went unanswered; the Redis bus has one, so this is never a
  fresh connection's view; otherwise a Redis PING for redis:// URLs; memory:// lives in this
  process). 503 with the failing check otherwise, so a
  load balancer takes the process out of rotation until it recovers.

The write probe is a real, tiny committed write: one UPDATE (an INSERT the first time) of the
`meta` row `readyz_probe` with the time. A rolled-back write would not see a full disk or a
SQLite file that can no longer be written, and those are exactly what turns every command into a
503. It costs one small commit per probe (measured: see docs/operations.md, "Production"), which at the
usual one probe every few seconds per process is nothing beside the commands.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from hub.api import deps, models
from hub.store.schema import meta

log = logging.getLogger(__name__)

router = APIRouter(tags=["operations"])

READY_TIMEOUT_S = 2.0
PROBE_KEY = "readyz_probe"

# A check still running after its deadline, per app and check: the next probe waits on it instead
# of starting another (a write stuck behind a lock is not cancelled by a timeout: SQLite's driver
# thread finishes its wait first, and asyncio.wait_for would wait for that too).
_running: weakref.WeakKeyDictionary[Any, dict[str, asyncio.Task[None]]] = weakref.WeakKeyDictionary()


async def _within(request: Request, name: str, check: Any, timeout: float) -> None:
    """Run `check(request)`, answering TimeoutError at the deadline even when the check cannot be
    interrupted (then it is left to finish in the background, and later probes share it)."""
    running = _running.setdefault(request.app, {})
    task = running.get(name)
    if task is None or task.done():
        task = running[name] = asyncio.ensure_future(check(request))
        # Retrieved here so a check that fails after its probe gave up is not an unretrieved error.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if not done:
        raise TimeoutError(f"no answer within {timeout:g} s")
    task.result()


class NotReady(Exception):
    """A check's own reason (our text, safe to show on the public endpoint)."""


@router.get("/healthz", response_model=None, responses=models.ok(models.Health, "The process is alive."))
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


async def check_store(request: Request) -> None:
    """A read and a committed write; raises when either fails."""
    engine = deps.engine(request)
    async with engine.connect() as conn:
        await conn.execute(sa.text("SELECT 1"))
    stamp = str(time.time_ns() // 1_000_000)
    try:
        async with engine.begin() as conn:
            done = await conn.execute(meta.update().where(meta.c.key == PROBE_KEY).values(value=stamp))
            if done.rowcount == 0:
                await conn.execute(meta.insert().values(key=PROBE_KEY, value=stamp))
    except IntegrityError:
        pass  # another process inserted the row at the same moment: its write went through


def _bus_of(request: Request) -> Any:
    watch = deps.services(request).watch
    return None if watch is None else watch.bus


async def check_bus(request: Request) -> None:
    """Raises (with the reason) when the bus is not healthy."""
    bus = _bus_of(request)
    health = getattr(bus, "health", None)
    if callable(health):
        reason = health()
        if asyncio.iscoroutine(reason):
            reason = await reason
        if reason is not None:
            raise NotReady(str(reason)[:200])
        return
    url: str = deps.settings(request).bus_url
    if url.startswith(("redis://", "rediss://", "unix://")):
        import redis.asyncio as aioredis

        from hub.bus.redis_bus import split_url

        url = split_url(url)[0]  # redis-py knows no `channel` parameter (with it, /readyz was always 503)
        client = aioredis.from_url(url, socket_connect_timeout=READY_TIMEOUT_S, socket_timeout=READY_TIMEOUT_S)
        try:
            await client.ping()
        finally:
            await client.aclose()


@router.get("/readyz", response_model=None, responses={
    **models.ok(models.Readiness, "Ready: the store and the bus both answer."),
    503: {"model": models.Readiness, "description": "Not ready: `checks` says which part failed."},
})
async def readyz(request: Request) -> JSONResponse:
    """Ready to take traffic: the store (a read and a write) and the bus both answer."""
    checks: dict[str, str] = {}
    for name, check in (("store", check_store), ("bus", check_bus)):
        try:
            await _within(request, name, check, READY_TIMEOUT_S)
            checks[name] = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
            # The public answer names the kind of failure; the details (hosts, errors) go to the log.
            checks[name] = f"unreachable: {exc}" if isinstance(exc, NotReady) else f"unreachable: {type(exc).__name__}"
            log.warning("readiness check %s failed: %r", name, exc)
    ok = all(v == "ok" for v in checks.values())
    return JSONResponse({"status": "ready" if ok else "unavailable", "checks": checks}, status_code=200 if ok else 503)
