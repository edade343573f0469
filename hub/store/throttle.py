"""Attempt counters behind the sign-in and pairing backoff (hub/api/throttle.py decides, this
stores). Kept in the store, not in memory, so several hub processes behind one address apply one
backoff; every write is a compare-and-set on `version`, so racing requests each see the other."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
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
