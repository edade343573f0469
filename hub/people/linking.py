"""Entries point at people (PROTOCOL.md section 12): the link rule, stored with the tournament event.

`complete_event(conn, tournament_id, event)` is the tournament writer's completer: it runs inside
the transaction that stores a tournament event, before the event is appended, and returns the
event to store:
- `players_added`: each player gets `person` and `link`. A player that names its `person` is
  linked to it (a person merged into another is linked to that other one: the merge's target is
  who they are now); `404 unknown_person` when there is no such person. A player without one is
  linked by the rule: to the one person whose folded name and club (hub/people/folding.py) are
  the player's and who has no other entry in this tournament (a person merged into another counts
  as that other one); to a new person (made from the player's name and club) when there is none,
  or several. `link` says `linked` or `created`.
- `player_updated` with `person`: the entry is linked to that person instead (merges followed
  the same way); the old person keeps nothing of it (history follows the link).
- `player_removed` (before the draw): the entry is gone, and its link with it.
`players_linked` (the upgrade to people gave every entry stored before it its person) carries links
the upgrade wrote itself; `cuehub people rebuild` reads all three kinds.
Each link is written to `people_entries` in the same transaction: the event is the truth, the row
its index, and `cuehub people rebuild` makes the rows again from the events.

The decision reads the directory under its lock (hub/store/directory.py), so two hub processes
adding the same new name at once make one person, not two: the second waits, then finds the first.
A person is entered at most once in a tournament (`409 person_entered`).

`link_one` is the rule for one name: a team's members (section 15) are linked with it one by one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from hub.draws.events import DrawReject, TournamentEvent
from hub.store import directory
from hub.store.schema import people_entries
from hub.store.tournament_events import StreamConflict

LINKED, CREATED = "linked", "created"


async def _entered(conn: AsyncConnection, tournament_id: str, besides: str | None = None) -> set[str]:
    """The people with an entry in the tournament (but `besides`, a player id)."""
    query = sa.select(people_entries.c.person_id).where(people_entries.c.tournament_id == tournament_id)
    if besides is not None:
        query = query.where(people_entries.c.player_id != besides)
    return {r[0] for r in await conn.execute(query)}


async def resolve(conn: AsyncConnection, person_id: str) -> directory.PersonRow:
    """The person an id names now: itself, or the one it was merged into. 404 unknown_person."""
    row = await directory.get(conn, person_id)
    if row is not None and row.merged_into is not None:
        row = await directory.get(conn, row.merged_into)
    if row is None:
        raise DrawReject(404, "unknown_person", f"no person {person_id!r} in the directory")
    return row


async def link_one(conn: AsyncConnection, name: str, club: str | None, person: str | None, now: int,
                   taken: Iterable[str] = ()) -> tuple[str, str]:
    """(person id, "linked" | "created") for one entry; `taken`: people entered already (they are not
    candidates of the rule, and naming one is `409 person_entered`). Call under the directory's lock."""
    taken = set(taken)
    if person is not None:
        row = await resolve(conn, person)
        if row.id in taken:
            raise DrawReject(409, "person_entered", f"{row.name} ({row.id}) is already entered in this tournament")
        return row.id, LINKED
    found = [pid for pid in await directory.same_name_and_club(conn, name, club, limit=len(taken) + 2)
             if pid not in taken]
    if len(found) == 1:
        return found[0], LINKED
    made = await directory.insert(conn, name, club, (), now)
    return made.id, CREATED


async def _players_added(conn: AsyncConnection, tid: str, event: TournamentEvent) -> TournamentEvent:
    taken = await _entered(conn, tid)
    players: list[dict[str, Any]] = []
    for p in event.data["players"]:
        person, link = await link_one(conn, p["name"], p.get("club"), p.get("person"), event.at, taken)
        taken.add(person)
        players.append({**p, "person": person, "link": link})
    try:
        await conn.execute(people_entries.insert(), [
            {"tournament_id": tid, "player_id": p["id"], "person_id": p["person"], "link": p["link"],
             "version": event.version, "name": p["name"], "status": "active"} for p in players])
    except IntegrityError as exc:  # another writer stored these player ids first: the stream moved on
        raise StreamConflict(f"{tid} v{event.version}") from exc
    return replace(event, data={**event.data, "players": players})


async def _relinked(conn: AsyncConnection, tid: str, event: TournamentEvent) -> TournamentEvent:
    pid = event.data["player"]
    row = await resolve(conn, event.data["changes"]["person"])
    if row.id in await _entered(conn, tid, besides=pid):
        raise DrawReject(409, "person_entered", f"{row.name} ({row.id}) is already entered in this tournament")
    await conn.execute(people_entries.update().where(
        people_entries.c.tournament_id == tid, people_entries.c.player_id == pid,
    ).values(person_id=row.id, link=LINKED, version=event.version))
    changes = {**event.data["changes"], "person": row.id}
    return replace(event, data={**event.data, "changes": changes})


async def write_links(conn: AsyncConnection, tid: str, links: dict[str, tuple[str, str, str]], version: int) -> None:
    """Entries' links as (person id, link, name played under) by player id: upserted."""
    if not links:
        return
    await conn.execute(people_entries.delete().where(people_entries.c.tournament_id == tid,
                                                     people_entries.c.player_id.in_(sorted(links))))
    await conn.execute(people_entries.insert(), [
        {"tournament_id": tid, "player_id": pid, "person_id": person, "link": link, "version": version, "name": name}
        for pid, (person, link, name) in links.items()])


async def complete_event(conn: AsyncConnection, tournament_id: str, event: TournamentEvent) -> TournamentEvent:
    """The tournament writer's completer (see the module's docstring)."""
    if event.kind == "players_added":
        await directory.lock(conn)
        return await _players_added(conn, tournament_id, event)
    if event.kind == "player_updated" and "person" in event.data.get("changes", {}):
        await directory.lock(conn)
        return await _relinked(conn, tournament_id, event)
    if event.kind == "player_removed":
        await conn.execute(people_entries.delete().where(people_entries.c.tournament_id == tournament_id,
                                                         people_entries.c.player_id == event.data["player"]))
    return event
