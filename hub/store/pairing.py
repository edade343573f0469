"""One-time pairing cards (PROTOCOL.md section 8): six digits to type, and beside them a secret of
SECRET_BYTES random bytes for the card's QR link, either of which gives one tablet a token of its
own for one table. Only their sha256 is stored; a card is spent (by its code or its secret) by an
UPDATE that only one request (in any process) can win, in the same transaction that stores the
tablet's token."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store import catalog
from hub.store.db import now_ms
from hub.store.schema import pairing_codes, tables

CODE_DIGITS = 6
SECRET_BYTES = 18  # 144 bits: 24 URL-safe characters, beyond guessing, so no budget limits them


@dataclass(frozen=True, slots=True)
class Card:
    code: str
    secret: str
    expires_at: int


def code_hash(code: str) -> str:
    return hashlib.sha256(f"pair:{code}".encode()).hexdigest()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(f"pair-secret:{secret}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Paired:
    table_id: str
    tournament_id: str
    name: str
    token: str  # the tablet's own token, in the clear this once


async def new_card(engine: AsyncEngine, table_id: str, ttl_ms: int) -> Card:
    """A fresh card for the table. Codes that are dead (expired) are swept; a code equal to one still
    alive or spent but unexpired is drawn again (the primary key says no)."""
    now = now_ms()
    expires = now + ttl_ms
    async with engine.begin() as conn:
        await conn.execute(pairing_codes.delete().where(pairing_codes.c.expires_at <= now))
    for _ in range(20):
        code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        secret = secrets.token_urlsafe(SECRET_BYTES)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    pairing_codes.insert().values(
                        code_hash=code_hash(code), secret_hash=secret_hash(secret), table_id=table_id,
                        created_at=now, expires_at=expires,
                    )
                )
        except IntegrityError:
            continue
        return Card(code, secret, expires)
    raise RuntimeError("could not draw an unused pairing code")  # a million live codes: not a real hub


async def spend_code(engine: AsyncEngine, code: str) -> Paired | None:
    """Pair with `code`: the table and a new tablet token, or None when the code is wrong, spent or
    expired. Two tablets racing with one code: exactly one wins."""
    return await _spend(engine, pairing_codes.c.code_hash == code_hash(code))


async def spend_secret(engine: AsyncEngine, secret: str) -> Paired | None:
    """Pair with a card's QR secret, as `spend_code` does with its code."""
    return await _spend(engine, pairing_codes.c.secret_hash == secret_hash(secret))


async def _spend(engine: AsyncEngine, which: sa.ColumnElement[bool]) -> Paired | None:
    now = now_ms()
    async with engine.begin() as conn:
        done = await conn.execute(
            pairing_codes.update()
            .where(which, pairing_codes.c.used_at.is_(None), pairing_codes.c.expires_at > now)
            .values(used_at=now)
        )
        if done.rowcount != 1:
            return None
        row = (
            await conn.execute(
                sa.select(tables.c.id, tables.c.tournament_id, tables.c.name)
                .join(pairing_codes, pairing_codes.c.table_id == tables.c.id)
                .where(which)
            )
        ).first()
        if row is None:  # the table is gone (nothing deletes tables today); the code is spent anyway
            return None
        token = await catalog.add_table_token(conn, row.id)
    return Paired(row.id, row.tournament_id, row.name, token)
