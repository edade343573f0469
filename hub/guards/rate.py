"""The command rate per table (HUB_TABLE_RATE / HUB_TABLE_BURST): one budget per table, whatever
the number of hub processes.

A token bucket per table: `burst` commands at once, then `rate` per second. The table socket
(hub/api/table_socket.py) and `POST /api/matches/{mid}/commands` spend from the same bucket, so a
table cannot get twice the budget by sending over HTTP while its tablet is connected, nor more
by opening several sockets. Over it a socket frame is answered `rate_limited` (not run, not
remembered) and an HTTP command 429 `rate_limited` with Retry-After, before its body is read.

Where the processes already meet, in Redis (HUB_BUS_URL redis://...), the bucket lives there
(`RedisTableRate`: one Lua script reads, refills and spends it atomically, on Redis' clock), so a
table gets the same budget with one process or ten; its key is the bus channel's name plus
`:rate:<table id>`, so deployments sharing a Redis do not share budgets. With the memory bus (one
process) the bucket is in the process (`TableRate`). If Redis does not answer within
REDIS_TIMEOUT_S, the process falls back to its own bucket for FALLBACK_S (logged once per
outage): with k processes a table then gets at most k budgets, still a bound, and commands are not
held up by the rate check. The in-process map is bounded: full buckets (tables quiet for
burst/rate seconds) are dropped when it grows past MAX_TABLES.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from hub.services import Services, services_of
from hub.store import catalog

log = logging.getLogger(__name__)

MAX_TABLES = 10_000
REDIS_TIMEOUT_S = 0.5
FALLBACK_S = 1.0

# KEYS[1]: the table's bucket; ARGV: rate per second, burst. Returns the seconds to wait ("0": spent).
TAKE_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens < 1 then wait = (1 - tokens) / rate else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""


class TableRate:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self._clock = float(rate), float(burst), clock
        self._buckets: dict[str, tuple[float, float]] = {}  # table id -> (tokens, when)

    def take(self, table_id: str) -> float:
        """Spend one command of the table's budget: 0.0 if it was there, else the seconds until it is
        (nothing is spent then)."""
        now = self._clock()
        tokens, last = self._buckets.get(table_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[table_id] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[table_id] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_TABLES:
            self._prune(now)
        return 0.0

    def _prune(self, now: float) -> None:
        full = [t for t, (tokens, last) in self._buckets.items()
                if tokens + (now - last) * self.rate >= self.burst]
        for t in full:
            del self._buckets[t]


class RedisTableRate:
    """The same buckets in Redis, shared by every process of the deployment; `local` stands in
    while Redis does not answer."""

    def __init__(self, url: str, deployment: str | None, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import redis.asyncio as aioredis

        from hub.bus.redis_bus import split_url

        clean, channel = split_url(url, deployment)
        self.rate, self.burst, self._clock = float(rate), float(burst), clock
        self.prefix = f"{channel}:rate:"
        self.local = TableRate(rate, burst, clock)
        self._redis = aioredis.Redis.from_url(clean, socket_timeout=REDIS_TIMEOUT_S,
                                              socket_connect_timeout=REDIS_TIMEOUT_S)
        self._take = self._redis.register_script(TAKE_SCRIPT)
        self._down_until = 0.0

    async def take(self, table_id: str) -> float:
        if self._clock() < self._down_until:
            return self.local.take(table_id)
        try:
            wait = float(await self._take(keys=[self.prefix + table_id], args=[self.rate, self.burst]))
        except Exception as exc:  # Redis away or slow: this process's own bucket meanwhile
            if not self._down_until:
                log.warning("command budget: Redis did not answer (%s); each process keeps its own budget "
                            "until it does", type(exc).__name__)
            self._down_until = self._clock() + FALLBACK_S
            return self.local.take(table_id)
        if self._down_until:
            log.warning("command budget: back in Redis, one budget per table for all processes")
            self._down_until = 0.0
        return wait

    async def close(self) -> None:
        await self._redis.aclose()


class LocalTableRate:
    """The in-process bucket behind the same awaitable `take` (the memory bus: one process)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = float(rate), float(burst)
        self.local = TableRate(rate, burst)

    async def take(self, table_id: str) -> float:
        return self.local.take(table_id)

    async def close(self) -> None:
        return None


def rate_of(app: Any) -> RedisTableRate | LocalTableRate:
    """The app's per-table budget, made on first use from its settings (HUB_BUS_URL decides where)."""
    state = services_of(app)
    rate = state.table_rate
    settings = state.settings
    if rate is None or (rate.rate, rate.burst) != (settings.table_rate_per_s, float(settings.table_rate_burst)):
        if settings.bus_url.split(":", 1)[0].lower() in ("redis", "rediss", "unix"):
            rate = RedisTableRate(settings.bus_url, settings.deployment, settings.table_rate_per_s,
                                  settings.table_rate_burst)
        else:
            rate = LocalTableRate(settings.table_rate_per_s, settings.table_rate_burst)
        state.table_rate = rate
    return rate


async def close_rate(services: Services) -> None:
    """At the end of a lifespan, its budget: the Redis connections go with the event loop they use."""
    rate, services.table_rate = services.table_rate, None
    if rate is not None:
        await rate.close()


class TokenCache:
    """Which table a bearer token opens, kept TOKEN_TTL_S, one lookup in flight per token.

    So a burst of HTTP commands costs one indexed read of `tables`, not one per request, and the
    budget above is spent as the requests arrive (not as the pool frees connections). Safe for
    writes: the writer checks the token hash again in the transaction that stores anything
    (`submit(token=...)`), so a token rotated by another process is refused at once (403) even while
    cached here; a rotation in this process empties the cache.
    """

    def __init__(
        self, ttl_s: float = 2.0, max_entries: int = 4096, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s, self.max_entries, self._clock = ttl_s, max_entries, clock
        self._seen: dict[str, tuple[float, asyncio.Future[Any]]] = {}

    async def table(self, engine: Any, token: str) -> Any:
        key = catalog.token_hash(token)
        now = self._clock()
        hit = self._seen.get(key)
        if hit is None or now - hit[0] >= self.ttl_s:
            hit = (now, asyncio.ensure_future(catalog.table_by_token(engine, token)))
            self._seen[key] = hit
            while len(self._seen) > self.max_entries:
                del self._seen[next(iter(self._seen))]
        try:
            return await asyncio.shield(hit[1])
        except Exception:
            if self._seen.get(key) is hit:  # a failed read (the store is down) is not kept
                del self._seen[key]
            raise

    def clear(self) -> None:
        self._seen.clear()


def token_cache_of(app: Any) -> TokenCache:
    state = services_of(app)
    cache = state.token_cache
    if cache is None:
        cache = state.token_cache = TokenCache()
    return cache
