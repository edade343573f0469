"""What one watch socket may cost the hub in a minute (PROTOCOL.md section 10).

- snapshots: at most SNAPSHOTS_PER_MINUTE answered to its subscribes per channel (a whole
  tournament projection is hundreds of kilobytes: a page that subscribes in a loop must not make
  the hub send it over and over); past that a subscribe answers `too_many_snapshots`;
- error answers: at most ERRORS_PER_MINUTE; the next bad frame closes the socket 1008 (policy
  violation) instead of answering it.

Both are sliding windows (the times of the last N, per socket), kept only for sockets that
subscribed or erred, and forgotten with the socket.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

SNAPSHOTS_PER_MINUTE = 20
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

    def forget(self, conn: Any) -> None:
        self._snapshots.pop(conn, None)
        self._errors.pop(conn, None)
