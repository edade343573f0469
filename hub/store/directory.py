"""The people directory's rows (PROTOCOL.md section 12): people, their search terms, entries' links.

Every function takes a connection inside the caller's transaction, so a person made by the link
rule, the entry's link and the tournament event that carries it commit together or not at all.
`lock` serialises everything that reads the directory to decide a write (the link rule, merges,
deletes) across hub processes: a row lock on PostgreSQL, the write lock on SQLite.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection

from hub.people import folding
from hub.store.catalog import new_id
from hub.store.schema import meta, people, people_entries, people_terms

LOCK_KEY = "people_directory_lock"
SELECTIVE = 20_000  # search: below this many terms for its rarest word, a query collects, then sorts


@dataclass(frozen=True, slots=True)
class PersonRow:
    n: int
    id: str
    name: str
    club: str | None
    aliases: tuple[str, ...]
    merged_into: str | None
    created_at: int

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "club": self.club, "aliases": list(self.aliases)}


COLUMNS = (people.c.n, people.c.id, people.c.name, people.c.club, people.c.aliases, people.c.merged_into,
           people.c.created_at)


def _row(r: Any) -> PersonRow:
    return PersonRow(r.n, r.id, r.name, r.club, tuple(r.aliases or ()), r.merged_into, int(r.created_at))


async def lock(conn: AsyncConnection) -> None:
    """Take the directory's lock for the rest of the transaction."""
    done = await conn.execute(meta.update().where(meta.c.key == LOCK_KEY).values(value=meta.c.value))
    if done.rowcount == 0:  # the migration makes the row; a store without it gets it here (and its lock)
        await conn.execute(meta.insert().values(key=LOCK_KEY, value="1"))


def _derived(name: str, club: str | None, aliases: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    terms = folding.terms(name, club, list(aliases))
    return {"link_key": folding.link_key(name, club)[:420], "sort_key": folding.sort_key(name),
            "search": " ".join(terms)}, terms


async def _write_terms(conn: AsyncConnection, n: int, terms: Iterable[str]) -> None:
    await conn.execute(people_terms.delete().where(people_terms.c.person_n == n))
    rows = [{"term": t, "person_n": n} for t in dict.fromkeys(terms)]
    if rows:
        await conn.execute(people_terms.insert(), rows)


async def index_terms(conn: AsyncConnection, person_id: str) -> None:
    """A person's terms in the search index (`people_terms`, and `people.search`, the same terms as
    one text): their own, and those of the people merged into them (a merged person is found as
    the one it was merged into); a merged person's `search` keeps its own terms, out of the index."""
    rows = await conn.execute(sa.select(people.c.n, people.c.id, people.c.name, people.c.club, people.c.aliases)
                              .where(sa.or_(people.c.id == person_id, people.c.merged_into == person_id))
                              .order_by(people.c.n))
    found = list(rows)
    own = next((r for r in found if r.id == person_id), None)
    if own is None:
        return
    terms = list(dict.fromkeys(t for r in found for t in folding.terms(r.name, r.club, list(r.aliases or ()))))
    await _write_terms(conn, own.n, terms)
    await conn.execute(people.update().where(people.c.id == person_id).values(search=" ".join(terms)))


async def insert(conn: AsyncConnection, name: str, club: str | None, aliases: Sequence[str], now: int,
                 person_id: str | None = None) -> PersonRow:
    derived, terms = _derived(name, club, aliases)
    pid = person_id or new_id("pe")
    result = await conn.execute(people.insert().values(
        id=pid, name=name, club=club, aliases=list(aliases), merged_into=None, created_at=now, updated_at=now,
        **derived))
    n = int(result.inserted_primary_key[0])  # type: ignore[index]
    await _write_terms(conn, n, terms)
    return PersonRow(n, pid, name, club, tuple(aliases), None, now)


async def update(conn: AsyncConnection, person: PersonRow, *, name: str, club: str | None,
                 aliases: Sequence[str], now: int) -> PersonRow:
    derived, _ = _derived(name, club, aliases)
    await conn.execute(people.update().where(people.c.id == person.id).values(
        name=name, club=club, aliases=list(aliases), updated_at=now, **derived))
    await index_terms(conn, person.id)
    return PersonRow(person.n, person.id, name, club, tuple(aliases), person.merged_into, person.created_at)


async def get(conn: AsyncConnection, person_id: str) -> PersonRow | None:
    row = (await conn.execute(sa.select(*COLUMNS).where(people.c.id == person_id))).first()
    return None if row is None else _row(row)


async def get_many(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, PersonRow]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await conn.execute(sa.select(*COLUMNS).where(people.c.id.in_(wanted)))
    return {r.id: _row(r) for r in rows}


async def same_name_and_club(conn: AsyncConnection, name: str, club: str | None, limit: int = 2) -> list[str]:
    """Who the people whose folded name and club are those given are now (a person merged into
    another is that other one), distinct, in the order they were made: at most `limit`."""
    key = folding.link_key(name, club)[:420]
    rows = await conn.execute(sa.select(people.c.id, people.c.merged_into).where(people.c.link_key == key)
                              .order_by(people.c.n).limit(limit * 4))
    return list(dict.fromkeys(r.merged_into or r.id for r in rows))[:limit]


async def merged_into(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, list[str]]:
    """For each id, the people merged into it."""
    wanted = sorted(set(ids))
    out: dict[str, list[str]] = {i: [] for i in wanted}
    if wanted:
        rows = await conn.execute(sa.select(people.c.id, people.c.merged_into)
                                  .where(people.c.merged_into.in_(wanted)).order_by(people.c.n))
        for r in rows:
            out[r.merged_into].append(r.id)
    return out


async def set_merged_into(conn: AsyncConnection, person: PersonRow, into: str | None, now: int) -> None:
    """Point a person at the one it is merged into (None: at nobody). It leaves the search index
    while merged (its terms go to the other's)."""
    await conn.execute(people.update().where(people.c.id == person.id).values(merged_into=into, updated_at=now))
    if into is not None:
        await conn.execute(people_terms.delete().where(people_terms.c.person_n == person.n))
    await index_terms(conn, person.id)


async def delete(conn: AsyncConnection, person: PersonRow) -> None:
    await conn.execute(people_terms.delete().where(people_terms.c.person_n == person.n))
    await conn.execute(people.delete().where(people.c.id == person.id))


async def entry_counts(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, int]:
    """Entries (tournaments entered) linked to each id itself (merges not followed)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await conn.execute(sa.select(people_entries.c.person_id, sa.func.count())
                              .where(people_entries.c.person_id.in_(wanted)).group_by(people_entries.c.person_id))
    return {r[0]: int(r[1]) for r in rows}


@dataclass(frozen=True, slots=True)
class Page:
    rows: list[PersonRow]
    after: tuple[str, int] | None  # (sort_key, n) of the last row when there are more


def _hits(word: str) -> sa.Select[tuple[int]]:
    return sa.select(people_terms.c.person_n).where(people_terms.c.term >= word,
                                                    people_terms.c.term < word + "\U0010ffff")


def _begins_a_term(word: str) -> sa.ColumnElement[bool]:
    """The person's `search` text has a term that begins with `word` (words are letters and digits:
    nothing in them is a LIKE wildcard)."""
    return (sa.literal(" ") + people.c.search).like(f"% {word}%")


async def _among(conn: AsyncConnection, word: str) -> sa.ColumnElement[bool]:
    """The people with a term beginning with `word`, collected first (at most SELECTIVE): a list of
    ids, so PostgreSQL looks each one up by its key instead of reading the directory through."""
    if conn.dialect.name != "postgresql":
        return people.c.n.in_(_hits(word))  # SQLite probes the key for each id of the subquery itself
    ids = sorted(set((await conn.scalars(_hits(word))).all()))
    return people.c.n == sa.any_(sa.bindparam("among", ids, type_=postgresql.ARRAY(sa.Integer)))


async def _count_to(conn: AsyncConnection, word: str, cap: int) -> int:
    """How many terms begin with `word`, counted up to `cap` (an index-only range scan)."""
    return int(await conn.scalar(sa.select(sa.func.count()).select_from(_hits(word).limit(cap).subquery())) or 0)


async def search(conn: AsyncConnection, words: Sequence[str], after: tuple[str, int] | None, limit: int) -> Page:
    """People not merged away with a term beginning with every word, in the directory's order,
    after the cursor: one page of `limit` and whether there are more.

    Two plans, chosen by how many terms the query's rarest word begins (counted first, up to
    SELECTIVE, on the term index): fewer, and its people are collected from the term index, the
    other words checked on their `search` text, then sorted (SELECTIVE rows at most); more, and
    the directory is walked in its order, every word checked on `search`, until a page is full (a
    word that common fills it within a few hundred rows). Left to itself PostgreSQL's planner walked
    the directory for a word of a few thousand people late in its order (`ko`: 150 ms at 100,000
    people) and hashed every other word's terms; bench/people_bench.py measures both paths."""
    query = sa.select(*COLUMNS, people.c.sort_key).where(people.c.merged_into.is_(None))
    rest = list(words)
    if words:
        counts = [await _count_to(conn, w, SELECTIVE) for w in words]
        if min(counts) == 0:
            return Page([], None)
        if min(counts) < SELECTIVE:
            rarest = rest.pop(counts.index(min(counts)))
            query = query.where(await _among(conn, rarest))
    for word in rest:
        query = query.where(_begins_a_term(word))
    if after is not None:
        key, n = after
        query = query.where(sa.or_(people.c.sort_key > key, sa.and_(people.c.sort_key == key, people.c.n > n)))
    rows = list(await conn.execute(query.order_by(people.c.sort_key, people.c.n).limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    return Page([_row(r) for r in rows], (rows[-1].sort_key, rows[-1].n) if more else None)
