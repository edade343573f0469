"""A person's record across events: their finished matches (paged, newest first), head-to-head
against another person, and an event's statistics by entry (PROTOCOL.md section 12).

Matches are the read model's rows (`history_matches`, `history_players`), found through the
person's entries now (links and merges resolved at read time). A walkover is listed (marked
`walkover`) but is no match in the counts; a result entered by hand is marked `entered`.

Head-to-head counts finished matches only (no walkovers): wins and racks of each side, in total
and per discipline. Racks are the match's racks as the ratings read them (hub/people/facts.py):
a rack's winner beat the other; a hand result by its score where it counts racks, else one rack
to its winner.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people import paging, tally
from hub.people.directory import Refused
from hub.people.facts import side_of
from hub.people.profile import canonical, found, limit_of, person_ids
from hub.store.schema import history_matches, history_players, people_entries, tournaments

DISCIPLINES_MAX = 32


async def _details(conn: Any, refs: list[str]) -> tuple[dict[str, Any], dict[str, str], dict[tuple[str, str], str]]:
    """The matches' rows, their tournaments' names, and the person of each of their entries now."""
    if not refs:
        return {}, {}, {}
    found_rows = {r.ref: r for r in await conn.execute(
        sa.select(history_matches).where(history_matches.c.ref.in_(refs)))}
    tids = sorted({r.tournament_id for r in found_rows.values()})
    pids = sorted({p["player"] for r in found_rows.values() for p in r.players})
    names = {r.id: r.name for r in await conn.execute(
        sa.select(tournaments.c.id, tournaments.c.name).where(tournaments.c.id.in_(tids)))}
    linked = {(r.tournament_id, r.player_id): r.person_id for r in await conn.execute(
        sa.select(people_entries.c.tournament_id, people_entries.c.player_id, people_entries.c.person_id)
        .where(people_entries.c.tournament_id.in_(tids), people_entries.c.player_id.in_(pids)))}
    now = await canonical(conn, list(linked.values()))
    return found_rows, names, {k: now.get(v, v) for k, v in linked.items()}


def _item(match: Any, player_id: str, tournament: str, persons: dict[tuple[str, str], str]) -> dict[str, Any]:
    tid = match.tournament_id
    sides = [{"player_id": p["player"], "name": p["name"], "score": p["score"],
              "person": persons.get((tid, p["player"]))} for p in match.players]
    side = side_of(match.players, player_id)  # a doubles member's row: the side it played on
    me = next((s for s in sides if s["player_id"] == side), None)
    round_info = match.round or {}
    return {
        "match_id": match.match_id, "tournament_id": tid, "tournament": tournament, "draw_key": match.draw_key,
        "round": round_info.get("round"), "round_name": round_info.get("name"),
        "round_name_zh": round_info.get("name_zh"), "discipline": match.discipline, "at": int(match.at),
        "entered": bool(match.entered), "walkover": bool(match.walkover), "player_id": player_id,
        "score": me["score"] if me else None, "won": match.winner == side, "winner": match.winner,
        "opponents": [s for s in sides if s["player_id"] != side],
    }


async def matches_page(engine: AsyncEngine, person_id: str, cursor: str | None, discipline: str | None,
                       limit: int | None) -> dict[str, Any]:
    size = limit_of(limit)
    if discipline is not None and not 1 <= len(discipline) <= DISCIPLINES_MAX:
        raise Refused(422, "bad_request", "discipline must be a discipline's name")
    hp, e = history_players, people_entries
    async with engine.connect() as conn:
        person = await found(conn, person_id)
        if person.merged_into is not None:
            return {"merged_into": person.merged_into, "matches": [], "next": None}
        ids = await person_ids(conn, person)
        query = (sa.select(hp.c.ref, hp.c.player_id, hp.c.at)
                 .select_from(hp.join(e, sa.and_(e.c.tournament_id == hp.c.tournament_id,
                                                 e.c.player_id == hp.c.player_id)))
                 .where(e.c.person_id.in_(ids)))
        if discipline is not None:
            query = query.where(hp.c.discipline == discipline)
        if cursor:
            try:
                at, ref = paging.decode(cursor, (int, str))
            except paging.CursorError:
                raise Refused(422, "bad_cursor", "the cursor is not one this list gave") from None
            query = query.where(sa.or_(hp.c.at < at, sa.and_(hp.c.at == at, hp.c.ref < ref)))
        page = list(await conn.execute(query.order_by(hp.c.at.desc(), hp.c.ref.desc()).limit(size + 1)))
        more = len(page) > size
        page = page[:size]
        details, names, persons = await _details(conn, sorted({r.ref for r in page}))
    return {"matches": [_item(details[r.ref], r.player_id, names.get(details[r.ref].tournament_id, ""), persons)
                        for r in page if r.ref in details],
            "next": paging.encode([int(page[-1].at), page[-1].ref]) if more else None}


def _side() -> dict[str, int]:
    return {"matches": 0, "a_wins": 0, "b_wins": 0, "a_racks": 0, "b_racks": 0}


async def versus(engine: AsyncEngine, a: str, b: str) -> dict[str, Any]:
    hp1, hp2 = history_players.alias("hp1"), history_players.alias("hp2")
    e1, e2 = people_entries.alias("e1"), people_entries.alias("e2")
    async with engine.connect() as conn:
        first, second = await found(conn, a), await found(conn, b)
        first = await found(conn, first.merged_into) if first.merged_into else first
        second = await found(conn, second.merged_into) if second.merged_into else second
        if first.id == second.id:
            raise Refused(422, "same_person", "head-to-head needs two different people")
        ids_a, ids_b = await person_ids(conn, first), await person_ids(conn, second)
        pairs = list(await conn.execute(
            sa.select(hp1.c.ref, hp1.c.player_id.label("pa"), hp2.c.player_id.label("pb"), hp1.c.at)
            .select_from(hp1.join(e1, sa.and_(e1.c.tournament_id == hp1.c.tournament_id,
                                              e1.c.player_id == hp1.c.player_id))
                         .join(hp2, sa.and_(hp2.c.ref == hp1.c.ref, hp2.c.player_id != hp1.c.player_id))
                         .join(e2, sa.and_(e2.c.tournament_id == hp2.c.tournament_id,
                                           e2.c.player_id == hp2.c.player_id)))
            .where(e1.c.person_id.in_(ids_a), e2.c.person_id.in_(ids_b), hp1.c.walkover.is_(False))
            .order_by(hp1.c.at.desc(), hp1.c.ref.desc())))
        details, names, persons = await _details(conn, sorted({r.ref for r in pairs}))
    total = _side()
    by_discipline: dict[str, dict[str, int]] = {}
    listed = []
    for r in pairs:
        match = details.get(r.ref)
        if match is None:
            continue
        pa, pb = side_of(match.players, r.pa), side_of(match.players, r.pb)  # doubles: the members' sides
        if pa == pb or r.pa == pb or r.pb == pa:  # partners, or a member and its own side: no meeting
            continue
        racks = {(w, loser): n for w, loser, n in match.racks}
        for counts in (total, by_discipline.setdefault(match.discipline, _side())):
            counts["matches"] += 1
            counts["a_wins"] += int(match.winner == pa)
            counts["b_wins"] += int(match.winner == pb)
            counts["a_racks"] += racks.get((pa, pb), 0)
            counts["b_racks"] += racks.get((pb, pa), 0)
        listed.append(_item(match, r.pa, names.get(match.tournament_id, ""), persons))
    return {"a": {"id": first.id, "name": first.name}, "b": {"id": second.id, "name": second.name},
            "total": total, "disciplines": dict(sorted(by_discipline.items())), "matches": listed}


async def tournament_stats(engine: AsyncEngine, tid: str) -> dict[str, Any] | None:
    """Every entry of a tournament with its person and the statistics of the event."""
    async with engine.connect() as conn:
        if await conn.scalar(sa.select(tournaments.c.id).where(tournaments.c.id == tid)) is None:
            return None
        entries = list(await conn.execute(
            sa.select(people_entries.c.player_id, people_entries.c.person_id, people_entries.c.name,
                      people_entries.c.stats).where(people_entries.c.tournament_id == tid)))
        now = await canonical(conn, [r.person_id for r in entries])
    entries.sort(key=lambda r: (len(r.player_id), r.player_id))
    return {"tournament_id": tid, "players": [
        {"player_id": r.player_id, "person": now.get(r.person_id, r.person_id), "name": r.name,
         "stats": tally.stats_json(r.stats or {})} for r in entries]}
