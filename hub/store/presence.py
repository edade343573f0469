"""tablet_presence: when each hub process (`holder`) last heard a tablet of each table."""

from __future__ import annotations

from collections.abc import Mapping

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store.schema import tablet_presence as presence


async def record(engine: AsyncEngine, holder: str, heard: Mapping[str, int]) -> None:
    """Store `heard` (table id -> server ms) as this holder's rows, in one transaction. Only this
    process writes its holder's rows, so update-then-insert cannot race with another writer."""
    if not heard:
        return
    async with engine.begin() as conn:
        for table_id, at in heard.items():
            done = await conn.execute(
                presence.update()
                .where(presence.c.table_id == table_id, presence.c.holder == holder)
                .values(heard_at=at)
            )
            if done.rowcount == 0:
                await conn.execute(presence.insert().values(table_id=table_id, holder=holder, heard_at=at))


async def read(engine: AsyncEngine, *, except_holder: str | None = None) -> dict[str, int]:
    """Table id -> the latest heard_at over every holder (but `except_holder`). A table that is not
    in the answer has never had a tablet session, or only in `except_holder`."""
    query = sa.select(presence.c.table_id, sa.func.max(presence.c.heard_at)).group_by(presence.c.table_id)
    if except_holder is not None:
        query = query.where(presence.c.holder != except_holder)
    async with engine.connect() as conn:
        return {table_id: int(at) for table_id, at in (await conn.execute(query)).all()}


async def compact(engine: AsyncEngine, before: int) -> None:
    """Forget rows older than `before` that a newer row of the same table makes useless (each hub
    start adds a holder): every table keeps its latest row, so it stays known as a tablet table."""
    newer = presence.alias("newer")
    async with engine.begin() as conn:
        await conn.execute(
            presence.delete().where(
                presence.c.heard_at < before,
                sa.exists().where(newer.c.table_id == presence.c.table_id, newer.c.heard_at > presence.c.heard_at),
            )
        )
