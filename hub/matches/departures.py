"""Where a match went when it left a table: what a tablet is told (`match_left`, PROTOCOL.md section 9).

A tablet remembers the match it was last shown. When the table's current match is another one (or
none), that match either left the table (moved to another table, taken off it: a requeue, a cancel,
a withdrawal, a walkover) or stayed on it finished (the next match followed it: nothing left).
`departure` reads which from the store, so it holds whichever hub process made the change.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store import catalog
from hub.wire import table as wire_table

STAYED = object()  # the match is still on this table (finished): it did not leave


async def departure(engine: AsyncEngine, match_id: str, table_id: str) -> Any:
    """The `match_left` message for `match_id` leaving `table_id`, or STAYED."""
    row = await catalog.get_match(engine, match_id)
    if row is not None and row.status != catalog.CANCELLED and row.table_id == table_id:
        return STAYED
    to = None
    if row is not None and row.status != catalog.CANCELLED:
        table = await catalog.get_table(engine, row.table_id)
        to = {"table_id": row.table_id, "name": table.name if table is not None else row.table_id}
    return wire_table.match_left(match_id, to)
