"""The fan-out's batching decision: `lag.LoopLag` says whether the event loop is behind, and the
outbox holds a round only then. A loop that keeps up (idle moments between updates) never holds,
however long its rounds, nor does one through a burst of half a second; one that falls behind
(running BUSY_SHARE of the time, averaged over about TAU_S) does, and stops once it catches up."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from hub.ops.metrics import Metrics
from hub.watch import lag as lag_mod
from hub.watch import outbox as outbox_mod
from hub.watch.lag import BUSY_SHARE, SAMPLE_S, TAU_S, LoopLag


class Clocks:
    """A wall clock and the loop thread's busy seconds, moved by hand."""

    def __init__(self) -> None:
        self.wall = 100.0
        self.busy = 7.0

    def lag(self) -> LoopLag:
        return LoopLag(clock=lambda: self.wall, busy=lambda: self.busy)

    def run(self, wall: float, busy: float) -> None:
        self.wall += wall
        self.busy += busy


def test_a_loop_with_idle_moments_is_never_behind_however_busy_each_update_keeps_it() -> None:
    clocks = Clocks()
    lag = clocks.lag()
    assert not lag.behind()
    # 50 updates a second for 10 s, each keeping the loop busy 17 ms of its 20 (0.85 of the time:
    # a round as long as you like, but the loop is idle before the next update comes).
    for _ in range(500):
        clocks.run(0.017, 0.017)
        assert not lag.behind()
        clocks.run(0.003, 0.0)
        assert not lag.behind()
    assert lag.share == pytest.approx(0.85, abs=0.01)


def test_a_burst_is_not_a_backlog() -> None:
    """What the fan-out bench's 50 updates/s do (lag.py): the loop runs 0.7 of the time, then the
    updates come in a burst and it runs 0.95 of each 20 ms window for half a second: not behind
    (holding would cost each held update a whole hold; written through it costs a short queue)."""
    clocks = Clocks()
    lag = clocks.lag()
    lag.behind()
    for _ in range(5):
        for _ in range(100):  # 2 s at 0.7
            clocks.run(0.020, 0.014)
            assert not lag.behind()
        for _ in range(25):  # 0.5 s at 0.95
            clocks.run(0.020, 0.019)
            assert not lag.behind()


def test_a_loop_that_runs_all_the_time_is_behind_after_about_tau_and_not_once_it_catches_up() -> None:
    clocks = Clocks()
    lag = clocks.lag()
    lag.behind()
    for _ in range(50):  # 1 s at 0.7 (50 updates/s to 1,000 watchers)
        clocks.run(0.020, 0.014)
        lag.behind()
    steps = 0
    while not lag.behind():  # saturated: busy all the time (running, or waiting for a core)
        clocks.run(0.020, 0.0199)
        steps += 1
        assert steps < 500
    assert 0.5 * TAU_S <= steps * 0.020 <= 3 * TAU_S  # behind after about TAU_S, not after a burst
    clocks.run(0.3, 0.3)
    assert lag.behind()
    clocks.run(0.2 * TAU_S, 0.0)  # idle for a fifth of TAU_S: it caught up
    assert not lag.behind()
    clocks.run(0.02, 0.02)  # busy again, but not for long
    assert not lag.behind()


def test_a_window_shorter_than_sample_s_is_not_judged_alone() -> None:
    clocks = Clocks()
    lag = clocks.lag()
    lag.behind()
    for _ in range(9):  # a burst of updates within one window, busy throughout: not judged yet
        clocks.run(SAMPLE_S / 10, SAMPLE_S / 10)
        lag.behind()
        assert lag.share == 0.0
    clocks.run(SAMPLE_S / 2, SAMPLE_S / 2)  # the window is long enough now: judged as a whole, busy
    lag.behind()
    assert lag.share == pytest.approx(1 - math.exp(-1.4 * SAMPLE_S / TAU_S))


def running_or_waiting_s() -> float:
    """The calling thread's seconds running or waiting for a core (Linux; elsewhere running only):
    what the falls-behind test judges its loop by, so that on a loaded box, where its spinning is
    preempted and its CPU share alone falls under BUSY_SHARE, its loop is still behind."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as f:
            running_ns, waiting_ns, _ = f.read().split(maxsplit=2)
        return (int(running_ns) + int(waiting_ns)) / 1e9
    except (OSError, ValueError):
        return time.thread_time()


def test_the_default_busy_clock_is_the_loop_threads_cpu_time() -> None:
    """Waiting for a core is not counted (lag.py says why)."""
    assert LoopLag().busy is time.thread_time


def spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


class FakeSocket:
    """What the outbox needs of a `server.SocketConn`: its waiting frames, and writes that cost
    `cost` seconds of CPU each (the kernel's send)."""

    def __init__(self, cost: float) -> None:
        self.cost = cost
        self.out: bytes | list[bytes] | None = None
        self.out_bytes = 0
        self.writes: list[int] = []  # frames per write

    def write(self, frame: bytes) -> bool:
        spin(self.cost)
        self.writes.append(1)
        return True

    def flush(self) -> int:
        out, self.out, self.out_bytes = self.out, None, 0
        n = 0 if out is None else len(out) if isinstance(out, list) else 1
        if n:
            spin(self.cost)
            self.writes.append(n)
        return n


def hand_out(box: outbox_mod.Outbox, socks: list[FakeSocket], frame: bytes) -> None:
    for sock in socks:
        box.add(sock, frame)  # type: ignore[arg-type]


async def test_an_outbox_whose_loop_keeps_up_never_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """50 updates a second, each round costing 2 ms of CPU: the loop idles between them, so none
    is held, however long the rounds count as (here any round counts as a long one: the old rule,
    hold a round that starts within HOLD_FACTOR x the last round's cost of its end, held them all)."""
    monkeypatch.setattr(outbox_mod, "HOLD_FACTOR", 1e6)
    monkeypatch.setattr(outbox_mod, "ROUND_CHUNK", 4)
    monkeypatch.setattr(outbox_mod, "THROUGH_SOCKETS", 6)  # six written through, the other four in a round
    box = outbox_mod.Outbox(Metrics())
    socks = [FakeSocket(0.0002) for _ in range(10)]
    for v in range(40):
        hand_out(box, socks, b"v%d" % v)
        await asyncio.sleep(0.02)
    assert box.metrics.watch_held_rounds.value() == 0
    assert all(sock.writes == [1] * 40 for sock in socks)


async def test_an_outbox_whose_loop_falls_behind_holds_and_stops_once_it_caught_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # How long a held round waits is another rule (Outbox.hold, test_gateway.py): here any round
    # is held up to 0.1 s, so that on a starved box too the next update comes within it.
    monkeypatch.setattr(outbox_mod, "HOLD_FACTOR", 1e6)
    monkeypatch.setattr(outbox_mod, "MAX_HOLD_S", 0.1)
    monkeypatch.setattr(outbox_mod, "ROUND_CHUNK", 4)
    monkeypatch.setattr(lag_mod, "TAU_S", 0.1)  # behind within about 0.25 s of the 0.5 s of work
    box = outbox_mod.Outbox(Metrics())
    box.lag = LoopLag(busy=running_or_waiting_s)
    socks = [FakeSocket(0.001) for _ in range(10)]
    loop = asyncio.get_running_loop()
    stop = loop.time() + 0.5

    def other_work() -> None:  # work that never lets the loop idle (2 ms a turn, for 0.5 s)
        spin(0.002)
        if loop.time() < stop:
            loop.call_soon(other_work)

    loop.call_soon(other_work)
    v = 0
    while loop.time() < stop:
        hand_out(box, socks, b"v%d" % v)
        v += 1
        await asyncio.sleep(0.005)
    assert box.lag.share >= BUSY_SHARE
    assert box.metrics.watch_held_rounds.value() > 0
    assert max(n for sock in socks for n in sock.writes) > 1  # a held round carried several updates
    await asyncio.sleep(0.3)  # caught up: idle
    await asyncio.sleep(0.3)  # (a held round, if one was waiting, written)
    writes = [len(sock.writes) for sock in socks]
    held = box.metrics.watch_held_rounds.value()
    hand_out(box, socks, b"last")
    # Written through as it was handed out: not held, not even left for the next turn.
    assert [len(sock.writes) for sock in socks] == [n + 1 for n in writes]
    assert box.metrics.watch_held_rounds.value() == held and box.lag.share < BUSY_SHARE
    assert all(sum(sock.writes) == v + 1 for sock in socks)  # every update, once


def test_the_module_constants_say_what_the_docstring_says() -> None:
    assert 0 < lag_mod.SAMPLE_S < lag_mod.TAU_S and 0.5 < lag_mod.BUSY_SHARE < 1
