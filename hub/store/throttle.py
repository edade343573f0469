"""Attempt counters behind the sign-in and pairing backoff (hub/guards/throttle.py decides, this
stores). Kept in the store, not in memory, so several hub processes behind one address apply one
backoff. A backoff's write is a compare-and-set on `version`, so racing requests each see the
other; a budget's count (`count_in_window`) is one upsert that adds the attempt and returns the
new count, so N attempts in parallel, from any processes, count exactly N."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store.schema import auth_throttle


@dataclass(frozen=True, slots=True)
class Counter:
    attempts: int
    next_at: int  # ms: the earliest moment the next attempt may be tried
    last_at: int  # ms: the latest attempt (or, for a hub-wide budget, when its window opened)
    version: int = 0


async def load(engine: AsyncEngine, key: str) -> Counter | None:
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(auth_throttle).where(auth_throttle.c.key == key))).first()
    return None if row is None else Counter(row.attempts, row.next_at, row.last_at, row.version)


async def save(engine: AsyncEngine, key: str, seen: Counter | None, new: Counter) -> bool:
    """Store `new` if the row is still `seen` (None: still absent); False when another request got
    there first (read again and decide again)."""
    values = {"attempts": new.attempts, "next_at": new.next_at, "last_at": new.last_at}
    try:
        async with engine.begin() as conn:
            if seen is None:
                await conn.execute(auth_throttle.insert().values(key=key, version=1, **values))
                return True
            done = await conn.execute(
                auth_throttle.update()
                .where(auth_throttle.c.key == key, auth_throttle.c.version == seen.version)
                .values(version=seen.version + 1, **values)
            )
            return done.rowcount == 1
    except IntegrityError:  # inserted by another request meanwhile
        return False


async def clear(engine: AsyncEngine, key: str) -> None:
    async with engine.begin() as conn:
        await conn.execute(auth_throttle.delete().where(auth_throttle.c.key == key))


async def sweep(engine: AsyncEngine, older_than: int) -> None:
    """Forget counters untouched since `older_than` (ms)."""
    async with engine.begin() as conn:
        await conn.execute(auth_throttle.delete().where(auth_throttle.c.last_at < older_than))


async def count_in_window(engine: AsyncEngine, key: str, now: int, window_ms: int) -> Counter:
    """Add one attempt to `key`'s window and return the count with it, in one statement: the
    window (opened at `last_at`) starts again at `now` once `window_ms` have passed."""
    insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
    row = auth_throttle.c
    expired = row.last_at <= now - window_ms
    statement = (
        insert(auth_throttle)
        .values(key=key, attempts=1, next_at=0, last_at=now, version=1)
        .on_conflict_do_update(
            index_elements=[row.key],
            set_={  # the right-hand sides read the row as it was before this update
                "attempts": sa.case((expired, 1), else_=row.attempts + 1),
                "last_at": sa.case((expired, now), else_=row.last_at),
                "version": row.version + 1,
            },
        )
        .returning(row.attempts, row.next_at, row.last_at, row.version)
    )
    async with engine.begin() as conn:
        counted = (await conn.execute(statement)).one()
    return Counter(counted.attempts, counted.next_at, counted.last_at, counted.version)


async def uncount(engine: AsyncEngine, key: str) -> None:
    """Take one attempt back (it turned out to be a right one)."""
    async with engine.begin() as conn:
        await conn.execute(
            auth_throttle.update()
            .where(auth_throttle.c.key == key, auth_throttle.c.attempts > 0)
            .values(attempts=auth_throttle.c.attempts - 1, version=auth_throttle.c.version + 1)
        )
