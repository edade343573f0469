"""Rebuilding what a watcher missed from the store (the truth), for `since` and resyncs.

The stored stream is replayed with its *current* voided flags: an event voided by a later undo
changes nothing in any prefix, so the projections replayed are those of the match as it stands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.rules.interface import MatchRules
from hub.store import catalog
from hub.store import match_events as store


def dumps(obj: Any) -> str:
    """The one place a projection or event becomes JSON text for the wire."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def short_form(p: dict[str, Any]) -> dict[str, Any]:
    """PROTOCOL.md section 5's short form, from a full projection (mirrors rules.short_projection)."""
    rack = p.get("rack") or {}
    return {
        "id": p.get("id"),
        "discipline": p.get("discipline"),
        "status": p.get("status"),
        "version": p.get("version"),
        "players": [
            {"id": q.get("id"), "name": q.get("name"), "score": q.get("score"), "racks_won": q.get("racks_won"),
             "race_to": q.get("race_to"), **({"members": q["members"]} if q.get("members") else {})}
            for q in p.get("players") or []
        ],
        "rack": {**{k: rack.get(k) for k in ("number", "shooter", "phase", "ball_in_hand")},
                 **({"member": rack.get("member")} if p.get("doubles") else {})},
        "clock": p.get("clock"),
        "winner": p.get("winner"),
        "draw": p.get("draw"),
    }


@dataclass(frozen=True, slots=True)
class Step:
    version: int
    data: str  # the projection at this version, JSON
    event: str  # the stored event, JSON
    undo: bool


@dataclass(frozen=True, slots=True)
class Replay:
    row: catalog.MatchRow
    version: int  # the stream's latest version
    projection: dict[str, Any]  # at `version`
    steps: list[Step]  # versions > since, oldest first


async def replay(engine: AsyncEngine, rules: MatchRules, match_id: str, since: int | None) -> Replay | None:
    """The match now, plus (when `since` is given) one Step per stored event after `since`, each
    with the projection as of that event. None for an unknown match."""
    row = await catalog.get_match(engine, match_id)
    if row is None:
        return None
    setup = rules.validate_setup(row.setup, match_id=row.id, tournament_id=row.tournament_id, table_id=row.table_id)
    stream = await store.read_events(engine, match_id)
    if since is None:
        state = rules.fold(setup, stream)
        proj = rules.projection(state)
        return Replay(row, stream[-1].version if stream else 0, proj, [])
    steps: list[Step] = []
    state = rules.initial(setup)
    for i, ev in enumerate(stream):
        # an undo needs the whole prefix
        state = rules.fold(setup, stream[: i + 1]) if ev.kind == "undo" and not ev.voided else rules.evolve(state, ev)
        if ev.version > since:
            steps.append(Step(ev.version, dumps(rules.projection(state)), dumps(ev.to_json()), ev.kind == "undo"))
    proj = rules.projection(state)
    return Replay(row, stream[-1].version if stream else 0, proj, steps)
