"""`cuehub demo`: a hub with a live demo tournament, in one command.

Starts the hub in this process (uvicorn, an SQLite file in a temporary or given folder, the
in-memory bus), creates a tournament with 8 tables mixing the four disciplines, and drives
them with simulated tablets (``hub.simulate``) so every page has something to show. It prints
the page URLs and the admin token; Ctrl-C stops everything cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

import uvicorn

from hub.simulate import Progress, Simulator, TableSpec, report

DEMO_TABLES: tuple[TableSpec, ...] = (
    TableSpec("golden_nine", shot_clock=True, name="Table 1"),
    TableSpec("chase_nine", name="Table 2"),
    TableSpec("wpa_nine", name="Table 3"),
    TableSpec("chinese_eight", name="Table 4"),
    TableSpec("golden_nine", shot_clock=True, handicap=True, name="Table 5"),
    TableSpec("chase_nine", shot_clock=True, name="Table 6"),
    TableSpec("wpa_nine", shot_clock=True, name="Table 7"),
    TableSpec("chinese_eight", name="Table 8"),
)


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: the demo stops it itself, in order."""

    @contextlib.contextmanager
    def capture_signals(self):  # type: ignore[override]
        yield


def _say(text: str, err: bool = False) -> None:
    """print() that never breaks the shutdown (a closed pipe, a gone terminal)."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr if err else sys.stdout, flush=True)


def _listen(host: str, port: int) -> socket.socket:
    """Bind the listening socket first, so a busy port is a plain message, not a traceback."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cuehub demo",
                                description="Start a hub with a live demo tournament (8 simulated tables).")
    p.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--data-dir", default=None,
                   help="folder for the SQLite file (default: a temporary folder, removed on exit)")
    p.add_argument("--speed", type=float, default=1.0, help="pace multiplier (1 = a stroke every few seconds)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the simulated players")
    p.add_argument("--length", type=int, default=5, help="racks / race_to of each demo match (default 5)")
    p.add_argument("--no-progress", action="store_true", help="no live status display")
    return p


def _banner(sim: Simulator, public: str, token: str, db_path: Path, temporary: bool) -> str:
    assert sim.tournament is not None
    tid = sim.tournament["id"]
    lines = [
        "",
        f"cuehub demo is running at {public}/",
        f"  admin token : {token}",
        f"  database    : {db_path}{'  (temporary, removed on exit)' if temporary else ''}",
        "",
        f"  home        : {public}/",
        f"  scoreboard  : {public}/board/{tid}",
        "",
    ]
    for slot in sim.slots:
        spec = slot.spec
        extra = []
        if spec.shot_clock:
            extra.append("shot clock")
        if spec.handicap:
            extra.append("handicap 8")
        if spec.discipline == "chase_nine":
            extra.append("3 players")
        mid = slot.match_ids[0]
        title = f"{slot.table_name} · {spec.discipline}" + (f" ({', '.join(extra)})" if extra else "")
        lines += [
            f"  {title}",
            f"      tablet      {public}/tablet/{slot.table_id}#token={slot.token}",
            f"      overlay     {public}/overlay/{slot.table_id}",
            f"      commentator {public}/commentator/{mid}",
            f"      watch       {public}/watch/{mid}",
        ]
    lines += [
        "",
        "  (commentator and watch links are for each table's first match; the overlay and the",
        "   scoreboard follow the next matches by themselves.)",
        "  Ctrl-C stops the demo.",
        "",
    ]
    return "\n".join(lines)


async def run_demo(args: argparse.Namespace) -> int:
    from hub.app import create_app
    from hub.settings import Settings

    temporary = args.data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="cuehub-demo-")) if temporary else Path(args.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    db_path = (data_dir / "cuehub.db").resolve()
    token = os.environ.get("HUB_ADMIN_TOKEN") or secrets.token_urlsafe(18)
    settings = Settings.from_env().with_(
        database_url=f"sqlite+aiosqlite:///{db_path}",
        database_schema=None,
        admin_token=token,
        bus_url="memory://",
        host=args.host,
        port=args.port,
    )
    client_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    base_url = f"http://{client_host}:{args.port}"

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)

    try:
        sock = _listen(args.host, args.port)
    except OSError as exc:
        print(f"cuehub demo: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        if temporary:
            shutil.rmtree(data_dir, ignore_errors=True)
        return 1
    port = sock.getsockname()[1]
    base_url = f"http://{client_host}:{port}"
    config = uvicorn.Config(create_app(settings.with_(port=port)), host=args.host, port=port, log_level="warning",
                            lifespan="on", timeout_graceful_shutdown=3,
                            ws_ping_interval=settings.ws_ping_s, ws_ping_timeout=settings.ws_ping_s)
    server = _Server(config)
    serve_task = asyncio.create_task(server.serve(sockets=[sock]), name="uvicorn")
    sim: Simulator | None = None
    sim_task: asyncio.Task | None = None
    progress_task: asyncio.Task | None = None
    progress_done = asyncio.Event()
    code = 0
    try:
        while not server.started:
            if serve_task.done():
                exc = None if serve_task.cancelled() else serve_task.exception()
                print(f"cuehub demo: the hub did not start on {args.host}:{args.port}"
                      f"{f' ({exc!r})' if exc and not isinstance(exc, SystemExit) else ''}", file=sys.stderr)
                return 1
            if stop.is_set():
                return 130
            await asyncio.sleep(0.02)

        tty = sys.stdout.isatty() and not args.no_progress
        sim = Simulator(base_url, token, specs=DEMO_TABLES if args.length == 5 else
                        [TableSpec(s.discipline, s.shot_clock, s.handicap, args.length, s.name) for s in DEMO_TABLES],
                        matches=None, speed=args.speed, seed=args.seed, tournament_name="cuehub demo open",
                        log=None if tty else (lambda m: _say(m, err=True)))
        await sim.setup()
        print(_banner(sim, base_url, token, db_path, temporary), flush=True)
        print(f"cuehub demo ready: tournament {sim.tournament['id']}", flush=True)  # type: ignore[index]
        if tty:
            progress_task = asyncio.create_task(Progress(sim, sys.stdout).run(progress_done))
        sim_task = asyncio.create_task(sim.run(stop), name="simulator")
        stop_wait = asyncio.create_task(stop.wait())
        await asyncio.wait({stop_wait, serve_task, sim_task}, return_when=asyncio.FIRST_COMPLETED)
        stop_wait.cancel()
        if serve_task.done() and not stop.is_set():
            print("cuehub demo: the hub stopped unexpectedly", file=sys.stderr)
            code = 1
    finally:
        stop.set()
        progress_done.set()
        if progress_task is not None:
            with contextlib.suppress(Exception):
                await progress_task
        _say("\nstopping the demo ...")
        if sim_task is not None:
            try:
                await asyncio.wait_for(sim_task, 5)
            except (asyncio.TimeoutError, Exception):
                sim_task.cancel()
                with contextlib.suppress(BaseException):
                    await sim_task
        elif sim is not None:
            await sim.aclose()
        server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(serve_task), 6)
        except (asyncio.TimeoutError, Exception, SystemExit):
            server.force_exit = True
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(serve_task, 2)
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)
        if sim is not None:
            _say(report(sim.stats, time.monotonic() - sim.started))
        if temporary:
            shutil.rmtree(data_dir, ignore_errors=True)
        _say("demo stopped.")
    return code


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    if args.speed <= 0 or args.length < 1:
        print("--speed must be > 0 and --length at least 1", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run_demo(args))
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
