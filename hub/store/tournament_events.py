"""The tournament event streams: append inside a caller's transaction, read back.

The primary key (tournament_id, version) is the concurrency rule: of two writers appending the same
version (two hub processes calling a match to the same free table), one commits and the other gets
`StreamConflict`, folds again and decides again.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.draws import TournamentEvent
from hub.store.schema import tournament_events


class StreamConflict(Exception):
    """Another writer stored this tournament version first."""


async def append(conn: AsyncConnection, tournament_id: str, event: TournamentEvent) -> None:
    """Insert `event` in the caller's transaction (it commits or rolls back with the caller's work)."""
    try:
        await conn.execute(
            tournament_events.insert().values(
                tournament_id=tournament_id, version=event.version, kind=event.kind, data=event.data,
                at=event.at, command_id=event.command_id,
            )
        )
    except IntegrityError as exc:  # the caller's transaction is then rolled back whole
        raise StreamConflict(f"{tournament_id} v{event.version}") from exc


async def read(engine: AsyncEngine, tournament_id: str, since: int = 0) -> list[TournamentEvent]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(tournament_events)
            .where(tournament_events.c.tournament_id == tournament_id, tournament_events.c.version > since)
            .order_by(tournament_events.c.version)
        )
        return [
            TournamentEvent(version=r.version, kind=r.kind, data=dict(r.data or {}), at=int(r.at),
                            command_id=r.command_id)
            for r in rows
        ]


async def head(engine: AsyncEngine, tournament_id: str) -> int:
    async with engine.connect() as conn:
        value = await conn.scalar(
            sa.select(sa.func.max(tournament_events.c.version)).where(
                tournament_events.c.tournament_id == tournament_id
            )
        )
        return int(value or 0)


async def head_in(conn: AsyncConnection, tournament_id: str) -> int:
    """The stream's latest version, read in the caller's transaction."""
    value = await conn.scalar(
        sa.select(sa.func.max(tournament_events.c.version)).where(tournament_events.c.tournament_id == tournament_id)
    )
    return int(value or 0)


async def with_draws(engine: AsyncEngine) -> list[str]:
    """Tournaments that ever had a draw (the ones the flow may have work for at start-up)."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(tournament_events.c.tournament_id).where(tournament_events.c.kind == "draw_made").distinct()
        )
        return [r[0] for r in rows]
