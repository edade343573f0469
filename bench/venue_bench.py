"""Venue benchmark: 500 tournament watchers on a 64-table event while 40 table commands a second arrive.

    python bench/venue_bench.py [--watchers 500] [--tables 64] [--rate 40] [--seconds 20] [--repeat 1]

One `cuehub serve` process (SQLite, a fresh file), two tournaments of 128 players and 64 tables, a
single elimination each (64 matches called at once). 64 tablets (one socket each, `/ws/tables`)
play legal strokes from `hub.tools.strokes`, `--rate` commands a second in all (each table every
tables/rate seconds, when it has a match), for `--seconds`:

- **baseline**: the first tournament, nobody watching;
- **watched**: the second, with `--watchers` sockets on `tournament:{tid}`: one checking watcher
  (Python, a process of its own: it keeps the whole copy from the deltas, counts bytes and gaps) and
  the others from bench/load.c (one thread, epoll, as fanout_bench.py: they count the messages and
  their fan-out latency, and cost the box's shared cores little).

The first WARMUP_S seconds of each phase (every match's start) are not counted. Printed per phase:
commands acked, their rate, ack p50 / p99 / max (ms, the tablet's round trip),
bytes the hub sent to the tablets and to each watcher per command (WebSocket payloads, the checking
watcher's), its snapshots, updates, gaps and largest update, and the load.c watchers' message count
and fan-out latency. Then the ratios watched /
baseline of the same run. A last section makes a 1,024-player single elimination: the time of its
`GET /api/tournaments/{tid}`, the snapshot's size and a stroke's update size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.rules.disciplines import traits_of  # noqa: E402
from hub.tools.strokes import next_command  # noqa: E402
from tests.services import free_port  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from fanout_bench import Load  # noqa: E402

ADMIN = "venue-bench-admin"
HEAD = re.compile(r'"version":(?P<version>\d+),"server_time":\d+,"base":(?P<base>\d+)')
AUTH = {"Authorization": f"Bearer {ADMIN}"}
WPA = {"discipline": "wpa_nine", "format": {"race_to": 9}, "options": {}}


def start_hub(workdir: Path, **extra: str) -> tuple[subprocess.Popen[bytes], str]:
    """A fresh `cuehub serve` on a SQLite file in `workdir` (`extra`: more HUB_* settings)."""
    port = free_port()
    env = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "PYTHONPATH": str(ROOT),
           "HUB_TABLE_RATE": "1000", "HUB_TABLE_BURST": "1000",
           "HUB_SNAPSHOTS_PER_ADDRESS": "1000000", **extra}  # every watcher is on this host
    log = open(workdir / "hub.log", "wb")  # noqa: SIM115 - open for the process's life
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--port", str(port), "--database-url",
                             f"sqlite+aiosqlite:///{workdir / 'hub.db'}", "--log-level", "warning"],
                            cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the hub did not start")


def make_event(base: str, players: int, tables: int, name: str) -> tuple[str, list[dict[str, Any]]]:
    with httpx.Client(base_url=base, headers=AUTH, timeout=120) as c:
        tid = c.post("/api/tournaments", json={"name": name}).json()["id"]
        made = [c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i + 1}"}).json() for i in range(tables)]
        for start in range(0, players, 512):
            batch = [{"name": f"Player {i}"} for i in range(start, min(players, start + 512))]
            c.post(f"/api/tournaments/{tid}/players", json={"players": batch}).raise_for_status()
        c.post(f"/api/tournaments/{tid}/draw", json={"type": "single_elimination", "seed": 1, "match": WPA}
               ).raise_for_status()
    return tid, made


# --- the tablets --------------------------------------------------------------------------------


class Tablet:
    def __init__(self, ws_base: str, table: dict[str, Any], rng: random.Random) -> None:
        self.url, self.token, self.rng = f"{ws_base}/ws/tables/{table['id']}", table["token"], rng
        self.match: dict[str, Any] | None = None
        self.acks: list[float] = []
        self.counted_from = float("inf")  # acks of commands sent before (the warm-up) are not counted
        self.bytes = 0
        self.rejects = 0
        self.closed: int | None = None  # the close code, when the hub closed the tablet's socket
        self.waiting: dict[str, tuple[float, asyncio.Future[dict[str, Any]]]] = {}

    async def run(self, interval: float, phase: float, stop: asyncio.Event) -> None:
        async with websockets.connect(self.url, max_size=None, compression=None) as ws:
            await ws.send(json.dumps({"type": "auth", "token": self.token}))
            reader = asyncio.create_task(self._read(ws))
            await asyncio.sleep(phase)
            next_at = time.perf_counter()
            while not stop.is_set():
                next_at += interval
                await self._one(ws)
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            reader.cancel()

    async def _read(self, ws: Any) -> None:
        try:
            await self._read_all(ws)
        except websockets.ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd else -1

    async def _read_all(self, ws: Any) -> None:
        async for raw in ws:
            self.bytes += len(raw)
            msg = json.loads(raw)
            if msg["type"] in ("ready", "state"):
                self.match = msg["match"]
            elif msg["type"] in ("ack", "reject") and msg.get("id") in self.waiting:
                t0, fut = self.waiting.pop(msg["id"])
                if msg["type"] == "ack" and t0 >= self.counted_from:
                    self.acks.append((time.perf_counter() - t0) * 1000)
                else:
                    self.rejects += 1
                fut.set_result(msg)

    async def _one(self, ws: Any) -> None:
        m = self.match
        if m is None or m.get("status") == "finished":
            return
        if m["status"] == "scheduled":
            cmd: dict[str, Any] | None = {"kind": "start", "breaker": m["players"][0]["id"]}
        else:
            cmd, _, _ = next_command(m, self.rng, traits_of(m["discipline"]).to_json())
        if cmd is None:
            return
        cid = str(uuid.uuid4())
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[cid] = (time.perf_counter(), fut)
        await ws.send(json.dumps({"id": cid, "match_id": m["id"], "command": cmd}))
        try:
            answer = await asyncio.wait_for(fut, 10)
        except TimeoutError:
            self.waiting.pop(cid, None)
            return
        version = answer.get("version", 0)
        for _ in range(100):  # the state of that version, before the next stroke is chosen
            if self.match is None or self.match.get("version", 0) >= version or self.match.get("id") != m["id"]:
                break
            await asyncio.sleep(0.005)


WARMUP_S = 3.0  # every match's start, and the first strokes, before the acks are counted


async def play(ws_base: str, tables: list[dict[str, Any]], rate: float, seconds: float,
               counting: Any = None) -> dict[str, Any]:
    rng = random.Random(7)
    tablets = [Tablet(ws_base, t, random.Random(rng.random())) for t in tables]
    interval = len(tablets) / rate
    stop = asyncio.Event()
    tasks = [asyncio.create_task(t.run(interval, interval * i / len(tablets), stop)) for i, t in enumerate(tablets)]
    await asyncio.sleep(WARMUP_S)
    for t in tablets:
        t.counted_from = time.perf_counter()
    if counting is not None:
        counting()
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    acks = sorted(a for t in tablets for a in t.acks)
    q = statistics.quantiles(acks, n=100) if len(acks) >= 100 else [max(acks or [0])] * 99
    return {"acks": len(acks), "rate": len(acks) / seconds, "p50": statistics.median(acks) if acks else 0,
            "p99": q[98], "max": max(acks or [0]), "tablet_bytes": sum(t.bytes for t in tablets),
            "rejects": sum(t.rejects for t in tablets), "closed": sum(t.closed is not None for t in tablets)}


# --- the watchers (a process of their own) ------------------------------------------------------


def apply_delta(proj: dict[str, Any], data: dict[str, Any], version: int) -> dict[str, Any]:
    out = dict(proj)
    out.update(data.get("set", {}))
    for name in data.get("unset", []):
        out.pop(name, None)
    for name, ident in (("tables", "id"), ("players", "id")):
        if name in data:
            where = {e[ident]: i for i, e in enumerate(out[name])}
            out[name] = list(out[name])
            for e in data[name]:
                if e[ident] in where:
                    out[name][where[e[ident]]] = e
                else:
                    out[name].append(e)
    if "draw" in data or "matches" in data:
        draw = {**out["draw"], **data.get("draw", {})}
        if "matches" in data:
            where = {e["key"]: i for i, e in enumerate(draw["matches"])}
            draw["matches"] = list(draw["matches"])
            for e in data["matches"]:
                if e["key"] in where:
                    draw["matches"][where[e["key"]]] = e
                else:
                    draw["matches"].append(e)
        out["draw"] = draw
    out["version"] = version
    return out


async def _watchers(url: str, channel: str, n: int, ready: Any, stop: Any, out: Any) -> None:
    stats = {"bytes": 0, "snapshots": 0, "updates": 0, "gaps": 0, "largest_update": 0, "connected": 0}

    async def one(i: int) -> None:
        async with websockets.connect(url, max_size=None, compression=None) as ws:
            await ws.send(json.dumps({"type": "subscribe", "channel": channel}))
            stats["connected"] += 1
            proj: dict[str, Any] | None = None
            version = None
            async for raw in ws:
                stats["bytes"] += len(raw)
                if raw.startswith('{"type":"snapshot"'):
                    stats["snapshots"] += 1
                    msg = json.loads(raw)
                    proj, version = (msg["data"] if i == 0 else None), msg["version"]
                elif raw.startswith('{"type":"update"'):
                    # The head only (the client shares the box's cores with the hub): version and base.
                    head = HEAD.search(raw, 0, 300)
                    stats["updates"] += 1
                    stats["largest_update"] = max(stats["largest_update"], len(raw))
                    if head is None or version is None or int(head["base"]) != version:
                        stats["gaps"] += 1
                        version = None
                        await ws.send(json.dumps({"type": "subscribe", "channel": channel}))
                        continue
                    version = int(head["version"])
                    if proj is not None:  # one copy kept in full: the deltas apply
                        msg = json.loads(raw)
                        proj = apply_delta(proj, msg["data"], msg["version"])

    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(one(i)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    while stats["connected"] < n:  # noqa: ASYNC110 - a poll of counters, once
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # the snapshots are in
    ready.set()
    await asyncio.sleep(WARMUP_S)
    base_bytes = stats["bytes"]
    while not stop.is_set():  # noqa: ASYNC110 - a multiprocessing event, not an asyncio one
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)  # what was on its way
    for t in tasks:
        t.cancel()
    out.put({**stats, "live_bytes": stats["bytes"] - base_bytes})


def watchers_process(url: str, channel: str, n: int, ready: Any, stop: Any, out: Any) -> None:
    asyncio.run(_watchers(url, channel, n, ready, stop, out))


# --- one run ------------------------------------------------------------------------------------


def phase(base: str, tables: list[dict[str, Any]], tid: str, watchers: int, rate: float, seconds: float
          ) -> dict[str, Any]:
    """The tablets' run; with watchers: one checking watcher (Python, its own process: it keeps the
    whole copy from the deltas and counts bytes) and watchers - 1 in bench/load.c (one thread, epoll:
    they count messages and their fan-out latency at a fraction of the CPU)."""
    ws_base = base.replace("http", "ws", 1)
    proc = load = None
    channel = f"tournament:{tid}"
    if watchers:
        ctx = mp.get_context("spawn")
        ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
        proc = ctx.Process(target=watchers_process, args=(f"{ws_base}/ws/watch", channel, 1, ready, stop, out))
        proc.start()
        if not ready.wait(120):
            raise RuntimeError("the checking watcher did not connect")
        if watchers > 1:
            load = Load("c")
            load.ask(cmd="connect", urls=[f"{ws_base}/ws/watch"], n=watchers - 1, channel=channel)
    result = asyncio.run(play(ws_base, tables, rate, seconds,
                              counting=None if load is None else lambda: load.ask(cmd="reset")))
    if load is not None:
        time.sleep(1.0)  # what is on its way
        result["load"] = load.ask(cmd="report")
        load.close()
    if proc is not None:
        stop.set()
        result["watch"] = out.get(timeout=60)
        proc.join(30)
    return result


def big_event(base: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    tid, _ = make_event(base, 1024, 4, "Big 1024")
    made = time.perf_counter() - t0
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        r = httpx.get(f"{base}/api/tournaments/{tid}", timeout=30)
        times.append(time.perf_counter() - t0)
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws", 1) + "/ws/watch", max_size=None) as ws:
        ws.send(json.dumps({"type": "subscribe", "channel": f"tournament:{tid}"}))
        snap = ws.recv(timeout=30)
    return {"setup_s": made, "get_ms": 1000 * statistics.median(times), "get_bytes": len(r.content),
            "snapshot_bytes": len(snap)}


def report(name: str, r: dict[str, Any]) -> None:
    closed = f"  ({r['closed']} tablet sockets closed by the hub)" if r["closed"] else ""
    line = (f"{name:9} acks {r['acks']:5d} ({r['rate']:5.1f}/s)  ack p50 {r['p50']:6.1f} ms  p99 {r['p99']:7.1f} ms"
            f"  max {r['max']:7.1f} ms  to tablets {r['tablet_bytes'] / 1e6:6.2f} MB"
            f"{closed}")
    w, lc = r.get("watch"), r.get("load")
    if w:
        per = w["live_bytes"] / max(1, r["acks"])
        n = 1 + (r["watchers"] - 1 if lc else 0)
        line += (f"\n          to each watcher {per:.0f} B per command (the checking watcher: {w['updates']} updates,"
                 f" {w['snapshots']} snapshot(s), {w['gaps']} gaps, largest update {w['largest_update']} B);"
                 f" to all {n} watchers about {w['live_bytes'] * n / 1e6:.1f} MB")
    if lc:
        expected = w["updates"] * (r["watchers"] - 1) if w else 0
        line += (f"\n          load.c watchers: {lc['count']} messages ({lc['count'] / max(1, expected):.2f} of the"
                 f" checking watcher's x {r['watchers'] - 1}), fan-out latency p50 {lc['p50']} ms,"
                 f" p99 {lc['p99']} ms")
    print(line, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--watchers", type=int, default=500)
    ap.add_argument("--tables", type=int, default=64)
    ap.add_argument("--rate", type=float, default=40.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-big", action="store_true", help="skip the 1,024-player section")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        proc, base = start_hub(Path(d))
        try:
            for rep in range(args.repeat):
                tid_a, tables_a = make_event(base, 2 * args.tables, args.tables, f"Baseline {rep}")
                tid_b, tables_b = make_event(base, 2 * args.tables, args.tables, f"Watched {rep}")
                a = phase(base, tables_a, tid_a, 0, args.rate, args.seconds)
                b = phase(base, tables_b, tid_b, args.watchers, args.rate, args.seconds)
                b["watchers"] = args.watchers
                print(f"run {rep + 1}: {args.tables} tables, {args.rate:g} commands/s offered, {args.seconds:g} s;"
                      f" {args.watchers} tournament watchers in the second phase;"
                      f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
                report("baseline", a)
                report("watched", b)
                print(f"ratios watched/baseline: ack p50 {b['p50'] / max(a['p50'], 1e-9):.2f}x,"
                      f" p99 {b['p99'] / max(a['p99'], 1e-9):.2f}x, max {b['max'] / max(a['max'], 1e-9):.2f}x,"
                      f" acks {b['acks'] / max(a['acks'], 1):.2f}x", flush=True)
            if not args.no_big:
                big = big_event(base)
                print(f"1,024-player single elimination: made (players, draw, first calls) in {big['setup_s']:.1f} s;"
                      f" GET /api/tournaments/{{tid}} {big['get_ms']:.0f} ms, {big['get_bytes'] / 1e3:.0f} KB"
                      f" (the first page of matches); channel snapshot {big['snapshot_bytes'] / 1e3:.0f} KB")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
