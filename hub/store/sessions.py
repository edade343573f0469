"""The desk's sign-in sessions (PROTOCOL.md section 8), kept in the store so every hub process
agrees on who is signed in and a sign-out ends the session everywhere at once.

A session is a random value in the `cuehub_session` cookie; only its sha256 is stored, with the
admin token hash it was opened with (a session outlives neither a changed HUB_ADMIN_TOKEN nor its
expiry). The expiry slides: every use pushes it to `now + idle`, up to `created + max_age`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store.catalog import token_hash
from hub.store.db import now_ms
from hub.store.schema import desk_sessions

# A session's expiry is written again at most this often (not on every request it authorises).
SLIDE_EVERY_MS = 60_000


@dataclass(frozen=True, slots=True)
class Lifetime:
    idle_ms: int  # unused this long, a session ends
    max_ms: int  # and it never lasts longer than this after sign-in

    def expiry(self, created_at: int, now: int) -> int:
        return min(now + self.idle_ms, created_at + self.max_ms)


async def open_session(engine: AsyncEngine, admin_hash: str, life: Lifetime) -> tuple[str, int]:
    """A new session: (the cookie value, shown this once; its expiry in ms). Sessions that have
    ended are swept out on the way."""
    value = secrets.token_urlsafe(32)
    now = now_ms()
    expires = life.expiry(now, now)
    async with engine.begin() as conn:
        await conn.execute(
            desk_sessions.delete().where(
                sa.or_(desk_sessions.c.expires_at <= now, desk_sessions.c.admin_hash != admin_hash)
            )
        )
        await conn.execute(
            desk_sessions.insert().values(
                token_hash=token_hash(value), admin_hash=admin_hash, created_at=now, seen_at=now, expires_at=expires
            )
        )
    return value, expires


async def use_session(engine: AsyncEngine, value: str, admin_hash: str, life: Lifetime) -> int | None:
    """The session's (slid) expiry when `value` is a live session opened with this admin token,
    else None."""
    digest = token_hash(value)
    now = now_ms()
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(desk_sessions).where(desk_sessions.c.token_hash == digest))).first()
    if row is None or row.expires_at <= now or not secrets.compare_digest(row.admin_hash, admin_hash):
        return None
    if now - row.seen_at < SLIDE_EVERY_MS:
        return int(row.expires_at)
    expires = life.expiry(row.created_at, now)
    async with engine.begin() as conn:
        # Only a session still there is slid: a sign-out in between stays a sign-out.
        done = await conn.execute(
            desk_sessions.update()
            .where(desk_sessions.c.token_hash == digest, desk_sessions.c.expires_at > now)
            .values(seen_at=now, expires_at=expires)
        )
    return expires if done.rowcount else None


async def end_session(engine: AsyncEngine, value: str) -> bool:
    """Sign out: the session is deleted, so its cookie is refused by every process from now on."""
    async with engine.begin() as conn:
        done = await conn.execute(desk_sessions.delete().where(desk_sessions.c.token_hash == token_hash(value)))
    return bool(done.rowcount)
