"""Fan-out benchmark: the hub's /ws/watch against the floor, a bare `websockets` server that
broadcasts the same message bytes with websockets.broadcast().

    python bench/fanout_bench.py [--watchers 1000] [--rate 20] [--seconds 10]
                                 [--sat-rate 400] [--sat-seconds 5] [--redis] [--repeat N]
                                 [--sat-watchers 5000]
                                 [--rows floor,default,hub,gateway,2hubs,2gateways] [--client c|node]

Runs, for the floor and for the hub (SQLite, memory bus): `default`, a plain `cuehub serve` (what
pages and watchers get with nothing set: /ws/watch on the hub's port, served by the watch
gateway's websockets front, hub/watch/uvicorn_front.py); `hub`, the app under `uvicorn --factory`
(uvicorn's own WebSocket protocol: the FastAPI /ws/watch, the fallback for other servers);
`gateway`, the in-process watch gateway on a port of its own (HUB_WATCH_PORT); with
--redis also two hub processes on PostgreSQL + Redis sharing the watchers, and one hub + two
`cuehub gateway` processes on the same Redis sharing them: N watcher sockets from the load client,
real match updates (legal shots through the table socket; the floor gets a trigger per update and
broadcasts a message built by the hub's own code from a real projection), and prints
delivered/expected, p50/p99/max latency (receive time minus the message's server_time),
deliveries/s at saturation (with --watchers, then with --sat-watchers), server and load-client CPU
per delivery, server RSS per idle watcher,
and the ratios. Not part of the test suite.

The load client is bench/load.c (one thread, epoll, libc only; compiled with `cc -O2` into
bench/build/load on first use): the servers share this box's cores with it, and it costs about half
the CPU per delivery of the Node client bench/load.js (`ws`). `--client node` runs load.js instead
(same stdin/stdout protocol; `npm install` in bench/ once).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ADMIN = "bench-admin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# --- the floor --------------------------------------------------------------------------------


def floor_server(port: int, payload_file: str) -> None:
    """A bare websockets server: watchers on /, a trigger socket on /control; one trigger, one
    broadcast of an update message built like the hub builds it."""
    from websockets.asyncio.server import broadcast, serve

    from hub.watch.core import message
    from hub.watch.history import dumps

    spec = json.loads(Path(payload_file).read_text())
    data, event, channel = dumps(spec["projection"]), dumps(spec["event"]), spec["channel"]
    watchers: set[Any] = set()
    version = 0

    async def handler(ws: Any) -> None:
        nonlocal version
        if ws.request.path == "/control":
            async for _ in ws:
                version += 1
                broadcast(watchers, message("update", channel, version, data, event))
            return
        async for _ in ws:  # the subscribe
            await ws.send(message("snapshot", channel, version, data))
            watchers.add(ws)
            try:
                await ws.wait_closed()
            finally:
                watchers.discard(ws)
            return

    async def main() -> None:
        # backlog: uvicorn's default (2048); asyncio's 100 refuses a burst of connects (--sat-watchers).
        async with serve(handler, "127.0.0.1", port, compression=None, ping_interval=20, backlog=2048):
            await asyncio.Future()

    try:
        import uvloop

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())


# --- load client ------------------------------------------------------------------------------


def build_c_client() -> Path:
    """bench/build/load, (re)compiled from bench/load.c when missing or older than the source."""
    src, binary = ROOT / "bench" / "load.c", ROOT / "bench" / "build" / "load"
    if not binary.exists() or binary.stat().st_mtime < src.stat().st_mtime:
        binary.parent.mkdir(exist_ok=True)
        tmp = binary.with_name(f"load.{os.getpid()}.tmp")
        subprocess.run(["cc", "-O2", "-Wall", "-o", str(tmp), str(src)], check=True)
        tmp.replace(binary)
    return binary


class Load:
    """The load client (`client`: "c", bench/load.c, or "node", bench/load.js), driven by JSON lines."""

    def __init__(self, client: str = "c") -> None:
        if client == "node":
            if not (ROOT / "bench" / "node_modules" / "ws").exists():
                subprocess.run(
                    ["npm", "install", "--silent", "--no-audit", "--no-fund"], cwd=ROOT / "bench", check=True
                )
            argv = ["node", str(ROOT / "bench" / "load.js")]
        else:
            argv = [str(build_c_client())]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

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
                print("  load:", ans["error"], file=sys.stderr)
                continue
            return ans

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ask(cmd="close")
        self.proc.kill()


# --- servers ----------------------------------------------------------------------------------


class Server:
    name: str
    pids: list[int]
    urls: list[str]
    channel: str
    trigger: Callable[[], Awaitable[None]]


def wait_http(url: str, proc: subprocess.Popen[Any]) -> None:
    import httpx

    deadline = time.monotonic() + 90  # a loaded box takes a while to start a hub
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited ({proc.returncode})")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


def start_hubs(
    tmp: str, n: int, redis: bool, watch_port: int | None = None, gateways: int = 0, cli: bool = False
) -> tuple[list[subprocess.Popen[Any]], list[int], list[subprocess.Popen[Any]], list[int]]:
    """n hub processes (the first with an in-process watch gateway on watch_port, if given), and
    `gateways` watch gateway processes (`cuehub gateway`, Redis only). With `cli`, the hubs are a
    plain `cuehub serve` (its default uvicorn options: /ws/watch on the fast front); otherwise
    `uvicorn hub.app:create_app --factory` (uvicorn's own WebSocket protocol: the FastAPI /ws/watch)."""
    # The tablet rate limit (50 commands/s by default, 4429 past a burst) would cap the saturation
    # phase's 200 updates/s: lifted, since this measures the fan-out, not the flood guard.
    # Every watcher connects from this host: the snapshot budget per address is lifted too.
    env = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "HUB_TABLE_RATE": "100000", "HUB_TABLE_BURST": "100000",
           "HUB_SNAPSHOTS_PER_ADDRESS": "10000000"}
    if redis:
        schema = "bench_" + uuid.uuid4().hex[:8]
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import asyncio,asyncpg\nasync def m():\n"
                " c=await asyncpg.connect('postgresql://postgres@127.0.0.1:5432/test')\n"
                f" await c.execute('CREATE SCHEMA {schema}')\nasyncio.run(m())",
            ],
            check=True,
        )
        env.update(HUB_DATABASE_URL="postgresql+asyncpg://postgres@127.0.0.1:5432/test", HUB_DATABASE_SCHEMA=schema,
                   HUB_BUS_URL=f"redis://127.0.0.1:6379/0?channel=bench-{schema}")
    else:
        db = "bench-gw.db" if watch_port is not None else "bench-cli.db" if cli else "bench.db"
        env.update(HUB_DATABASE_URL=f"sqlite+aiosqlite:///{tmp}/{db}", HUB_BUS_URL="memory://")
    procs, ports = [], []
    for i in range(n):
        port = free_port()
        e = env if i == 0 else {**env, "HUB_AUTO_MIGRATE": "0"}
        if i == 0 and watch_port is not None:
            e = {**e, "HUB_WATCH_PORT": str(watch_port)}
        if cli:
            argv = [sys.executable, "-m", "hub.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                    "--log-level", "warning"]
        else:
            argv = [sys.executable, "-m", "uvicorn", "hub.app:create_app", "--factory", "--host", "127.0.0.1",
                    "--port", str(port), "--log-level", "warning", "--no-access-log"]
        p = subprocess.Popen(argv, cwd=ROOT, env=e)
        wait_http(f"http://127.0.0.1:{port}/healthz", p)
        procs.append(p)
        ports.append(port)
    gprocs, gports = [], []
    for _ in range(gateways):
        port = free_port()
        p = subprocess.Popen([sys.executable, "-m", "hub.cli", "gateway", "--host", "127.0.0.1", "--port", str(port)],
                             cwd=ROOT, env={**env, "HUB_AUTO_MIGRATE": "0"}, stdout=subprocess.DEVNULL)
        wait_http(f"http://127.0.0.1:{port}/healthz", p)
        gprocs.append(p)
        gports.append(port)
    return procs, ports, gprocs, gports


def stop(procs: list[subprocess.Popen[Any]]) -> None:
    """SIGTERM, then wait: a hub still shutting down must not outlive its temporary directory."""
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()


async def hub_match(port: int) -> tuple[str, str, str, Callable[[], Awaitable[None]], dict[str, Any]]:
    """A golden_nine match, started; returns (mid, table_id, token, trigger, sample) where trigger()
    stores one legal shot through the table socket (the turn alternates a, b, a, ...)."""
    import httpx
    from websockets.asyncio.client import connect

    base = f"http://127.0.0.1:{port}"
    h = {"Authorization": f"Bearer {ADMIN}"}
    async with httpx.AsyncClient(base_url=base) as c:
        tid = (await c.post("/api/tournaments", json={"name": "Bench"}, headers=h)).json()["id"]
        tb = (await c.post(f"/api/tournaments/{tid}/tables", json={"name": "T1"}, headers=h)).json()
        m = (await c.post("/api/matches", headers=h, json={
            "tournament_id": tid, "table_id": tb["id"], "discipline": "golden_nine",
            "players": [{"id": "a", "name": "Zheng Yubo"}, {"id": "b", "name": "Yang Fan"}], "format": {"racks": 9},
            "options": {"shot_clock": {"shot_s": 45}}})).json()
    # No client keepalive: a hub busy at saturation may answer a ping late, and this socket must stay.
    ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{tb['id']}", max_size=None, ping_interval=None)
    await ws.send(json.dumps({"type": "auth", "token": tb["token"]}))
    await ws.recv()
    state = {"n": 0}

    async def send(command: dict[str, Any]) -> None:
        await ws.send(json.dumps({"id": uuid.uuid4().hex, "match_id": m["id"], "command": command}))

    async def drain() -> None:  # acks and state pushes: read and drop
        try:
            async for _ in ws:
                pass
        except Exception:
            pass  # the hub stopped at the end of its run

    asyncio.get_running_loop().create_task(drain())
    await send({"kind": "start", "breaker": "a"})

    async def trigger() -> None:
        shooter = "a" if state["n"] % 2 == 0 else "b"
        cmd: dict[str, Any] = {"kind": "shot", "player": shooter, "first_contact": 1, "pocketed": [], "rail": True}
        if state["n"] == 0:
            cmd["break_crossings"] = 4
        state["n"] += 1
        await send(cmd)

    await trigger()
    await asyncio.sleep(0.3)
    async with httpx.AsyncClient(base_url=base) as c:
        proj = (await c.get(f"/api/matches/{m['id']}")).json()
        ev = (await c.get(f"/api/matches/{m['id']}/events?since=1")).json()["events"][-1]
    return m["id"], tb["id"], tb["token"], trigger, {"projection": proj, "event": ev, "channel": f"match:{m['id']}"}


# --- one run ----------------------------------------------------------------------------------


async def publish(trigger: Callable[[], Awaitable[None]], rate: float, seconds: float) -> int:
    n = int(rate * seconds)
    t0 = time.perf_counter()
    for i in range(n):
        await trigger()
        delay = t0 + (i + 1) / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    return n


async def measure(load: Load, trigger: Callable[[], Awaitable[None]], watchers: int, rate: float,
                  seconds: float, settle: float = 2.0) -> dict[str, Any]:
    load.ask(cmd="reset")
    sent = await publish(trigger, rate, seconds)
    await asyncio.sleep(settle)
    r = load.ask(cmd="report")
    r["expected"] = sent * watchers
    span = max((r["last"] - r["first"]) / 1000, 1e-9)
    r["per_s"] = r["count"] / span if r["count"] else 0.0
    return r


async def run_server(name: str, load: Load, pids: list[int], urls: list[str], channel: str,
                     trigger: Callable[[], Awaitable[None]], args: argparse.Namespace) -> dict[str, Any]:
    await asyncio.sleep(0.5)
    base = sum(rss_kb(p) for p in pids)
    ready = await asyncio.to_thread(load.ask, cmd="connect", urls=urls, n=args.watchers, channel=channel)
    await asyncio.sleep(2.0)
    idle = sum(rss_kb(p) for p in pids)
    res: dict[str, Any] = {"name": name, "rss_per_watcher_kb": (idle - base) / args.watchers, "connected": ready["n"]}
    print(f"  {name}: {ready['n']} watchers, RSS {base/1024:.0f} -> {idle/1024:.0f} MB", flush=True)
    # Warm-up (not measured), the same for every row: the first updates after a thousand sockets
    # connected pay for lazily grown buffers and caches on both sides.
    await publish(trigger, args.rate, 2.0)
    await asyncio.sleep(1.0)
    res["steady"] = await measure(load, trigger, args.watchers, args.rate, args.seconds)
    print(f"  {name}: steady {res['steady']}", flush=True)
    await asyncio.to_thread(load.ask, cmd="stall", url=urls[0], channel=channel)
    res["stalled"] = await measure(load, trigger, args.watchers, args.rate, args.seconds)
    print(f"  {name}: with a stalled watcher {res['stalled']}", flush=True)
    cpu0, client0 = sum(cpu_s(p) for p in pids), cpu_s(load.proc.pid)
    res["sat"] = await measure(load, trigger, args.watchers, args.sat_rate, args.sat_seconds, settle=5.0)
    # Server CPU (every server process of the row: the hub's command path included) per delivery.
    res["sat"]["cpu_us"] = 1e6 * (sum(cpu_s(p) for p in pids) - cpu0) / max(res["sat"]["count"], 1)
    # The load client's CPU per delivery (it shares the cores with the servers).
    res["sat"]["client_cpu_us"] = 1e6 * (cpu_s(load.proc.pid) - client0) / max(res["sat"]["count"], 1)
    print(f"  {name}: saturation {res['sat']}", flush=True)
    more = args.sat_watchers - args.watchers
    if more > 0:
        # The same saturation with more watchers (deliveries/s at 5,000).
        ready = await asyncio.to_thread(load.ask, cmd="connect", urls=urls, n=more, channel=channel)
        await asyncio.sleep(2.0)
        cpu0 = sum(cpu_s(p) for p in pids)
        res["sat_many"] = await measure(load, trigger, ready["n"], args.sat_rate, args.sat_seconds, settle=5.0)
        res["sat_many"]["watchers"] = ready["n"]
        res["sat_many"]["cpu_us"] = 1e6 * (sum(cpu_s(p) for p in pids) - cpu0) / max(res["sat_many"]["count"], 1)
        print(f"  {name}: saturation with {ready['n']} watchers {res['sat_many']}", flush=True)
    return res


async def bench_once(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = set(args.rows.split(","))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        hubs, ports, _, _ = start_hubs(tmp, 1, redis=False)
        try:
            mid, table_id, _, trigger, sample = await hub_match(ports[0])
            spec = Path(tmp) / "payload.json"
            spec.write_text(json.dumps(sample))
            print(f"payload: {len(json.dumps(sample['projection']))} bytes of projection", flush=True)

            # The floor first (its own process), then the hub.
            fport = free_port()
            # Popen returns at once; the bench then waits for the port.
            floor = subprocess.Popen(  # noqa: ASYNC220
                [sys.executable, __file__, "--floor-server", str(fport), spec.as_posix()])
            from websockets.asyncio.client import connect

            deadline = time.monotonic() + 30  # a loaded box takes a while to start a Python process
            while True:
                try:
                    ctl = await connect(f"ws://127.0.0.1:{fport}/control", ping_interval=None)
                    break
                except OSError:
                    if floor.poll() is not None or time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.2)

            async def floor_trigger() -> None:
                await ctl.send("p")

            load = Load(args.client)
            try:
                results.append(await run_server("floor", load, [floor.pid], [f"ws://127.0.0.1:{fport}/"],
                                                f"match:{mid}", floor_trigger, args))
            finally:
                load.close()
                await ctl.close()
                floor.terminate()
            if "hub" in rows:
                load = Load(args.client)
                try:
                    results.append(await run_server("asgi fallback", load, [hubs[0].pid], [f"ws://127.0.0.1:{ports[0]}/ws/watch"],
                                                    f"match:{mid}", trigger, args))
                finally:
                    load.close()
        finally:
            stop(hubs)
        if "default" in rows:
            # A plain `cuehub serve` (a fresh process): what pages and watchers get with nothing set.
            hubs, ports, _, _ = start_hubs(tmp, 1, redis=False, cli=True)
            try:
                dmid, _, _, dtrigger, _ = await hub_match(ports[0])
                load = Load(args.client)
                try:
                    results.append(await run_server("default", load, [hubs[0].pid], [f"ws://127.0.0.1:{ports[0]}/ws/watch"],
                                                    f"match:{dmid}", dtrigger, args))
                finally:
                    load.close()
            finally:
                stop(hubs)
        if "gateway" in rows:
            # A fresh hub process (RSS freed by the previous row's sockets would hide the cost).
            wport = free_port()
            hubs, ports, _, _ = start_hubs(tmp, 1, redis=False, watch_port=wport)
            try:
                gmid, _, _, gtrigger, _ = await hub_match(ports[0])
                load = Load(args.client)
                try:
                    results.append(await run_server("gateway", load, [hubs[0].pid], [f"ws://127.0.0.1:{wport}/ws/watch"],
                                                    f"match:{gmid}", gtrigger, args))
                finally:
                    load.close()
            finally:
                stop(hubs)
        if args.redis and "2hubs" in rows:
            hubs2, ports2, _, _ = start_hubs(tmp, 2, redis=True)
            try:
                mid2, _, _, trigger2, _ = await hub_match(ports2[0])
                load = Load(args.client)
                try:
                    results.append(await run_server(
                        "2 hubs+redis", load, [p.pid for p in hubs2],
                        [f"ws://127.0.0.1:{p}/ws/watch" for p in ports2], f"match:{mid2}", trigger2, args))
                finally:
                    load.close()
            finally:
                stop(hubs2)
        if args.redis and "2gateways" in rows:
            hubs3, ports3, gws, gports = start_hubs(tmp, 1, redis=True, gateways=2)
            try:
                mid3, _, _, trigger3, _ = await hub_match(ports3[0])
                load = Load(args.client)
                try:
                    results.append(await run_server(
                        "2 gw+redis", load, [p.pid for p in hubs3 + gws],
                        [f"ws://127.0.0.1:{p}/ws/watch" for p in gports], f"match:{mid3}", trigger3, args))
                finally:
                    load.close()
            finally:
                stop(hubs3 + gws)
    return results


def median_rows(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per row, the median of each figure over the runs (delivered counts: the lowest)."""
    out = []
    for i, first in enumerate(runs[0]):
        same = [run[i] for run in runs if i < len(run) and run[i]["name"] == first["name"]]
        row: dict[str, Any] = {"name": first["name"], "runs": len(same),
                               "rss_per_watcher_kb": statistics.median(r["rss_per_watcher_kb"] for r in same)}
        for phase in ("steady", "stalled", "sat", "sat_many"):
            if any(phase not in r for r in same):
                continue
            ph = [r[phase] for r in same]
            row[phase] = {
                k: statistics.median(p.get(k) or 0 for p in ph)
                for k in ("p50", "p99", "max", "per_s", "cpu_us", "client_cpu_us")
            }
            row[phase]["count"] = min(p["count"] for p in ph)
            row[phase]["expected"] = ph[0]["expected"]
            row[phase]["watchers"] = ph[0].get("watchers")
        out.append(row)
    return out


async def bench(args: argparse.Namespace) -> None:
    runs = []
    for i in range(args.repeat):
        if args.repeat > 1:
            print(f"--- run {i + 1}/{args.repeat}", flush=True)
        runs.append(await bench_once(args))
        if args.repeat > 1:
            report(runs[-1], args)
    if args.repeat > 1:
        print(f"\n=== median of {args.repeat} runs")
    report(median_rows(runs) if args.repeat > 1 else runs[0], args)
    targets(runs, args)


def target_figures(run: list[dict[str, Any]]) -> dict[str, float] | None:
    """The default row's figures against the fan-out targets, in one run (None: no default row)."""
    floor = run[0]
    row = next((r for r in run if r["name"] == "default"), None)
    if row is None:
        return None
    out = {
        "p50": (row["steady"]["p50"] or 0) / (floor["steady"]["p50"] or 1),
        "p99": (row["steady"]["p99"] or 0) / (floor["steady"]["p99"] or 1),
        "kb": row["rss_per_watcher_kb"],
        "cpu": row["sat"].get("cpu_us", 0) / (floor["sat"].get("cpu_us") or 1),
    }
    if "sat_many" in row and "sat_many" in floor:
        out["sat_many"] = row["sat_many"]["per_s"] / floor["sat_many"]["per_s"]
        out["cpu_many"] = row["sat_many"].get("cpu_us", 0) / (floor["sat_many"].get("cpu_us") or 1)
    return out


def targets(runs: list[list[dict[str, Any]]], args: argparse.Namespace) -> None:
    """The three fan-out targets of a plain `cuehub serve`, run by run and their median: p50 and
    p99 at --watchers at most 1.0x the floor's, deliveries/s at --sat-watchers at least 1.4x the
    floor's, at most 10 KB per idle watcher (and server CPU per delivery, a figure less sensitive
    to the box's load than the others)."""
    figures = [f for f in (target_figures(run) for run in runs) if f is not None]
    if not figures:
        return
    many = args.sat_watchers if args.sat_watchers > args.watchers else None
    print(f"\n=== default (`cuehub serve`) against the targets, ratios to the floor of the same run"
          f" (load average now {os.getloadavg()[0]:.1f})")
    rows = [(f"run {i + 1}", f) for i, f in enumerate(figures)]
    if len(figures) > 1:
        rows.append(("median", {k: statistics.median(f[k] for f in figures) for k in figures[0]}))
    for name, f in rows:
        sat = f"{f['sat_many']:.2f}x" if "sat_many" in f else "-"
        cpu = f"{f['cpu_many']:.2f}x" if "cpu_many" in f else "-"
        print(f"  {name:7} p50 {f['p50']:.3f}x, p99 {f['p99']:.3f}x (target <= 1.0 at {args.watchers} watchers); "
              f"saturation at {many or '-'} watchers {sat} (target >= 1.4); {f['kb']:.1f} KB per idle watcher "
              f"(target <= 10); server CPU per delivery {f['cpu']:.2f}x at {args.watchers}, {cpu} at {many or '-'}")
    last = rows[-1][1]
    met = {"p50": last["p50"] <= 1.0, "p99": last["p99"] <= 1.0, "memory": last["kb"] <= 10.0}
    if "sat_many" in last:
        met["saturation"] = last["sat_many"] >= 1.4
    print("  " + rows[-1][0] + ": " + ", ".join(f"{k} {'met' if v else 'NOT met'}" for k, v in met.items()))


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    floor = results[0]
    print()
    print(f"{args.watchers} watchers, {args.rate:g} updates/s for {args.seconds:g} s; saturation at "
          f"{args.sat_rate:g} updates/s for {args.sat_seconds:g} s")
    many = args.sat_watchers if args.sat_watchers > args.watchers else None
    head = f"{'server':14} {'delivered/expected':>20} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} " \
           f"{'p99 stalled':>11} {'sat deliv/s':>12} {'CPU us/deliv':>12} {'KB/watcher':>10} {'client us/deliv':>15}"
    if many:
        head += f" {f'sat@{many} deliv/s':>18}"
    print(head)
    print("-" * len(head))
    for r in results:
        s, st, sat = r["steady"], r["stalled"], r["sat"]
        line = (
            f"{r['name']:14} {s['count']:>9}/{s['expected']:<10} {s['p50'] or 0:>8.1f} {s['p99'] or 0:>8.1f} "
            f"{s['max'] or 0:>8.1f} {st['p99'] or 0:>11.1f} {sat['per_s']:>12.0f} {sat.get('cpu_us', 0):>12.1f} "
            f"{r['rss_per_watcher_kb']:>10.1f} "
            f"{sat.get('client_cpu_us', 0):>15.2f}"
        )
        if many:
            line += f" {r.get('sat_many', {}).get('per_s', 0):>18.0f}"
        print(line)
    print()
    for r in results[1:]:
        s, st = r["steady"], r["stalled"]
        extra = ""
        if many and "sat_many" in r and "sat_many" in floor:
            ratio = r["sat_many"]["per_s"] / floor["sat_many"]["per_s"]
            extra = f"saturation at {many} watchers {ratio:.2f}x (target >= 1.4), "
        print(f"{r['name']} / floor: p50 {(s['p50'] or 0) / (floor['steady']['p50'] or 1):.2f}x (target <= 1.0), "
              f"p99 {(s['p99'] or 0) / (floor['steady']['p99'] or 1):.2f}x (target <= 1.0), "
              f"saturation {r['sat']['per_s'] / floor['sat']['per_s']:.2f}x, {extra}"
              f"memory {r['rss_per_watcher_kb'] / floor['rss_per_watcher_kb']:.2f}x = {r['rss_per_watcher_kb']:.1f} KB "
              f"per idle watcher (target <= 10 KB), "
              f"stalled watcher raises p99 by {100 * (st['p99'] / s['p99'] - 1):+.0f}% (target < 10%), "
              f"every update delivered: {s['count'] == s['expected']}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--floor-server":
        floor_server(int(sys.argv[2]), sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--watchers", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=20)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--sat-rate", type=float, default=400)
    ap.add_argument("--sat-seconds", type=float, default=5)
    ap.add_argument("--sat-watchers", type=int, default=5000,
                    help="then the same saturation with this many watchers (0: skip)")
    ap.add_argument("--redis", action="store_true",
                    help="also two hub processes, and one hub + two gateway processes, on PostgreSQL + Redis")
    ap.add_argument("--repeat", type=int, default=1, help="run everything N times; print each and the medians")
    ap.add_argument("--rows", default="floor,default,hub,gateway,2hubs,2gateways",
                    help="which servers to measure (the floor always runs)")
    ap.add_argument("--client", choices=("c", "node"), default="c",
                    help="load client: bench/load.c (default, cheap on CPU) or bench/load.js (Node, `ws`)")
    asyncio.run(bench(ap.parse_args()))


if __name__ == "__main__":
    main()
