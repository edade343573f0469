"""`server.SocketConn.push`: the one-call way for the usual delivery decides as the long way
(`Conn.push` -> `write_now` -> `Outbox.add`) would. Twin watchers, one pushed each way, go through
the same scenarios (in step, stale, gaps, a replay waiting, a full buffer, a closing socket, a
queue ahead) and must end with the same bytes written, the same state and the same queue."""

from __future__ import annotations

import asyncio
from collections import deque
from types import SimpleNamespace
from typing import Any

import pytest
from websockets.protocol import State

from hub.ops.metrics import Metrics
from hub.watch import outbox as outbox_mod
from hub.watch.server import HIGH_WATER, SocketConn, text_frame
from hub.watch.watcher import SNAP, UPD, Conn, Item, Sub

CH = "match:m"


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.buffered = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.buffered


class Core:
    """What a Conn asks of the core: each channel's latest snapshot, and the metrics."""

    def __init__(self) -> None:
        self.metrics = Metrics()
        self.version = 0

    def snapshot(self, channel: str) -> tuple[str | None, int, str]:
        return "m", self.version, f'{{"type":"snapshot","version":{self.version}}}'


def watcher(core: Core, box: outbox_mod.Outbox, *, version: int | None = 0) -> SocketConn:
    ws = SimpleNamespace(protocol=SimpleNamespace(state=State.OPEN), transport=Transport(), send_in_progress=None)
    conn = SocketConn(core, ws, box)  # type: ignore[arg-type]
    conn.subs[CH] = Sub(key="m", version=version)
    return conn


def update(version: int, *, base: int | None = None, key: str = "m") -> Item:
    return Item(UPD, CH, key, version, f'{{"type":"update","version":{version}}}', base=base)


def state(conn: SocketConn) -> tuple[Any, ...]:
    sub = conn.subs[CH]
    queued = [(i.kind, i.version) for i in conn.queue or ()]
    return (conn.transport.written, sub.version, sub.key, sub.pending is not None and len(sub.pending),
            queued, conn.out)


# (what is done to both watchers before the update, the update): each a case where the one-call
# way must hold back and leave the decision to the long way, and the usual case.
def in_step(c: SocketConn) -> None:
    pass


def replay_waiting(c: SocketConn) -> None:
    c.subs[CH].pending = []


def buffer_full(c: SocketConn) -> None:
    c.transport.buffered = HIGH_WATER + 1


def closing_protocol(c: SocketConn) -> None:
    c.protocol.state = State.CLOSING


def closing_transport(c: SocketConn) -> None:
    c.transport.closing = True


def send_waiting(c: SocketConn) -> None:
    c.ws.send_in_progress = object()


def queue_ahead(c: SocketConn) -> None:
    c.queue = deque([Item(SNAP, CH, forced=True)])


def nothing_sent_yet(c: SocketConn) -> None:
    c.subs[CH].version = None


CASES = [
    (in_step, update(1)),
    (in_step, update(0)),  # stale: skipped
    (in_step, update(1, key="other")),  # another match on the channel: skipped
    (in_step, update(2, base=0)),  # a delta on what was sent
    (in_step, update(2, base=1)),  # a delta after a gap: the snapshot instead
    (replay_waiting, update(1)),
    (buffer_full, update(1)),
    (closing_protocol, update(1)),
    (closing_transport, update(1)),
    (send_waiting, update(1)),
    (queue_ahead, update(1)),
    (nothing_sent_yet, update(1)),
]


IDS = [f"{prepare.__name__}-{item.version}-{item.base}-{item.key}" for prepare, item in CASES]


@pytest.mark.parametrize(("prepare", "item"), CASES, ids=IDS)
async def test_the_one_call_way_decides_as_the_long_way(prepare: Any, item: Item) -> None:
    core = Core()
    core.version = 3
    results = []
    for push in (SocketConn.push, Conn.push):
        box = outbox_mod.Outbox(Metrics())
        first, twin = watcher(core, box), watcher(core, box)
        # The first watcher frames the update and opens the write-through (as the first of a
        # fan-out does); then the twin, prepared, is handed the same item.
        shared = Item(item.kind, item.channel, item.key, item.version, item.text, base=item.base)
        SocketConn.push(first, Item(UPD, CH, "m", 1, '{"type":"update","version":1}'))
        box.through_frame = shared.frame = text_frame(shared.text or "")
        prepare(twin)
        push(twin, shared)
        if twin.task is not None:
            twin.task.cancel()
        results.append(state(twin))
        await asyncio.sleep(0)  # the write-through's turn ends
    assert results[0] == results[1]


async def test_a_fan_out_writes_every_watcher_in_one_call_each_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """1,000 watchers in step: the first takes the long way (frames the update, opens the
    write-through), the rest are written through at once, each with the same frame, in order."""
    core = Core()
    box = outbox_mod.Outbox(Metrics())
    conns = [watcher(core, box) for _ in range(1000)]
    calls = 0
    real = Conn.push

    def long_way(self: Conn, item: Item) -> None:
        nonlocal calls
        calls += 1
        real(self, item)

    monkeypatch.setattr(Conn, "push", long_way)
    for v in (1, 2):
        item = update(v)
        for conn in conns:
            conn.push(item)
        assert item.frame is not None
        assert all(c.transport.written == [text_frame(update(u).text or "")
                                           for u in range(1, v + 1)] for c in conns)
        assert all(c.subs[CH].version == v for c in conns)
        await asyncio.sleep(0)  # the turn ends: the next update opens its own write-through
    assert calls == 2, "only the first watcher of each update takes the long way"
    assert not box.conns, "nothing was left for a round"

