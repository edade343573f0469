"""Make one series' standings from what the store holds now and keep them (the read model).

Bounded by the series: its tournaments' projections (each tournament writer keeps its state), their
entries' people (people_entries, linked in the transaction of the tournament's own events, so never
behind them) and those people's names. A finished draw's places are the tournament's placings
(hub/tournaments/results.py, the same as placings.csv and the people's history); a person merged
into another counts as that one.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.series import store
from hub.series.standings import FINISHED, IN_PROGRESS, NOT_STARTED, Event, standings, tournaments_view
from hub.store.schema import people, people_entries, people_merges, tournament_events, tournaments
from hub.tournaments import results


async def merges(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int(await conn.scalar(sa.select(sa.func.count()).select_from(people_merges)) or 0)


async def _persons(engine: AsyncEngine, tid: str) -> dict[str, str]:
    """player id -> person id (the one it was merged into, if any)."""
    e, p = people_entries, people
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(e.c.player_id, e.c.person_id, p.c.merged_into)
                                  .select_from(e.join(p, p.c.id == e.c.person_id)).where(e.c.tournament_id == tid))
        return {r.player_id: r.merged_into or r.person_id for r in rows}


async def _finished_at(engine: AsyncEngine, tid: str, version: int) -> int:
    async with engine.connect() as conn:
        return int(await conn.scalar(sa.select(sa.func.max(tournament_events.c.at)).where(
            tournament_events.c.tournament_id == tid, tournament_events.c.version <= version)) or 0)


async def _names(engine: AsyncEngine, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(people.c.id, people.c.name).where(people.c.id.in_(sorted(ids))))
        return {r.id: r.name for r in rows}


async def _name(engine: AsyncEngine, tid: str) -> str | None:
    async with engine.connect() as conn:
        return await conn.scalar(sa.select(tournaments.c.name).where(tournaments.c.id == tid))


async def _event(engine: AsyncEngine, writer: Any, tid: str) -> tuple[Event, int] | None:
    name = await _name(engine, tid)
    state = await writer.state(tid) if name is not None else None
    if name is None or state is None:
        return None  # deleted: it drops out
    proj = writer.projection(state)
    draw = proj.get("draw") or {}
    if draw.get("status") != "finished":
        return Event(tid, name, IN_PROGRESS if draw else NOT_STARTED), state.version
    persons = await _persons(engine, tid)
    places: dict[str, int] = {}
    for r in results.placings(proj):
        person, place = persons.get(r["player"]), r.get("place")
        if person is not None and isinstance(place, int):
            places[person] = min(place, places.get(person, place))
    return Event(tid, name, FINISHED, await _finished_at(engine, tid, state.version), places), state.version


async def made_from(engine: AsyncEngine, sid: str) -> dict[str, Any] | None:
    """What the standings would be made from now: each tournament's stored version and the merges."""
    async with engine.connect() as conn:
        if await store.row(conn, sid) is None:
            return None
        tids = await store.tournament_ids(conn, sid)
        e = tournament_events
        rows = await conn.execute(sa.select(e.c.tournament_id, sa.func.max(e.c.version))
                                  .where(e.c.tournament_id.in_(tids)).group_by(e.c.tournament_id))
        out: dict[str, Any] = {tid: 0 for tid in tids}
        out.update({tid: int(v) for tid, v in rows.all()})
    out["merges"] = await merges(engine)
    return out


async def refresh(engine: AsyncEngine, tournaments: Any, sid: str) -> bool:
    """Make and store series `sid`'s standings; False when there is no such series."""
    async with engine.connect() as conn:
        r = await store.row(conn, sid)
        if r is None:
            return False
        tids = await store.tournament_ids(conn, sid)
    kept: dict[str, Any] = {"merges": await merges(engine)}
    events: list[Event] = []
    for tid in tids:
        got = await _event(engine, tournaments, tid)
        kept[tid] = got[1] if got is not None else 0
        if got is not None:
            events.append(got[0])
    names = await _names(engine, {p for e in events for p in e.places})
    body = {"tournaments": tournaments_view(events, names),
            "standings": standings(r["points"], r["best"], events, names)}
    await store.put_standings(engine, sid, kept, body)
    return True
