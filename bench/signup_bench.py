"""Sign-up flood benchmark (PROTOCOL.md section 14): 1,000 sign-ups in a minute from 50 addresses
while 32 tables play; the tablets' ack latency with and without the flood, in the same run.

    python bench/signup_bench.py [--tables 32] [--rate 32] [--baseline-seconds 20]
                                 [--signups 1000] [--addresses 50] [--flood-seconds 60] [--flooder 100]

One `cuehub serve` (SQLite file, memory bus, HUB_TRUSTED_PROXIES=127.0.0.1 so each sign-up's
X-Forwarded-For is its address). A 64-player single elimination on `--tables` tables: its tablets
(bench/venue_bench.py's, one socket each) play legal strokes, `--rate` commands a second in all.
- **baseline**: `--baseline-seconds` of play, nothing else;
- **flood**: the same play while `--signups` sign-ups (no token, as from phones) go to another
  tournament's `/entries`, evenly over `--flood-seconds` from `--addresses` addresses in turn, each
  sent without waiting for the previous; and `--flooder` more from one extra address as fast as it is
  answered (the abuse the per-address slowing is for).
Printed: acks, ack p50 / p99 / max per phase and the ratios flood / baseline; sign-ups answered
201 / 429 / other (the honest addresses and the flooder apart), the sign-ups' own p50 / p99; and the
load average beside each phase. The first 3 s of each phase are not counted (venue_bench's WARMUP_S).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from call_common import AUTH, load, pct, ratio, start_hub, stop_hub
from venue_bench import make_event, play


def open_registration(base: str) -> str:
    with httpx.Client(base_url=base, headers=AUTH, timeout=30) as c:
        tid = c.post("/api/tournaments", json={"name": "Sign-ups"}).json()["id"]
        c.patch(f"/api/tournaments/{tid}",
                json={"registration": {"open": True, "auto_accept": True}}).raise_for_status()
        return str(tid)


class Flood:
    """The sign-ups, in a thread with its own event loop (the tablets' loop measures acks)."""

    def __init__(self, base: str, tid: str, signups: int, addresses: int, seconds: float, flooder: int) -> None:
        self.base, self.tid, self.signups, self.addresses = base, tid, signups, addresses
        self.seconds, self.flooder = seconds, flooder
        self.honest: list[tuple[int, float]] = []  # (status, ms)
        self.abuse: list[tuple[int, float]] = []
        self.retry_after: list[float] = []
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.took = 0.0

    async def _one(self, c: httpx.AsyncClient, i: int, addr: str, out: list[tuple[int, float]]) -> None:
        t0 = time.perf_counter()
        try:
            r = await c.post(f"/api/tournaments/{self.tid}/entries", headers={"X-Forwarded-For": addr},
                             json={"name": f"Signer {addr} {i}", "contact": f"+86 139 {i:04d} 0000"})
            status = r.status_code
            if status == 429:
                self.retry_after.append(float(r.headers.get("Retry-After") or 0))
        except httpx.HTTPError:
            status = 0
        out.append((status, (time.perf_counter() - t0) * 1000))

    async def _abuser(self, c: httpx.AsyncClient, until: float) -> None:
        for i in range(self.flooder):
            if time.perf_counter() >= until:
                return
            await self._one(c, i, "10.99.0.1", self.abuse)

    async def _run(self) -> None:
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        async with httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits) as c:
            t0 = time.perf_counter()
            tasks = [asyncio.create_task(self._abuser(c, t0 + self.seconds))]
            gap = self.seconds / self.signups
            for i in range(self.signups):
                await asyncio.sleep(max(0.0, t0 + i * gap - time.perf_counter()))
                addr = f"10.0.{i % self.addresses // 250}.{i % self.addresses % 250 + 1}"
                tasks.append(asyncio.create_task(self._one(c, i, addr, self.honest)))
            self.took = time.perf_counter() - t0
            await asyncio.gather(*tasks)


def counts(rows: list[tuple[int, float]]) -> str:
    ok = sum(s == 201 for s, _ in rows)
    refused = sum(s == 429 for s, _ in rows)
    other = len(rows) - ok - refused
    return f"{ok} answered 201, {refused} refused 429, {other} other"


def line(name: str, r: dict[str, Any], lavg: str) -> None:
    print(f"  {name:9s} acks {r['acks']:5d} ({r['rate']:.1f}/s)  ack p50 {r['p50']:7.1f} ms  p99 {r['p99']:7.1f} ms"
          f"  max {r['max']:7.1f} ms  [{lavg}]", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--rate", type=float, default=32.0)
    ap.add_argument("--baseline-seconds", type=float, default=20.0)
    ap.add_argument("--signups", type=int, default=1000)
    ap.add_argument("--addresses", type=int, default=50)
    ap.add_argument("--flood-seconds", type=float, default=60.0)
    ap.add_argument("--flooder", type=int, default=100)
    args = ap.parse_args()
    print(f"start: {load()}", flush=True)
    with tempfile.TemporaryDirectory() as d:
        proc, base = start_hub(Path(d), HUB_TRUSTED_PROXIES="127.0.0.1")
        try:
            _, tables = make_event(base, 2 * args.tables, args.tables, "Playing")
            tid = open_registration(base)
            ws_base = base.replace("http", "ws")
            quiet = asyncio.run(play(ws_base, tables, args.rate, args.baseline_seconds))
            quiet_load = load()
            flood = Flood(base, tid, args.signups, args.addresses, args.flood_seconds, args.flooder)
            loud = asyncio.run(play(ws_base, tables, args.rate, args.flood_seconds, counting=flood.thread.start))
            loud_load = load()
            flood.thread.join(120)
            entries = httpx.get(f"{base}/api/tournaments/{tid}/entries", headers=AUTH, timeout=60).json()
        finally:
            stop_hub(proc)
    print(f"{args.tables} tables, {args.rate:g} commands/s offered; baseline {args.baseline_seconds:g} s,"
          f" flood {args.flood_seconds:g} s: {args.signups} sign-ups from {args.addresses} addresses"
          f" (+ up to {args.flooder} from one flooding address, one at a time), sent over {flood.took:.1f} s")
    line("baseline", quiet, quiet_load)
    line("flood", loud, loud_load)
    print(f"  ratios flood/baseline: ack p50 {ratio(loud['p50'], quiet['p50'])},"
          f" p99 {ratio(loud['p99'], quiet['p99'])},"
          f" max {ratio(loud['max'], quiet['max'])}, acks/s {ratio(loud['rate'], quiet['rate'])}")
    ms = [m for s, m in flood.honest if s == 201]
    print(f"  honest sign-ups: {counts(flood.honest)}; their answer p50 {pct(ms, 50):.1f} ms, p99 {pct(ms, 99):.1f} ms")
    print(f"  flooding address: {counts(flood.abuse)}"
          + (f"; Retry-After {min(flood.retry_after):.0f}-{max(flood.retry_after):.0f} s" if flood.retry_after else ""))
    n = len(entries.get("entries", entries if isinstance(entries, list) else []))
    print(f"  entries stored: {n}; end: {load()}", flush=True)


if __name__ == "__main__":
    main()
