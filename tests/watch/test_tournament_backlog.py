"""A tournament watcher that falls behind keeps only the latest waiting update of the channel, and a
gap in the deltas is a fresh snapshot (never an update applied to the wrong version). Driven on
`Conn` alone, with a socket whose send waits until the test lets it go."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hub.ops.metrics import Metrics
from hub.watch.watcher import SNAP, UPD, Conn, Item, Sub
from hub.wire.watch import message

CH = "tournament:t1"


class Core:
    """What a Conn asks of the core: the metrics, and the channel's latest snapshot."""

    def __init__(self) -> None:
        self.metrics = Metrics()
        self.version = 0
        self.snapshots = 0

    def snapshot(self, channel: str) -> tuple[str | None, int, str]:
        self.snapshots += 1
        return "t1", self.version, message("snapshot", channel, self.version, '{"whole":true}')


class Sock:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.gate = asyncio.Event()

    async def send(self, text: str) -> None:
        self.got.append(json.loads(text))
        await self.gate.wait()

    async def close(self, code: int) -> None:
        pass


def delta(core: Core, v: int) -> Item:
    core.version = v
    return Item(UPD, CH, "t1", v, message("update", CH, v, f'{{"n":{v}}}', extra=f',"base":{v - 1}'), base=v - 1)


async def test_a_watcher_behind_keeps_the_latest_update_and_a_gap_is_a_snapshot() -> None:
    core, sock = Core(), Sock()
    conn = Conn(core, sock.send, sock.close)
    conn.subs[CH] = Sub()
    conn.push(Item(SNAP, CH))
    conn.start()
    await asyncio.sleep(0.01)
    assert [m["type"] for m in sock.got] == ["snapshot"]  # its send is held: the watcher is slow
    for v in range(1, 41):
        conn.push(delta(core, v))
    assert conn.queue is not None and len(conn.queue) == 1  # only the latest waits, not 40 of them
    sock.gate.set()
    await asyncio.sleep(0.05)
    # The one waiting (v40, base 39) does not follow what was sent (v0): the latest snapshot instead.
    assert [(m["type"], m["version"]) for m in sock.got] == [("snapshot", 0), ("snapshot", 40)]
    conn.push(delta(core, 41))  # caught up: deltas again
    await asyncio.sleep(0.01)
    assert (sock.got[-1]["type"], sock.got[-1]["version"], sock.got[-1]["base"]) == ("update", 41, 40)
    assert core.snapshots == 2
    conn.task.cancel()  # type: ignore[union-attr]


async def test_a_watcher_one_behind_gets_the_update_itself() -> None:
    core, sock = Core(), Sock()
    conn = Conn(core, sock.send, sock.close)
    conn.subs[CH] = Sub()
    conn.push(Item(SNAP, CH))
    conn.start()
    await asyncio.sleep(0.01)
    conn.push(delta(core, 1))  # waits behind the snapshot being sent, and follows it
    sock.gate.set()
    await asyncio.sleep(0.02)
    assert [(m["type"], m["version"]) for m in sock.got] == [("snapshot", 0), ("update", 1)]
    conn.task.cancel()  # type: ignore[union-attr]
