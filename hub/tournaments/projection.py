"""The whole tournament projection (PROTOCOL.md sections 5 and 7): the draw's pure projection
(players, draw, queue, standings) around the tables, each with its status and its match now.

`page_matches` bounds what REST answers for a big draw (PROTOCOL.md section 10): everything but
the draw's matches as is (players, tables, queue, standings are bounded by the tournament's size),
and of `draw.matches` one page, described by `draw.matches_page` (docs/tournament-channel.md).
The pages that follow a tournament live get every match from the channel's snapshot instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hub.draws.interface import DrawRules
from hub.store import catalog
from hub.tournaments.writer import TournamentWriter

if TYPE_CHECKING:
    from hub.matches.listings import Listings


def table_status(table_id: str, paused: set[str], match: dict[str, Any] | None) -> str:
    if table_id in paused:
        return "paused"
    if match is not None and match.get("status") in catalog.OPEN_STATUSES:
        return "playing"
    return "free"


def compose(info: dict[str, Any], version: int, pure: dict[str, Any],
            tables: list[tuple[str, str, dict[str, Any] | None]]) -> dict[str, Any]:
    """`tables`: (id, name, short form of its match now or None), in the tournament's table order."""
    paused = set(pure.get("paused_tables") or ())
    return {
        **info,
        "version": version,
        "tables": [
            {"id": tid, "name": name, "status": table_status(tid, paused, short), "match": short}
            for tid, name, short in tables
        ],
        "players": pure["players"],
        "draw": pure["draw"],
        "queue": pure["queue"],
        "standings": pure["standings"],
        "archived": pure.get("archived", False),
        "no_show_minutes": pure.get("no_show_minutes", 10.0),
    }


DEFAULT_PAGE = 256
MAX_PAGE = 1024


def page_matches(proj: dict[str, Any], offset: int = 0, limit: int = DEFAULT_PAGE) -> dict[str, Any]:
    """`proj` with `draw.matches[offset:offset + limit]` only, and `draw.matches_page`:
    `{"offset", "limit", "total", "next"}` (`next`: the offset of the next page, null at the end)."""
    draw = proj.get("draw")
    if not draw:
        return proj
    matches = draw.get("matches") or []
    total = len(matches)
    nxt = offset + limit if offset + limit < total else None
    page = {"offset": offset, "limit": limit, "total": total, "next": nxt}
    return {**proj, "draw": {**draw, "matches": matches[offset:offset + limit], "matches_page": page}}


async def tournament_projection(listings: Listings, tournaments: TournamentWriter, draws: DrawRules,
                                tid: str) -> dict[str, Any] | None:
    """In a constant number of queries: the tables and their matches from the listings (at most
    five), the draw from the tournament writer (one read of what other processes stored)."""
    base = await listings.tournament(tid)
    if base is None:
        return None
    state = await tournaments.state(tid, known=True)
    if state is None:
        return None
    pure = tournaments.projection(state)
    tables = [(t["id"], t["name"], t["match"]) for t in base["tables"]]
    # The listings' version counts tables, matches and their versions; the stream adds its own.
    return compose({"id": base["id"], "name": base["name"]}, base["version"] + state.version, pure, tables)
