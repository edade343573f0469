"""The ratings read model in the store: the racks a fit reads, the rows it writes, the reads.

The racks come from people's history (`history_matches.racks`, docs/people.md: (winner, loser,
count) of a finished match's entries), each entry resolved to the person it is linked to now
(`people_entries`, then `people.merged_into`): a merge or re-link moves an entry's racks at the
next refit. A discipline's `fingerprint` is a cheap summary of everything a fit reads: its history
rows (how many, the sum of their versions, the latest `at`), the links (how many entries, the sum
of their link versions) and the merges: when it is the stored one, the rows are current.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.ratings.fit import Rating
from hub.store.schema import history_matches, people, people_entries, ratings, ratings_heads

Racks = list[tuple[str, str, int]]


async def _links(conn: AsyncConnection) -> str:
    """A summary of every entry's link and every merge (any re-link or merge changes it)."""
    e = people_entries
    count, total = (await conn.execute(sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(e.c.version), 0)))).one()
    merged = await conn.execute(sa.select(people.c.id, people.c.merged_into)
                                .where(people.c.merged_into.is_not(None)).order_by(people.c.id))
    digest = hashlib.sha1(";".join(f"{r.id}>{r.merged_into}" for r in merged).encode()).hexdigest()[:16]
    return f"{count}:{total}:{digest}"


async def fingerprints(conn: AsyncConnection) -> dict[str, str]:
    """discipline -> fingerprint, for every discipline with a match in the history."""
    h = history_matches
    rows = await conn.execute(
        sa.select(h.c.discipline, sa.func.count(), sa.func.sum(h.c.version), sa.func.max(h.c.at))
        .where(h.c.walkover.is_(False)).group_by(h.c.discipline))
    links = await _links(conn)
    return {r[0]: f"{r[1]}:{r[2]}:{r[3]}:{links}" for r in rows}


async def stored_fingerprints(conn: AsyncConnection) -> dict[str, str]:
    return {r.discipline: r.fingerprint for r in await conn.execute(sa.select(ratings_heads))}


async def raw_racks(conn: AsyncConnection, discipline: str) -> tuple[dict[tuple[str, str], str], list[Any]]:
    """What `decode` needs, read in pages with as little work per row as possible (the rows are read
    on the event loop; decoding them is `decode`'s, in a thread): entry -> person (merges followed),
    and (tournament, racks as JSON text) per finished match of the discipline."""
    e, p, h = people_entries, people, history_matches
    who: dict[tuple[str, str], str] = {}
    person = sa.func.coalesce(p.c.merged_into, e.c.person_id)
    links = await conn.stream(sa.select(e.c.tournament_id, e.c.player_id, person)
                              .select_from(e.join(p, p.c.id == e.c.person_id)))
    async for part in links.partitions(5000):
        for tid, pid, person in part:
            who[(tid, pid)] = person
    rows: list[Any] = []
    found = await conn.stream(sa.select(h.c.tournament_id, sa.cast(h.c.racks, sa.Text))
                              .where(h.c.discipline == discipline, h.c.walkover.is_(False)))
    async for part in found.partitions(5000):
        rows.extend(part)
    return who, rows


def decode(who: dict[tuple[str, str], str], rows: list[Any]) -> Racks:
    """The racks between people from `raw_racks`' answer. Pure (run in a thread for big stores)."""
    out: Racks = []
    for tid, text in rows:
        for winner, loser, count in json.loads(text) if text else []:
            a, b = who.get((tid, winner)), who.get((tid, loser))
            if a is not None and b is not None and a != b:
                out.append((a, b, int(count)))
    return out


def ranked(fitted: dict[str, Rating]) -> list[tuple[str, Rating, int]]:
    """(person, rating, rank) in the list's order: not provisional first, each part best first
    (by the exact value, then the person's id); equal shown values in a part share a rank."""
    order = sorted(fitted.items(), key=lambda kv: (kv[1].provisional, -kv[1].exact, kv[0]))
    out: list[tuple[str, Rating, int]] = []
    for position, (person, rating) in enumerate(order, 1):
        if out and out[-1][1].value == rating.value and out[-1][1].provisional == rating.provisional:
            rank = out[-1][2]
        else:
            rank = position
        out.append((person, rating, rank))
    return out


async def write(conn: AsyncConnection, discipline: str, fitted: dict[str, Rating], fingerprint: str,
                now: int) -> None:
    """Replace the discipline's rows and head (in the caller's transaction)."""
    await conn.execute(ratings.delete().where(ratings.c.discipline == discipline))
    rows = [{"discipline": discipline, "person_id": person, "value": r.value, "exact": r.exact, "racks": r.racks,
             "provisional": r.provisional, "rank": rank, "position": position}
            for position, (person, r, rank) in enumerate(ranked(fitted), 1)]
    for start in range(0, len(rows), 5000):
        await conn.execute(ratings.insert(), rows[start:start + 5000])
    await conn.execute(ratings_heads.delete().where(ratings_heads.c.discipline == discipline))
    await conn.execute(ratings_heads.insert().values(
        discipline=discipline, fingerprint=fingerprint, people=len(rows),
        racks=sum(r.racks for r in fitted.values()) // 2, fitted_at=now))


async def forget(conn: AsyncConnection, disciplines: Iterable[str]) -> None:
    """Drop the rows of disciplines that have no history any more."""
    gone = sorted(disciplines)
    if gone:
        await conn.execute(ratings.delete().where(ratings.c.discipline.in_(gone)))
        await conn.execute(ratings_heads.delete().where(ratings_heads.c.discipline.in_(gone)))


def line(row: Any) -> dict[str, Any]:
    return {"value": row.value, "racks": row.racks, "provisional": row.provisional}


async def of_people(conn: AsyncConnection, person_ids: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """person id -> {discipline: {"value", "racks", "provisional"}}."""
    if not person_ids:
        return {}
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for row in await conn.execute(sa.select(ratings).where(ratings.c.person_id.in_(sorted(set(person_ids))))
                                  .order_by(ratings.c.discipline)):
        out.setdefault(row.person_id, {})[row.discipline] = line(row)
    return out


async def exact_of(conn: AsyncConnection, discipline: str, person_ids: list[str]) -> dict[str, Any]:
    """person id -> its row in the discipline (for odds: the exact value)."""
    rows = await conn.execute(sa.select(ratings).where(ratings.c.discipline == discipline,
                                                       ratings.c.person_id.in_(sorted(set(person_ids)))))
    return {r.person_id: r for r in rows}


async def page(conn: AsyncConnection, discipline: str, after: int, limit: int) -> list[Any]:
    """The list's rows after `position`, with the person's name."""
    r = ratings
    return list(await conn.execute(
        sa.select(r.c.person_id, r.c.value, r.c.racks, r.c.provisional, r.c.rank, r.c.position, people.c.name)
        .select_from(r.join(people, people.c.id == r.c.person_id))
        .where(r.c.discipline == discipline, r.c.position > after).order_by(r.c.position).limit(limit)))


async def entry_ratings(engine: AsyncEngine, tid: str, discipline: str) -> dict[str, dict[str, Any]]:
    """A tournament's entries' ratings in a discipline now (player id -> {value, racks, provisional}),
    for a draw to store (seeding by rating, handicaps); unrated entries are left out."""
    e, p, r = people_entries, people, ratings
    async with engine.connect() as conn:
        links = {row.player_id: row.merged_into or row.person_id for row in await conn.execute(
            sa.select(e.c.player_id, e.c.person_id, p.c.merged_into).select_from(e.join(p, p.c.id == e.c.person_id))
            .where(e.c.tournament_id == tid))}
        found = {row.person_id: line(row) for row in await conn.execute(
            sa.select(r).where(r.c.discipline == discipline, r.c.person_id.in_(sorted(set(links.values())))))}
    return {pid: found[person] for pid, person in links.items() if person in found}
