"""A rubber's result taken, corrected or voided (PROTOCOL.md sections 9 and 15): pure.

| command kind | fields | event kind {data} |
| --- | --- | --- |
| take_rubber | rubber, match_id, winner, scores, match_version? | rubber_result_taken {the same, decides?, reopens?} |
| void_rubber | rubber, match_id | rubber_result_voided {rubber, match_id, decides?, reopens?} |

``winner`` and the keys of ``scores`` are the rubber match's player ids (member ids of a singles
rubber) or team ids; the event stores team ids. ``take_rubber`` for a rubber that has its result
already replaces it (a score entered by hand over a finished rubber, or its match finished again
after an undo); ``void_rubber`` takes it away (the rubber's match was reopened: it is called again,
on its table).

The team match's outcome is derived again from its rubbers' results each time one changes, in the
order they were first taken (a corrected result keeps its place): the first team to reach
``to_win`` wins it, with the score in rubbers at that moment; rubbers played out after that change
nothing. When that outcome differs from what the draw holds, the event carries ``decides``
({key, winner, scores}: the team match won, or won by the other team, or by another score) or
``reopens`` (the key: no team reaches ``to_win`` any more, the team match is open again and its
rubbers not played are called as before). A team match decided without play (a walkover: a team
withdrew, a no-show) is not changed by its rubbers.

409 ``result_used`` when the change would alter a draw match finished or given as a walkover since
(its message names it: reopen that one first); ``already_decided`` for the same result again;
``not_finished`` / ``wrong_match`` for a void of a rubber without that result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.draws import fields
from hub.draws.corrections import disturbed, refuse_if_used, state_after
from hub.draws.events import DrawReject, conflict
from hub.draws.settle import DrawMatch
from hub.draws.state import Result, TournamentState
from hub.draws.teams import rubber_at, rubber_key, rubber_parent


def outcome(to_win: int, teams: Iterable[str], results: Iterable[Result]) -> tuple[str, dict[str, int]] | None:
    """(winner, score in rubbers when it won) of the first team to reach ``to_win``, the results
    counted in the order they were taken; None while no team has."""
    score = dict.fromkeys(teams, 0)
    for result in sorted(results, key=lambda r: r.version):
        if result.winner in score:
            score[result.winner] += 1
            if score[result.winner] >= to_win:
                return result.winner, dict(score)
    return None


def team_change(state: TournamentState, match: DrawMatch, spec: Mapping[str, Any], rkey: str,
                new: Result | None) -> dict[str, Any]:
    """``decides`` / ``reopens`` of the event that sets rubber ``rkey``'s result to ``new`` (None: voided)."""
    if match.status == "walkover":
        return {}
    results = {k: r for k, r in state.rubber_results.items() if rubber_parent(k) == match.key}
    if new is None:
        results.pop(rkey, None)
    else:
        results[rkey] = new
    now = outcome(spec["to_win"], match.known_players, results.values())
    held = state.results.get(match.key)
    if now is None:
        return {"reopens": match.key} if held is not None else {}
    winner, score = now
    if held is not None and held.winner == winner and dict(held.scores) == score:
        return {}
    return {"decides": {"key": match.key, "winner": winner, "scores": score}}


def refuse_changes(state: TournamentState, kind: str, data: Mapping[str, Any], key: str) -> None:
    """409 ``result_used`` when the event would change the players of a draw match decided since, or of
    a team match with a rubber called (its lineups name the teams it had)."""
    refuse_if_used(state, kind, data, besides=key)
    if "decides" not in data and "reopens" not in data:
        return
    for later in disturbed(state, state_after(state, kind, data), besides=key):
        if any(rubber_parent(k) == later for k in state.rubber_calls):
            raise conflict("result_used", f"{later}'s rubbers have been called since: it depends on {key}")


def take_rubber(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "rubber", "match_id", "winner", "scores", "match_version"))
    match, spec, i = rubber_at(state, fields.required(cmd, "rubber"))
    rkey = rubber_key(match.key, i)
    call = state.rubber_calls.get(rkey)
    if call is None or call.match_id != cmd.get("match_id"):
        raise conflict("wrong_match", f"rubber {rkey} is not played by match {cmd.get('match_id')!r}")

    def team_of(value: Any) -> str:
        team = state.member_team.get(value, value) if isinstance(value, str) else None
        if team not in match.known_players:
            raise DrawReject(422, "not_in_match", f"{str(value)[:64]!r} does not play rubber {rkey}")
        return str(team)

    winner = team_of(fields.required(cmd, "winner"))
    raw_scores = fields.mapping(fields.required(cmd, "scores"), "scores")
    scores = {team_of(k): fields.whole(v, "scores", 0, 1_000_000) for k, v in raw_scores.items()}
    data: dict[str, Any] = {"rubber": rkey, "match_id": call.match_id, "winner": winner, "scores": scores}
    if cmd.get("match_version") is not None:  # the version read: the flow takes it again when it moves on
        data["match_version"] = fields.whole(cmd["match_version"], "match_version", 0, 2**31 - 1)
    held = state.rubber_results.get(rkey)
    if held is not None and held.winner == winner and dict(held.scores) == scores:
        raise conflict("already_decided", f"rubber {rkey} has this result already")
    version = held.version if held is not None else state.version + 1  # a correction keeps its place
    data.update(team_change(state, match, spec, rkey, Result(rkey, call.match_id, winner, scores, None, version)))
    if held is not None:
        refuse_changes(state, "rubber_result_taken", data, match.key)
    return "rubber_result_taken", data


def void_rubber(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "rubber", "match_id"))
    match, spec, i = rubber_at(state, fields.required(cmd, "rubber"))
    rkey = rubber_key(match.key, i)
    held = state.rubber_results.get(rkey)
    if held is None:
        raise conflict("not_finished", f"rubber {rkey} has no result to void")
    if held.match_id != cmd.get("match_id"):
        raise conflict("wrong_match", f"rubber {rkey} was played by match {held.match_id}")
    data: dict[str, Any] = {"rubber": rkey, "match_id": held.match_id,
                            **team_change(state, match, spec, rkey, None)}
    refuse_changes(state, "rubber_result_voided", data, match.key)
    return "rubber_result_voided", data
