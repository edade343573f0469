"""A series' standings from its tournaments' places (pure: no I/O, no clock).

A tournament counts once its draw is finished: each person placed gets their place's band points
(hub/series/points.py; a shared place, e.g. two 3rds, gives each of them the band of that place).
A running tournament is listed as in progress and counts nothing yet. With ``best`` = k, only a
person's k best events count (most points, then the better place, then the most recent).

Order: most points; then more points from better places (the points earned at 1st, then at 2nd,
...: two 1sts beat a 1st and a 2nd); then the most recent best place (who reached their best
place latest). People equal on all three share a rank (1, 1, 3) and are listed by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hub.series.points import points_for

FINISHED, IN_PROGRESS, NOT_STARTED = "finished", "in_progress", "not_started"


@dataclass(frozen=True, slots=True)
class Event:
    """One tournament of the series as it stands: its places by person once its draw is finished."""

    tournament_id: str
    name: str
    status: str  # finished | in_progress | not_started
    at: int = 0  # when its draw finished (ms); orders "most recent"
    places: Mapping[str, int] = field(default_factory=dict)  # person id -> place (finished only)


@dataclass(slots=True)
class _Person:
    person: str
    results: list[dict[str, Any]] = field(default_factory=list)


def _counted(results: list[dict[str, Any]], best: int | None) -> list[dict[str, Any]]:
    ranked = sorted(results, key=lambda r: (-r["points"], r["place"], -r["at"]))
    return ranked if best is None else ranked[:best]


def _order_key(counted: list[dict[str, Any]]) -> tuple[Any, ...]:
    total = sum(r["points"] for r in counted)
    by_place: dict[int, int] = {}
    for r in counted:
        by_place[r["place"]] = by_place.get(r["place"], 0) + r["points"]
    countback = tuple((place, -points) for place, points in sorted(by_place.items()) if points)
    best_place = min((r["place"] for r in counted), default=0)
    recent = max((r["at"] for r in counted if r["place"] == best_place), default=0)
    return (-total, countback, -recent)


def tournaments_view(events: Sequence[Event], names: Mapping[str, str]) -> list[dict[str, Any]]:
    out = []
    for e in events:
        champions = sorted(p for p, place in e.places.items() if place == 1) if e.status == FINISHED else []
        out.append({"id": e.tournament_id, "name": e.name, "status": e.status,
                    "finished_at": e.at if e.status == FINISHED else None,
                    "champion": {"person": champions[0], "name": names.get(champions[0], champions[0])}
                    if champions else None})
    return out


def standings(bands: Mapping[str, int], best: int | None, events: Sequence[Event],
              names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The ranked rows: rank, person, name, points, events (finished events played), results (per
    finished tournament the person played: place, points, counted)."""
    people: dict[str, _Person] = {}
    for e in events:
        if e.status != FINISHED:
            continue
        for person, place in e.places.items():
            row = people.setdefault(person, _Person(person))
            row.results.append({"tournament_id": e.tournament_id, "place": place,
                                "points": points_for(bands, place), "at": e.at})
    rows = []
    for p in people.values():
        counted = _counted(p.results, best)
        kept = {id(r) for r in counted}
        key = _order_key(counted)
        rows.append((key, names.get(p.person, p.person), {
            "person": p.person, "name": names.get(p.person, p.person), "points": -key[0],
            "events": len(p.results),
            "results": [{"tournament_id": r["tournament_id"], "place": r["place"], "points": r["points"],
                         "counted": id(r) in kept} for r in p.results],
        }))
    rows.sort(key=lambda r: (r[0], r[1], r[2]["person"]))
    out: list[dict[str, Any]] = []
    for i, (key, _, view) in enumerate(rows):
        same = i > 0 and rows[i - 1][0] == key
        out.append({"rank": out[-1]["rank"] if same else i + 1, **view})
    return out
