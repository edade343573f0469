"""What one watch socket may cost the hub in a minute (PROTOCOL.md section 10).

- snapshots: at most SNAPSHOTS_PER_MINUTE answered to its subscribes per channel (a whole
  tournament projection is hundreds of kilobytes: a page that subscribes in a loop must not make
  the hub send it over and over); past that a subscribe answers `too_many_snapshots`;
- error answers: at most ERRORS_PER_MINUTE; the next bad frame closes the socket 1008 (policy
  violation) instead of answering it.

Both are sliding windows (the times of the last N, per socket), kept only for sockets that
subscribed or erred, and forgotten with the socket.

A fresh socket starts with a fresh budget, so snapshots are budgeted per client address too
(`AddressBudgets`), hub-wide in this process (every socket of either front): at most
HUB_SNAPSHOTS_PER_ADDRESS (default SNAPSHOTS_PER_ADDRESS) snapshots of a channel a minute from one
address, as a token bucket (a minute's worth at once, then that many a minute), past which a
subscribe answers `too_many_snapshots` as well. The address is the one the hub trusts for its rate
limits (hub/guards/peer.py: X-Forwarded-For only from HUB_TRUSTED_PROXIES; an IPv6 client counted on
its /64 and its /48). The default leaves room for a venue whose phones share one NAT address (a
hundred and twenty of them opening the same page in one minute, then two a second) while a script
opening sockets in a loop gets no more than that.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

SNAPSHOTS_PER_MINUTE = 20
SNAPSHOTS_PER_ADDRESS = 120  # per channel and minute (HUB_SNAPSHOTS_PER_ADDRESS)
ADDRESS_BUCKETS = 100_000  # (address, channel) buckets kept; beyond, the full ones are dropped
ERRORS_PER_MINUTE = 100
WINDOW_S = 60.0
CLOSE_POLICY = 1008


def _take(times: list[float], limit: int, now: float) -> bool:
    """Count one more at `now` if fewer than `limit` happened in the window (True), else False."""
    while times and now - times[0] >= WINDOW_S:
        del times[0]
    if len(times) >= limit:
        return False
    times.append(now)
    return True


class SocketBudgets:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._snapshots: dict[Any, dict[str, list[float]]] = {}
        self._errors: dict[Any, list[float]] = {}

    def snapshot(self, conn: Any, channel: str) -> bool:
        """One more snapshot of `channel` for `conn`: allowed (and counted), or not."""
        per_channel = self._snapshots.setdefault(conn, {})
        now = self.clock()
        if len(per_channel) > 2 * SNAPSHOTS_PER_MINUTE:  # channels left long ago count no more
            for name in [c for c, times in per_channel.items() if not times or now - times[-1] >= WINDOW_S]:
                del per_channel[name]
        return _take(per_channel.setdefault(channel, []), SNAPSHOTS_PER_MINUTE, now)

    def error(self, conn: Any) -> bool:
        """One more error answer for `conn`: allowed (and counted), or not (close it)."""
        return _take(self._errors.setdefault(conn, []), ERRORS_PER_MINUTE, self.clock())

    def refund(self, conn: Any, channel: str) -> None:
        """Give back the snapshot just counted (the subscribe was refused for another reason)."""
        times = self._snapshots.get(conn, {}).get(channel)
        if times:
            times.pop()

    def forget(self, conn: Any) -> None:
        self._snapshots.pop(conn, None)
        self._errors.pop(conn, None)


class AddressBudgets:
    """Snapshots of a channel per client address, every socket of this process together: a token
    bucket per (address key, channel) of `per_minute` tokens, refilled at `per_minute` a minute."""

    def __init__(self, per_minute: int = SNAPSHOTS_PER_ADDRESS, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # -> (tokens, at)

    def _tokens(self, bucket: tuple[str, str], now: float) -> float:
        tokens, at = self._buckets.get(bucket, (float(self.per_minute), now))
        return min(float(self.per_minute), tokens + (now - at) * self.per_minute / WINDOW_S)

    def snapshot(self, keys: tuple[str, ...], channel: str) -> bool:
        """One more snapshot of `channel` for a client counted on `keys` (its address, or its /64
        and /48): allowed (and counted on every key) if every key has one left, else not."""
        if not keys:
            return True  # a socket whose address is unknown (tests' fakes): the socket's budget alone
        now = self.clock()
        buckets = [(key, channel) for key in keys]
        tokens = [self._tokens(b, now) for b in buckets]
        if any(t < 1.0 for t in tokens):
            return False
        if len(self._buckets) >= ADDRESS_BUCKETS:
            self._prune(now)
        for bucket, t in zip(buckets, tokens, strict=True):
            self._buckets[bucket] = (t - 1.0, now)
        return True

    def _prune(self, now: float) -> None:
        """Drop the buckets that have filled up again (they hold nothing a new one would not)."""
        for bucket in [b for b in self._buckets if self._tokens(b, now) >= self.per_minute]:
            del self._buckets[bucket]
        if len(self._buckets) >= ADDRESS_BUCKETS:  # all busy (many addresses at once): start afresh
            self._buckets.clear()

    def __len__(self) -> int:
        return len(self._buckets)
