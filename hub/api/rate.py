"""The command rate per table (HUB_TABLE_RATE / HUB_TABLE_BURST), one budget per table and process.

A token bucket per table: `burst` commands at once, then `rate` per second. The table socket
(hub/api/table_socket.py) and `POST /api/matches/{mid}/commands` spend from the same bucket, so a
table cannot get twice the budget by sending over HTTP while its tablet is connected, nor more
by opening several sockets. Over it a socket frame is answered `rate_limited` (not run, not
remembered) and an HTTP command 429 `rate_limited` with Retry-After, before its body is read.

The buckets live in the process (like Redis' or nginx's limit_req zones per instance): with k hub
processes behind a balancer a table gets at most k budgets, still a bound. The map is bounded:
full buckets (tables quiet for burst/rate seconds) are dropped when it grows past MAX_TABLES.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from hub.services import services_of
from hub.store import catalog

MAX_TABLES = 10_000


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


def rate_of(app: Any) -> TableRate:
    """The app's per-table budget, made on first use from its settings."""
    state = services_of(app)
    rate = state.table_rate
    settings = state.settings
    if rate is None or (rate.rate, rate.burst) != (settings.table_rate_per_s, float(settings.table_rate_burst)):
        rate = TableRate(settings.table_rate_per_s, settings.table_rate_burst)
        state.table_rate = rate
    return rate


class TokenCache:
    """Which table a bearer token opens, kept TOKEN_TTL_S, one lookup in flight per token.

    So a burst of HTTP commands costs one indexed read of `tables`, not one per request, and the
    budget above is spent as the requests arrive (not as the pool frees connections). Safe for
    writes: the writer checks the token hash again in the transaction that stores anything
    (`submit(token=...)`), so a token rotated by another process is refused at once (403) even while
    cached here; a rotation in this process empties the cache.
    """

    def __init__(self, ttl_s: float = 2.0, max_entries: int = 4096, clock: Callable[[], float] = time.monotonic) -> None:
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
