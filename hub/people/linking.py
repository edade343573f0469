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

`link_one` is the rule for one name: a team's members (section 15) are linked with it one by one. A
team has no person: each member has an entry row of its own (`player_id` the member id, `p3.1`), so
a person is in one team of a tournament at most (`409 person_entered`) and their history is theirs;
a team's `player_updated` with `members` replaces its members' rows.
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


async def _members(conn: AsyncConnection, members: list[dict[str, Any]], now: int,
                   taken: set[str]) -> list[dict[str, Any]]:
    """A team's members (section 15) linked one by one, each a person of the directory; a member naming a
    person gets that person's name and club. A person already entered (in a team or alone) is 409."""
    out = []
    for m in members:
        if m.get("person") is not None:
            row = await resolve(conn, m["person"])
            m = {**m, "name": row.name, "club": row.club}
        person, link = await link_one(conn, m["name"], m.get("club"), m.get("person"), now, taken)
        taken.add(person)
        out.append({**m, "person": person, "link": link})
    return out


def _member_rows(tid: str, members: list[dict[str, Any]], version: int) -> list[dict[str, Any]]:
    return [{"tournament_id": tid, "player_id": m["id"], "person_id": m["person"], "link": m["link"],
             "version": version, "name": m["name"], "status": "active"} for m in members]


async def _players_added(conn: AsyncConnection, tid: str, event: TournamentEvent) -> TournamentEvent:
    taken = await _entered(conn, tid)
    players: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for p in event.data["players"]:
        if p.get("members") is not None:  # a team is not a person: its members are, each with an entry row
            members = await _members(conn, p["members"], event.at, taken)
            players.append({**p, "members": members})
            rows.extend(_member_rows(tid, members, event.version))
            continue
        person, link = await link_one(conn, p["name"], p.get("club"), p.get("person"), event.at, taken)
        taken.add(person)
        players.append({**p, "person": person, "link": link})
        rows.append({"tournament_id": tid, "player_id": p["id"], "person_id": person, "link": link,
                     "version": event.version, "name": p["name"], "status": "active"})
    try:
        await conn.execute(people_entries.insert(), rows)
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


async def _new_members(conn: AsyncConnection, tid: str, event: TournamentEvent) -> TournamentEvent:
    """A team's members replaced (before it has played): its old members' rows go, the new ones are linked."""
    pid = event.data["player"]
    mine = people_entries.c.player_id.startswith(f"{pid}.", autoescape=True)
    await conn.execute(people_entries.delete().where(people_entries.c.tournament_id == tid, mine))
    members = await _members(conn, list(event.data["changes"]["members"]), event.at, await _entered(conn, tid))
    await conn.execute(people_entries.insert(), _member_rows(tid, members, event.version))
    return replace(event, data={**event.data, "changes": {**event.data["changes"], "members": members}})


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
    if event.kind == "player_updated" and "members" in event.data.get("changes", {}):
        await directory.lock(conn)
        return await _new_members(conn, tournament_id, event)
    if event.kind == "player_removed":
        pid = event.data["player"]
        await conn.execute(people_entries.delete().where(people_entries.c.tournament_id == tournament_id, sa.or_(
            people_entries.c.player_id == pid, people_entries.c.player_id.startswith(f"{pid}.", autoescape=True))))
    return event
