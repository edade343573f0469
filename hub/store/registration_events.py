"""The registration streams (hub/registration/state.py) and the entries' secrets.

The primary key (tournament_id, version) is the concurrency rule, as for tournament_events: of two
processes appending the same version one commits and the other gets `StreamConflict`.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.registration.state import Event
from hub.store.schema import entry_secrets, registration_events


class StreamConflict(Exception):
    """Another writer stored this registration version first."""


async def append(conn: AsyncConnection, tournament_id: str, event: Event) -> None:
    try:
        await conn.execute(registration_events.insert().values(
            tournament_id=tournament_id, version=event.version, kind=event.kind, data=event.data, at=event.at))
    except IntegrityError as exc:
        raise StreamConflict(f"{tournament_id} v{event.version}") from exc


async def read(engine: AsyncEngine, tournament_id: str, since: int = 0) -> list[Event]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(registration_events)
            .where(registration_events.c.tournament_id == tournament_id, registration_events.c.version > since)
            .order_by(registration_events.c.version))
        return [Event(r.version, r.kind, dict(r.data or {}), int(r.at)) for r in rows]


async def with_streams(engine: AsyncEngine) -> list[str]:
    """Tournaments that have a registration stream (the ones the check-in clock looks at on start)."""
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(registration_events.c.tournament_id).distinct())
        return [r[0] for r in rows]


async def keep_secret(conn: AsyncConnection, secret_hash: str, tournament_id: str, entry_id: str) -> None:
    await conn.execute(entry_secrets.insert().values(secret_hash=secret_hash, tournament_id=tournament_id,
                                                     entry_id=entry_id))


async def find_secret(engine: AsyncEngine, secret_hash: str) -> tuple[str, str] | None:
    """(tournament id, entry id) of the secret whose hash this is, or None."""
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(entry_secrets.c.tournament_id, entry_secrets.c.entry_id)
                                  .where(entry_secrets.c.secret_hash == secret_hash))).first()
    return None if row is None else (row[0], row[1])
