"""A whole draw for `cuehub simulate --draw` (hub/tools/simulate.py): `DrawSimulator` makes the
tournament, its tables, players and draw (the only admin calls), then the hub calls every match
and the simulated tablets (hub/tools/simulate_tables.py) only play them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import httpx

try:  # packaged with the hub (pyproject); fall back to the checkout layout
    from cuehub_client import HubError, TableSession
except ImportError:  # pragma: no cover - only in a bare checkout without an install
    sys.path.insert(
        0,
        os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "clients", "python"),
    )
    from cuehub_client import HubError, TableSession

from hub.draws import draw_formats
from hub.tools.simulate_tables import Simulator, Stats, TableSlot
from hub.tools.strokes import (
    NAMES,
    TableSpec,
    Traits,
    match_setup,
)

# --------------------------------------------------------------------------------------
# a whole draw: the hub calls the matches, the simulated tablets only play them

DRAW_TYPES = draw_formats.names()


@dataclass
class DrawPlan:
    """A tournament the simulator sets up and then plays to its end through the tablets alone."""

    type: str  # a draw format (hub/draws/draw_formats/)
    players: int = 16
    tables: int = 4
    discipline: str | None = None  # None: the hub's first discipline fit for the draw type
    length: int = 3
    shot_clock: bool = False
    seeding: str = "random"
    seed: int | None = None
    groups: int | None = None
    rounds: int | None = None
    name: str | None = None
    by_round: dict[str, Any] | None = None  # race lengths per round or side (PROTOCOL.md section 11)
    then: dict[str, Any] | None = None  # a second stage fed by this draw: {type, advance, seeding?, match?}
    then_advance: int | None = None  # a knockout after the draw: the best K of each group / the last K
    final_length: int | None = None  # the last stage's final played to N
    # A team event (PROTOCOL.md section 15): {"members": n a team, "rubbers": [...], "to_win": k}; the players are
    # then teams, and the simulator names every rubber's lineup in turn as the desk would.
    team: dict[str, Any] | None = None


def staged(plan: DrawPlan, match: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The draw's ``match`` (with ``by_round``) and ``then`` for a plan: ``then_advance`` makes a
    knockout of the best K of each group / the last K players; ``final_length`` plays the last
    stage's final (the knockout's, or the grand final) to N."""
    match = dict(match)
    if plan.by_round:
        match["by_round"] = plan.by_round
    then = plan.then
    if then is None and plan.then_advance:
        then = {"type": draw_formats.knockouts()[0], "advance": plan.then_advance}
    if plan.final_length:
        final = {"final": {"format": {"racks" if "racks" in match["format"] else "race_to": plan.final_length}}}
        if then is not None and "match" not in then:
            then = {**then, "match": {**{k: match[k] for k in ("discipline", "format", "options")}, "by_round": final}}
        elif then is None:
            match["by_round"] = {**match.get("by_round", {}), **final}
    return match, then


def describe(plan: DrawPlan, traits: Traits) -> str:
    """The event's format in words: "double elimination to the last 4, then a knockout (5 racks in its final)"."""
    kind = plan.type.replace("_", " ")
    if not plan.then_advance:
        return kind
    n = plan.final_length
    length = f"{n} racks" if traits["formats"][0] == "racks" else f"race to {n}"
    final = f" ({length} in its final)" if n else ""
    next_stage = draw_formats.format_of(plan.type).next_stage
    if next_stage is not None and next_stage.each_group:
        return f"{kind} in {plan.groups or 1} groups, the best {plan.then_advance} of each to a knockout{final}"
    return f"{kind} to the last {plan.then_advance}, then a knockout{final}"


def player_names(n: int, rng: random.Random) -> list[str]:
    """n distinct, plausible names (numbered once the list of real ones runs out)."""
    names = list(NAMES)
    rng.shuffle(names)
    return [names[i] if i < len(names) else f"{names[i % len(names)]} {i // len(names) + 1}" for i in range(n)]


def team_entries(plan: DrawPlan, rng: random.Random) -> list[dict[str, Any]]:
    """``plan.players`` teams of ``plan.team["members"]`` members each (distinct names), the first the captain."""
    assert plan.team is not None
    size = int(plan.team["members"])
    names = player_names(plan.players * size, rng)
    return [{"name": f"Team {names[i * size].split()[-1]}", "captain": 0,
             "members": [{"name": n} for n in names[i * size:(i + 1) * size]]} for i in range(plan.players)]


class DrawSimulator(Simulator):
    """Creates the tournament, its tables, its players and its draw (the only admin calls), then
    drives each table's tablet: whatever match the hub calls to the table is played, and the next
    one after it, until the draw is finished (`champion` then holds its winner, or None)."""

    def __init__(self, base_url: str, admin_token: str, plan: DrawPlan, *, table_urls: Sequence[str] = (),
                 **kw: Any) -> None:
        super().__init__(base_url, admin_token, specs=[], matches=None,
                         tournament_name=plan.name or f"Simulated {plan.type.replace('_', ' ')} "
                                                      f"(seed {kw.get('seed', 0)})", **kw)
        self.plan = plan
        # Hub processes the tablets connect to, table i to table_urls[i % n] (default: base_url).
        self.table_urls = list(table_urls) or [self.base_url]
        self.draw: dict[str, Any] | None = None
        self.champion: str | None = None
        self.champion_name: str | None = None
        self.finished = False

    @property
    def traits(self) -> Traits:
        """The draw's discipline as the hub serves it (once set up)."""
        assert self.plan.discipline is not None, "set up first"
        return self.disciplines[self.plan.discipline]

    def _discipline(self) -> str:
        """The plan's discipline, or the hub's first that fits the draw type (its players a match)."""
        if self.plan.discipline is not None:
            if self.plan.discipline not in self.disciplines:
                raise ValueError(f"unknown discipline {self.plan.discipline!r}")
            return self.plan.discipline
        players = draw_formats.format_of(self.plan.type).players_per_match
        return next(name for name, t in self.disciplines.items()
                    if t["players"] == players and "strokes" in t["scorings"])

    async def prepare(self) -> None:
        """Read the hub's disciplines and settle the plan's: every table plays it."""
        await self.load_disciplines()
        self.plan = plan = replace(self.plan, discipline=self._discipline())
        self.specs = [TableSpec(self.traits["name"], shot_clock=plan.shot_clock, length=plan.length)] * plan.tables

    async def setup(self) -> None:
        await self.prepare()
        plan = self.plan
        self.tournament = await self.admin.create_tournament(self.tournament_name)
        tid = self.tournament["id"]
        rng = random.Random(f"cuehub-sim/{self.seed}/players")
        for i in range(plan.tables):
            table = await self.admin.create_table(tid, f"Table {i + 1}")
            self.slots.append(TableSlot(i, self.specs[i], table["id"], table["name"], table["token"],
                                        random.Random(f"cuehub-sim/{self.seed}/{i}")))
        if plan.team is not None:
            await self.admin.add_players(tid, team_entries(plan, rng))
        else:
            names = player_names(plan.players, rng)
            await self.admin.add_players(tid, [{"name": n, **({"seed": i + 1} if plan.seeding == "seeded" else {})}
                                               for i, n in enumerate(names)])
        template = match_setup(self.traits, rng, length=plan.length, shot_clock=plan.shot_clock)
        match, then = staged(plan, {k: template[k] for k in ("discipline", "format", "options")})
        if plan.team is not None:
            match["team"] = {"rubbers": plan.team["rubbers"], "to_win": plan.team["to_win"]}
        extra = {k: v for k, v in (("groups", plan.groups), ("rounds", plan.rounds), ("then", then)) if v is not None}
        self.draw = await self.admin.make_draw(
            tid, plan.type, match,
            seeding=plan.seeding, seed=plan.seed if plan.seed is not None else self.seed, **extra)
        if plan.team is not None:  # the first round's lineups, so its rubbers are on their tables at once
            await self._name_lineups(await self.admin.get_tournament(tid))

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
            if self.plan.team is not None:
                await self._name_lineups(tour)
            if draw.get("status") == "finished":
                self.finished, self.champion = True, draw.get("champion")
                names = {p["id"]: p["name"] for p in tour.get("players") or []}
                self.champion_name = names.get(self.champion or "")
                self.log(f"the draw is finished: champion {self.champion_name or 'none'}")
                stop.set()
                return

    async def _name_lineups(self, tour: dict[str, Any]) -> None:
        """As the desk: each rubber not named yet gets each team's members in turn."""
        members = {p["id"]: [m["id"] for m in p.get("members") or []] for p in tour.get("players") or []}
        for m in (tour.get("draw") or {}).get("matches") or []:
            if not m.get("team") or m["status"] not in ("ready", "called"):
                continue
            for r in m["team"]["rubbers"]:
                if r["status"] != "waiting":
                    continue
                for team in m["players"]:
                    if team in r["named"] or not members.get(team):
                        continue
                    size = 2 if r["kind"] == "doubles" else 1
                    chosen = [members[team][(r["rubber"] - 1 + i) % len(members[team])] for i in range(size)]
                    try:
                        await self.admin.name_lineup(tour["id"], m["key"], r["rubber"], team, chosen)
                    except HubError as exc:
                        self.log(f"lineup for {m['key']} rubber {r['rubber']} refused: {exc}")

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
