"""How far behind the event loop is: what decides whether the outbox (outbox.py) may hold a round.

A loop that keeps up has idle moments: between two updates it finishes their work (the command
that made the update, the fan-out's writes) and waits for the next. A loop that cannot keep up
never does: work is always waiting for it. `LoopLag.behind` says which, from the share of wall
time the loop's thread was running (its CPU time) over windows of at least SAMPLE_S:

- a window busy less than BUSY_SHARE of its time had idle time: the loop caught up, lag 0;
- a window busy more is added to the lag (how long the loop has gone without catching up);
- the loop is behind while that lag is at least LAG_S.

Time the thread spent waiting for a core does not count: on a box shared with other work a hub
at 20 updates a second waits for a core most of the time, and counted so it held rounds at 20 and
50 updates/s (7 and 21 in 10 s at load 4.3, its p99 2.7x and 1.8x the floor's; bench/README.md),
where writing each update through is what it needs.

Why not a timer's lateness (the usual "loop lag" monitor): the fan-out keeps the loop's turns short
(ROUND_CHUNK sockets a turn), so a saturated loop runs a timer within a turn of its due time, as
an idle one does, while a lone update written through to a thousand sockets in one turn delays it
by the whole write. Measured in `cuehub serve` (1,000 watchers, a 5 ms timer): at 50 updates/s
written through, timer lateness p50 0.1 ms, p90 8-10 ms, with the loop's thread busy 0.5 of the
time; saturated at 5,000 watchers, lateness p50 0.5 ms, p90 10 ms, busy 0.97. The busy share tells
them apart; the lateness does not.
"""

from __future__ import annotations

import time
from collections.abc import Callable

SAMPLE_S = 0.01  # shortest window judged (shorter ones are too coarse for the clocks)
BUSY_SHARE = 0.9  # busier than this a whole window: no idle moment in it, the loop did not catch up
LAG_S = 0.1  # behind once it has gone this long without catching up


class LoopLag:
    """Whether the loop whose thread calls `behind` is behind (see the module docstring).
    `clock` (wall seconds) and `busy` (the thread's busy seconds so far: its CPU time) are for tests."""

    __slots__ = ("clock", "busy", "start", "start_busy", "lag")

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 busy: Callable[[], float] = time.thread_time) -> None:
        self.clock = clock
        self.busy = busy
        self.start = 0.0  # the window being measured: its start (wall), and the busy seconds then
        self.start_busy: float | None = None  # None: not started (the first call, on the loop's thread)
        self.lag = 0.0  # seconds the loop has gone without catching up, as of the last window judged

    def behind(self) -> bool:
        """Judge the window since the last one (if it is long enough); whether the loop is behind."""
        now = self.clock()
        if self.start_busy is None:
            self.start, self.start_busy = now, self.busy()
            return False
        span = now - self.start
        if span >= SAMPLE_S:
            busy = self.busy()
            if busy - self.start_busy >= BUSY_SHARE * span:
                self.lag += span
            else:
                self.lag = 0.0
            self.start, self.start_busy = now, busy
        return self.lag >= LAG_S
