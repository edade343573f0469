"""The event streams: append with optimistic concurrency, read back, remember first answers."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.rules.events import Event
from hub.store.catalog import TableBusy
from hub.store.schema import events, matches, rejections


class VersionConflict(Exception):
    """Another writer stored this version first (the primary key said no)."""


class DuplicateCommand(Exception):
    """This command id is already stored for the match; `version` is its event."""

    def __init__(self, version: int) -> None:
        super().__init__(f"command already stored as version {version}")
        self.version = version


@dataclass(frozen=True, slots=True)
class RejectAnswer:
    code: str
    message: str


def _row_event(row: sa.Row) -> Event:
    return Event(
        version=row.version,
        kind=row.kind,
        data=dict(row.data or {}),
        at=int(row.at),
        command_id=row.command_id,
        voided=bool(row.voided),
    )


async def append(
    engine: AsyncEngine,
    match_id: str,
    event: Event,
    *,
    status: str,
    void_target: int | None = None,
    table_id: str | None = None,
) -> None:
    """Store `event` as the match's next version, in one transaction with the match's new status
    (and, for an undo, the voiding of `void_target`). Returns only after the commit.

    Raises VersionConflict or DuplicateCommand when the schema refuses the row, and TableBusy when
    the match would reopen (an undo after the end) or move (`table_id`) onto a table that has another
    open match.
    """
    try:
        async with engine.begin() as conn:
            await conn.execute(
                events.insert().values(
                    match_id=match_id,
                    version=event.version,
                    kind=event.kind,
                    data=event.data,
                    at=event.at,
                    command_id=event.command_id,
                    voided=False,
                )
            )
            if void_target is not None:
                await conn.execute(
                    events.update()
                    .where(events.c.match_id == match_id, events.c.version == void_target)
                    .values(voided=True)
                )
            row = {"status": status, "version": event.version}
            if table_id is not None:  # a `table_moved` event: the one-open-match-per-table index checks it
                row["table_id"] = table_id
            await conn.execute(matches.update().where(matches.c.id == match_id).values(**row))
    except IntegrityError as exc:
        # Which constraint fired is read back from the data, not parsed from driver messages.
        if event.command_id is not None:
            stored = await command_version(engine, match_id, event.command_id)
            if stored is not None:
                raise DuplicateCommand(stored) from exc
        async with engine.connect() as conn:
            taken = await conn.scalar(
                sa.select(events.c.version).where(events.c.match_id == match_id, events.c.version == event.version)
            )
        if taken is None and status != "finished":
            raise TableBusy(match_id) from exc
        raise VersionConflict(str(exc.orig)) from exc


async def read_events(engine: AsyncEngine, match_id: str, since: int = 0) -> list[Event]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(events)
            .where(events.c.match_id == match_id, events.c.version > since)
            .order_by(events.c.version)
        )
        return [_row_event(r) for r in rows]


async def read_streams(engine: AsyncEngine, match_ids: list[str]) -> dict[str, list[Event]]:
    """The whole streams of several matches in one query (listings fold the ones they lack)."""
    out: dict[str, list[Event]] = {mid: [] for mid in match_ids}
    if not match_ids:
        return out
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(events).where(events.c.match_id.in_(match_ids)).order_by(events.c.match_id, events.c.version)
        )
        for r in rows:
            out[r.match_id].append(_row_event(r))
    return out


async def head_version(engine: AsyncEngine, match_id: str) -> int:
    """The latest stored version of a match (0 when it has no events): one indexed lookup."""
    async with engine.connect() as conn:
        value = await conn.scalar(sa.select(sa.func.max(events.c.version)).where(events.c.match_id == match_id))
        return int(value or 0)


async def command_version(engine: AsyncEngine, match_id: str, command_id: str) -> int | None:
    async with engine.connect() as conn:
        return await conn.scalar(
            sa.select(events.c.version).where(events.c.match_id == match_id, events.c.command_id == command_id)
        )


async def find_rejection(engine: AsyncEngine, match_id: str, command_id: str) -> RejectAnswer | None:
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(rejections.c.code, rejections.c.message).where(
                    rejections.c.match_id == match_id, rejections.c.command_id == command_id
                )
            )
        ).first()
    return RejectAnswer(row.code, row.message) if row else None


async def save_rejection(
    engine: AsyncEngine, match_id: str, command_id: str, answer: RejectAnswer, at: int
) -> RejectAnswer:
    """Remember the first reject of a command id; if another writer got there first, theirs stands."""
    try:
        async with engine.begin() as conn:
            await conn.execute(
                rejections.insert().values(
                    match_id=match_id, command_id=command_id, code=answer.code, message=answer.message[:500], at=at
                )
            )
        return answer
    except IntegrityError:
        return await find_rejection(engine, match_id, command_id) or answer


async def load_rejections(engine: AsyncEngine, match_id: str) -> dict[str, RejectAnswer]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(rejections.c.command_id, rejections.c.code, rejections.c.message).where(
                rejections.c.match_id == match_id
            )
        )
        return {r.command_id: RejectAnswer(r.code, r.message) for r in rows}
