"""How far behind the event loop is: what decides whether the outbox (outbox.py) may hold a round.

A loop that keeps up has idle moments: between two updates it finishes their work (the command
that made the update, the fan-out's writes) and waits for the next. A loop that cannot keep up
never does: work is always waiting for it. `LoopLag.behind` says which, from the share of wall
time the loop's thread was running (its CPU time), averaged over about TAU_S (an exponential
average of windows of at least SAMPLE_S, each weighing by its length): the loop is behind while
that share is at least BUSY_SHARE.

Why about a second, not a tenth: a burst is not a backlog. The fan-out bench's 50 updates/s to
1,000 watchers keep the hub's loop running about 0.7 of the time, but its updates come in bursts
(the driver catching up), and during a burst the loop runs 0.93-0.96 of each 15-25 ms window for
0.3-0.5 s (instrumented, 2026-12-06). The rule before (no window under 0.9 for 0.1 s) and a 0.3 s
average both called those bursts "behind" and held 3-8 rounds of the 500; a held round delays all
1,000 of its deliveries, so 5 of them are the p99 (1.31-1.35x the floor's, against 0.68x with
a 1 s average, which held none). Writing a burst through costs its updates a short queue; holding
costs each held one a whole hold. Saturated (400 updates/s), the loop runs 0.94-0.97 of the time
for as long as the load lasts, the average passes 0.9 within 1.5-3 s, and from then on the
held rounds carry 3.9 updates per write (2.35x the floor's deliveries at 5,000 watchers).

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

import math
import time
from collections.abc import Callable

SAMPLE_S = 0.01  # shortest window judged (shorter ones are too coarse for the clocks)
BUSY_SHARE = 0.9  # behind while the loop's thread runs this share of the time, on average...
TAU_S = 1.0  # ...averaged over about this long (an exponential average: see above why a second)


class LoopLag:
    """Whether the loop whose thread calls `behind` is behind (see the module docstring).
    `clock` (wall seconds) and `busy` (the thread's busy seconds so far: its CPU time) are for tests."""

    __slots__ = ("clock", "busy", "start", "start_busy", "share")

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 busy: Callable[[], float] = time.thread_time) -> None:
        self.clock = clock
        self.busy = busy
        self.start = 0.0  # the window being measured: its start (wall), and the busy seconds then
        self.start_busy: float | None = None  # None: not started (the first call, on the loop's thread)
        self.share = 0.0  # the share of the time the loop's thread ran, averaged over about TAU_S

    def behind(self) -> bool:
        """Judge the window since the last one (if it is long enough); whether the loop is behind."""
        now = self.clock()
        if self.start_busy is None:
            self.start, self.start_busy = now, self.busy()
            return False
        span = now - self.start
        if span >= SAMPLE_S:
            busy = self.busy()
            window = min(1.0, (busy - self.start_busy) / span)
            # A window weighs by its length: one as long as TAU_S counts 63 %, a long idle spell all.
            self.share += (1.0 - math.exp(-span / TAU_S)) * (window - self.share)
            self.start, self.start_busy = now, busy
        return self.share >= BUSY_SHARE
