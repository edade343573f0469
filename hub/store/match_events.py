"""The event streams: append with optimistic concurrency, read back, remember first answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.rules.events import Event
from hub.store.catalog import TableBusy
from hub.store.schema import events, matches, rejections, tables


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


class AlreadyRefused(Exception):
    """This command id was refused (maybe by another process) and the refusal is still remembered."""

    def __init__(self, answer: RejectAnswer) -> None:
        super().__init__(f"command already refused: {answer.code}")
        self.answer = answer


class CheckFailed(Exception):
    """A check the caller ran in the append's transaction (after the match row's lock) said no:
    nothing was stored. `code` and `message` say why, as a refusal would."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TokenRevoked(Exception):
    """The table's token changed (rotated) since the sender was let in: nothing was stored."""


async def _lock_match(conn: AsyncConnection, match_id: str, row: dict[str, object] | None = None) -> None:
    """Take the match row's write lock first in a transaction (PostgreSQL: the row lock; SQLite: the
    database's write lock), so an append and a refusal of one match are serialised: whichever comes
    second sees the other's command id."""
    values = row or {"version": matches.c.version}
    await conn.execute(matches.update().where(matches.c.id == match_id).values(**values))


async def _check_before_append(conn: AsyncConnection, match_id: str, command_id: str | None,
                               token: tuple[str, str] | None) -> None:
    """After the match row's lock: the token still the table's, the command id not refused; one
    round trip for both (the table row FOR SHARE, the refusal outer-joined)."""
    if token is None and command_id is None:
        return
    refused: sa.Row[*tuple[Any, ...]] | None
    if token is None:
        refused = (await conn.execute(
            sa.select(rejections.c.code, rejections.c.message).where(
                rejections.c.match_id == match_id, rejections.c.command_id == command_id)
        )).first()
    else:
        table_id, expected = token
        joined = tables.outerjoin(rejections, sa.and_(
            rejections.c.match_id == match_id, rejections.c.command_id == (command_id or "")))
        found = (await conn.execute(
            sa.select(tables.c.token_hash, rejections.c.code, rejections.c.message).select_from(joined)
            .where(tables.c.id == table_id).with_for_update(read=True, of=tables)
        )).first()
        if found is None or found.token_hash != expected:
            raise TokenRevoked(table_id)
        refused = found if found.code is not None else None
    if refused is not None:
        raise AlreadyRefused(RejectAnswer(refused.code, refused.message))


async def _check_token(conn: AsyncConnection, table_id: str, token: str) -> None:
    """The table's token hash is still `token` (FOR SHARE: a rotation waits for this commit)."""
    now = await conn.scalar(sa.select(tables.c.token_hash).where(tables.c.id == table_id).with_for_update(read=True))
    if now != token:
        raise TokenRevoked(table_id)


def _row_event(row: sa.Row[*tuple[Any, ...]]) -> Event:
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
    token: tuple[str, str] | None = None,
    check: Callable[[AsyncConnection], Awaitable[None]] | None = None,
) -> None:
    """Store `event` as the match's next version, in one transaction with the match's new status
    (and, for an undo, the voiding of `void_target`). Returns only after the commit. `check(conn)`
    runs in that transaction once the match row is locked; it raises CheckFailed to store nothing.

    Raises VersionConflict or DuplicateCommand when the schema refuses the row, and TableBusy when
    the match would reopen (an undo after the end) or move (`table_id`) onto a table that has another
    open match. AlreadyRefused when the command id has a remembered refusal (stored by any process:
    a command id gets one answer), TokenRevoked when `token` (table id, token hash the sender was
    let in with) is no longer the table's.
    """
    row: dict[str, object] = {"status": status, "version": event.version}
    if table_id is not None:  # a `table_moved` event: the one-open-match-per-table index checks it
        row["table_id"] = table_id
    try:
        async with engine.begin() as conn:
            await _lock_match(conn, match_id, row)
            await _check_before_append(conn, match_id, event.command_id, token)
            if check is not None:
                await check(conn)
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
    engine: AsyncEngine, match_id: str, command_id: str, answer: RejectAnswer, at: int, *,
    keep: int | None = None, ttl_ms: int | None = None, token: tuple[str, str] | None = None,
) -> RejectAnswer | int:
    """Remember the first reject of a command id; if another writer got there first, theirs stands,
    and if another process stored the id as an event meanwhile, its version is returned (an int).

    Bounded: the match keeps its `keep` latest refusals and none older than `ttl_ms`,
    pruned here, in the same transaction."""
    try:
        async with engine.begin() as conn:
            await _lock_match(conn, match_id)
            if token is not None:
                await _check_token(conn, *token)
            stored = await conn.scalar(
                sa.select(events.c.version).where(events.c.match_id == match_id, events.c.command_id == command_id))
            if stored is not None:
                return int(stored)
            await conn.execute(
                rejections.insert().values(
                    match_id=match_id, command_id=command_id, code=answer.code, message=answer.message[:500], at=at
                )
            )
            if keep is not None or ttl_ms is not None:
                await _prune(conn, match_id, at, keep, ttl_ms)
        return answer
    except IntegrityError:
        return await find_rejection(engine, match_id, command_id) or answer


async def _prune(conn: AsyncConnection, match_id: str, now: int, keep: int | None,
                 ttl_ms: int | None) -> None:
    mine = rejections.c.match_id == match_id
    if ttl_ms is not None:
        await conn.execute(rejections.delete().where(mine, rejections.c.at < now - ttl_ms))
    if keep is not None:
        # The keep-th newest refusal's time: everything strictly older goes (ties by command id).
        edge = (await conn.execute(
            sa.select(rejections.c.at, rejections.c.command_id).where(mine)
            .order_by(rejections.c.at.desc(), rejections.c.command_id.desc()).offset(keep - 1).limit(1)
        )).first()
        if edge is not None:
            await conn.execute(rejections.delete().where(
                mine, sa.or_(rejections.c.at < edge.at,
                             sa.and_(rejections.c.at == edge.at, rejections.c.command_id < edge.command_id))))


async def sweep_rejections(engine: AsyncEngine, before: int) -> int:
    """Forget every match's refusals stored before `before` (ms): the TTL for matches nobody writes to."""
    async with engine.begin() as conn:
        done = await conn.execute(rejections.delete().where(rejections.c.at < before))
    return int(done.rowcount or 0)


async def load_rejections(engine: AsyncEngine, match_id: str, keep: int | None = None,
                          since: int | None = None) -> dict[str, RejectAnswer]:
    """The match's remembered refusals, oldest first: at most `keep`, none stored before `since`."""
    query = sa.select(rejections.c.command_id, rejections.c.code, rejections.c.message).where(
        rejections.c.match_id == match_id)
    if since is not None:
        query = query.where(rejections.c.at >= since)
    query = query.order_by(rejections.c.at.desc(), rejections.c.command_id.desc())
    if keep is not None:
        query = query.limit(keep)
    async with engine.connect() as conn:
        rows = list(await conn.execute(query))
    return {r.command_id: RejectAnswer(r.code, r.message) for r in reversed(rows)}
