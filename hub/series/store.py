"""The series in the database: the series and their tournaments (written by the API), and the
standings' read model (written by hub/series/keeper.py). Reads never fold anything: a series is
its row, its tournaments and its last made standings."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.store.catalog import new_id
from hub.store.db import now_ms
from hub.store.schema import series, series_standings, series_tournaments, tournaments

MAX_TOURNAMENTS = 200
MAX_SERIES = 1000


class SeriesRefused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _missing(sid: str) -> SeriesRefused:
    return SeriesRefused(404, "unknown_series", f"no series {sid[:64]!r}")


async def create(engine: AsyncEngine, name: str, points: dict[str, int], best: int | None) -> str:
    sid = new_id("s")
    async with engine.begin() as conn:
        await conn.execute(series.insert().values(id=sid, name=name, points=points, best=best,
                                                  created_at=now_ms(), version=1))
    return sid


async def row(conn: AsyncConnection, sid: str) -> dict[str, Any] | None:
    found = (await conn.execute(sa.select(series).where(series.c.id == sid))).mappings().first()
    return dict(found) if found is not None else None


async def tournament_ids(conn: AsyncConnection, sid: str) -> list[str]:
    rows = await conn.execute(sa.select(series_tournaments.c.tournament_id)
                              .where(series_tournaments.c.series_id == sid)
                              .order_by(series_tournaments.c.added_at, series_tournaments.c.tournament_id))
    return [r.tournament_id for r in rows]


async def series_of(engine: AsyncEngine, tid: str) -> list[str]:
    """The series a tournament is in."""
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(series_tournaments.c.series_id)
                                  .where(series_tournaments.c.tournament_id == tid))
        return [r.series_id for r in rows]


async def all_ids(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as conn:
        return [r.id for r in await conn.execute(sa.select(series.c.id).order_by(series.c.n))]


async def update(engine: AsyncEngine, sid: str, changes: dict[str, Any]) -> None:
    async with engine.begin() as conn:
        done = await conn.execute(series.update().where(series.c.id == sid)
                                  .values(**changes, version=series.c.version + 1))
        if not done.rowcount:
            raise _missing(sid)


async def delete(engine: AsyncEngine, sid: str) -> None:
    async with engine.begin() as conn:
        if await row(conn, sid) is None:
            raise _missing(sid)
        for table in (series_standings, series_tournaments):
            await conn.execute(table.delete().where(table.c.series_id == sid))
        await conn.execute(series.delete().where(series.c.id == sid))


async def add_tournament(engine: AsyncEngine, sid: str, tid: str) -> None:
    async with engine.begin() as conn:
        if await row(conn, sid) is None:
            raise _missing(sid)
        if await conn.scalar(sa.select(tournaments.c.id).where(tournaments.c.id == tid)) is None:
            raise SeriesRefused(404, "unknown_tournament", f"no tournament {tid[:64]!r}")
        have = await tournament_ids(conn, sid)
        if tid in have:
            return
        if len(have) >= MAX_TOURNAMENTS:
            raise SeriesRefused(409, "too_many", f"a series holds at most {MAX_TOURNAMENTS} tournaments")
        await conn.execute(series_tournaments.insert().values(series_id=sid, tournament_id=tid, added_at=now_ms()))


async def remove_tournament(engine: AsyncEngine, sid: str, tid: str) -> None:
    async with engine.begin() as conn:
        if await row(conn, sid) is None:
            raise _missing(sid)
        done = await conn.execute(series_tournaments.delete().where(
            series_tournaments.c.series_id == sid, series_tournaments.c.tournament_id == tid))
        if not done.rowcount:
            raise SeriesRefused(404, "unknown_tournament", f"tournament {tid[:64]!r} is not in the series")


async def made(engine: AsyncEngine, sid: str) -> dict[str, Any] | None:
    """What the standings were last made from ({tid: version, "merges": n}), or None."""
    async with engine.connect() as conn:
        return await conn.scalar(sa.select(series_standings.c.made_from).where(series_standings.c.series_id == sid))


async def put_standings(engine: AsyncEngine, sid: str, made_from: dict[str, Any], body: dict[str, Any]) -> None:
    """Store the standings made; the series' version (its ETag) moves only when they changed."""
    async with engine.begin() as conn:
        if await row(conn, sid) is None:
            return  # deleted meanwhile
        before = await conn.scalar(sa.select(series_standings.c.body).where(series_standings.c.series_id == sid))
        await conn.execute(series_standings.delete().where(series_standings.c.series_id == sid))
        await conn.execute(series_standings.insert().values(series_id=sid, made_from=made_from, body=body))
        if before != body:
            await conn.execute(series.update().where(series.c.id == sid).values(version=series.c.version + 1))


def _view(r: dict[str, Any], body: dict[str, Any] | None) -> dict[str, Any]:
    body = body or {}
    return {"id": r["id"], "name": r["name"], "points": r["points"], "best": r["best"], "version": r["version"],
            "tournaments": body.get("tournaments", []), "standings": body.get("standings", [])}


async def read(engine: AsyncEngine, sid: str) -> dict[str, Any]:
    async with engine.connect() as conn:
        r = await row(conn, sid)
        if r is None:
            raise _missing(sid)
        body = await conn.scalar(sa.select(series_standings.c.body).where(series_standings.c.series_id == sid))
        return _view(r, body)


async def read_all(engine: AsyncEngine) -> list[dict[str, Any]]:
    """Every series with its tournaments and standings, newest first."""
    async with engine.connect() as conn:
        rows = (await conn.execute(sa.select(series).order_by(series.c.n.desc()).limit(MAX_SERIES))).mappings()
        bodies = dict((await conn.execute(sa.select(series_standings.c.series_id, series_standings.c.body))).all())
        return [_view(dict(r), bodies.get(r["id"])) for r in rows]
