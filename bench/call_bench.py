"""Call-to-phone benchmark (PROTOCOL.md section 16): the time from the desk calling a match to a
follower's page hearing it, with 500 followers, against 1 follower in the same run.

    python bench/call_bench.py [--followers 500] [--calls 16] [--procs 2] [--gap 1.0]

One `cuehub serve` (SQLite file, memory bus). Two tournaments (one per phase) of 2 x `--calls`
players on `--calls` tables, every table paused before the draw, so the first round waits in the
queue. A phase: the followers subscribe `tournament:{tid}` on `/ws/watch` (what the player page
with Follow on listens to: js/player.js, tournament_feed.js) from `--procs` processes of their own;
then the desk resumes one table after another (`POST /api/tables/{id}/resume`, `--gap` s apart): the
hub calls the first queued match to it, as the desk's "resume" or a table coming free does. A
follower hears the call when an update's delta names that match `called`. Latency = the moment
the follower process decoded that update (CLOCK_MONOTONIC, one clock for every process on the box)
minus the moment just before the desk's request was sent; every (follower, call) pair counts.
- **baseline**: 1 follower; **followers**: `--followers` followers. Printed: p50, p95, p99, max,
  the calls a follower missed (none expected), the ratios to the baseline, the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from call_common import AUTH, load, pct, ratio, start_hub, stop_hub

WPA = {"discipline": "wpa_nine", "format": {"race_to": 5}, "options": {}}


def make_paused_event(base: str, calls: int, name: str) -> tuple[str, list[str]]:
    with httpx.Client(base_url=base, headers=AUTH, timeout=60) as c:
        tid = c.post("/api/tournaments", json={"name": name}).json()["id"]
        tables = [c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i + 1}"}).json()["id"]
                  for i in range(calls)]
        for tb in tables:
            c.post(f"/api/tables/{tb}/pause").raise_for_status()
        c.post(f"/api/tournaments/{tid}/players",
               json={"players": [{"name": f"Player {i}"} for i in range(2 * calls)]}).raise_for_status()
        c.post(f"/api/tournaments/{tid}/draw", json={"type": "single_elimination", "seed": 1, "match": WPA}
               ).raise_for_status()
        return str(tid), tables


def followers_proc(url: str, channel: str, n: int, ready: Any, stop: Any, out: Any) -> None:
    async def one(heard: dict[str, float], connected: list[int]) -> None:
        async with websockets.connect(url, max_size=None, compression=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "subscribe", "channel": channel}))
            connected[0] += 1
            with ready.get_lock():
                ready.value += 1
            async for raw in ws:
                if not raw.startswith('{"type":"update"') or '"called"' not in raw:
                    continue
                now = time.monotonic()
                for m in (json.loads(raw).get("data") or {}).get("matches") or []:
                    if m.get("status") == "called" and m["key"] not in heard:
                        heard[m["key"]] = now

    async def run() -> None:
        heards: list[dict[str, float]] = [{} for _ in range(n)]
        connected = [0]
        tasks = []
        for i in range(n):
            tasks.append(asyncio.create_task(one(heards[i], connected)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        while not stop.is_set():  # noqa: ASYNC110 - a multiprocessing event
            await asyncio.sleep(0.1)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        out.put(heards)

    asyncio.run(run())


def phase(base: str, followers: int, procs: int, calls: int, gap: float) -> dict[str, Any]:
    tid, tables = make_paused_event(base, calls, f"Call {followers}")
    url = base.replace("http", "ws") + "/ws/watch"
    ctx = mp.get_context("spawn")
    ready, stop, out = ctx.Value("i", 0), ctx.Event(), ctx.Queue()
    share = [followers // procs + (i < followers % procs) for i in range(min(procs, followers))]
    ps = [ctx.Process(target=followers_proc, args=(url, f"tournament:{tid}", k, ready, stop, out)) for k in share]
    for p in ps:
        p.start()
    deadline = time.monotonic() + 120
    while ready.value < followers:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{ready.value} of {followers} followers connected")
        time.sleep(0.05)
    time.sleep(1.0)  # the snapshots are in
    sent: dict[str, float] = {}  # table id -> the moment its resume was sent
    with httpx.Client(base_url=base, headers=AUTH, timeout=30) as c:
        for tb in tables:
            t0 = time.monotonic()
            c.post(f"/api/tables/{tb}/resume").raise_for_status()
            sent[tb] = t0
            time.sleep(gap)
        time.sleep(2.0)  # the last call reaches everyone
        draw = c.get(f"/api/tournaments/{tid}").json()["draw"]
    stop.set()
    heards = [h for _ in ps for h in out.get(timeout=60)]
    for p in ps:
        p.join(30)
    key_at = {m["key"]: sent[m["table_id"]] for m in draw["matches"] if m.get("table_id") in sent}
    lat = [(h[k] - t0) * 1000 for h in heards for k, t0 in key_at.items() if k in h]
    missed = sum(k not in h for h in heards for k in key_at)
    return {"followers": len(heards), "calls": len(key_at), "lat": lat, "missed": missed, "load": load()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--followers", type=int, default=500)
    ap.add_argument("--calls", type=int, default=16)  # a power of two: no byes, every table gets a call
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--gap", type=float, default=1.0)
    args = ap.parse_args()
    print(f"start: {load()}", flush=True)
    with tempfile.TemporaryDirectory() as d:
        proc, base = start_hub(Path(d))
        try:
            one = phase(base, 1, 1, args.calls, args.gap)
            many = phase(base, args.followers, args.procs, args.calls, args.gap)
        finally:
            stop_hub(proc)
    for name, r in (("baseline", one), ("followers", many)):
        lat = r["lat"]
        print(f"  {name:9s} {r['followers']:4d} followers x {r['calls']} calls: p50 {pct(lat, 50):7.1f} ms"
              f"  p95 {pct(lat, 95):7.1f} ms  p99 {pct(lat, 99):7.1f} ms  max {max(lat or [0]):7.1f} ms"
              f"  missed {r['missed']}  [{r['load']}]", flush=True)
    a, b = one["lat"], many["lat"]
    print(f"  ratios {args.followers} followers / 1: p50 {ratio(pct(b, 50), pct(a, 50))},"
          f" p95 {ratio(pct(b, 95), pct(a, 95))}; end: {load()}")


if __name__ == "__main__":
    main()
