"""What the home page lists for each tournament (`GET /api/tournaments`): what is live, what is
next and whether it is finished (with its champion), from the tournament projection.

Each entry keeps PROTOCOL.md section 1's `{"id", "name"}` and adds:
`status` ("setup": no draw yet, "running", "finished"), `draw_type`, `champion` (`{"id", "name"}` or
null), `winners` (a finished round robin of several groups: `[{"group", "id", "name"}]`, else []),
`tables` (how many), `played` / `total` (draw matches decided / all of them, byes left out) and
`counts` (the draw's one match count, `draw.counts`: `matches`, `played`, `walkovers`, `left`; the
desk and the bracket show the same), `archived`,
`live` (`[{"key", "match_id", "table", "players": [names], "scores": [..]}]`: the matches being
played now, a hand-made match too, `key` null then) and `next` (`[{"key", "match_id", "table",
"players"}]`: the matches called to a table that have not started, then the first of the queue,
`table` null for those; at most NEXT_SHOWN).

The summaries are kept a moment (TournamentList), so every open home page polling it costs the
store little.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hub.draws import count_entries
from hub.draws.interface import DrawRules
from hub.store import catalog
from hub.tournaments.projection import tournament_projection

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from hub.matches.listings import Listings
    from hub.tournaments.writer import TournamentWriter

LIST_TTL_S = 1.0
MIN_REBUILD_S = 0.2
NEXT_SHOWN = 4


def summarize(proj: dict[str, Any]) -> dict[str, Any]:
    """The home page's entry for one tournament projection (pure)."""
    names = {p["id"]: p["name"] for p in proj.get("players") or []}
    tables = {t["id"]: t for t in proj.get("tables") or []}
    draw = proj.get("draw")
    live = []
    for t in proj.get("tables") or []:
        m = t.get("match")
        if m and m.get("status") == "live":
            live.append({"key": (m.get("draw") or {}).get("key"), "match_id": m["id"], "table": t["name"],
                         "players": [p.get("name") for p in m.get("players") or []],
                         "scores": [p.get("score") for p in m.get("players") or []]})
    nxt: list[dict[str, Any]] = []
    played = total = 0
    counts = {"matches": 0, "played": 0, "walkovers": 0, "left": 0}
    status = "setup"
    champion = None
    winners: list[dict[str, Any]] = []
    if draw:
        status = draw.get("status") or "running"
        if draw.get("champion"):
            champion = {"id": draw["champion"], "name": names.get(draw["champion"])}
        elif status == "finished":  # a round robin of several groups: each group's first
            winners = [{"group": r.get("group"), "id": r["player"], "name": names.get(r["player"])}
                       for r in sorted(proj.get("standings") or [], key=lambda r: str(r.get("group")))
                       if r.get("rank") == 1]
        live_ids = {x["match_id"] for x in live}
        by_key = {m["key"]: m for m in draw.get("matches") or []}
        entries = draw.get("matches") or []
        counts = draw.get("counts") or count_entries((m["status"], m.get("players") or ()) for m in entries)
        total, played = counts["matches"], counts["played"] + counts["walkovers"]
        for m in draw.get("matches") or []:
            if m["status"] == "called" and m.get("match_id") not in live_ids:
                table = tables.get(m.get("table_id") or "")
                nxt.append({"key": m["key"], "match_id": m.get("match_id"), "table": table["name"] if table else None,
                            "players": [names.get(p) if p else None for p in m["players"]]})
        for key in proj.get("queue") or []:
            m = by_key.get(key)
            if m is not None:
                nxt.append({"key": key, "match_id": None, "table": None,
                            "players": [names.get(p) if p else None for p in m["players"]]})
    return {"id": proj["id"], "name": proj["name"], "status": status, "draw_type": draw.get("type") if draw else None,
            "champion": champion, "winners": winners, "tables": len(tables), "played": played, "total": total,
            "counts": counts, "archived": bool(proj.get("archived")), "live": live, "next": nxt[:NEXT_SHOWN]}


class TournamentList:
    """`GET /api/tournaments`, newest first, each tournament summarized.

    The tournaments' ids and names are read on every call (one query), so a tournament just
    created is listed at once; the summaries are rebuilt when that list changed, when this
    process stored a change (at most every MIN_REBUILD_S), or after LIST_TTL_S (a change another
    process stored)."""

    def __init__(self, engine: AsyncEngine, listings: Listings, tournaments: TournamentWriter, draws: DrawRules,
                 writer: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._engine = engine
        self._listings = listings
        self._tournaments = tournaments
        self._draws = draws
        self._clock = clock
        self._cached: tuple[float, list[dict[str, str]], list[dict[str, Any]]] | None = None
        self._dirty = False
        self._lock = asyncio.Lock()
        tournaments.subscribe(self._changed)
        if writer is not None:
            writer.subscribe(self._changed, "tournament_list")

    def serves(self, engine: Any, tournaments: Any) -> bool:
        """Made for these services (a new lifespan of the app brings new ones)."""
        return self._engine is engine and self._tournaments is tournaments

    def _changed(self, _change: Any) -> None:
        self._dirty = True

    def invalidate(self) -> None:
        """Build the list again on the next call (a tournament was archived or listed again)."""
        self._cached = None

    async def get(self) -> list[dict[str, Any]]:
        async with self._lock:  # many pages asking at once: one of them builds it
            heads = await catalog.list_tournaments(self._engine)
            now = self._clock()
            if self._cached is not None:
                built, known, out = self._cached
                age = now - built
                if known == heads and age < LIST_TTL_S and (not self._dirty or age < MIN_REBUILD_S):
                    return out
            self._dirty = False
            out = []
            for t in heads:
                proj = await tournament_projection(self._listings, self._tournaments, self._draws, t["id"])
                out.append(summarize(proj) if proj is not None else t)
            self._cached = (now, heads, out)
            return out
