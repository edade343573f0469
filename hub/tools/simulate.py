"""`cuehub simulate`: simulated table tablets that play plausible billiards against a hub.

The simulator is a protocol client only (it uses ``cuehub_client`` and never the rules
engine): it reads the match projection, picks a stroke a real player could have made, sends
it over the table socket and waits for the answer. Given ``--seed`` every table plays the same
strokes in the same order on every run.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import httpx

try:  # packaged with the hub (pyproject); fall back to the checkout layout
    from cuehub_client import AdminClient, CommandRejected, HubError, TableSession
except ImportError:  # pragma: no cover - only in a bare checkout without an install
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "clients", "python"))
    from cuehub_client import AdminClient, CommandRejected, HubError, TableSession

from hub.tools.strokes import (  # noqa: F401 - CALLED_FOULS, balls_on re-exported for the tests
    CALLED_FOULS,
    DISCIPLINES,
    NAMES,
    TableSpec,
    balls_on,
    default_specs,
    match_setup,
    next_command,
    player_in,
)

# --------------------------------------------------------------------------------------
# running tables


@dataclass
class Stats:
    acks: int = 0
    rejects: int = 0
    reject_codes: collections.Counter = field(default_factory=collections.Counter)
    latencies_ms: list[float] = field(default_factory=list)
    strokes: int = 0
    matches_created: int = 0
    matches_finished: int = 0
    errors: list[str] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)

    def percentile(self, q: float) -> float | None:
        if not self.latencies_ms:
            return None
        data = sorted(self.latencies_ms)
        k = min(len(data) - 1, max(0, int(round(q / 100 * (len(data) - 1)))))
        return data[k]


@dataclass
class TableSlot:
    index: int
    spec: TableSpec
    table_id: str
    table_name: str
    token: str
    rng: random.Random
    match: dict[str, Any] | None = None
    match_ids: list[str] = field(default_factory=list)
    played: int = 0
    last_label: str = ""
    done: bool = False


class Simulator:
    """Create a tournament with simulated tables and drive their matches."""

    def __init__(
        self,
        base_url: str,
        admin_token: str,
        *,
        tables: int = 4,
        matches: int | None = 1,
        speed: float = 1.0,
        seed: int = 0,
        length: int = 3,
        specs: Sequence[TableSpec] | None = None,
        tournament_name: str | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be > 0")
        self.base_url = base_url.rstrip("/")
        self.admin_token = admin_token
        self.specs = list(specs) if specs is not None else default_specs(tables, length)
        self.matches = matches
        self.speed = speed
        self.seed = seed
        self.tournament_name = tournament_name or f"Simulated open (seed {seed})"
        self.stats = Stats()
        self.slots: list[TableSlot] = []
        self.tournament: dict[str, Any] | None = None
        self.admin = AdminClient(self.base_url, admin_token)
        self.messages: collections.deque[str] = collections.deque(maxlen=6)
        self._log = log
        self.started = time.monotonic()
        self._sessions: list[TableSession] = []

    def log(self, msg: str) -> None:
        self.messages.append(msg)
        if self._log is not None:
            self._log(msg)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.speed)

    async def setup(self) -> None:
        """Create the tournament, its tables and each table's first match."""
        self.tournament = await self.admin.create_tournament(self.tournament_name)
        tid = self.tournament["id"]
        for i, spec in enumerate(self.specs):
            name = spec.name or f"Table {i + 1}"
            table = await self.admin.create_table(tid, name)
            slot = TableSlot(i, spec, table["id"], table.get("name", name), table["token"],
                             random.Random(f"cuehub-sim/{self.seed}/{i}"))
            self.slots.append(slot)
        for slot in self.slots:
            await self._create_match(slot)

    async def _get_match(self, mid: str) -> dict[str, Any]:
        """GET a match, riding out a short network or hub outage."""
        for attempt in range(8):
            try:
                return await self.admin.get_match(mid)
            except httpx.TransportError as exc:
                self.log(f"reading match {mid} failed ({type(exc).__name__}); retrying")
                await asyncio.sleep(min(5.0, 0.2 * 2 ** attempt))
        return await self.admin.get_match(mid)

    async def _create_match(self, slot: TableSlot) -> dict[str, Any]:
        assert self.tournament is not None
        body = match_setup(slot.spec.discipline, slot.rng, length=slot.spec.length,
                           shot_clock=slot.spec.shot_clock, handicap=slot.spec.handicap)
        m = None
        for attempt in range(8):
            try:
                m = await self.admin.create_match(self.tournament["id"], slot.table_id, **body)
                break
            except httpx.TransportError as exc:
                self.log(f"{slot.table_name}: creating a match failed ({type(exc).__name__}); retrying")
                await asyncio.sleep(min(5.0, 0.2 * 2 ** attempt))
            except HubError as exc:
                if exc.status != 409 or attempt == 0:
                    raise
                # an earlier attempt did create it: take the table's unfinished match
                tour = await self.admin.get_tournament(self.tournament["id"])
                short = next((t.get("match") for t in tour.get("tables", []) if t.get("id") == slot.table_id), None)
                if not short:
                    raise
                m = await self._get_match(short["id"])
                break
        if m is None:
            m = await self.admin.create_match(self.tournament["id"], slot.table_id, **body)
        slot.match = m
        slot.match_ids.append(m["id"])
        self.stats.matches_created += 1
        return m

    async def run(self, stop: asyncio.Event | None = None) -> Stats:
        """Drive every table until its matches are played (or ``stop`` is set)."""
        if not self.slots:
            await self.setup()
        stop = stop or asyncio.Event()
        tasks = [asyncio.create_task(self._drive(slot, stop), name=f"sim-{slot.table_name}") for slot in self.slots]
        try:
            await asyncio.gather(*tasks)
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t
            await self.aclose()
        return self.stats

    async def aclose(self) -> None:
        for s in self._sessions:
            with contextlib.suppress(Exception):
                await s.close()
        self._sessions.clear()
        with contextlib.suppress(Exception):
            await self.admin.aclose()

    async def _drive(self, slot: TableSlot, stop: asyncio.Event) -> None:
        session = TableSession(self.base_url, slot.table_id, slot.token)
        self._sessions.append(session)
        try:
            await session.connect(timeout=15)
            while not stop.is_set():
                assert slot.match is not None
                await self._play_match(slot, session, stop)
                if stop.is_set():
                    break
                slot.played += 1
                if self.matches is not None and slot.played >= self.matches:
                    break
                await self._wait(stop, slot.rng.uniform(4.0, 8.0))
                if stop.is_set():
                    break
                await self._create_match(slot)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # keep the other tables going
            self.stats.errors.append(f"{slot.table_name}: {type(exc).__name__}: {exc}")
            self.log(f"{slot.table_name}: stopped after {type(exc).__name__}: {exc}")
        finally:
            slot.done = True

    async def _wait(self, stop: asyncio.Event, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds / self.speed)

    async def _play_match(self, slot: TableSlot, session: TableSession, stop: asyncio.Event) -> None:
        assert slot.match is not None
        mid = slot.match["id"]
        m = slot.match
        rejects_in_row = 0
        while not stop.is_set():
            if m.get("status") == "finished":
                self.stats.matches_finished += 1
                self.stats.results.append({"match": mid, "discipline": m["discipline"], "winner": m.get("winner"),
                                           "result": m.get("result")})
                self.log(f"{slot.table_name}: {m['discipline']} finished, winner {self._name(m, m.get('winner'))}"
                         f" ({(m.get('result') or {}).get('reason')})")
                return
            cmd, label, pause = next_command(m, slot.rng)
            if cmd is None:
                # nothing to do from this projection (e.g. a phase we do not know): re-read soon
                await self._wait(stop, 1.0)
                m = await self._get_match(mid)
                slot.match = m
                continue
            await self._wait(stop, pause)
            if stop.is_set():
                return
            slot.last_label = label
            t0 = time.perf_counter()
            try:
                ack = await self._send(slot, session, cmd, mid)
            except CommandRejected as exc:
                self.stats.rejects += 1
                self.stats.reject_codes[exc.code] += 1
                rejects_in_row += 1
                self.log(f"{slot.table_name}: {cmd['kind']} rejected ({exc.code}: {exc.message}); re-reading")
                if rejects_in_row >= 50:
                    raise RuntimeError(f"match {mid}: 50 rejects in a row, giving up") from exc
                m = await self._get_match(mid)
                slot.match = m
                continue
            self.stats.latencies_ms.append((time.perf_counter() - t0) * 1000)
            self.stats.acks += 1
            if cmd["kind"] == "shot":
                self.stats.strokes += 1
            rejects_in_row = 0
            version = int(ack.get("version", 0))
            try:
                await session.wait_for(lambda x: x is not None and x.get("id") == mid and int(x.get("version", 0)) >= version,
                                       timeout=5)
                m = session.match  # type: ignore[assignment]
            except TimeoutError:
                m = await self._get_match(mid)
            slot.match = m

    async def _send(self, slot: TableSlot, session: TableSession, cmd: dict[str, Any], mid: str) -> dict[str, Any]:
        """Send and wait for the answer; while the hub is unreachable the session keeps the
        command and resends it with the same id, so waiting longer never doubles a stroke."""
        cid = str(uuid.uuid4())
        for _ in range(20):
            try:
                return await session.send(cmd, match_id=mid, id=cid, timeout=15)
            except TimeoutError:
                self.log(f"{slot.table_name}: no answer to {cmd['kind']} yet; still waiting")
        raise RuntimeError(f"match {mid}: no answer to command {cid} for 5 minutes")

    @staticmethod
    def _name(m: dict[str, Any], pid: str | None) -> str:
        if pid is None:
            return "none (shared top)"
        return str(player_in(m, pid).get("name", pid))


# --------------------------------------------------------------------------------------
# a whole draw: the hub calls the matches, the simulated tablets only play them

DRAW_TYPES = ("single_elimination", "double_elimination", "round_robin", "chase_groups")


@dataclass
class DrawPlan:
    """A tournament the simulator sets up and then plays to its end through the tablets alone."""

    type: str = "double_elimination"
    players: int = 16
    tables: int = 4
    discipline: str = "golden_nine"
    length: int = 3
    shot_clock: bool = False
    seeding: str = "random"
    seed: int | None = None
    groups: int | None = None
    rounds: int | None = None
    name: str | None = None


def player_names(n: int, rng: random.Random) -> list[str]:
    """n distinct, plausible names (numbered once the list of real ones runs out)."""
    names = list(NAMES)
    rng.shuffle(names)
    return [names[i] if i < len(names) else f"{names[i % len(names)]} {i // len(names) + 1}" for i in range(n)]


class DrawSimulator(Simulator):
    """Creates the tournament, its tables, its players and its draw (the only admin calls), then
    drives each table's tablet: whatever match the hub calls to the table is played, and the next
    one after it, until the draw is finished (`champion` then holds its winner, or None)."""

    def __init__(self, base_url: str, admin_token: str, plan: DrawPlan, *, table_urls: Sequence[str] = (),
                 **kw: Any) -> None:
        spec = TableSpec(plan.discipline, shot_clock=plan.shot_clock, length=plan.length)
        super().__init__(base_url, admin_token, specs=[spec] * plan.tables, matches=None,
                         tournament_name=plan.name or f"Simulated {plan.type.replace('_', ' ')} "
                                                      f"(seed {kw.get('seed', 0)})", **kw)
        self.plan = plan
        # Hub processes the tablets connect to, table i to table_urls[i % n] (default: base_url).
        self.table_urls = list(table_urls) or [self.base_url]
        self.draw: dict[str, Any] | None = None
        self.champion: str | None = None
        self.finished = False

    async def setup(self) -> None:
        plan = self.plan
        self.tournament = await self.admin.create_tournament(self.tournament_name)
        tid = self.tournament["id"]
        rng = random.Random(f"cuehub-sim/{self.seed}/players")
        for i in range(plan.tables):
            table = await self.admin.create_table(tid, f"Table {i + 1}")
            self.slots.append(TableSlot(i, self.specs[i], table["id"], table["name"], table["token"],
                                        random.Random(f"cuehub-sim/{self.seed}/{i}")))
        names = player_names(plan.players, rng)
        await self.admin.add_players(tid, [{"name": n, **({"seed": i + 1} if plan.seeding == "seeded" else {})}
                                           for i, n in enumerate(names)])
        template = match_setup(plan.discipline, rng, length=plan.length, shot_clock=plan.shot_clock)
        extra = {k: v for k, v in (("groups", plan.groups), ("rounds", plan.rounds)) if v is not None}
        self.draw = await self.admin.make_draw(
            tid, plan.type, {k: template[k] for k in ("discipline", "format", "options")},
            seeding=plan.seeding, seed=plan.seed if plan.seed is not None else self.seed, **extra)

    async def run(self, stop: asyncio.Event | None = None) -> Stats:
        """Play until the draw is finished (or `stop` is set: then `finished` stays False)."""
        outer = stop or asyncio.Event()
        inner = asyncio.Event()  # the tables stop on either; only the caller's event stops the caller

        async def relay() -> None:
            await outer.wait()
            inner.set()

        tasks = [asyncio.create_task(self._watch_draw(inner), name="sim-draw-watch"),
                 asyncio.create_task(relay(), name="sim-draw-stop")]
        try:
            return await super().run(inner)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task

    async def _watch_draw(self, stop: asyncio.Event) -> None:
        """Reads (public REST) until the draw is finished, then stops the tables."""
        assert self.tournament is not None
        while not stop.is_set():
            await self._wait(stop, 1.0 * self.speed)  # about once a second, whatever the speed
            try:
                tour = await self.admin.get_tournament(self.tournament["id"])
            except (httpx.HTTPError, HubError) as exc:
                self.log(f"reading the tournament failed ({type(exc).__name__}); retrying")
                continue
            draw = tour.get("draw") or {}
            if draw.get("status") == "finished":
                self.finished, self.champion = True, draw.get("champion")
                names = {p["id"]: p["name"] for p in tour.get("players") or []}
                self.log(f"the draw is finished: champion {names.get(self.champion, 'none')}")
                stop.set()
                return

    async def _drive(self, slot: TableSlot, stop: asyncio.Event) -> None:
        session = TableSession(self.table_urls[slot.index % len(self.table_urls)], slot.table_id, slot.token)
        self._sessions.append(session)
        try:
            await session.connect(timeout=15)
            while not stop.is_set():
                try:
                    m = await session.wait_for(
                        lambda x: x is not None and x.get("status") != "finished" and x.get("id") not in slot.match_ids,
                        timeout=1.0)
                except TimeoutError:
                    continue  # no match on this table yet (or the draw is over: the watcher stops us)
                assert m is not None
                slot.match = m
                slot.match_ids.append(m["id"])
                self.stats.matches_created += 1
                await self._wait(stop, slot.rng.uniform(1.0, 3.0))  # the players come to the table
                await self._play_match(slot, session, stop)
                slot.played += 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.stats.errors.append(f"{slot.table_name}: {type(exc).__name__}: {exc}")
            self.log(f"{slot.table_name}: stopped after {type(exc).__name__}: {exc}")
        finally:
            slot.done = True


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
    p.add_argument("--admin-token", default=os.environ.get("HUB_ADMIN_TOKEN"), help="admin token (default $HUB_ADMIN_TOKEN)")
    p.add_argument("--tables", type=int, default=4, help="number of tables (disciplines rotate)")
    p.add_argument("--matches", type=int, default=1, help="matches per table, played one after another")
    p.add_argument("--speed", type=float, default=1.0, help="pace multiplier (1 = a stroke every few seconds)")
    p.add_argument("--seed", type=int, default=0, help="random seed; the same seed plays the same strokes")
    p.add_argument("--length", type=int, default=3, help="race_to / racks of each match")
    p.add_argument("--disciplines", default=",".join(DISCIPLINES), help="comma-separated disciplines to rotate")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    d = p.add_argument_group("a whole draw (the hub calls every match; the tablets only play them)")
    d.add_argument("--draw", choices=DRAW_TYPES, default=None, help="set up a draw of this type and play it to its end")
    d.add_argument("--players", type=int, default=16, help="players in the draw (default 16)")
    d.add_argument("--discipline", default=None, help="the draw's discipline (default golden_nine; chase_nine for chase_groups)")
    d.add_argument("--seeding", choices=("random", "seeded"), default="random")
    d.add_argument("--groups", type=int, default=None, help="round_robin: groups")
    d.add_argument("--rounds", type=int, default=None, help="chase_groups: rounds")
    d.add_argument("--shot-clock", action="store_true", help="the draw's matches have a shot clock")
    return p


async def _main_async(args: argparse.Namespace) -> int:
    disciplines = [d.strip() for d in args.disciplines.split(",") if d.strip()]
    bad = [d for d in disciplines if d not in DISCIPLINES]
    if bad or not disciplines:
        print(f"unknown discipline(s): {', '.join(bad) or '(none)'}", file=sys.stderr)
        return 2
    progress_out = sys.stdout
    log = None if (not args.quiet and progress_out.isatty()) else (lambda m: print(m, file=sys.stderr))
    sim: Simulator
    if args.draw:
        discipline = args.discipline or ("chase_nine" if args.draw == "chase_groups" else "golden_nine")
        if discipline not in DISCIPLINES:
            print(f"unknown discipline {discipline!r}", file=sys.stderr)
            return 2
        plan = DrawPlan(args.draw, players=args.players, tables=args.tables, discipline=discipline,
                        length=args.length, shot_clock=args.shot_clock, seeding=args.seeding, groups=args.groups,
                        rounds=args.rounds)
        sim = DrawSimulator(args.url, args.admin_token, plan, speed=args.speed, seed=args.seed, log=log)
    else:
        sim = Simulator(args.url, args.admin_token, matches=args.matches, speed=args.speed, seed=args.seed,
                        specs=default_specs(args.tables, args.length, disciplines), log=log)
    try:
        await sim.setup()
    except (HubError, OSError, Exception) as exc:  # noqa: B014 - report any setup failure plainly
        await sim.aclose()
        print(f"setup failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
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
        if ptask:
            await ptask
            progress.render()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGINT)
    print(report(stats, time.monotonic() - sim.started), flush=True)
    if isinstance(sim, DrawSimulator):
        if not sim.finished:
            return 130 if stop.is_set() else 1
        print(f"draw finished: champion {sim.champion}", flush=True)
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
