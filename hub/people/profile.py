"""Reading people (PROTOCOL.md section 12): the directory's pages and a person's profile.

Everything a person has is found through their entries: the entries linked to them or to anyone
merged into them (`people_entries.person_id`, `people.merged_into`), resolved now, at read time;
statistics are the sum of those entries' tallies (each entry's is kept by hub/people/history.py),
never a fold of matches.

`ratings` is section 13's: `ratings_of` reads the ratings read model (hub/ratings/store.py); a
person with no rated racks has `{}`, and a directory row's `rating` is then null.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.people import folding, paging, tally
from hub.people.directory import Refused
from hub.ratings import store as ratings_store
from hub.store import directory as rows
from hub.store.schema import matches, people, people_entries, tournaments

MAX_LIMIT = 100
DEFAULT_LIMIT = 20


async def ratings_of(conn: AsyncConnection, person_ids: list[str]) -> dict[str, dict[str, Any]]:
    """person id -> {discipline: {"value", "racks", "provisional"}} (section 13; hub/ratings/store.py)."""
    return await ratings_store.of_people(conn, person_ids)


def rating_line(ratings: dict[str, Any] | None) -> Any:
    """A directory row's `rating`: null until ratings exist (section 13 decides what it shows)."""
    return ratings or None


def limit_of(value: int | None) -> int:
    if value is None:
        return DEFAULT_LIMIT
    if not 1 <= value <= MAX_LIMIT:
        raise Refused(422, "bad_request", f"limit must be between 1 and {MAX_LIMIT}")
    return value


async def person_ids(conn: AsyncConnection, person: rows.PersonRow) -> list[str]:
    """The person and everyone merged into them: whose entries are theirs."""
    return [person.id, *(await rows.merged_into(conn, [person.id]))[person.id]]


async def found(conn: AsyncConnection, person_id: str) -> rows.PersonRow:
    person = await rows.get(conn, person_id)
    if person is None:
        raise Refused(404, "not_found", f"no person {person_id!r}")
    return person


async def canonical(conn: AsyncConnection, person_ids_: list[str]) -> dict[str, str]:
    """Each person id -> who it is now (itself, or the one it was merged into)."""
    wanted = sorted(set(person_ids_))
    if not wanted:
        return {}
    found_rows = await conn.execute(sa.select(people.c.id, people.c.merged_into).where(people.c.id.in_(wanted)))
    return {r.id: r.merged_into or r.id for r in found_rows}


async def directory_page(engine: AsyncEngine, q: str | None, cursor: str | None, limit: int | None) -> dict[str, Any]:
    size = limit_of(limit)
    after = None
    if cursor:
        try:
            key, n = paging.decode(cursor, (str, int))
        except paging.CursorError:
            raise Refused(422, "bad_cursor", "the cursor is not one this list gave") from None
        after = (key, n)
    if q is not None and len(q) > 200:
        raise Refused(422, "bad_request", "q must be at most 200 characters")
    async with engine.connect() as conn:
        page = await rows.search(conn, folding.query_words(q), after, size)
        ids = [p.id for p in page.rows]
        merged = await rows.merged_into(conn, ids)
        counts = await rows.entry_counts(conn, [*ids, *(m for ms in merged.values() for m in ms)])
        ratings = await ratings_of(conn, ids)
    return {
        "people": [{"id": p.id, "name": p.name, "club": p.club, "aliases": list(p.aliases),
                    "events": counts.get(p.id, 0) + sum(counts.get(m, 0) for m in merged[p.id]),
                    "rating": rating_line(ratings.get(p.id))} for p in page.rows],
        "next": paging.encode(list(page.after)) if page.after else None,
    }


async def _entries(conn: AsyncConnection, ids: list[str]) -> list[Any]:
    e, t = people_entries, tournaments
    return list(await conn.execute(
        sa.select(e.c.tournament_id, e.c.player_id, e.c.person_id, e.c.link, e.c.name, e.c.status, e.c.place,
                  e.c.stats, t.c.name.label("tournament"), t.c.created_at)
        .select_from(e.join(t, t.c.id == e.c.tournament_id))
        .where(e.c.person_id.in_(ids)).order_by(t.c.created_at.desc(), t.c.n.desc(), e.c.player_id)))


async def _live(conn: AsyncConnection, entries: list[Any]) -> dict[str, Any] | None:
    """The match one of the entries plays now (the newest when, oddly, several do)."""
    by_tournament: dict[str, set[str]] = {}
    for r in entries:
        by_tournament.setdefault(r.tournament_id, set()).add(r.player_id)
    if not by_tournament:
        return None
    found_rows = await conn.execute(
        sa.select(matches.c.id, matches.c.tournament_id, matches.c.table_id, matches.c.discipline, matches.c.setup,
                  matches.c.draw_key)
        # `IN (scheduled, live)` too: the one-open-match-per-table index is over those, so the few
        # open matches are found through it, not by reading every match of each tournament.
        .where(matches.c.status.in_(("scheduled", "live")), matches.c.status == "live",
               matches.c.tournament_id.in_(sorted(by_tournament)))
        .order_by(matches.c.n.desc()))
    for m in found_rows:
        ids = [p.get("id") for p in (m.setup or {}).get("players") or []]
        mine = [pid for pid in ids if pid in by_tournament[m.tournament_id]]
        if mine:
            return {"match_id": m.id, "tournament_id": m.tournament_id, "table_id": m.table_id,
                    "discipline": m.discipline, "player_id": mine[0], "draw_key": m.draw_key}
    return None


async def profile(engine: AsyncEngine, person_id: str) -> dict[str, Any]:
    async with engine.connect() as conn:
        person = await found(conn, person_id)
        if person.merged_into is not None:
            return {"merged_into": person.merged_into}
        ids = await person_ids(conn, person)
        entries = await _entries(conn, ids)
        live = await _live(conn, entries)
        ratings = (await ratings_of(conn, [person.id])).get(person.id) or {}
    career: dict[str, tally.Tally] = {}
    events = []
    for r in entries:
        tally.add_by_discipline(career, r.stats or {})
        events.append({"tournament_id": r.tournament_id, "name": r.tournament, "at": int(r.created_at),
                       "player_id": r.player_id, "played_as": r.name, "place": r.place, "status": r.status,
                       "link": r.link, "person": r.person_id, "stats": tally.stats_json(r.stats or {})})
    return {**person.json(), "merged": ids[1:], "events": events, "stats": tally.stats_json(career),
            "ratings": ratings, "live": live}
