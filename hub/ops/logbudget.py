"""Log lines bounded per client: one socket or address cannot fill the disk.

`LogBudget.allow(key)` lets `lines` lines per key through every `window_s`; the lines over it are
not written but counted, and the next line let through says how many were dropped
(`suppressed=N`). Keys are forgotten when their window ends and the map is capped (MAX_KEYS), so
the budget itself is bounded too. Messages are cut to `clip()` (MAX_CHARS) so a line stays a line.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any

MAX_KEYS = 10_000
MAX_CHARS = 300


def clip(value: Any, limit: int = MAX_CHARS) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def suppressed(dropped: int) -> str:
    """The tail of a line let through after dropped ones: " (suppressed=N)", or "" when none were."""
    return f" (suppressed={dropped})" if dropped else ""


class LogBudget:
    def __init__(self, lines: int = 5, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.lines, self.window_s, self._clock = lines, window_s, clock
        self._seen: dict[Hashable, list[float | int]] = {}  # key -> [window start, lines, suppressed]

    def allow(self, key: Hashable) -> int | None:
        """None: do not log; else log, saying this many lines were suppressed before it."""
        now = self._clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= self.window_s:
            dropped = int(entry[2]) if entry is not None else 0
            if entry is None and len(self._seen) >= MAX_KEYS:
                self._sweep(now)
            self._seen[key] = [now, 1, 0]
            return dropped
        if entry[1] < self.lines:
            entry[1] += 1
            dropped, entry[2] = int(entry[2]), 0
            return dropped
        entry[2] += 1
        return None

    def forget(self, key: Hashable) -> None:
        self._seen.pop(key, None)

    def _sweep(self, now: float) -> None:
        for key in [k for k, e in self._seen.items() if now - e[0] >= self.window_s]:
            del self._seen[key]
        while len(self._seen) >= MAX_KEYS:  # all in their window: forget the oldest
            del self._seen[next(iter(self._seen))]
