"""Webhook benchmark (PROTOCOL.md section 16): what a receiver that never answers costs the hub.

    python bench/webhook_bench.py [--tables 32] [--rate 32] [--seconds 30] [--events 5] [--burst 500]

One `cuehub serve` (SQLite file, memory bus), a 64-player single elimination on `--tables` tables
whose tablets play legal strokes (`--rate` commands a second in all, bench/venue_bench.py), while
the organiser's credential signs players up at `--events` a second in another tournament (each one
an `entry.created` event). Three phases of `--seconds`, the same load:
- **no webhooks**: nothing registered (and again as a third phase, **none again**, once both hooks
  are deleted: the ratios are to the mean of the two, so the order of the phases is not measured);
- **dead + live**: a hook on every event to a receiver that accepts the TCP connection, reads the
  request and never answers (each attempt waits out the hub's 5 s timeout; its deliveries pile up
  in order behind the first), and a hook on every event to a receiver that answers 204 at once.
Printed per phase: the tablets' ack p50 / p99 / max, the sign-ups' answer p50 / p99 (the path
that emits), and the ratios dead+live / none; for the hooks: deliveries the live receiver got and
their rate, the lag from the event to its arrival (p50 / p99), the dead receiver's connections,
and the dead hook's deliveries stored and waiting. Then a burst of `--burst` sign-ups as fast as
20 at a time are answered: their rate, and the rate the live receiver got them at (throughput).
The load average is printed beside each phase. The first 3 s of each phase are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from call_common import AUTH, load, pct, ratio, start_hub, stop_hub  # (puts the repository on the path)
from venue_bench import make_event, play

from tests.webhooks.receiver import Receiver

EVENTS = ["match.called", "match.started", "match.finished", "tournament.finished", "entry.created"]


class Silent:
    """Accepts every connection and reads what comes, never writes a byte."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(512)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(conn)  # kept open, never answered (the kernel buffers what is sent)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/never"


class Signer:
    """Sign-ups with the organiser's credential at a steady rate, in a thread of its own."""

    def __init__(self, base: str, tid: str, rate: float, seconds: float, tag: str) -> None:
        self.base, self.tid, self.rate, self.seconds, self.tag = base, tid, rate, seconds, tag
        self.ms: list[float] = []
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _one(self, c: httpx.AsyncClient, i: int) -> None:
        t0 = time.perf_counter()
        r = await c.post(f"/api/tournaments/{self.tid}/entries", json={"name": f"{self.tag} {i}"})
        if r.status_code == 201:
            self.ms.append((time.perf_counter() - t0) * 1000)

    async def _run(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, headers=AUTH, timeout=60) as c:
            t0 = time.perf_counter()
            n = int(self.rate * self.seconds)
            tasks = []
            for i in range(n):
                await asyncio.sleep(max(0.0, t0 + i / self.rate - time.perf_counter()))
                tasks.append(asyncio.create_task(self._one(c, i)))
            await asyncio.gather(*tasks)


def open_registration(base: str, name: str) -> str:
    with httpx.Client(base_url=base, headers=AUTH, timeout=30) as c:
        tid = c.post("/api/tournaments", json={"name": name}).json()["id"]
        c.patch(f"/api/tournaments/{tid}",
                json={"registration": {"open": True, "auto_accept": True}}).raise_for_status()
        return str(tid)


def run_phase(base: str, tables: list[dict[str, Any]], args: Any, tag: str) -> dict[str, Any]:
    tid = open_registration(base, tag)
    signer = Signer(base, tid, args.events, args.seconds, tag)
    r = asyncio.run(play(base.replace("http", "ws"), tables, args.rate, args.seconds, counting=signer.thread.start))
    signer.thread.join(120)
    return {**r, "signups": signer.ms, "load": load()}


def burst(base: str, n: int, tag: str) -> float:
    tid = open_registration(base, tag)

    async def go() -> None:
        sem = asyncio.Semaphore(20)
        async with httpx.AsyncClient(base_url=base, headers=AUTH, timeout=60) as c:
            async def one(i: int) -> None:
                async with sem:
                    r = await c.post(f"/api/tournaments/{tid}/entries", json={"name": f"{tag} {i}"})
                    r.raise_for_status()
            await asyncio.gather(*(one(i) for i in range(n)))

    t0 = time.perf_counter()
    asyncio.run(go())
    return time.perf_counter() - t0


def line(name: str, r: dict[str, Any]) -> None:
    s = r["signups"]
    print(f"  {name:11s} ack p50 {r['p50']:7.1f} ms  p99 {r['p99']:7.1f} ms  max {r['max']:7.1f} ms"
          f" ({r['rate']:.1f} acks/s)"
          f"  sign-up p50 {pct(s, 50):6.1f} ms  p99 {pct(s, 99):7.1f} ms ({len(s)})  [{r['load']}]", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--rate", type=float, default=32.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--events", type=float, default=5.0)
    ap.add_argument("--burst", type=int, default=500)
    args = ap.parse_args()
    print(f"start: {load()}", flush=True)
    silent, live = Silent(), Receiver().start()
    with tempfile.TemporaryDirectory() as d:
        proc, base = start_hub(Path(d))
        try:
            _, tables = make_event(base, 2 * args.tables, args.tables, "Playing")
            none = run_phase(base, tables, args, "Quiet")
            hooks = {}
            for name, url in (("dead", silent.url), ("live", live.url)):
                hooks[name] = httpx.post(f"{base}/api/webhooks", json={"url": url, "events": EVENTS}, headers=AUTH,
                                         timeout=10).json()["id"]
            t_hooks = time.time() * 1000
            hooked = run_phase(base, tables, args, "Hooked")
            got = live.delivered()
            in_phase = [b for b in got if b["at"] >= t_hooks]
            lags = [r["received_at"] - json.loads(r["body"])["at"] for r in live.seen
                    if r["ok"] and json.loads(r["body"])["at"] >= t_hooks]
            n_phase = len(in_phase)
            before = len(got)
            took = burst(base, args.burst, "Burst")
            t0 = time.perf_counter()
            while len(live.delivered()) < before + args.burst and time.perf_counter() - t0 < 120:
                time.sleep(0.05)
            drained = time.perf_counter() - t0
            burst_got = len(live.delivered()) - before
            con = sqlite3.connect(Path(d) / "hub.db")
            waiting = con.execute("SELECT count(*) FROM webhook_deliveries WHERE hook_id = ? AND status = 'pending'",
                                  (hooks["dead"],)).fetchone()[0]
            con.close()
            for hook_id in hooks.values():  # the last phase as the first: the order of phases is not the cause
                httpx.delete(f"{base}/api/webhooks/{hook_id}", headers=AUTH, timeout=10).raise_for_status()
            again = run_phase(base, tables, args, "Again")
        finally:
            stop_hub(proc)
            live.stop()
    print(f"{args.tables} tables at {args.rate:g} commands/s, {args.events:g} sign-ups/s, {args.seconds:g} s a phase")
    line("no webhooks", none)
    line("dead + live", hooked)
    line("none again", again)
    none = {**none, "p50": (none["p50"] + again["p50"]) / 2, "p99": (none["p99"] + again["p99"]) / 2,
            "max": (none["max"] + again["max"]) / 2, "signups": none["signups"] + again["signups"]}
    hs, ns = hooked["signups"], none["signups"]
    print(f"  ratios dead+live / none (the mean of both phases without hooks):"
          f" ack p50 {ratio(hooked['p50'], none['p50'])},"
          f" p99 {ratio(hooked['p99'], none['p99'])}, max {ratio(hooked['max'], none['max'])};"
          f" sign-up p50 {ratio(pct(hs, 50), pct(ns, 50))}, p99 {ratio(pct(hs, 99), pct(ns, 99))}")
    print(f"  live hook: {n_phase} deliveries in the phase ({n_phase / args.seconds:.1f}/s);"
          f" lag event -> receiver p50 {pct(lags, 50):.0f} ms, p99 {pct(lags, 99):.0f} ms;"
          f" dead receiver: {silent.accepted} connections, its hook {waiting} deliveries waiting in the store")
    print(f"  burst: {args.burst} sign-ups answered in {took:.2f} s ({args.burst / took:.0f}/s); the live receiver got"
          f" {burst_got} of them {drained:.2f} s after the last answer (all delivered at"
          f" {burst_got / (took + drained):.0f}/s from the first sign-up); end: {load()}", flush=True)


if __name__ == "__main__":
    main()
