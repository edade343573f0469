"""The watch gateway's outbox (server.py): sockets with frames waiting, written in rounds.

An update is framed once per change and handed to each watcher's `server.SocketConn`; the outbox
writes each socket's waiting frames in one `transport.write` (one syscall whatever their number),
ROUND_CHUNK sockets per turn of the event loop. While the event loop keeps up, every update is
written as soon as it is handed out; only when the loop is behind (lag.py) is a round held back so
that more updates share its writes. See `Outbox`; bench/README.md has the figures.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING

from hub.ops.metrics import Metrics
from hub.watch.lag import LoopLag

if TYPE_CHECKING:
    from hub.watch.server import SocketConn

# The outbox (see Outbox): sockets written per turn of the event loop; and when the loop is behind
# (lag.py), how long a round waits for more updates to join it (HOLD_FACTOR x the last round's
# duration, at most MAX_HOLD_S; when the last round itself took longer than MAX_HOLD_S, at most as
# long as it took, never more than BUSY_HOLD_S: an update never waits longer than that before its
# round starts).
ROUND_CHUNK = 64
# Nothing held (no round going or waiting): the first update of a turn of the loop is written
# through to at most this many sockets as it is handed out, as `broadcast()` does (no second pass a
# turn later); the sockets beyond, and the other updates of that turn, go to the outbox.
THROUGH_SOCKETS = 1024
HOLD_FACTOR = 2.0
MAX_HOLD_S = 0.025
BUSY_HOLD_S = 0.1



class Outbox:
    """Sockets with frames waiting, written ROUND_CHUNK per turn of the loop, one write each.

    A round writes every socket that has frames waiting, one `transport.write` (one syscall) per
    socket whatever the number of frames. Between two chunks the loop runs whatever else is ready
    (the table's next command, its database round trips), so a fan-out to thousands of watchers
    never holds the hub for long, and an update that comes mid-round joins the frames of the
    sockets not written yet.

    While the event loop keeps up (`lag.LoopLag`: it has not run 90 % of the last second or so),
    nothing is held:
    an update is written through, each socket as the update is handed to it (`_write_through`: the
    first update of a turn of the loop, to at most THROUGH_SOCKETS sockets, as `broadcast()` does;
    no second pass a turn later), and whatever goes to the outbox is written from the next turn on.
    Later updates of the same turn go to the outbox, so a burst still shares a write.

    Only when the loop is behind (its thread running 90 % of the time over about lag.TAU_S: not a
    burst, a backlog) is a round held back, so that more updates share its writes: each write costs
    the kernel about as much for one frame as for several (on loopback the sender's CPU also pays
    for the receiver's TCP work), and the loop that holds a round is free meanwhile for the command
    path that makes the updates.
    How long (`hold`): a round that starts within HOLD_FACTOR x (the last round's cost) of its end
    waits until then, never more than MAX_HOLD_S; a round that cost more than MAX_HOLD_S (thousands
    of watchers) is followed by a wait as long as it cost, at most BUSY_HOLD_S. A round's cost is the
    CPU time its chunks took (`time.thread_time`), not its wall time, which on a busy box includes
    the time the process was preempted (bench/README.md has the figures)."""

    __slots__ = ("conns", "scheduled", "cost", "last_end", "last_took", "metrics", "through", "through_frame",
                 "through_cpu", "lag")

    def __init__(self, metrics: Metrics) -> None:
        self.conns: deque[SocketConn] = deque()
        self.scheduled = False
        self.cost = 0.0  # CPU seconds the current round's chunks took so far
        self.last_end = 0.0  # loop.time() when the last round ended, and the CPU seconds it took
        self.last_took = 0.0
        self.metrics = metrics
        self.through = 0  # sockets written through in this turn of the loop
        self.through_frame: bytes | None = None  # ... with this frame
        self.through_cpu = 0.0
        self.lag = LoopLag()

    def add(self, conn: SocketConn, frame: bytes) -> None:
        out = conn.out
        if out is None and not self.scheduled and self._write_through(frame):
            if conn.write(frame):
                self.through += 1
            return
        if out is None:
            conn.out = frame  # one frame as is: a list only when a second joins it
            self.conns.append(conn)
            if not self.scheduled:
                self.scheduled = True
                loop = asyncio.get_running_loop()
                hold = self.wait(loop.time())
                if hold > 0:
                    self.metrics.watch_held_rounds.inc()
                    loop.call_later(hold, self.flush)
                else:
                    loop.call_soon(self.flush)
        elif isinstance(out, list):
            out.append(frame)
        else:
            conn.out = [out, frame]
        conn.out_bytes += len(frame)

    def _write_through(self, frame: bytes) -> bool:
        """Whether `frame` goes straight to its socket: nothing is held, and it is the first update
        of this turn of the loop (later ones wait for the outbox: a burst shares a write)."""
        current = self.through_frame
        if current is None:
            loop = asyncio.get_running_loop()
            if self.wait(loop.time()) > 0:
                return False
            self.through_frame, self.through, self.through_cpu = frame, 0, time.thread_time()
            loop.call_soon(self._through_done)
            return THROUGH_SOCKETS > 0
        return current is frame and self.through < THROUGH_SOCKETS

    def _through_done(self) -> None:
        """The end of a turn that wrote through: it counts as a round (its cost, for the next hold)."""
        self.metrics.watch_writes.inc(self.through)
        self.metrics.watch_frames.inc(self.through)
        self.last_took, self.last_end = time.thread_time() - self.through_cpu, asyncio.get_running_loop().time()
        self.through_frame, self.through = None, 0

    def wait(self, now: float) -> float:
        """How long a round starting at `now` waits (<= 0: none): `hold` if the loop is behind,
        else nothing."""
        return self.hold(now) if self.lag.behind() else 0.0

    def hold(self, now: float) -> float:
        """How long a round starting at `now` waits for more updates when the loop is behind (<= 0: none)."""
        took = self.last_took
        cap = MAX_HOLD_S if took <= MAX_HOLD_S else min(took, BUSY_HOLD_S)
        return min(cap, HOLD_FACTOR * took) - (now - self.last_end)

    def flush(self) -> None:
        loop = asyncio.get_running_loop()
        cpu0 = time.thread_time()
        conns = self.conns
        writes = frames = 0
        for _ in range(min(ROUND_CHUNK, len(conns))):
            n = conns.popleft().flush()
            if n:
                writes += 1
                frames += n
        self.metrics.watch_writes.inc(writes)
        self.metrics.watch_frames.inc(frames)
        self.cost += time.thread_time() - cpu0
        if conns:
            loop.call_soon(self.flush)
        else:
            self.scheduled = False
            self.last_end = loop.time()
            self.last_took, self.cost = self.cost, 0.0
