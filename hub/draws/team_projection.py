"""``team`` of a draw match between teams in the tournament projection (PROTOCOL.md section 15; the
facts and commands are hub/draws/teams.py)."""

from __future__ import annotations

from typing import Any

from hub.draws import no_shows
from hub.draws.settle import DrawMatch
from hub.draws.state import TournamentState
from hub.draws.teams import rubber_key, rubber_score, team_spec


def team_json(state: TournamentState, match: DrawMatch, *, desk: bool = False) -> dict[str, Any] | None:
    """``team`` of a draw match between teams: ``to_win``, ``score`` (rubbers won), and each
    rubber: kind, status (``waiting`` for lineups | ``ready`` | ``called`` | ``finished`` | ``dropped`` | ``walkover``:
    the team match was given without play, the rubber to its winner),
    match_id, table_id, winner, scores, ``named`` (teams that named their lineup) and ``lineups``
    ({team: member ids}, shown once both are named; the desk sees every lineup named)."""
    spec = team_spec(state, match)
    if spec is None:
        return None
    teams = list(match.known_players)
    decided = match.key in state.results or match.status in ("walkover", "bye")
    rubbers = []
    for i, rubber in enumerate(spec["rubbers"], start=1):
        rkey = rubber_key(match.key, i)
        lineups = state.lineups.get(rkey, {})
        call = state.rubber_calls.get(rkey)
        result = state.rubber_results.get(rkey)
        both = len(teams) == 2 and all(t in lineups for t in teams)
        if result is not None:
            status = "finished"
        elif call is not None:
            status = "called"
        elif match.status == "walkover":  # decided without play: every rubber not played goes to the winner
            status = "walkover"
        elif decided:
            status = "dropped"
        else:
            status = "ready" if both else "waiting"
        shown = {t: list(v) for t, v in lineups.items()} if both or desk else {}
        rubbers.append({"rubber": i, "key": rkey, "kind": rubber["kind"], "status": status,
                        "match_id": call.match_id if call else None, "table_id": call.table_id if call else None,
                        "winner": result.winner if result else match.winner if status == "walkover" else None,
                        "scores": dict(result.scores) if result else None,
                        "named": [t for t in teams if t in lineups], "lineups": shown,
                        **_no_show(state, rkey, status)})
    return {"to_win": spec["to_win"], "score": rubber_score(state, match.key, teams), "rubbers": rubbers}


def _no_show(state: TournamentState, rkey: str, status: str) -> dict[str, Any]:
    """A called rubber says when it was called and when it is flagged as a no-show if not started
    (``called_at``, ``no_show_at``: server ms), as a called draw match does (PROTOCOL.md section 16)."""
    due = no_shows.no_show_at(state, rkey) if status == "called" else None
    return {} if due is None else {"called_at": state.rubber_calls[rkey].at, "no_show_at": due}
