"""Deleting a tournament that has no results, and ending every desk session at once."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store import history
from hub.store.schema import (
    desk_sessions,
    entry_secrets,
    events,
    matches,
    pairing_codes,
    registration_events,
    rejections,
    table_tokens,
    tables,
    tablet_presence,
    tournament_events,
    tournaments,
)

STARTED = ("live", "finished")


class HasResults(Exception):
    """A match of the tournament has started: it is not deleted (args[0]: that match's id)."""


async def delete_tournament(engine: AsyncEngine, tid: str) -> list[str] | None:
    """Delete the tournament with its tables, matches and events, in one transaction; the ids of its
    tables. None when there is no such tournament. Raises HasResults (nothing deleted) when one of
    its matches is live or finished: checked inside the transaction, so a match that starts
    meanwhile keeps the tournament."""
    async with engine.begin() as conn:
        found = await conn.scalar(sa.select(tournaments.c.id).where(tournaments.c.id == tid).with_for_update())
        if found is None:
            return None
        started = await conn.scalar(
            sa.select(matches.c.id).where(
                matches.c.tournament_id == tid, matches.c.status.in_(STARTED)
            ).limit(1)
        )
        if started is not None:
            raise HasResults(started)
        match_ids = sa.select(matches.c.id).where(matches.c.tournament_id == tid).scalar_subquery()
        table_ids = [r.id for r in await conn.execute(sa.select(tables.c.id).where(tables.c.tournament_id == tid))]
        await conn.execute(events.delete().where(events.c.match_id.in_(match_ids)))
        await conn.execute(rejections.delete().where(rejections.c.match_id.in_(match_ids)))
        await conn.execute(matches.delete().where(matches.c.tournament_id == tid))
        if table_ids:
            for table in (tablet_presence, table_tokens, pairing_codes):
                await conn.execute(table.delete().where(table.c.table_id.in_(table_ids)))
        await conn.execute(tables.delete().where(tables.c.tournament_id == tid))
        await conn.execute(tournament_events.delete().where(tournament_events.c.tournament_id == tid))
        for table in (registration_events, entry_secrets):  # its sign-ups (section 14)
            await conn.execute(table.delete().where(table.c.tournament_id == tid))
        # Its entries' links and read models (walkovers, places); the people stay in the directory.
        await history.forget_tournament(conn, tid)
        await conn.execute(tournaments.delete().where(tournaments.c.id == tid))
    return table_ids


async def end_every_session(engine: AsyncEngine) -> int:
    """Sign out everywhere: every desk session is deleted (their cookies are refused from now on)."""
    async with engine.begin() as conn:
        done = await conn.execute(desk_sessions.delete())
    return int(done.rowcount or 0)
