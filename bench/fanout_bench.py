"""Fan-out benchmark: the hub's /ws/watch against the floor, a bare `websockets` server that
broadcasts the same message bytes with websockets.broadcast(), and Node's `ws` doing the same.

    python bench/fanout_bench.py [--watchers 1000] [--rates 20,50] [--seconds 10]
                                 [--sat-rate 400] [--sat-seconds 5] [--redis] [--repeat N]
                                 [--sat-watchers 5000] [--no-stalled]
                                 [--rows floor,node,picows,default,hub,gateway,2hubs,2gateways] [--client c|node]

Runs, for the floor, for `node ws` (bench/node_floor.js: a bare `ws` server broadcasting the same
bytes; where `node` is installed, `ws` put in bench/node_modules by `npm install` on first use, not
in git), for `picows` (a bare picows server broadcasting the same bytes: a Cython WebSocket for
asyncio, weighed as a faster watch front; where `pip install picows` put it, not a dependency)
and for the hub (SQLite, memory bus): `default`, a plain `cuehub serve` (what pages and
watchers get with nothing set: /ws/watch on the hub's port, served by the watch gateway's
websockets front, hub/watch/uvicorn_front.py); `hub`, the app under `uvicorn --factory`
(uvicorn's own WebSocket protocol: the FastAPI /ws/watch, the fallback for other servers);
`gateway`, the in-process watch gateway on a port of its own (HUB_WATCH_PORT); with
--redis also two hub processes on PostgreSQL + Redis sharing the watchers, and one hub + two
`cuehub gateway` processes on the same Redis sharing them: N watcher sockets from the load client,
real match updates (legal shots through the table socket; the floor and Node get a trigger per
update and broadcast a message built like the hub's from a real projection), and prints, for each
rate of --rates, delivered/expected, p50/p99/max latency (receive time minus the message's
server_time) side by side with the ratios to the floor and to Node, and the server's CPU share;
then deliveries/s at saturation (with --watchers, then with --sat-watchers), server and
load-client CPU per delivery, server RSS per idle watcher; with the load average of the box at each
run's start and end and at each row. Not part of the test suite.

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
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
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


def broadcast_payload(payload_file: str) -> tuple[str, str, str]:
    """What a bare broadcaster sends (the floor's and picows' servers): the projection and the event
    as JSON text, as the hub's watch side writes them, and the channel."""
    from hub.watch.history import dumps

    spec = json.loads(Path(payload_file).read_text())
    return dumps(spec["projection"]), dumps(spec["event"]), spec["channel"]


def run_server_loop(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a bare broadcaster's `main` on uvloop where it is installed, else on asyncio."""
    try:
        import uvloop

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())


def floor_server(port: int, payload_file: str) -> None:
    """A bare websockets server: watchers on /, a trigger socket on /control; one trigger, one
    broadcast of an update message built like the hub builds it."""
    from websockets.asyncio.server import broadcast, serve

    from hub.wire.watch import message

    data, event, channel = broadcast_payload(payload_file)
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

    run_server_loop(main)


def picows_server(port: int, payload_file: str) -> None:
    """The floor's server with picows (a Cython WebSocket for asyncio: frames built and parsed in C)
    in place of websockets, to weigh a faster front for the watch gateway: the same bytes, one
    `send` per watcher per trigger, as floor_server's `broadcast`."""
    import picows

    from hub.wire.watch import message

    data, event, channel = broadcast_payload(payload_file)
    watchers: set[Any] = set()
    version = 0
    text = picows.WSMsgType.TEXT

    def closing(transport: Any, frame: Any) -> bool:
        if frame.msg_type != picows.WSMsgType.CLOSE:
            return False
        watchers.discard(transport)
        transport.send_close(frame.get_close_code())
        transport.disconnect()
        return True

    class Watcher(picows.WSListener):  # type: ignore[misc]
        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            if not closing(transport, frame) and transport not in watchers:  # the subscribe
                transport.send(text, message("snapshot", channel, version, data).encode())
                watchers.add(transport)

        def on_ws_disconnected(self, transport: Any) -> None:
            watchers.discard(transport)

    class Control(picows.WSListener):  # type: ignore[misc]
        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            nonlocal version
            if closing(transport, frame):
                return
            version += 1
            update = message("update", channel, version, data, event).encode()
            for w in watchers:
                w.send(text, update)

    def listener(request: Any) -> Any:
        return Control() if request.path in ("/control", b"/control") else Watcher()  # bytes in picows 2

    async def main() -> None:
        server = await picows.ws_create_server(listener, "127.0.0.1", port, backlog=2048)
        await server.serve_forever()

    run_server_loop(main)


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
                     trigger: Callable[[], Awaitable[None]], args: argparse.Namespace,
                     metrics_ports: list[int] | None = None) -> dict[str, Any]:
    """One row: memory per idle watcher, latency at each rate, saturation; with `metrics_ports`
    (hub processes), the rounds held and messages per write of each phase too."""

    def counts() -> dict[str, float] | None:
        return outbox_counts(metrics_ports) if metrics_ports else None

    await asyncio.sleep(0.5)
    base = sum(rss_kb(p) for p in pids)
    ready = await asyncio.to_thread(load.ask, cmd="connect", urls=urls, n=args.watchers, channel=channel)
    await asyncio.sleep(2.0)
    idle = sum(rss_kb(p) for p in pids)
    res: dict[str, Any] = {"name": name, "rss_per_watcher_kb": (idle - base) / args.watchers, "connected": ready["n"],
                           "load": os.getloadavg()[0]}
    print(f"  {name}: {ready['n']} watchers, RSS {base/1024:.0f} -> {idle/1024:.0f} MB", flush=True)
    # Warm-up (not measured), the same for every row: the first updates after a thousand sockets
    # connected pay for lazily grown buffers and caches on both sides.
    await publish(trigger, args.rates[0], 2.0)
    await asyncio.sleep(1.0)
    res["steady"] = {}
    for rate in args.rates:
        cpu0, before = sum(cpu_s(p) for p in pids), counts()
        res["steady"][rate] = await measure(load, trigger, args.watchers, rate, args.seconds)
        with_outbox(res["steady"][rate], before, metrics_ports or [])
        # Server CPU as a share of one core over the phase (what "half a core at 50/s" means).
        res["steady"][rate]["cpu_share"] = (sum(cpu_s(p) for p in pids) - cpu0) / (args.seconds + 2.0)
        print(f"  {name}: {rate:g} updates/s {res['steady'][rate]}", flush=True)
    if args.stalled:
        await asyncio.to_thread(load.ask, cmd="stall", url=urls[0], channel=channel)
        res["stalled"] = await measure(load, trigger, args.watchers, args.rates[0], args.seconds)
        print(f"  {name}: with a stalled watcher {res['stalled']}", flush=True)
    cpu0, client0, before = sum(cpu_s(p) for p in pids), cpu_s(load.proc.pid), counts()
    res["sat"] = await measure(load, trigger, args.watchers, args.sat_rate, args.sat_seconds, settle=5.0)
    with_outbox(res["sat"], before, metrics_ports or [])
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
        cpu0, before = sum(cpu_s(p) for p in pids), counts()
        res["sat_many"] = await measure(load, trigger, ready["n"], args.sat_rate, args.sat_seconds, settle=5.0)
        with_outbox(res["sat_many"], before, metrics_ports or [])
        res["sat_many"]["watchers"] = ready["n"]
        res["sat_many"]["cpu_us"] = 1e6 * (sum(cpu_s(p) for p in pids) - cpu0) / max(res["sat_many"]["count"], 1)
        print(f"  {name}: saturation with {ready['n']} watchers {res['sat_many']}", flush=True)
    return res


def outbox_counts(ports: list[int]) -> dict[str, float]:
    """The watch outbox's counters summed over hub processes' /metrics: rounds held back (only while
    the event loop is behind, hub/watch/lag.py), socket writes, messages written."""
    import httpx

    names = {"cuehub_watch_held_rounds_total": "held", "cuehub_watch_writes_total": "writes",
             "cuehub_watch_messages_total": "messages"}
    out = dict.fromkeys(names.values(), 0.0)
    seen = set()
    for port in ports:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] in names:
                out[names[parts[0]]] += float(parts[1])
                seen.add(names[parts[0]])
    if "held" not in seen:
        out["held"] = float("nan")  # a hub from before the counter (an A/B of older code)
    return out


def with_outbox(phase: dict[str, Any], before: dict[str, float] | None, ports: list[int]) -> None:
    """Adds to a phase's result the rounds held and the messages per write during it (hub rows)."""
    if before is None:
        return
    after = outbox_counts(ports)
    phase["held"] = after["held"] - before["held"]
    phase["per_write"] = (after["messages"] - before["messages"]) / max(after["writes"] - before["writes"], 1)


def picows_ready() -> bool:
    """Whether the picows row can run: picows installed (`pip install picows`; not a dependency of
    the hub, only weighed here as a watch front)."""
    try:
        import picows  # noqa: F401
    except ImportError:
        return False
    return True


def node_ready() -> bool:
    """Whether the Node row can run: `node` on the PATH and `ws` installed in bench/ (npm install
    there once; bench/node_modules is not in git)."""
    if shutil.which("node") is None:
        return False
    if not (ROOT / "bench" / "node_modules" / "ws").exists():
        try:
            subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund"], cwd=ROOT / "bench",
                           check=True, timeout=300)
        except (OSError, subprocess.SubprocessError):
            return False
    return True


async def broadcaster_row(name: str, argv: list[str], port: int, mid: str, args: argparse.Namespace) -> dict[str, Any]:
    """A bare broadcasting server (the Python floor or Node `ws`) in a process of its own, measured
    like the hub: watchers on /, one broadcast per message on /control."""
    from websockets.asyncio.client import connect

    proc = subprocess.Popen(argv)  # noqa: ASYNC220  (returns at once; the port is waited for below)
    deadline = time.monotonic() + 30  # a loaded box takes a while to start a process
    while True:
        try:
            ctl = await connect(f"ws://127.0.0.1:{port}/control", ping_interval=None)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise
            await asyncio.sleep(0.2)

    async def trigger() -> None:
        await ctl.send("p")

    load = Load(args.client)
    try:
        return await run_server(name, load, [proc.pid], [f"ws://127.0.0.1:{port}/"], f"match:{mid}", trigger, args)
    finally:
        load.close()
        await ctl.close()
        proc.terminate()
        proc.wait(15)


async def hub_row(name: str, tmp: str, args: argparse.Namespace, **how: Any) -> dict[str, Any]:
    """A fresh hub setup (start_hubs(**how); RSS freed by a previous row's sockets would hide this
    one's cost), its own match, measured on its watch URLs."""
    watch_port = free_port() if how.pop("watch_port", False) else None
    procs, ports, gws, gports = start_hubs(tmp, watch_port=watch_port, **how)
    try:
        mid, _, _, trigger, _ = await hub_match(ports[0])
        watch = [watch_port] if watch_port is not None else gports or ports
        load = Load(args.client)
        try:
            return await run_server(name, load, [p.pid for p in procs + gws],
                                    [f"ws://127.0.0.1:{p}/ws/watch" for p in watch], f"match:{mid}", trigger, args,
                                    metrics_ports=ports + gports)
        finally:
            load.close()
    finally:
        stop(procs + gws)


async def bench_once(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = set(args.rows.split(","))
    results = []
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        hubs, ports, _, _ = start_hubs(tmp, 1, redis=False)
        try:
            mid, _, _, trigger, sample = await hub_match(ports[0])
            spec = Path(tmp) / "payload.json"
            spec.write_text(json.dumps(sample))
            print(f"payload: {len(json.dumps(sample['projection']))} bytes of projection", flush=True)
            fport = free_port()
            results.append(await broadcaster_row(
                "floor", [sys.executable, __file__, "--floor-server", str(fport), spec.as_posix()], fport, mid, args))
            if "node" in rows and node_ready():
                from hub.watch.history import dumps

                node_spec = Path(tmp) / "node_payload.json"
                node_spec.write_text(json.dumps({"channel": sample["channel"], "data": dumps(sample["projection"]),
                                                 "event": dumps(sample["event"])}))
                nport = free_port()
                results.append(await broadcaster_row(
                    "node ws", ["node", str(ROOT / "bench" / "node_floor.js"), str(nport), node_spec.as_posix()],
                    nport, mid, args))
            if "picows" in rows and picows_ready():
                pport = free_port()
                results.append(await broadcaster_row(
                    "picows", [sys.executable, __file__, "--picows-server", str(pport), spec.as_posix()], pport, mid,
                    args))
            if "hub" in rows:
                load = Load(args.client)
                try:
                    results.append(await run_server(
                        "asgi fallback", load, [hubs[0].pid], [f"ws://127.0.0.1:{ports[0]}/ws/watch"], f"match:{mid}",
                        trigger, args))
                finally:
                    load.close()
        finally:
            stop(hubs)
        if "default" in rows:
            # A plain `cuehub serve`: what pages and watchers get with nothing set.
            results.append(await hub_row("default", tmp, args, n=1, redis=False, cli=True))
        if "gateway" in rows:
            results.append(await hub_row("gateway", tmp, args, n=1, redis=False, watch_port=True))
        if args.redis and "2hubs" in rows:
            results.append(await hub_row("2 hubs+redis", tmp, args, n=2, redis=True))
        if args.redis and "2gateways" in rows:
            results.append(await hub_row("2 gw+redis", tmp, args, n=1, redis=True, gateways=2))
    for r in results:
        r["run_load"] = (load0, os.getloadavg()[0])
    return results


def median_rows(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per row, the median of each figure over the runs (delivered counts: the lowest)."""
    keys = ("p50", "p99", "max", "per_s", "cpu_us", "client_cpu_us", "cpu_share", "held", "per_write")

    def med(phases: list[dict[str, Any]]) -> dict[str, Any]:
        out = {k: statistics.median(p.get(k) or 0 for p in phases) for k in keys if all(k in p for p in phases)}
        out["count"] = min(p["count"] for p in phases)
        out["expected"] = phases[0]["expected"]
        out["watchers"] = phases[0].get("watchers")
        return out

    rows = []
    for i, first in enumerate(runs[0]):
        same = [run[i] for run in runs if i < len(run) and run[i]["name"] == first["name"]]
        row: dict[str, Any] = {"name": first["name"], "runs": len(same),
                               "rss_per_watcher_kb": statistics.median(r["rss_per_watcher_kb"] for r in same),
                               "load": statistics.median(r["load"] for r in same),
                               "run_load": (min(r["run_load"][0] for r in same), max(r["run_load"][1] for r in same)),
                               "steady": {rate: med([r["steady"][rate] for r in same]) for rate in first["steady"]}}
        for phase in ("stalled", "sat", "sat_many"):
            if all(phase in r for r in same):
                row[phase] = med([r[phase] for r in same])
        rows.append(row)
    return rows


async def bench(args: argparse.Namespace) -> None:
    runs = []
    for i in range(args.repeat):
        if args.repeat > 1:
            print(f"--- run {i + 1}/{args.repeat} (load average {os.getloadavg()[0]:.1f})", flush=True)
        runs.append(await bench_once(args))
        if args.repeat > 1:
            report(runs[-1], args, f"run {i + 1}")
    report(median_rows(runs) if args.repeat > 1 else runs[0], args,
           f"median of {args.repeat} runs" if args.repeat > 1 else "run 1")
    targets(runs, args)


def ratio(a: float | None, b: float | None) -> float:
    return (a or 0) / (b or 1)


def target_figures(run: list[dict[str, Any]], rates: list[float]) -> dict[str, float] | None:
    """The default row's figures against the fan-out targets, in one run (None: no default row)."""
    floor = run[0]
    row = next((r for r in run if r["name"] == "default"), None)
    if row is None:
        return None
    out = {"kb": ratio(row["rss_per_watcher_kb"], floor["rss_per_watcher_kb"]),
           "cpu": ratio(row["sat"].get("cpu_us"), floor["sat"].get("cpu_us"))}
    for rate in rates:
        out[f"p50@{rate:g}"] = ratio(row["steady"][rate]["p50"], floor["steady"][rate]["p50"])
        out[f"p99@{rate:g}"] = ratio(row["steady"][rate]["p99"], floor["steady"][rate]["p99"])
    if "sat_many" in row and "sat_many" in floor:
        out["sat_many"] = ratio(row["sat_many"]["per_s"], floor["sat_many"]["per_s"])
    return out


def targets(runs: list[list[dict[str, Any]]], args: argparse.Namespace) -> None:
    """The fan-out targets of a plain `cuehub serve`, run by run and their median: p50 and p99 at
    --watchers at most 1.0x the floor's at each rate, deliveries/s at --sat-watchers at least 1.4x
    the floor's, KB per idle watcher at most 0.6x the floor's."""
    figures = [f for f in (target_figures(run, args.rates) for run in runs) if f is not None]
    if not figures:
        return
    many = args.sat_watchers if args.sat_watchers > args.watchers else None
    print(f"\n=== default (`cuehub serve`) against the targets, ratios to the floor of the same run "
          f"(p50, p99 <= 1.0 at {args.watchers} watchers; saturation >= 1.4 at {many or '-'} watchers; "
          f"memory per idle watcher <= 0.6)")
    rows = [(f"run {i + 1}", f) for i, f in enumerate(figures)]
    if len(figures) > 1:
        rows.append(("median", {k: statistics.median(f[k] for f in figures) for k in figures[0]}))
    for (name, f), run in zip(rows, [*runs, runs[-1]], strict=False):
        lat = ", ".join(f"{k} {v:.3f}x" for k, v in f.items() if k.startswith("p"))
        sat = f"{f['sat_many']:.2f}x" if "sat_many" in f else "-"
        load = "" if name == "median" else f"  (load {run[0]['run_load'][0]:.1f} -> {run[0]['run_load'][1]:.1f})"
        print(f"  {name:7} {lat}; saturation {sat}; memory {f['kb']:.2f}x; server CPU per delivery at "
              f"saturation {f['cpu']:.2f}x{load}")
    last = rows[-1][1]
    met = {k: v <= 1.0 for k, v in last.items() if k.startswith("p")}
    met["memory"] = last["kb"] <= 0.6
    if "sat_many" in last:
        met["saturation"] = last["sat_many"] >= 1.4
    print("  " + rows[-1][0] + ": " + ", ".join(f"{k} {'met' if v else 'NOT met'}" for k, v in met.items()))


def held(phase: dict[str, Any]) -> str:
    """Rounds the hub's outbox held back during a phase ("-": not a hub row)."""
    return f"{phase['held']:.0f}" if "held" in phase and phase["held"] == phase["held"] else "-"


def report(results: list[dict[str, Any]], args: argparse.Namespace, title: str) -> None:
    floor = results[0]
    node = next((r for r in results if r["name"] == "node ws"), None)
    lo, hi = results[0]["run_load"]
    print(f"\n=== {title}: load average {lo:.1f} at its start, {hi:.1f} at its end")
    print(f"{args.watchers} watchers, {args.seconds:g} s per rate; saturation at {args.sat_rate:g} updates/s "
          f"for {args.sat_seconds:g} s")
    many = args.sat_watchers if args.sat_watchers > args.watchers else None
    for rate in args.rates:
        head = (f"{f'{rate:g}/s':6} {'server':14} {'delivered/expected':>20} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
                f"{'p50/floor':>9} {'p99/floor':>9} {'p50/node':>8} {'p99/node':>8} {'CPU':>5} {'held':>5} {'load':>5}")
        print(head)
        for r in results:
            s = r["steady"][rate]
            vs_node = (f"{ratio(s['p50'], node['steady'][rate]['p50']):>7.2f}x "
                       f"{ratio(s['p99'], node['steady'][rate]['p99']):>7.2f}x") if node else f"{'-':>8} {'-':>8}"
            print(f"{'':6} {r['name']:14} {s['count']:>9}/{s['expected']:<10} {s['p50'] or 0:>8.1f} "
                  f"{s['p99'] or 0:>8.1f} {s['max'] or 0:>8.1f} {ratio(s['p50'], floor['steady'][rate]['p50']):>8.2f}x "
                  f"{ratio(s['p99'], floor['steady'][rate]['p99']):>8.2f}x {vs_node} {s.get('cpu_share', 0):>5.2f} "
                  f"{held(s):>5} {r.get('load', 0):>5.1f}")
    head = (f"{'server':14} {'p99 stalled':>11} {'sat deliv/s':>12} {'held':>5} {'CPU us/deliv':>12} "
            f"{'KB/watcher':>10} {'client us/deliv':>15}")
    if many:
        head += f" {f'sat@{many} deliv/s':>18} {'ratio':>6} {'held':>5} {'msgs/write':>10}"
    print(head)
    for r in results:
        sat = r["sat"]
        stalled = r.get("stalled", {}).get("p99")
        line = (f"{r['name']:14} {stalled or 0:>11.1f} {sat['per_s']:>12.0f} {held(sat):>5} "
                f"{sat.get('cpu_us', 0):>12.1f} {r['rss_per_watcher_kb']:>10.1f} {sat.get('client_cpu_us', 0):>15.2f}")
        if many:
            sm = r.get("sat_many", {})
            per_write = f"{sm['per_write']:.2f}" if "per_write" in sm else "-"
            many_ratio = ratio(sm.get("per_s"), floor.get("sat_many", {}).get("per_s"))
            line += f" {sm.get('per_s', 0):>18.0f} {many_ratio:>5.2f}x {held(sm):>5} {per_write:>10}"
        print(line)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--floor-server":
        floor_server(int(sys.argv[2]), sys.argv[3])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--picows-server":
        picows_server(int(sys.argv[2]), sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--watchers", type=int, default=1000)
    ap.add_argument("--rates", "--rate", default="20,50",
                    help="updates/s of the latency phases, comma-separated (each --seconds long)")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--sat-rate", type=float, default=400)
    ap.add_argument("--sat-seconds", type=float, default=5)
    ap.add_argument("--sat-watchers", type=int, default=5000,
                    help="then the same saturation with this many watchers (0: skip)")
    ap.add_argument("--no-stalled", dest="stalled", action="store_false",
                    help="skip the phase with a watcher that stops reading")
    ap.add_argument("--redis", action="store_true",
                    help="also two hub processes, and one hub + two gateway processes, on PostgreSQL + Redis")
    ap.add_argument("--repeat", type=int, default=1, help="run everything N times; print each and the medians")
    ap.add_argument("--rows", default="floor,node,default,hub,gateway,2hubs,2gateways",
                    help="which servers to measure (the floor always runs; node: where Node is installed; "
                         "picows: where picows is installed, a bare picows server as the floor's)")
    ap.add_argument("--client", choices=("c", "node"), default="c",
                    help="load client: bench/load.c (default, cheap on CPU) or bench/load.js (Node, `ws`)")
    args = ap.parse_args()
    args.rates = [float(r) for r in str(args.rates).split(",")]
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
