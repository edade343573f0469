"""The simulated tablets of `cuehub simulate` (hub/tools/simulate.py): `Simulator` sets up tables and
matches (or is given them), then each table's tablet reads the projection, picks a plausible
stroke (hub/tools/strokes.py), sends it over the table socket and waits for the answer; `Stats`
counts what happened. A protocol client only: it never imports the rules engine.
"""

from __future__ import annotations

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
from typing import Any

import httpx

try:  # packaged with the hub (pyproject); fall back to the checkout layout
    from cuehub_client import AdminClient, CommandRejected, HubError, TableSession
except ImportError:  # pragma: no cover - only in a bare checkout without an install
    sys.path.insert(
        0,
        os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "clients", "python"),
    )
    from cuehub_client import AdminClient, CommandRejected, HubError, TableSession

from hub.tools.strokes import (
    TableSpec,
    Traits,
    default_specs,
    judged,
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
        rotate: Sequence[str] | None = None,
        tournament_name: str | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be > 0")
        self.base_url = base_url.rstrip("/")
        self.admin_token = admin_token
        # Without specs, the tables play `rotate` (names; default: every discipline the hub judges),
        # made once the hub's disciplines are read (setup).
        self.specs = list(specs) if specs is not None else []
        self._default = None if specs is not None else (tables, length, list(rotate or ()))
        self.disciplines: dict[str, Traits] = {}  # GET /api/disciplines by name
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

    async def load_disciplines(self) -> None:
        """Read the hub's disciplines (their traits drive the strokes); make the default specs."""
        self.disciplines = {d["name"]: d for d in await self.admin.disciplines()}
        if self._default is not None:
            tables, length, rotate = self._default
            unknown = [name for name in rotate if name not in self.disciplines]
            if unknown:
                raise ValueError(f"unknown discipline(s): {', '.join(unknown)}")
            chosen = [self.disciplines[name] for name in rotate] or judged(list(self.disciplines.values()))
            self.specs = default_specs(tables, chosen, length)

    async def setup(self) -> None:
        """Create the tournament, its tables and each table's first match."""
        await self.load_disciplines()
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
        body = match_setup(self.disciplines[slot.spec.discipline], slot.rng, length=slot.spec.length,
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
            cmd, label, pause = next_command(m, slot.rng, self.disciplines[m["discipline"]])
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
                await session.wait_for(
                    lambda x, mid=mid, version=version: (
                        x is not None and x.get("id") == mid and int(x.get("version", 0)) >= version),
                    timeout=5)
                m = session.match
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
