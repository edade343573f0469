"""The ratings reads of the API (PROTOCOL.md section 13): the list per discipline, and the odds.

`parse_race` is pure: a race is a whole number (both players race to it) or `A-B` (a handicapped
race: `a` races to A, `b` to B), each 1 to MAX_RACE; a score likewise `X-Y`. Refusals are
`Refused` (hub/people/directory.py), answered with their status and code.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people import paging
from hub.people.directory import Refused
from hub.people.profile import found
from hub.ratings import store
from hub.ratings.race import MAX_RACE, match_chance
from hub.ratings.scale import MEAN, rack_chance
from hub.rules.disciplines import DISCIPLINES

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
_PAIR = re.compile(r"^\s*(\d{1,3})\s*-\s*(\d{1,3})\s*$")
_ONE = re.compile(r"^\s*(\d{1,3})\s*$")


def discipline_of(name: str | None) -> str:
    if not name or name not in DISCIPLINES:
        raise Refused(422, "unknown_discipline", f"discipline must be one of {', '.join(DISCIPLINES)}")
    return name


def parse_race(text: str | None) -> tuple[int, int]:
    """`7` -> (7, 7); `7-5` -> (7, 5). A race of 0, above MAX_RACE or not a number: `422 bad_race`."""
    m = _ONE.match(text or "")
    races = (int(m.group(1)),) * 2 if m else None
    m2 = _PAIR.match(text or "")
    if m2:
        races = (int(m2.group(1)), int(m2.group(2)))
    if races is None or not all(1 <= r <= MAX_RACE for r in races):
        raise Refused(422, "bad_race", f"race_to must be a number from 1 to {MAX_RACE}, or A-B for a handicapped race")
    return races


def parse_score(text: str | None, races: tuple[int, int]) -> tuple[int, int]:
    if text is None or text == "":
        return 0, 0
    m = _PAIR.match(text)
    if m is None:
        raise Refused(422, "bad_score", "score must be X-Y (racks won by a and by b)")
    score = (int(m.group(1)), int(m.group(2)))
    if score[0] > races[0] or score[1] > races[1] or (score[0] == races[0] and score[1] == races[1]):
        raise Refused(422, "bad_score", "the score is past the race")
    return score


async def listing(engine: AsyncEngine, discipline: str | None, cursor: str | None, limit: int | None) -> dict[str, Any]:
    name = discipline_of(discipline)
    size = limit or DEFAULT_LIMIT
    if not 1 <= size <= MAX_LIMIT:
        raise Refused(422, "bad_request", f"limit must be between 1 and {MAX_LIMIT}")
    after = 0
    if cursor:
        try:
            (after,) = paging.decode(cursor, (int,))
        except paging.CursorError:
            raise Refused(422, "bad_cursor", "the cursor is not one this list gave") from None
    async with engine.connect() as conn:
        rows = await store.page(conn, name, after, size + 1)
    more = len(rows) > size
    rows = rows[:size]
    return {"discipline": name,
            "ratings": [{"rank": r.rank, "person": r.person_id, "name": r.name, "value": r.value, "racks": r.racks,
                         "provisional": r.provisional} for r in rows],
            "next": paging.encode([rows[-1].position]) if more else None}


async def odds(engine: AsyncEngine, a: str | None, b: str | None, discipline: str | None, race_to: str | None,
               score: str | None = None) -> dict[str, Any]:
    name = discipline_of(discipline)
    races = parse_race(race_to)
    at = parse_score(score, races)
    if not a or not b:
        raise Refused(422, "bad_request", "a and b must name people")
    async with engine.connect() as conn:
        people = []
        for pid in (a, b):
            person = await found(conn, pid)
            people.append(await found(conn, person.merged_into) if person.merged_into else person)
        rows = await store.exact_of(conn, name, [p.id for p in people])
    sides: list[dict[str, Any]] = []
    exact: list[float] = []
    for person in people:
        row = rows.get(person.id)
        sides.append({"person": person.id, "name": person.name, "value": row.value if row else None,
                      "racks": row.racks if row else 0, "provisional": row.provisional if row else True})
        exact.append(float(row.exact) if row else MEAN)  # an unrated player plays at 500
    ra, rb = exact
    return {"discipline": name, "a": sides[0], "b": sides[1], "race_to": list(races), "score": list(at),
            "rack": rack_chance(ra, rb), "match": match_chance(ra, rb, races[0], races[1], at[0], at[1])}


def _race_of(fmt: Any, pid: str) -> int | None:
    """A player's race in a match's format: `race_to` a number, or per player (a handicapped race)."""
    race = (fmt or {}).get("race_to")
    if isinstance(race, dict):
        race = race.get(pid)
    return race if isinstance(race, int) and not isinstance(race, bool) and race > 0 else None


def match_odds(proj: dict[str, Any], persons: dict[str, str], rows: dict[str, Any]) -> dict[str, Any]:
    """A match's players' ratings and each one's chance to win the match from its score (two
    players racing: `chance`; otherwise null). Pure: the projection, player id -> person, person ->
    rating row."""
    players = proj.get("players") or []
    out = []
    exact = []
    for p in players:
        pid = str(p.get("id", ""))
        row = rows.get(persons.get(pid) or "")
        exact.append(float(row.exact) if row else MEAN)
        out.append({"player_id": pid, "person": persons.get(pid), "rating": store.line(row) if row else None,
                    "race_to": _race_of(proj.get("format"), pid), "score": p.get("racks_won", p.get("score")),
                    "chance": None})
    rack = None
    if len(out) == 2:
        rack = rack_chance(exact[0], exact[1])
        a, b = out
        if a["race_to"] and b["race_to"] and isinstance(a["score"], int) and isinstance(b["score"], int):
            if proj.get("status") == "finished":
                a["chance"] = 1.0 if proj.get("winner") == a["player_id"] else 0.0
            else:
                a["chance"] = match_chance(exact[0], exact[1], a["race_to"], b["race_to"], a["score"], b["score"])
            b["chance"] = 1.0 - a["chance"]
    return {"match_id": proj.get("id"), "version": proj.get("version"), "discipline": proj.get("discipline"),
            "rack": rack, "players": out}
