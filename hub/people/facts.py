"""The rows the read models keep of a finished match or a walkover (hub/store/schema.py:
`history_matches`, `history_players`), made from what the match's events say. Pure.

Keyed by entries (tournament id, player id), never by people: a re-link or a merge moves history by
changing which person an entry resolves to at read time, without rewriting a fact.

`racks` is what a ratings fit reads (PROTOCOL.md section 13), as (winner, loser, count) triples of
player ids: every rack of the match, its winner beating each other player (all of them where three play); a
result entered by hand counts by its score where the score counts racks (each player beating the
other as many times as the racks they won), else as one rack to its winner; a walkover never
counts (no triples).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.people.stats import MatchStats, scores_racks

WALKOVER = "walkover"


def walkover_ref(tournament_id: str, key: str) -> str:
    return f"{WALKOVER}:{tournament_id}:{key}"


def rack_pairs(stats: MatchStats) -> list[list[Any]]:
    state = stats.state
    ids = [p.id for p in state.players]
    counts: dict[tuple[str, str], int] = {}

    def beat(winner: str, loser: str, n: int = 1) -> None:
        if n > 0 and winner != loser:
            counts[(winner, loser)] = counts.get((winner, loser), 0) + n

    if stats.entered:
        if scores_racks(state):
            for p in state.players:
                for other in ids:
                    beat(p.id, other, p.score)
        elif state.winner is not None:
            for other in ids:
                beat(state.winner, other)
    else:
        for rack in state.racks:
            winner = rack.get("winner")
            if winner in ids:
                for other in ids:
                    beat(winner, other)
    return [[w, loser, n] for (w, loser), n in sorted(counts.items())]


def match_rows(tournament_id: str, match_id: str, version: int, draw_key: str | None,
               round_info: dict[str, Any] | None, stats: MatchStats,
               members: Mapping[str, str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the `history_matches` row, the `history_players` rows) of a finished match.

    Scotch doubles (PROTOCOL.md section 15): `members` maps a member's person id to the entry it
    plays as (a team's member id, `p3.1`). Each such member gets a row of its own with its own
    tally (`stats.members`: the turns it played, the side's racks and match), so its strokes count
    in its own statistics; the match's `players` list the sides, each with its members' entries."""
    state = stats.state
    discipline = state.setup.discipline
    entries = members or {}
    setup = state.setup

    def persons(pid: str) -> list[str]:  # a doubles side's members' person ids (none in singles)
        return [m.person for m in setup.players[setup.player_index[pid]].members]

    sides = []
    for p in state.players:
        side: dict[str, Any] = {"player": p.id, "name": p.name, "score": p.score}
        ids = [entries[m] for m in persons(p.id) if m in entries]
        if ids:
            side["members"] = ids
        sides.append(side)
    match = {
        "ref": match_id, "tournament_id": tournament_id, "match_id": match_id, "draw_key": draw_key,
        "round": round_info, "discipline": discipline, "at": stats.at, "entered": stats.entered,
        "walkover": False, "version": version, "winner": state.winner, "players": sides,
        "racks": rack_pairs(stats),
    }
    players = [{"ref": match_id, "player_id": p.id, "tournament_id": tournament_id, "at": stats.at,
                "discipline": discipline, "won": state.winner == p.id, "walkover": False,
                "stats": stats.tallies[p.id]} for p in state.players]
    players += [{"ref": match_id, "player_id": entries[m], "tournament_id": tournament_id, "at": stats.at,
                 "discipline": discipline, "won": state.winner == p.id, "walkover": False,
                 "stats": stats.members[m]}
                for p in state.players for m in persons(p.id) if m in entries and m in stats.members]
    return match, players


def member_entries(setup: Mapping[str, Any]) -> dict[str, str]:
    """person id -> the entry (a team's member id) of each doubles member a match's setup names with both."""
    return {m["person"]: m["id"] for p in setup.get("players") or [] for m in p.get("members") or []
            if isinstance(m, Mapping) and isinstance(m.get("person"), str) and isinstance(m.get("id"), str)}


def side_of(players: Iterable[Mapping[str, Any]], player_id: str) -> str:
    """The side of a match's `players` an entry played on: itself, or the side it is a member of."""
    return next((p["player"] for p in players if player_id in (p.get("members") or ())), player_id)


def walkover_rows(tournament_id: str, entry: dict[str, Any], names: dict[str, str], discipline: str,
                  round_info: dict[str, Any] | None, at: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The rows of a draw match decided without play (`entry`: the draw projection's match)."""
    ref = walkover_ref(tournament_id, entry["key"])
    pids = [p for p in entry["players"] if isinstance(p, str) and p != "bye"]
    match = {
        "ref": ref, "tournament_id": tournament_id, "match_id": None, "draw_key": entry["key"],
        "round": round_info, "discipline": discipline, "at": at, "entered": False, "walkover": True,
        "version": 0, "winner": entry.get("winner"),
        "players": [{"player": p, "name": names.get(p, p), "score": None} for p in pids], "racks": [],
    }
    players = [{"ref": ref, "player_id": p, "tournament_id": tournament_id, "at": at, "discipline": discipline,
                "won": entry.get("winner") == p, "walkover": True, "stats": None} for p in pids]
    return match, players


def is_walkover(entry: dict[str, Any]) -> bool:
    """A draw match given without play between two known players (a bye is no match at all)."""
    players = entry.get("players") or []
    return entry.get("status") == "walkover" and len(players) >= 2 and all(
        isinstance(p, str) and p != "bye" for p in players)
