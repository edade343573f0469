"""What the I/O layer asks of the draw: which matches to call where, and what to create.

- ``dispatch(state, tables)``: ``tables`` is ``[(table_id, free)]`` in the tournament's table
  order (free = no open match on it now).  Each table that is free, not paused, listed once,
  and not holding a draw call still waiting for its result, takes the first key of the queue
  none of whose players is in another called match (or one called in this same answer).
  Returns ``[(key, table_id)]``; the caller creates each match, then stores a ``call``.
- ``match_body(state, key)``: the ``POST /api/matches`` body for a ready key (without
  ``tournament_id`` / ``table_id``); player ids are the tournament's; ``handicap`` only where
  the discipline takes it (traits ``handicaps``; read when the match is called, so a handicap
  change applies to later calls);
  ``format`` is the one its stage and round are played to (``match.by_round``, ``rounds``).
- ``key_of_match``, ``calls``, ``stale_calls``, ``downstream``: see each function.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from hub.draws import handicaps, rounds, teams
from hub.draws.events import DrawReject, conflict
from hub.draws.state import TournamentState
from hub.rules.disciplines import DISCIPLINES


def dispatch(state: TournamentState, tables: Sequence[tuple[str, bool]]) -> list[tuple[str, str]]:
    derived = state.derived
    if not derived.queue:
        return []
    busy_players = {p for c in state.open_calls.values() for p in c.players}
    busy_tables = teams.busy_tables(state)
    paused = set(state.paused_tables)
    # A team match is played as its rubbers (teams.dispatch_rubbers), never called as one match.
    waiting = [k for k in derived.queue if not teams.is_team_match(state, k)]
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for table_id, free in tables:
        if table_id in seen:
            continue
        seen.add(table_id)
        if not free or table_id in paused or table_id in busy_tables:
            continue
        for key in waiting:
            players = derived.by_key[key].known_players
            if not busy_players.intersection(players):
                out.append((key, table_id))
                busy_players.update(players)
                waiting.remove(key)
                break
        if not waiting:
            break
    return out


def match_body(state: TournamentState, key: str) -> dict[str, Any]:
    spec = state.draw
    if spec is None:
        raise conflict("no_draw", "there is no draw yet")
    match = state.derived.by_key.get(key)
    if match is None:
        raise DrawReject(404, "unknown_key", f"the draw has no match {key!r}")
    if match.status != "ready":
        raise conflict("not_ready", f"{key} is not ready to be called ({match.status})")
    template = spec.then["match"] if match.stage == 2 and spec.then is not None else spec.match
    if teams.team_spec(state, match) is not None:
        raise conflict("team_match", f"{key} is a team match: its rubbers are called, each on its own table")
    discipline = template["discipline"]
    traits = DISCIPLINES[discipline].traits
    players = []
    for pid in match.known_players:
        player = state.player(pid)
        entry: dict[str, Any] = {"id": pid, "name": player.name}
        if player.handicap is not None and player.handicap in traits.handicaps:
            entry["handicap"] = player.handicap
        players.append(entry)
    fmt = handicaps.apply(template, spec.ratings, rounds.match_format(state, match.stage, match.round),
                          match.known_players)
    body = {"discipline": discipline, "players": players, "format": fmt,
            "options": copy.deepcopy(dict(template.get("options", {}))),
            "draw": {"tournament_id": state.tournament_id, "key": key, "round": match.round}}
    if template.get("doubles"):  # scotch doubles between teams of two (PROTOCOL.md section 15)
        body["doubles"] = True
        for entry, members in zip(players, teams.doubles_entries(state, match.known_players), strict=True):
            entry["members"] = members
    return body


def key_of_match(state: TournamentState, match_id: str) -> str | None:
    """The draw key a match plays (called, or finished with its result taken); None for a
    match no call of the current draw holds (made by hand, uncalled, or of a replaced draw)."""
    return state.match_keys.get(match_id)


def calls(state: TournamentState) -> dict[str, tuple[str, str]]:
    """key -> (match_id, table_id) of every called key without a result yet."""
    return {k: (c.match_id, c.table_id) for k, c in state.open_calls.items()}


def stale_calls(state: TournamentState) -> list[str]:
    """Called keys whose players, as derived now, are not the ones they were called with (the
    I/O layer should uncall them).  The commands keep this empty (a result is not voided while
    a later match is called); it is the I/O layer's safety net."""
    by_key = state.derived.by_key
    out = []
    for key, call in state.open_calls.items():
        match = by_key.get(key)
        if match is None or set(match.known_players) != set(call.players):
            out.append(key)
    return out


def downstream(state: TournamentState, key: str) -> list[str]:
    """Keys whose players depend on ``key``'s result, directly or further, structural order:
    the keys its winner and loser go to and beyond (elimination), every later round (chase),
    none (round robin)."""
    if key not in state.derived.by_key:
        raise DrawReject(404, "unknown_key", f"the draw has no match {key!r}")
    return state.derived.downstream(key)
