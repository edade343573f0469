"""Tournaments, tables, matches and the hub's own settings row (the admin token hash)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.store.db import now_ms
from hub.store.schema import matches, meta, pairing_codes, table_tokens, tables, tournaments

ADMIN_KEY = "admin_token_sha256"


class TableBusy(Exception):
    """The table already has a match that is not finished."""


# Work another part of the hub does in the same transaction as a catalog write.
InTransaction = Callable[[AsyncConnection], Awaitable[None]]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(5)


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    tournament_id: str
    name: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: str
    tournament_id: str
    table_id: str
    discipline: str
    setup: dict[str, Any]
    status: str
    version: int
    draw_key: str | None = None


def _match(row: sa.Row[*tuple[Any, ...]]) -> MatchRow:
    return MatchRow(row.id, row.tournament_id, row.table_id, row.discipline, dict(row.setup), row.status, row.version,
                    row.draw_key)


# --- admin token -------------------------------------------------------------------------------


async def ensure_admin_token(engine: AsyncEngine, configured: str | None) -> tuple[str, str | None]:
    """Return (hash of the admin token, the token if it was generated just now).

    HUB_ADMIN_TOKEN wins when set; otherwise the first start makes one and stores only its hash.
    """
    if configured:
        digest = token_hash(configured)
        async with engine.begin() as conn:
            updated = await conn.execute(meta.update().where(meta.c.key == ADMIN_KEY).values(value=digest))
            if updated.rowcount == 0:
                await conn.execute(meta.insert().values(key=ADMIN_KEY, value=digest))
        return digest, None
    async with engine.connect() as conn:
        stored = await conn.scalar(sa.select(meta.c.value).where(meta.c.key == ADMIN_KEY))
    if stored:
        return stored, None
    token = secrets.token_urlsafe(24)
    try:
        async with engine.begin() as conn:
            await conn.execute(meta.insert().values(key=ADMIN_KEY, value=token_hash(token)))
    except IntegrityError:  # another process made one at the same moment; theirs stands
        async with engine.connect() as conn:
            theirs = (await conn.execute(sa.select(meta.c.value).where(meta.c.key == ADMIN_KEY))).scalar_one()
            return theirs, None
    return token_hash(token), token


# --- tournaments and tables --------------------------------------------------------------------


async def create_tournament(engine: AsyncEngine, name: str) -> dict[str, str]:
    tid = new_id("t")
    async with engine.begin() as conn:
        await conn.execute(tournaments.insert().values(id=tid, name=name, created_at=now_ms()))
    return {"id": tid, "name": name}


async def list_tournaments(engine: AsyncEngine) -> list[dict[str, str]]:
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(tournaments.c.id, tournaments.c.name).order_by(tournaments.c.n.desc()))
        return [{"id": r.id, "name": r.name} for r in rows]


async def get_tournament(engine: AsyncEngine, tid: str) -> dict[str, str] | None:
    async with engine.connect() as conn:
        row = (
            await conn.execute(sa.select(tournaments.c.id, tournaments.c.name).where(tournaments.c.id == tid))
        ).first()
    return {"id": row.id, "name": row.name} if row else None


async def create_table(engine: AsyncEngine, tid: str, name: str) -> dict[str, str]:
    """Make a table; the answer carries the clear token, which is shown this once."""
    table_id = new_id("tb")
    token = secrets.token_urlsafe(24)
    async with engine.begin() as conn:
        await conn.execute(
            tables.insert().values(
                id=table_id, tournament_id=tid, name=name, token_hash=token_hash(token), created_at=now_ms()
            )
        )
    return {"id": table_id, "name": name, "token": token}


async def rotate_table_token(engine: AsyncEngine, table_id: str) -> dict[str, str] | None:
    """Replace a table's token; the answer carries the new clear token. In the same transaction every
    token a tablet got by pairing and every unused pairing code of the table are ended: a rotation
    means "nobody who held a way in keeps it"."""
    token = secrets.token_urlsafe(24)
    async with engine.begin() as conn:
        done = await conn.execute(tables.update().where(tables.c.id == table_id).values(token_hash=token_hash(token)))
        if done.rowcount == 0:
            return None
        await conn.execute(table_tokens.delete().where(table_tokens.c.table_id == table_id))
        await conn.execute(pairing_codes.delete().where(pairing_codes.c.table_id == table_id))
        name = (await conn.execute(sa.select(tables.c.name).where(tables.c.id == table_id))).scalar_one()
    return {"id": table_id, "name": name, "token": token}


async def rename_table(engine: AsyncEngine, table_id: str, name: str) -> TableRow | None:
    async with engine.begin() as conn:
        done = await conn.execute(tables.update().where(tables.c.id == table_id).values(name=name))
        if done.rowcount == 0:
            return None
        row = (await conn.execute(sa.select(tables).where(tables.c.id == table_id))).one()  # updated just now
    return TableRow(row.id, row.tournament_id, row.name, row.token_hash)


async def get_table(engine: AsyncEngine, table_id: str) -> TableRow | None:
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(tables).where(tables.c.id == table_id))).first()
    return TableRow(row.id, row.tournament_id, row.name, row.token_hash) if row else None


async def table_by_token(engine: AsyncEngine, token: str) -> TableRow | None:
    """The table a token opens: the table's own token, or one a tablet got by pairing
    (`table_tokens`). Either way the row carries the table's own `token_hash`, which changes on
    rotation, so "is this still the table's token" checks keep working for paired tablets."""
    digest = token_hash(token)
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(tables).where(tables.c.token_hash == digest))).first()
        if row is None or not hmac.compare_digest(row.token_hash, digest):
            paired = (
                await conn.execute(
                    sa.select(tables, table_tokens.c.token_hash.label("tablet_hash"))
                    .join(table_tokens, table_tokens.c.table_id == tables.c.id)
                    .where(table_tokens.c.token_hash == digest)
                )
            ).first()
            if paired is None or not hmac.compare_digest(paired.tablet_hash, digest):
                return None
            row = paired
    return TableRow(row.id, row.tournament_id, row.name, row.token_hash)


async def add_table_token(conn: AsyncConnection, table_id: str) -> str:
    """A new token of the table's own for one tablet (in the caller's transaction); the clear token
    is returned this once, only its hash is stored."""
    token = secrets.token_urlsafe(24)
    await conn.execute(
        table_tokens.insert().values(token_hash=token_hash(token), table_id=table_id, created_at=now_ms())
    )
    return token


async def count_table_tokens(engine: AsyncEngine, table_id: str) -> int:
    async with engine.connect() as conn:
        n = await conn.scalar(
            sa.select(sa.func.count()).select_from(table_tokens).where(table_tokens.c.table_id == table_id)
        )
    return int(n or 0)


async def list_tables(engine: AsyncEngine, tid: str) -> list[TableRow]:
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(tables).where(tables.c.tournament_id == tid).order_by(tables.c.n))
        return [TableRow(r.id, r.tournament_id, r.name, r.token_hash) for r in rows]


# --- matches -----------------------------------------------------------------------------------


async def insert_match(
    engine: AsyncEngine, *, match_id: str, tournament_id: str, table_id: str, discipline: str,
    setup: dict[str, Any], status: str, draw_key: str | None = None, also: InTransaction | None = None,
) -> None:
    async with engine.begin() as conn:  # whatever raises inside rolls the whole transaction back
        try:
            await conn.execute(
                matches.insert().values(
                    id=match_id, tournament_id=tournament_id, table_id=table_id, discipline=discipline,
                    setup=setup, status=status, version=0, created_at=now_ms(), draw_key=draw_key,
                )
            )
        except IntegrityError as exc:  # the partial unique index: one open match per table
            raise TableBusy(table_id) from exc
        if also is not None:
            await also(conn)


async def cancel_match(engine: AsyncEngine, match_id: str, also: InTransaction | None = None) -> MatchRow | None:
    """Take a scheduled match off its table (status `cancelled`; its events are kept). None when the
    match is not scheduled any more (it started, or is gone): nothing changes then."""
    async with engine.begin() as conn:
        row = (
            await conn.execute(
                matches.update()
                .where(matches.c.id == match_id, matches.c.status == "scheduled")
                .values(status=CANCELLED)
                .returning(*matches.c)
            )
        ).first()
        if row is None:
            return None
        if also is not None:
            await also(conn)
    return _match(row)


# Statuses of a match that holds its table; a `cancelled` match (taken off its table before it
# started) is kept with its events but is gone for every reader.
OPEN_STATUSES = ("scheduled", "live")
CANCELLED = "cancelled"


async def get_match(engine: AsyncEngine, match_id: str) -> MatchRow | None:
    async with engine.connect() as conn:
        row = (
            await conn.execute(sa.select(matches).where(matches.c.id == match_id, matches.c.status != CANCELLED))
        ).first()
    return _match(row) if row else None


async def list_matches(
    engine: AsyncEngine, *, status: str | None = None, tournament_id: str | None = None
) -> list[MatchRow]:
    """Newest first."""
    query = sa.select(matches).where(matches.c.status != CANCELLED).order_by(matches.c.n.desc())
    if status is not None:
        query = query.where(matches.c.status == status)
    if tournament_id is not None:
        query = query.where(matches.c.tournament_id == tournament_id)
    async with engine.connect() as conn:
        return [_match(r) for r in await conn.execute(query)]


async def current_match_id(engine: AsyncEngine, table_id: str) -> str | None:
    """The match on a table now: its unfinished match, else the latest one (its final score)."""
    async with engine.connect() as conn:
        open_id = await conn.scalar(
            sa.select(matches.c.id).where(matches.c.table_id == table_id, matches.c.status.in_(OPEN_STATUSES))
        )
        if open_id is not None:
            return open_id
        return await conn.scalar(
            sa.select(matches.c.id)
            .where(matches.c.table_id == table_id, matches.c.status != CANCELLED)
            .order_by(matches.c.n.desc())
            .limit(1)
        )


async def tournament_version(engine: AsyncEngine, tid: str) -> int:
    """A version that grows with every change of the tournament projection: one per table, one per
    match created, every match's stream version, plus the tournament's own stream (players, the draw,
    calls, results). Rows are never deleted (a cancelled match stays), so the sum never goes back;
    derived, so nothing extra is stored."""
    from hub.store.schema import tournament_events

    async with engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(
                    sa.select(sa.func.count())
                    .select_from(tables)
                    .where(tables.c.tournament_id == tid)
                    .scalar_subquery(),
                    sa.select(sa.func.count())
                    .select_from(matches)
                    .where(matches.c.tournament_id == tid)
                    .scalar_subquery(),
                    sa.select(sa.func.coalesce(sa.func.sum(matches.c.version), 0))
                    .where(matches.c.tournament_id == tid)
                    .scalar_subquery(),
                    sa.select(sa.func.coalesce(sa.func.max(tournament_events.c.version), 0))
                    .where(tournament_events.c.tournament_id == tid)
                    .scalar_subquery(),
                )
            )
        ).one()  # a SELECT of scalar subqueries: always exactly one row
    return sum(int(v or 0) for v in row)


# --- what the tournament engine reads in one query each ------------------------------------------


async def match_statuses(engine: AsyncEngine, match_ids: list[str]) -> dict[str, str]:
    """Status of each match (cancelled ones included); unknown ids are left out."""
    if not match_ids:
        return {}
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(matches.c.id, matches.c.status).where(matches.c.id.in_(match_ids)))
        return {r.id: r.status for r in rows}


async def match_heads(engine: AsyncEngine, match_ids: list[str]) -> dict[str, tuple[str, int]]:
    """(status, version) of each match (cancelled ones included); unknown ids are left out."""
    if not match_ids:
        return {}
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(matches.c.id, matches.c.status, matches.c.version).where(matches.c.id.in_(match_ids)))
        return {r.id: (r.status, int(r.version)) for r in rows}


async def lock_match(conn: AsyncConnection, match_id: str) -> tuple[str, int] | None:
    """Take the match row's write lock in the caller's transaction (the lock every append of the
    match takes first: hub/store/match_events.py) and read its (status, version): no event of the
    match can be stored until the caller commits. None for an unknown match."""
    row = (
        await conn.execute(
            matches.update().where(matches.c.id == match_id).values(version=matches.c.version)
            .returning(matches.c.status, matches.c.version)
        )
    ).first()
    return None if row is None else (row.status, int(row.version))


async def open_matches(engine: AsyncEngine, tid: str) -> dict[str, str]:
    """table id -> its open (scheduled or live) match id, for one tournament's tables."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(matches.c.table_id, matches.c.id).where(
                matches.c.tournament_id == tid, matches.c.status.in_(OPEN_STATUSES)
            )
        )
        return {r.table_id: r.id for r in rows}


async def draw_matches(engine: AsyncEngine, tid: str) -> list[MatchRow]:
    """The tournament's matches created by its draw (any status but cancelled), oldest first."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(matches)
            .where(matches.c.tournament_id == tid, matches.c.draw_key.is_not(None), matches.c.status != CANCELLED)
            .order_by(matches.c.n)
        )
        return [_match(r) for r in rows]


async def current_matches(engine: AsyncEngine, tid: str) -> dict[str, str]:
    """table id -> the match on it now (its open match, else its latest one), for one tournament."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(matches.c.table_id, matches.c.id, matches.c.status)
            .where(matches.c.tournament_id == tid, matches.c.status != CANCELLED)
            .order_by(matches.c.n)
        )
        out: dict[str, str] = {}
        held: set[str] = set()
        for r in rows:
            if r.table_id in held:
                continue
            out[r.table_id] = r.id
            if r.status in OPEN_STATUSES:
                held.add(r.table_id)
        return out


async def cancel_draw_matches(engine: AsyncEngine, tid: str, also: InTransaction | None = None) -> list[MatchRow]:
    """Cancel every scheduled draw match of a tournament, with `also(conn)` in the same transaction."""
    async with engine.begin() as conn:
        rows = [
            _match(r)
            for r in await conn.execute(
                matches.update()
                .where(matches.c.tournament_id == tid, matches.c.draw_key.is_not(None), matches.c.status == "scheduled")
                .values(status=CANCELLED)
                .returning(*matches.c)
            )
        ]
        if also is not None:
            await also(conn)
    return rows
