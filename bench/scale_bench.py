"""Scale run: one final watched by 100,000 sockets on this box, one update a second.

    python bench/scale_bench.py [--watchers 100000] [--servers 7] [--kind hub|gateway]
                                [--stages 10000,25000,50000,100000] [--seconds 15] [--rate 1]
                                [--sources 4] [--max-minutes 12]

What runs (loopback only; PostgreSQL 127.0.0.1:5432 db `test`, a fresh schema; Redis
127.0.0.1:6379, a channel of its own):
- one `cuehub serve` that stores the match's commands (a golden_nine final, legal shots through
  its table socket, `--rate` a second) and publishes them on the Redis bus;
- `--servers` processes that serve the watchers, fed by that bus: `cuehub serve` hubs (`--kind hub`,
  the default: /ws/watch on uvicorn's port, the handed-over connections of hub/watch/handed.py) or
  `cuehub gateway` processes (`--kind gateway`: websockets' own server);
- as many bench/load.c clients as needed to stay under this box's per-process descriptor limit
  (RLIMIT_NOFILE, which cannot be raised past its hard limit here), their sockets bound in turn to
  `--sources` loopback addresses 127.0.0.1, 127.0.0.2, ... (each source address has its own
  ephemeral ports per server port).

The watchers are added in stages (`--stages`); at each stage, after the new sockets have their
snapshot, `--rate` updates a second for `--seconds`: delivered/expected, latency p50 / p99 / max
(receive time - server_time; the worst client's figure, the clients' counts summed), the serving
processes' RSS (total and per watcher), the kernel's TCP memory (/proc/net/sockstat), and the
connect failures. It stops at the first stage that cannot be reached (sockets refused or not
answered: "where it breaks"), and in any case after `--max-minutes`. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import fanout_bench as fb  # noqa: E402  (bench/ is not a package)

FD_RESERVE = 1000  # descriptors a load client keeps besides its sockets


def fd_hard_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # children inherit it
        return int(hard)
    return 1 << 20


def tcp_mem_kb() -> int:
    """The kernel's TCP buffer memory (pages in /proc/net/sockstat), in KB."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            f = line.split()
            return int(f[f.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    return 0


class Client:
    """One load client (bench/load.c) whose error lines are counted, not only printed."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([str(fb.build_c_client())], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.errors: list[str] = []
        self.n = 0

    def ask(self, **cmd: Any) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("load client died")
            ans = json.loads(line)
            if "error" in ans:
                self.errors.append(ans["error"])
                continue
            return ans

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ask(cmd="close")
        self.proc.kill()


async def add_watchers(clients: list[Client], per_client: int, target: int, urls: list[str], channel: str,
                       sources: list[str]) -> int:
    """Open sockets on the clients (each up to per_client) until `target` in all; how many are ready."""
    asks = []
    left = target - sum(c.n for c in clients)
    for c in clients:
        more = min(per_client - c.n, left)
        if more > 0:
            asks.append((c, more))
            left -= more
    results = await asyncio.gather(*(asyncio.to_thread(c.ask, cmd="connect", urls=urls, n=more, channel=channel,
                                                       sources=sources, batch=100) for c, more in asks))
    for (c, _), r in zip(asks, results, strict=True):
        c.n = r["n"]
    return sum(c.n for c in clients)


async def measure(clients: list[Client], trigger: Any, watchers: int, rate: float, seconds: float) -> dict[str, Any]:
    for c in clients:
        await asyncio.to_thread(c.ask, cmd="reset")
    sent = await fb.publish(trigger, rate, seconds)
    await asyncio.sleep(5.0)
    reports = [await asyncio.to_thread(c.ask, cmd="report") for c in clients if c.n]
    count = sum(r["count"] for r in reports)
    return {"sent": sent, "expected": sent * watchers, "count": count,
            "p50": max(r["p50"] or 0 for r in reports), "p99": max(r["p99"] or 0 for r in reports),
            "max": max(r["max"] or 0 for r in reports),
            "min_per_sock": min(r["min_per_sock"] for r in reports)}


async def run(args: argparse.Namespace) -> None:
    hard = fd_hard_limit()
    per_client = hard - FD_RESERVE
    stages = sorted({int(s) for s in args.stages.split(",") if int(s) <= args.watchers} | {args.watchers})
    n_clients = -(-args.watchers // per_client)
    sources = [f"127.0.0.{i + 1}" for i in range(args.sources)]
    print(f"fd limit {hard} per process: {n_clients} load clients of up to {per_client} sockets, "
          f"{args.servers} {args.kind} processes, sources {', '.join(sources)}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} (2 cores)", flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.kind == "hub":
            procs, ports, _, _ = fb.start_hubs(tmp, 1 + args.servers, redis=True, cli=True)
            serving, urls = procs[1:], [f"ws://127.0.0.1:{p}/ws/watch" for p in ports[1:]]
        else:
            procs, ports, gws, gports = fb.start_hubs(tmp, 1, redis=True, gateways=args.servers, cli=True)
            serving, urls = gws, [f"ws://127.0.0.1:{p}/ws/watch" for p in gports]
            procs = procs + gws
        clients: list[Client] = []
        try:
            mid, _, _, trigger, _ = await fb.hub_match(ports[0])
            channel = f"match:{mid}"
            clients = [Client() for _ in range(n_clients)]
            await asyncio.sleep(1.0)
            rss0, tcp0 = sum(fb.rss_kb(p.pid) for p in serving), tcp_mem_kb()
            for stage in stages:
                t0 = time.monotonic()
                ready = await add_watchers(clients, per_client, stage, urls, channel, sources)
                took = time.monotonic() - t0
                errors = sum(len(c.errors) for c in clients)
                await asyncio.sleep(2.0)
                rss, tcp = sum(fb.rss_kb(p.pid) for p in serving), tcp_mem_kb()
                row: dict[str, Any] = {"stage": stage, "ready": ready, "connect_s": took, "errors": errors,
                                       "rss_mb": rss / 1024, "kb_per_watcher": (rss - rss0) / max(ready, 1),
                                       "tcp_mem_mb": (tcp - tcp0) / 1024, "load": os.getloadavg()[0]}
                print(f"  {ready}/{stage} watchers in {took:.0f} s ({errors} connect errors); serving RSS "
                      f"{rss / 1024:.0f} MB ({row['kb_per_watcher']:.1f} KB per watcher), kernel TCP memory "
                      f"+{row['tcp_mem_mb']:.0f} MB", flush=True)
                if errors:
                    print("    first errors:", "; ".join(e for c in clients for e in c.errors[:2])[:600], flush=True)
                row.update(await measure(clients, trigger, ready, args.rate, args.seconds))
                rows.append(row)
                print(f"  {row['count']}/{row['expected']} delivered, p50 {row['p50']:.1f} ms, "
                      f"p99 {row['p99']:.1f} ms, max {row['max']:.1f} ms (load {os.getloadavg()[0]:.1f})", flush=True)
                dead = [p.pid for p in procs if p.poll() is not None]
                if ready < stage or dead:
                    print(f"  breaks here: {stage - ready} sockets not ready, processes gone: {dead}", flush=True)
                    break
        finally:
            for c in clients:
                c.close()
            fb.stop(procs)
    print()
    print(f"{'watchers':>9} {'connect s':>9} {'errors':>6} {'delivered/expected':>22} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'RSS MB':>7} {'KB/watcher':>10} {'TCP MB':>7} {'load':>5}")
    for r in rows:
        print(f"{r['ready']:>9} {r['connect_s']:>9.0f} {r['errors']:>6} {r['count']:>11}/{r['expected']:<10} "
              f"{r['p50']:>7.1f} {r['p99']:>7.1f} {r['max']:>7.1f} {r['rss_mb']:>7.0f} {r['kb_per_watcher']:>10.1f} "
              f"{r['tcp_mem_mb']:>7.0f} {r['load']:>5.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--watchers", type=int, default=100_000)
    ap.add_argument("--servers", type=int, default=7, help="processes serving the watchers")
    ap.add_argument("--kind", choices=("hub", "gateway"), default="hub")
    ap.add_argument("--stages", default="10000,25000,50000,100000")
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--rate", type=float, default=1)
    ap.add_argument("--sources", type=int, default=4, help="loopback source addresses 127.0.0.1..N")
    ap.add_argument("--max-minutes", type=float, default=12, help="the whole run is stopped after this")
    args = ap.parse_args()
    # Bounded in time whatever happens: SIGALRM ends the run (the finally blocks stop the processes).
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("--max-minutes reached")))
    signal.alarm(int(args.max_minutes * 60))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
