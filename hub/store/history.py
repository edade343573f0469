"""The read models of people across events (hub/people/history.py keeps them): finished matches and
walkovers by entry, the entries' status, place and statistics, and how far each stream was read.

Every writer takes a connection inside the caller's transaction. Two hub processes may refresh
the same things at once: an entry's statistics are summed under the entry row's lock (PostgreSQL
`FOR UPDATE`; SQLite has one writer), and a match's rows are only replaced by a newer version's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from hub.people import tally
from hub.store.schema import history_heads, history_matches, history_players, people_entries, tournament_events

Entry = tuple[str, str]  # (tournament id, player id)


async def match_version(conn: AsyncConnection, ref: str) -> int | None:
    return await conn.scalar(sa.select(history_matches.c.version).where(history_matches.c.ref == ref))


def _by_tournament(entries: Iterable[Entry]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for tid, pid in sorted(set(entries)):
        out.setdefault(tid, []).append(pid)
    return out


async def lock_entries(conn: AsyncConnection, entries: Iterable[Entry]) -> None:
    """Lock the entries' rows (in one order, so two writers cannot deadlock) for the transaction."""
    for tid, pids in _by_tournament(entries).items():
        await conn.execute(sa.select(people_entries.c.player_id).where(
            people_entries.c.tournament_id == tid, people_entries.c.player_id.in_(pids),
        ).order_by(people_entries.c.player_id).with_for_update())


async def drop(conn: AsyncConnection, refs: Sequence[str]) -> list[Entry]:
    """Delete matches' rows; the entries that had them."""
    if not refs:
        return []
    had = [(r.tournament_id, r.player_id) for r in await conn.execute(
        sa.select(history_players.c.tournament_id, history_players.c.player_id).where(history_players.c.ref.in_(refs)))]
    await conn.execute(history_players.delete().where(history_players.c.ref.in_(refs)))
    await conn.execute(history_matches.delete().where(history_matches.c.ref.in_(refs)))
    return had


async def put(conn: AsyncConnection, match: dict[str, Any], players: list[dict[str, Any]]) -> None:
    """Insert a match's rows (`drop` the old ones first)."""
    await conn.execute(history_matches.insert().values(**match))
    if players:
        await conn.execute(history_players.insert(), players)


async def sum_entry_stats(conn: AsyncConnection, entries: Iterable[Entry]) -> None:
    """Each entry's statistics of the event: the sum of its matches' (walkovers have none)."""
    for tid, pids in _by_tournament(entries).items():
        rows = await conn.execute(sa.select(history_players.c.player_id, history_players.c.discipline,
                                            history_players.c.stats).where(
            history_players.c.tournament_id == tid, history_players.c.player_id.in_(pids),
            history_players.c.walkover.is_(False)))
        sums: dict[str, dict[str, tally.Tally]] = {pid: {} for pid in pids}
        for r in rows:
            if r.stats:
                tally.add_by_discipline(sums[r.player_id], {r.discipline: r.stats})
        for pid, by_discipline in sums.items():
            await conn.execute(people_entries.update().where(
                people_entries.c.tournament_id == tid, people_entries.c.player_id == pid,
            ).values(stats=by_discipline or None))


async def entries_of(conn: AsyncConnection, tid: str) -> dict[str, dict[str, Any]]:
    rows = await conn.execute(sa.select(people_entries.c.player_id, people_entries.c.name, people_entries.c.status,
                                        people_entries.c.place).where(people_entries.c.tournament_id == tid))
    return {r.player_id: {"name": r.name, "status": r.status, "place": r.place} for r in rows}


async def set_entries(conn: AsyncConnection, tid: str, changes: dict[str, dict[str, Any]]) -> None:
    for pid, values in changes.items():
        await conn.execute(people_entries.update().where(
            people_entries.c.tournament_id == tid, people_entries.c.player_id == pid).values(**values))


async def walkovers_of(conn: AsyncConnection, tid: str) -> dict[str, dict[str, Any]]:
    rows = await conn.execute(sa.select(history_matches.c.ref, history_matches.c.at, history_matches.c.winner,
                                        history_matches.c.players).where(
        history_matches.c.tournament_id == tid, history_matches.c.walkover.is_(True)))
    return {r.ref: {"at": int(r.at), "winner": r.winner, "players": [p["player"] for p in r.players]} for r in rows}


async def event_time(conn: AsyncConnection, tid: str, version: int) -> int | None:
    """When a tournament event was stored."""
    at = await conn.scalar(sa.select(tournament_events.c.at).where(
        tournament_events.c.tournament_id == tid, tournament_events.c.version == version))
    return None if at is None else int(at)


def _head_key(stream: str, ident: str) -> str:
    return f"{stream}:{ident}"[:100]


async def head(conn: AsyncConnection, stream: str, ident: str) -> int:
    value = await conn.scalar(sa.select(history_heads.c.version).where(
        history_heads.c.stream == _head_key(stream, ident)).with_for_update())
    return -1 if value is None else int(value)


async def set_head(conn: AsyncConnection, stream: str, ident: str, version: int) -> None:
    key = _head_key(stream, ident)
    done = await conn.execute(history_heads.update().where(history_heads.c.stream == key).values(version=version))
    if done.rowcount == 0:
        await conn.execute(history_heads.insert().values(stream=key, version=version))


async def forget_tournament(conn: AsyncConnection, tid: str) -> None:
    """Everything the read models and the links hold of a tournament (it is being deleted)."""
    refs = [r.ref for r in await conn.execute(sa.select(history_matches.c.ref).where(
        history_matches.c.tournament_id == tid))]
    await drop(conn, refs)
    await conn.execute(people_entries.delete().where(people_entries.c.tournament_id == tid))
    await conn.execute(history_heads.delete().where(history_heads.c.stream == _head_key("tournament", tid)))
