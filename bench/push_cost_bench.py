"""Per-watcher Python of the watch gateway's fan-out: what handing one update to one watcher costs
the hub besides the write itself (write_cost_bench.py measures the write).

    python bench/push_cost_bench.py [--watchers 1000] [--updates 200] [--repeat 7]

1,000 `server.SocketConn` watchers on sockets that take every write and do nothing with it (so
only the hub's Python is timed), one match channel, updates in step. Two ways, in the same run:
`SocketConn.push` (the one-call way of the usual delivery) and the long way it stands for
(`Conn.push` -> `write_now` -> `Outbox.add` -> `SocketConn.write`: the baseline). Prints the
server thread's CPU µs per update and watcher for each, and the ratio to the baseline. Not part of
the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.protocol import State  # noqa: E402

from hub.ops.metrics import Metrics  # noqa: E402
from hub.watch.outbox import Outbox  # noqa: E402
from hub.watch.server import SocketConn  # noqa: E402
from hub.watch.watcher import UPD, Conn, Item, Sub  # noqa: E402

CH = "match:m"
TEXT = '{"type":"update","channel":"match:m","version":1,"data":"' + "x" * 1600 + '"}'


class NullTransport:
    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0


async def bench(args: argparse.Namespace) -> None:
    core = SimpleNamespace(metrics=Metrics(), snapshot=lambda channel: None)
    box = Outbox(Metrics())
    conns = []
    for _ in range(args.watchers):
        ws = SimpleNamespace(protocol=SimpleNamespace(state=State.OPEN), transport=NullTransport(),
                             send_in_progress=None)
        conn = SocketConn(core, ws, box)  # type: ignore[arg-type]
        conn.subs[CH] = Sub(key="m", version=0)
        conns.append(conn)
    ways = {"long way (Conn.push)": Conn.push, "SocketConn.push": SocketConn.push}
    results: dict[str, list[float]] = {name: [] for name in ways}
    version = 0
    for rep in range(args.repeat):
        line = []
        for name, push in ways.items():
            spent = 0.0
            for _ in range(args.updates):
                version += 1
                item = Item(UPD, CH, "m", version, TEXT)
                cpu0 = time.thread_time()
                for conn in conns:
                    push(conn, item)
                spent += time.thread_time() - cpu0
                await asyncio.sleep(0)  # the turn ends, as between two updates of the hub
            us = 1e6 * spent / (args.updates * args.watchers)
            results[name].append(us)
            line.append(f"{name} {us:.3f}")
        print(f"  rep {rep + 1}: " + ", ".join(line))
    assert all(conn.subs[CH].version == version for conn in conns), "every update reached every watcher"
    base = statistics.median(results["long way (Conn.push)"])
    print("median µs per update and watcher: " + ", ".join(
        f"{name} {statistics.median(v):.3f} ({statistics.median(v) / base:.2f}x)" for name, v in results.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--watchers", type=int, default=1000)
    ap.add_argument("--updates", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    try:
        import uvloop

        uvloop.run(bench(args))
    except ImportError:
        asyncio.run(bench(args))


if __name__ == "__main__":
    main()
