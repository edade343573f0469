"""``projection(state)``: the pure part of the tournament projection (PROTOCOL section 7).

The I/O layer adds ``id``, ``name``, ``version`` and ``tables`` around it. Beyond section 7:
``archived``; ``draw.stale`` (players joined after the draw: a redraw takes them in); ``draw.counts``
(``counts``: the match count every page shows); a finished draw match whose score was entered by
hand carries ``entered: true``, one forfeited by a withdrawal from the event ``withdrawn: [ids]``.
JSON-ready: every value is a str, int, bool, None, list or dict, and nothing in it is shared with
the state.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from hub.draws import draw_formats, handicaps, no_shows, race_lengths, team_projection, teams
from hub.draws.rounds import rounds_of
from hub.draws.settle import BYE, DrawMatch
from hub.draws.stages import StageView
from hub.draws.state import DrawSpec, Result, TournamentState


def projection(state: TournamentState) -> dict[str, Any]:
    derived = state.derived
    players: list[dict[str, Any]] = [
        {"id": p.id, "name": p.name, "club": p.club, "seed": p.seed, "handicap": p.handicap,
                "status": derived.player_status.get(p.id, "active"), "person": p.person} for p in state.players]
    for entry, p in zip(players, state.players, strict=True):
        if p.team:  # a team (PROTOCOL.md section 15): its members, in their order, and its captain
            entry.update({"members": [teams.member_json(m) for m in p.members], "captain": p.captain})
    return {"players": players, "draw": _draw(state), "queue": list(derived.queue),
            "standings": [dict(row) for row in derived.standings] if derived.standings is not None else None,
            "paused_tables": list(state.paused_tables), "archived": state.archived,
            "no_show_minutes": state.no_show_minutes, "version": state.version}


def counts(matches: list[DrawMatch] | tuple[DrawMatch, ...]) -> dict[str, int]:
    """The one match count every screen shows: byes are never matches, nor is an entry waiting with a
    slot that will never get a player (a losers-bracket match fed by a round-1 bye becomes a bye
    once its other player is known: counted, the total would shrink as the event goes on); a
    walkover is decided but not played. `matches` (every other entry), `played` (finished),
    `walkovers`, `left` (the rest)."""
    return count_entries((m.status, m.players) for m in matches)


def count_entries(entries: Iterable[tuple[str, Sequence[str | None]]]) -> dict[str, int]:
    """`counts` from (status, players) pairs: the same count for a projection's JSON entries."""
    real = [status for status, players in entries if status != "bye" and BYE not in players]
    played = real.count("finished")
    walkovers = real.count("walkover")
    return {"matches": len(real), "played": played, "walkovers": walkovers, "left": len(real) - played - walkovers}


def _draw(state: TournamentState) -> dict[str, Any] | None:
    spec = state.draw
    if spec is None:
        return None
    derived = state.derived
    settings = {name: spec.params.get(name) for name in draw_formats.params()}  # groups, rounds: null if not its own
    return {"type": spec.type, "status": "finished" if derived.finished else "running", "champion": derived.champion,
            "seeding": spec.seeding, "seed": spec.seed, **settings,
            "match": copy.deepcopy(dict(spec.match)), "entrants": list(spec.entrants), "stale": state.stale,
            "counts": counts(derived.matches), "stages": [stage_json(state, view) for view in derived.stages],
            "matches": [_with_call(_with_races(spec, m, _with_team(state, m)), state) for m in derived.matches],
            **({"ratings": copy.deepcopy(dict(spec.ratings))} if spec.ratings is not None else {})}


def _with_races(spec: DrawSpec, m: DrawMatch, out: dict[str, Any]) -> dict[str, Any]:
    """A handicapped draw's match shows each player's race once both are known ("7 - 4")."""
    players = [p for p in m.players if p is not None and p != BYE]
    if m.stage == 1 and spec.match.get("handicap") and len(players) == 2:
        out["races"] = handicaps.races(spec.match["handicap"], spec.ratings, players)
    return out


def _with_call(out: dict[str, Any], state: TournamentState) -> dict[str, Any]:
    """A called match also says when it was called and when it is flagged as a no-show if it has not
    started (``called_at``, ``no_show_at``: server ms; PROTOCOL.md section 16)."""
    if out["status"] == "called":
        due = no_shows.no_show_at(state, out["key"])
        if due is not None:
            out["called_at"] = state.calls[out["key"]].at
            out["no_show_at"] = due
    return out


def _with_team(state: TournamentState, m: DrawMatch) -> dict[str, Any]:
    out = match_json(m, state.results.get(m.key))
    team = team_projection.team_json(state, m)
    if team is not None:  # a team match: its score in rubbers and each rubber (hub/draws/teams.py)
        out["team"] = team
        out["match_id"] = out["match_id"] or None
        # never called as one match (POST .../call answers 409 team_match): the desk offers no "Call now"
        out["callable"] = False
    return out


def stage_json(state: TournamentState, view: StageView) -> dict[str, Any]:
    return {"stage": view.stage, "type": view.type, "status": view.status, "groups": view.groups,
            "advance": view.advance, "seeding": view.seeding,
            "entrants": list(view.entrants) if view.entrants is not None else None,
            "advanced": list(view.advanced),
            "rounds": [{"round": name, "side": side, "format": race_lengths.format_for(view.template, name, side)}
                       for name, side in rounds_of(state, view.stage)]}


def match_json(m: DrawMatch, result: Result | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"key": m.key, "round": m.round, "stage": m.stage}
    if m.group is not None:
        out["group"] = m.group
    out.update({"bracket": m.bracket, "players": list(m.players), "status": m.status, "match_id": m.match_id,
                "table_id": m.table_id, "winner": m.winner, "winner_to": m.winner_to, "loser_to": m.loser_to,
                "scores": dict(m.scores) if m.scores is not None else None})
    if m.status == "finished" and result is not None and result.races:
        out["races"] = dict(result.races)  # a handicapped race: each player's own
    if m.status == "finished" and result is not None and result.entered:
        out["entered"] = True  # its score was entered by hand at the desk
    if m.status == "finished" and result is not None and result.withdrawn:
        out["withdrawn"] = list(result.withdrawn)  # forfeited: these players withdrew from the event
    return out
