"""`cuehub demo`: a hub with live demo draws, in one command.

Starts the hub in this process (uvicorn, an SQLite file in a temporary or given folder, the
in-memory bus) and sets up a real draw for every discipline that has a demo event (DEMO_EVENTS,
read from the registry: each discipline module's ``demo_event``, e.g. a 16-player double elimination
on 8 tables down to the last 4, then their knockout with a longer final; a three-player group night;
a cup; a league in two groups whose best two play a knockout; a night scored rack by rack); from
then on nobody creates a match: the hub calls each one to the next free table, and simulated
tablets (``hub.tools.simulate.DrawSimulator``) play what their table is given. It prints the page URLs
and the admin token; Ctrl-C stops everything cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import uvicorn

from hub.draws import draw_formats
from hub.rules.disciplines import DISCIPLINES
from hub.tools.simulate import DrawPlan, DrawSimulator, Progress, Stats, describe, report

# What the demo runs: real draws, one for each discipline with a demo event, in the registry's order.
# The hub calls every match to a free table by itself; the simulated tablets only play what they are
# given, and a finished draw is followed by its next edition.
# The team event's game: the registry's first judged game of two sides raced to a length.
_TEAM_GAME = next(name for name, d in DISCIPLINES.items()
                  if d.traits.players == 2 and d.traits.win_ball is not None and d.traits.formats[0] == "race_to")
DEMO_EVENTS: tuple[DrawPlan, ...] = tuple(
    DrawPlan(discipline=name, **d.demo_event) for name, d in DISCIPLINES.items() if d.demo_event is not None
) + (
    # A team event (PROTOCOL.md section 15): four teams of four, five singles rubbers first to 3, on 3 tables.
    DrawPlan(type=draw_formats.knockouts()[0], players=4, tables=3, discipline=_TEAM_GAME, length=3,
             name="cuehub team cup", team={"members": 4, "rubbers": [{"kind": "singles"}] * 5, "to_win": 3}),
)


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: the demo stops it itself, in order."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
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
    tables = sum(plan.tables for plan in DEMO_EVENTS)
    p = argparse.ArgumentParser(prog="cuehub demo", description=f"Start a hub with live demo draws ({tables} "
                                f"simulated tables, {len(DEMO_EVENTS)} disciplines).")
    p.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--data-dir", default=None,
                   help="folder for the SQLite file (default: a temporary folder, removed on exit)")
    p.add_argument("--speed", type=float, default=1.0, help="pace multiplier (1 = a stroke every few seconds)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the simulated players")
    p.add_argument("--length", type=int, default=3, help="racks / race_to of each demo match (default 3)")
    p.add_argument("--no-progress", action="store_true", help="no live status display")
    return p


def _banner(sims: list[DrawSimulator], public: str, token: str, db_path: Path, temporary: bool) -> str:
    lines = [
        "",
        f"cuehub demo is running at {public}/",
        f"  admin token : {token}",
        f"  database    : {db_path}{'  (temporary, removed on exit)' if temporary else ''}",
        "",
        f"  home        : {public}/",
        f"  desk        : {public}/desk  (sign in with the admin token)",
        "",
    ]
    for sim in sims:
        assert sim.tournament is not None
        tid, plan = sim.tournament["id"], sim.plan
        lines += [
            f"  {sim.tournament_name}: {describe(plan, sim.traits)}, {plan.players} players, "
            f"{plan.discipline}, {plan.tables} tables",
            f"      scoreboard  {public}/board/{tid}",
            f"      bracket     {public}/bracket/{tid}",
        ]
        for slot in sim.slots:
            lines += [
                f"      {slot.table_name:<8}    tablet {public}/tablet/{slot.table_id}#token={slot.token}",
                f"                  overlay {public}/overlay/{slot.table_id}"
                f"  watch {public}/watch/table/{slot.table_id}",
            ]
        lines.append("")
    lines += [
        "  Nobody creates a match: the hub calls each one to the next free table when it is ready, and the",
        "  tablet, board, overlay and watch pages follow their table. A finished draw starts its next edition.",
        "  (commentator: /commentator/<match id>, linked from the home page and the bracket.)",
        "  Ctrl-C stops the demo.",
        "",
    ]
    return "\n".join(lines)


class DemoEvents:
    """The demo's draws, each replayed as a new edition once it is finished."""

    def __init__(self, base_url: str, token: str, plans: tuple[DrawPlan, ...], *, speed: float, seed: int,
                 length: int, log: Any) -> None:
        self.base_url, self.token, self.speed, self.seed, self.log = base_url, token, speed, seed, log
        self.plans = [replace(p, length=length) for p in plans]
        self.sims: list[DrawSimulator] = []
        self.stats = Stats()
        self.editions = [1] * len(self.plans)
        self.started = time.monotonic()
        self.matches = None  # for Progress: no fixed number of matches
        self.messages: collections.deque[str] = collections.deque(maxlen=6)

    @property
    def slots(self) -> list[Any]:
        return [slot for sim in self.sims for slot in sim.slots]

    def _sim(self, i: int) -> DrawSimulator:
        plan = self.plans[i]
        if self.editions[i] > 1:
            plan = replace(plan, name=f"{plan.name} #{self.editions[i]}")
        sim = DrawSimulator(
            self.base_url, self.token, plan, speed=self.speed, seed=self.seed + 97 * self.editions[i] + i, log=self.log
        )
        sim.stats = self.stats  # one report for the whole demo
        sim.messages = self.messages
        return sim

    async def setup(self) -> None:
        self.sims = [self._sim(i) for i in range(len(self.plans))]
        for sim in self.sims:
            await sim.setup()

    async def run(self, stop: asyncio.Event) -> Stats:
        async def keep_playing(i: int) -> None:
            while not stop.is_set():
                await self.sims[i].run(stop)
                if stop.is_set() or not self.sims[i].finished:
                    return
                self.editions[i] += 1
                nxt = self._sim(i)
                await nxt.setup()
                self.sims[i] = nxt
                if self.log:
                    self.log(f"{nxt.tournament_name}: a new edition starts ({nxt.tournament['id']})")  # type: ignore[index]

        await asyncio.gather(*(keep_playing(i) for i in range(len(self.plans))))
        return self.stats

    async def aclose(self) -> None:
        for sim in self.sims:
            await sim.aclose()


async def run_demo(args: argparse.Namespace) -> int:
    from hub.app import create_app
    from hub.cli import uvicorn_options

    temporary = args.data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="cuehub-demo-")) if temporary else Path(args.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    db_path = (data_dir / "cuehub.db").resolve()
    token = os.environ.get("HUB_ADMIN_TOKEN") or secrets.token_urlsafe(18)
    settings = _demo_settings(args, db_path, token)
    client_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    _signals(loop, stop.set)
    try:
        sock = _listen(args.host, args.port)
    except OSError as exc:
        print(f"cuehub demo: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        if temporary:
            shutil.rmtree(data_dir, ignore_errors=True)
        return 1
    port = sock.getsockname()[1]
    base_url = f"http://{client_host}:{port}"
    settings = settings.with_(port=port)
    app = create_app(settings)
    # The same uvicorn options as `cuehub serve` (/ws/watch on the watch gateway's fast front).
    config = uvicorn.Config(app, host=args.host, port=port, log_level="warning",
                            lifespan="on", timeout_graceful_shutdown=3, **uvicorn_options(settings, app))
    server = _Server(config)
    serve_task = asyncio.create_task(server.serve(sockets=[sock]), name="uvicorn")
    sim: DemoEvents | None = None
    sim_task: asyncio.Task | None = None
    progress_task: asyncio.Task | None = None
    progress_done = asyncio.Event()
    code = 0
    started = time.monotonic()
    try:
        not_started = await _until_started(server, serve_task, stop, args)
        if not_started is not None:
            return not_started
        tty = sys.stdout.isatty() and not args.no_progress
        sim = DemoEvents(base_url, token, DEMO_EVENTS, speed=args.speed, seed=args.seed, length=args.length,
                         log=None if tty else (lambda m: _say(m, err=True)))
        await sim.setup()
        print(_banner(sim.sims, base_url, token, db_path, temporary), flush=True)
        print(f"cuehub demo ready: tournament {sim.sims[0].tournament['id']}", flush=True)  # type: ignore[index]
        if tty:
            progress_task = asyncio.create_task(Progress(sim, sys.stdout).run(progress_done))  # type: ignore[arg-type]
        sim_task = asyncio.create_task(sim.run(stop), name="simulator")
        stop_wait = asyncio.create_task(stop.wait())
        await asyncio.wait({stop_wait, serve_task, sim_task}, return_when=asyncio.FIRST_COMPLETED)
        stop_wait.cancel()
        if serve_task.done() and not stop.is_set():
            print("cuehub demo: the hub stopped unexpectedly", file=sys.stderr)
            code = 1
    finally:
        stop.set()
        await _stop_simulator(sim, sim_task, progress_task, progress_done)
        await _stop_server(server, serve_task)
        _signals(loop, None)
        if sim is not None:
            _say(report(sim.stats, time.monotonic() - started))
        if temporary:
            shutil.rmtree(data_dir, ignore_errors=True)
        _say("demo stopped.")
    return code


def _demo_settings(args: argparse.Namespace, db_path: Path, token: str) -> Any:
    """The demo hub's settings: the environment's, on a SQLite file, with the in-process bus."""
    from hub.settings import Settings

    return Settings.from_env().with_(
        database_url=f"sqlite+aiosqlite:///{db_path}",
        database_schema=None,
        admin_token=token,
        bus_url="memory://",
        host=args.host,
        port=args.port,
    )


def _signals(loop: asyncio.AbstractEventLoop, handler: Callable[[], None] | None) -> None:
    """SIGINT and SIGTERM call `handler` (None: the handlers are removed)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            if handler is None:
                loop.remove_signal_handler(sig)
            else:
                loop.add_signal_handler(sig, handler)


async def _until_started(server: Any, serve_task: asyncio.Task, stop: asyncio.Event,
                         args: argparse.Namespace) -> int | None:
    """None once uvicorn listens; else the exit code (it failed to start, or the demo was stopped)."""
    while not server.started:
        if serve_task.done():
            exc = None if serve_task.cancelled() else serve_task.exception()
            print(f"cuehub demo: the hub did not start on {args.host}:{args.port}"
                  f"{f' ({exc!r})' if exc and not isinstance(exc, SystemExit) else ''}", file=sys.stderr)
            return 1
        if stop.is_set():
            return 130
        await asyncio.sleep(0.02)
    return None


async def _stop_simulator(sim: DemoEvents | None, sim_task: asyncio.Task | None, progress_task: asyncio.Task | None,
                          progress_done: asyncio.Event) -> None:
    """The progress display, then the simulated tablets (given 5 s to finish their strokes)."""
    progress_done.set()
    if progress_task is not None:
        with contextlib.suppress(Exception):
            await progress_task
    _say("\nstopping the demo ...")
    if sim_task is not None:
        try:
            await asyncio.wait_for(sim_task, 5)
        except (TimeoutError, Exception):
            sim_task.cancel()
            with contextlib.suppress(BaseException):
                await sim_task
    elif sim is not None:
        await sim.aclose()


async def _stop_server(server: Any, serve_task: asyncio.Task) -> None:
    """uvicorn's graceful shutdown (6 s), then a forced one."""
    server.should_exit = True
    try:
        await asyncio.wait_for(asyncio.shield(serve_task), 6)
    except (TimeoutError, Exception, SystemExit):
        server.force_exit = True
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(serve_task, 2)


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
