"""`cuehub simulate`: simulated table tablets that play plausible billiards against a hub.

The simulator is a protocol client only (it uses ``cuehub_client`` and never the rules
engine): it reads the match projection, picks a stroke a real player could have made, sends
it over the table socket and waits for the answer. Given ``--seed`` every table plays the same
strokes in the same order on every run.

The tablets are in simulate_tables.py, a whole draw in simulate_draw.py; this module is the
progress display, the report and the command line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

try:  # packaged with the hub (pyproject); fall back to the checkout layout
    from cuehub_client import HubError
except ImportError:  # pragma: no cover - only in a bare checkout without an install
    sys.path.insert(
        0,
        os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "clients", "python"),
    )
    from cuehub_client import HubError

from hub.tools.simulate_draw import (  # noqa: F401 - demo.py, tests
    DRAW_TYPES,
    DrawPlan,
    DrawSimulator,
    describe,
    player_names,
    staged,
)
from hub.tools.simulate_tables import Simulator, Stats, TableSlot  # noqa: F401 - demo.py, tests
from hub.tools.strokes import (  # noqa: F401 - CALLED_FOULS, balls_on re-exported for the tests
    CALLED_FOULS,
    NAMES,
    TableSpec,
    balls_on,
    default_specs,
    match_setup,
    next_command,
    player_in,
)

# --------------------------------------------------------------------------------------
# progress display and report


def _score_line(m: dict[str, Any] | None) -> str:
    if not m:
        return "-"
    players = m.get("players", [])
    scores = " : ".join(f"{p.get('name', p.get('id'))} {p.get('score', 0)}" for p in players)
    rack = m.get("rack") or {}
    return f"{scores}  rack {rack.get('number', '-')}  {m.get('status')}"


class Progress:
    """Redraws a status block on a terminal, or prints a summary line now and then elsewhere."""

    def __init__(self, sim: Simulator, out: TextIO = sys.stdout, interval: float = 0.5) -> None:
        self.sim = sim
        self.out = out
        self.tty = hasattr(out, "isatty") and out.isatty()
        self.interval = interval if self.tty else 5.0
        self._lines = 0

    def summary(self) -> str:
        s = self.sim.stats
        total = "∞" if self.sim.matches is None else str(self.sim.matches * len(self.sim.slots))
        el = time.monotonic() - self.sim.started
        return (f"[{el:6.1f}s] matches {s.matches_finished}/{total} finished · strokes {s.strokes} · "
                f"acks {s.acks} · rejects {s.rejects}")

    def render(self) -> None:
        if not self.tty:
            print(self.summary(), file=self.out, flush=True)
            return
        lines = [self.summary()]
        for slot in self.sim.slots:
            m = slot.match
            d = slot.spec.discipline
            lines.append(f"  {slot.table_name:<9} {d:<13} #{slot.played + (0 if slot.done else 1):<3} "
                         f"{_score_line(m)[:80]:<80} {slot.last_label}")
        lines += [f"  · {msg}" for msg in list(self.sim.messages)[-3:]]
        buf = ""
        if self._lines:
            buf += f"\x1b[{self._lines}F"
        buf += "".join(f"\x1b[2K{line}\n" for line in lines)
        if len(lines) < self._lines:
            buf += "\x1b[J"
        self._lines = len(lines)
        self.out.write(buf)
        self.out.flush()

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.render()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval)


def report(stats: Stats, elapsed: float) -> str:
    p50 = stats.percentile(50)
    p99 = stats.percentile(99)
    fmt = lambda v: "n/a" if v is None else f"{v:.1f} ms"  # noqa: E731
    lines = [
        f"done in {elapsed:.1f}s: {stats.matches_finished}/{stats.matches_created} matches finished, "
        f"{stats.strokes} strokes",
        f"acks {stats.acks}  rejects {stats.rejects}"
        + (f" ({', '.join(f'{k} {v}' for k, v in stats.reject_codes.most_common())})" if stats.rejects else ""),
        f"latency p50 {fmt(p50)}  p99 {fmt(p99)}",
    ]
    if stats.errors:
        lines.append("errors:")
        lines += [f"  {e}" for e in stats.errors]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# CLI


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cuehub simulate", description="Drive a running hub with simulated table tablets.")
    p.add_argument("--url", default=os.environ.get("HUB_URL", "http://127.0.0.1:8000"), help="hub base URL")
    p.add_argument(
        "--admin-token", default=os.environ.get("HUB_ADMIN_TOKEN"), help="admin token (default $HUB_ADMIN_TOKEN)"
    )
    p.add_argument("--tables", type=int, default=4, help="number of tables (disciplines rotate)")
    p.add_argument("--matches", type=int, default=1, help="matches per table, played one after another")
    p.add_argument("--speed", type=float, default=1.0, help="pace multiplier (1 = a stroke every few seconds)")
    p.add_argument("--seed", type=int, default=0, help="random seed; the same seed plays the same strokes")
    p.add_argument("--length", type=int, default=3, help="race_to / racks of each match")
    p.add_argument("--disciplines", default="",
                   help="comma-separated disciplines to rotate (default: every one the hub judges stroke by stroke)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    d = p.add_argument_group("a whole draw (the hub calls every match; the tablets only play them)")
    d.add_argument("--draw", choices=DRAW_TYPES, default=None, help="set up a draw of this type and play it to its end")
    d.add_argument("--players", type=int, default=16, help="players in the draw (default 16)")
    d.add_argument(
        "--discipline", default=None,
        help="the draw's discipline (default: the hub's first one with as many players as the draw type takes)"
    )
    d.add_argument("--seeding", choices=("random", "seeded"), default="random")
    d.add_argument("--groups", type=int, default=None, help="round_robin: groups")
    d.add_argument("--rounds", type=int, default=None, help="chase_groups: rounds")
    d.add_argument("--shot-clock", action="store_true", help="the draw's matches have a shot clock")
    d.add_argument("--then", type=int, default=None, metavar="K",
                   help="a second stage, a knockout: the best K of each group (round_robin) or the last K "
                        "players (double_elimination: 4, 8, 16...)")
    d.add_argument("--final-length", type=int, default=None, metavar="N",
                   help="the final (of the knockout, or the grand final) is played to N")
    return p


async def _main_async(args: argparse.Namespace) -> int:
    disciplines = [d.strip() for d in args.disciplines.split(",") if d.strip()]
    progress_out = sys.stdout
    log = None if (not args.quiet and progress_out.isatty()) else (lambda m: print(m, file=sys.stderr))
    sim: Simulator
    if args.draw:
        plan = DrawPlan(args.draw, players=args.players, tables=args.tables, discipline=args.discipline,
                        length=args.length, shot_clock=args.shot_clock, seeding=args.seeding, groups=args.groups,
                        rounds=args.rounds, then_advance=args.then, final_length=args.final_length)
        sim = DrawSimulator(args.url, args.admin_token, plan, speed=args.speed, seed=args.seed, log=log)
    else:
        sim = Simulator(args.url, args.admin_token, tables=args.tables, matches=args.matches, speed=args.speed,
                        seed=args.seed, length=args.length, rotate=disciplines, log=log)
    try:
        await sim.setup()
    except ValueError as exc:  # a discipline the hub does not have
        await sim.aclose()
        print(str(exc), file=sys.stderr)
        return 2
    except (HubError, OSError, Exception) as exc:  # noqa: B014 - report any setup failure plainly
        await sim.aclose()
        print(f"setup failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    assert sim.tournament is not None  # setup made it
    if isinstance(sim, DrawSimulator):
        print(f"tournament {sim.tournament['id']} ({sim.tournament_name}): {describe(sim.plan, sim.traits)}, "
              f"{sim.plan.players} players, {len(sim.slots)} tables, speed {args.speed}", flush=True)
    else:
        print(f"tournament {sim.tournament['id']} ({sim.tournament_name}): {len(sim.slots)} tables, "
              f"{args.matches} match(es) each, speed {args.speed}", flush=True)
    stop = asyncio.Event()
    done = asyncio.Event()
    progress = None if args.quiet else Progress(sim, progress_out)
    ptask = asyncio.create_task(progress.run(done)) if progress else None
    loop = asyncio.get_running_loop()
    import signal

    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGINT, stop.set)
    try:
        stats = await sim.run(stop)
    finally:
        done.set()
        if ptask is not None and progress is not None:
            await ptask
            progress.render()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGINT)
    print(report(stats, time.monotonic() - sim.started), flush=True)
    if isinstance(sim, DrawSimulator):
        if not sim.finished:
            return 130 if stop.is_set() else 1
        print(f"draw finished: champion {sim.champion_name or '-'} ({sim.champion})", flush=True)
        return 0 if not stats.errors else 1
    if stop.is_set():
        return 130
    return 0 if not stats.errors and stats.matches_finished == stats.matches_created else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    if not args.admin_token:
        print("an admin token is needed: --admin-token or $HUB_ADMIN_TOKEN", file=sys.stderr)
        return 2
    if args.speed <= 0 or args.tables < 1 or args.matches < 1:
        print("--speed must be > 0, --tables and --matches at least 1", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_main_async(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
