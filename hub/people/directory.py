"""Writing the directory (PROTOCOL.md section 12): people made, changed, deleted, merged, unmerged.

Fields: `name` (1 to 100 characters, cleaned as a player's name: hub/rules/names.py), `club`
(at most 100; empty or null is none), `aliases` (at most MAX_ALIASES names, each like `name`;
repeats dropped). Unknown fields are `422 bad_request`. At most MAX_BATCH people a call.

- `PATCH` of a person changes the directory only: the entries keep the names they were played
  under. A person merged into another is changed through that other one (`409 merged`).
- `DELETE` only a person with no entry (`409 has_entries`), not merged (`409 merged`) and with
  nobody merged into them (`409 has_merged`).
- Merge `id` into `into`: from then on every entry of `id` counts for `into` (reads resolve an
  entry's person through `merged_into`), `id`'s names find `into`, and `GET /api/people/{id}`
  answers `{"merged_into": into}`. Nothing is rewritten: the merge is the pointer and a line of
  `people_merges`, so `unmerge` (clearing the pointer, logged too) gives back exactly what `id`
  had, and entries linked during the merge stay where they were linked (a link that named `id`
  went to `into`, who it was then). Refused: `id` into itself (`422 same_person`), `id` merged
  already (`409 already_merged`), `into` merged into someone (`409 merge_chain`: merge into that
  one), people merged into `id` (`409 merge_chain`: merge them, or unmerge them, first); so a
  merge is never a chain nor a cycle. Unmerge of a person not merged: `409 not_merged`.
Every write takes the directory's lock (hub/store/directory.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hub.rules.names import BadName, clean_name
from hub.store import directory as rows
from hub.store.db import now_ms
from hub.store.schema import people_merges

FIELDS = ("name", "club", "aliases")
MAX_ALIASES = 10
MAX_BATCH = 500
MAX_TEXT = 100


class Refused(Exception):
    """A directory write refused: the HTTP status, a code and a message for a person."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.status, self.code, self.message = status, code, message


def _bad(message: str) -> Refused:
    return Refused(422, "bad_request", message)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _bad(f"{what} must be a string")
    try:
        text: str = clean_name(value, what)
    except BadName as exc:
        raise _bad(str(exc)) from None
    if len(text) > MAX_TEXT:
        raise _bad(f"{what} must be at most {MAX_TEXT} characters (got {len(text)})")
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise _bad(f"{what} must not contain control characters")
    return text


def person_fields(raw: Any, what: str, *, partial: bool) -> dict[str, Any]:
    """The checked fields of a person (all three, or for `partial` those given)."""
    if not isinstance(raw, Mapping):
        raise _bad(f"{what} must be an object")
    unknown = [str(k)[:40] for k in raw if k not in FIELDS]
    if unknown:
        raise _bad(f"unknown field {unknown[0]!r} in {what} (allowed: {', '.join(FIELDS)})")
    out: dict[str, Any] = {}
    if "name" in raw or not partial:
        out["name"] = _text(raw.get("name"), f"{what}: name")
    if "club" in raw or not partial:
        club = raw.get("club")
        if club is not None and not isinstance(club, str):
            raise _bad(f"{what}: club must be a string or null")
        out["club"] = _text(club, f"{what}: club") if club is not None and club.strip() else None
    if "aliases" in raw or not partial:
        aliases = raw.get("aliases") or []
        if not isinstance(aliases, list) or len(aliases) > MAX_ALIASES:
            raise _bad(f"{what}: aliases must be a list of at most {MAX_ALIASES} names")
        out["aliases"] = list(dict.fromkeys(_text(a, f"{what}: aliases[{i}]") for i, a in enumerate(aliases)))
    return out


def batch_of(body: Any) -> list[dict[str, Any]]:
    """The people of a POST body: one person, or {"people": [...]}."""
    if isinstance(body, Mapping) and set(body) == {"people"}:
        batch = body["people"]
        if not isinstance(batch, list) or not 1 <= len(batch) <= MAX_BATCH:
            raise _bad(f"people must be a list of 1 to {MAX_BATCH} people")
        return [person_fields(p, f"people[{i}]", partial=False) for i, p in enumerate(batch)]
    return [person_fields(body, "the person", partial=False)]


async def create(engine: AsyncEngine, batch: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    now = now_ms()
    async with engine.begin() as conn:
        made = [await rows.insert(conn, p["name"], p["club"], p["aliases"], now) for p in batch]
    return [m.json() for m in made]


async def _person(conn: AsyncConnection, person_id: str, *, merged_ok: bool = False) -> rows.PersonRow:
    person = await rows.get(conn, person_id)
    if person is None:
        raise Refused(404, "not_found", f"no person {person_id!r}")
    if person.merged_into is not None and not merged_ok:
        raise Refused(409, "merged", f"{person.name} is merged into {person.merged_into}: change that person")
    return person


async def update(engine: AsyncEngine, person_id: str, body: Any) -> dict[str, Any]:
    changes = person_fields(body, "the changes", partial=True)
    if not changes:
        raise _bad(f"the changes must name at least one of {', '.join(FIELDS)}")
    async with engine.begin() as conn:
        await rows.lock(conn)
        person = await _person(conn, person_id)
        done = await rows.update(conn, person, name=changes.get("name", person.name),
                                 club=changes.get("club", person.club),
                                 aliases=changes.get("aliases", list(person.aliases)), now=now_ms())
    return done.json()


async def remove(engine: AsyncEngine, person_id: str) -> dict[str, Any]:
    async with engine.begin() as conn:
        await rows.lock(conn)
        person = await _person(conn, person_id)
        if (await rows.entry_counts(conn, [person_id])).get(person_id):
            raise Refused(409, "has_entries", f"{person.name} has entries in tournaments: merge them instead")
        if (await rows.merged_into(conn, [person_id]))[person_id]:
            raise Refused(409, "has_merged", f"people are merged into {person.name}: unmerge them first")
        await conn.execute(people_merges.delete().where(
            (people_merges.c.person_id == person_id) | (people_merges.c.into_id == person_id)))
        await rows.delete(conn, person)
    return {"id": person_id, "deleted": True}


async def merge(engine: AsyncEngine, person_id: str, into: Any) -> dict[str, Any]:
    if not isinstance(into, str) or not 1 <= len(into) <= 64:
        raise _bad('the body is {"into": "<person id>"}')
    if into == person_id:
        raise Refused(422, "same_person", "a person cannot be merged into themselves")
    async with engine.begin() as conn:
        await rows.lock(conn)
        person = await _person(conn, person_id, merged_ok=True)
        target = await _person(conn, into, merged_ok=True)
        if person.merged_into is not None:
            raise Refused(409, "already_merged", f"{person.name} is merged into {person.merged_into} already")
        if target.merged_into is not None:
            raise Refused(409, "merge_chain",
                          f"{target.name} is merged into {target.merged_into}: merge into {target.merged_into}")
        if (await rows.merged_into(conn, [person_id]))[person_id]:
            raise Refused(409, "merge_chain",
                          f"people are merged into {person.name}: merge them into {target.name} or unmerge them first")
        now = now_ms()
        await rows.set_merged_into(conn, person, target.id, now)
        await rows.index_terms(conn, target.id)
        await conn.execute(people_merges.insert().values(person_id=person_id, into_id=target.id, kind="merge", at=now))
    return {"id": person_id, "merged_into": target.id}


async def unmerge(engine: AsyncEngine, person_id: str) -> dict[str, Any]:
    async with engine.begin() as conn:
        await rows.lock(conn)
        person = await _person(conn, person_id, merged_ok=True)
        if person.merged_into is None:
            raise Refused(409, "not_merged", f"{person.name} is not merged into anyone")
        target = person.merged_into
        now = now_ms()
        await rows.set_merged_into(conn, person, None, now)
        await rows.index_terms(conn, target)
        await conn.execute(people_merges.insert().values(person_id=person_id, into_id=target, kind="unmerge", at=now))
    return {"id": person_id, "merged_into": None, "was_merged_into": target}
