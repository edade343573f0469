"""Commands on the draw's matches and tables: walkover, call, uncall, move_call, order_queue,
take_result, void_result, pause_table, resume_table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.draws import fields
from hub.draws.corrections import refuse_if_used
from hub.draws.events import DrawReject, bad, conflict
from hub.draws.player_commands import known_player
from hub.draws.settle import DrawMatch
from hub.draws.state import TournamentState

MAX_SCORE = 1_000_000
MAX_KEYS = 4096


def draw_match(state: TournamentState, cmd: Mapping[str, Any]) -> DrawMatch:
    if state.draw is None:
        raise conflict("no_draw", "there is no draw yet")
    key = fields.ident(fields.required(cmd, "key"), "key")
    match = state.derived.by_key.get(key)
    if match is None:
        raise DrawReject(404, "unknown_key", f"the draw has no match {key!r}")
    return match


def _names(state: TournamentState, match: DrawMatch) -> str:
    return " v ".join(state.name(p) for p in match.known_players) or "nobody yet"


def _must_be_ready(state: TournamentState, match: DrawMatch) -> None:
    if match.status == "ready":
        return
    if match.status == "waiting":
        raise conflict("not_ready", f"{match.key} is waiting: its players are not all known yet")
    if match.status == "called":
        raise conflict("match_called", f"{match.key} ({_names(state, match)}) is called to table {match.table_id}")
    raise conflict("already_decided", f"{match.key} is decided already ({match.status})")


def _in_match(state: TournamentState, match: DrawMatch, value: Any, what: str) -> str:
    pid = known_player(state, value, what)
    if pid not in match.players:
        raise DrawReject(422, "not_in_match", f"{state.name(pid)} does not play {match.key}")
    return pid


def _table(state: TournamentState, value: Any, key: str | None = None) -> str:
    table_id = fields.ident(value, "table_id")
    if table_id in state.paused_tables:
        raise conflict("table_paused", f"table {table_id} is paused: resume it first")
    for other, held in state.open_calls.items():
        if held.table_id == table_id and other != key:
            raise conflict("table_busy", f"table {table_id} has {other} on it")
    return table_id


def walkover(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """`uncall: true` also decides a called key: the I/O layer cancels its scheduled match in the
    same transaction, and the event names that match (`match_id`), which the fold lets go of."""
    fields.only(cmd, ("kind", "key", "winner", "uncall"))
    match = draw_match(state, cmd)
    uncall = cmd.get("uncall", False)
    if not isinstance(uncall, bool):
        raise bad("uncall must be true or false")
    data: dict[str, Any] = {"key": match.key}
    if not (uncall and match.status == "called"):
        _must_be_ready(state, match)  # a ready match has no withdrawn player (theirs is a derived walkover)
    elif match.match_id is not None:  # a team match called has no match of its own: its rubbers come off
        data["match_id"] = match.match_id
    winner = _in_match(state, match, fields.required(cmd, "winner"), "winner")
    if state.player(winner).withdrawn:  # a called match may hold one who withdrew since
        raise conflict("withdrawn", f"{state.name(winner)} has withdrawn")
    return "walkover", {**data, "winner": winner}


def call(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "key", "match_id", "table_id"))
    match = draw_match(state, cmd)
    _must_be_ready(state, match)
    match_id = fields.ident(fields.required(cmd, "match_id"), "match_id")
    if match_id in state.match_keys:
        raise conflict("match_taken", f"match {match_id} already plays {state.match_keys[match_id]}")
    table_id = _table(state, fields.required(cmd, "table_id"))
    busy = {p: k for k, c in state.open_calls.items() for p in c.players}
    for pid in match.known_players:
        if pid in busy:
            raise conflict("player_busy", f"{state.name(pid)} is playing {busy[pid]}")
    return "match_called", {"key": match.key, "match_id": match_id, "table_id": table_id,
                            "players": list(match.known_players)}


def _called(state: TournamentState, match: DrawMatch) -> None:
    if match.status != "called":
        raise conflict("not_called", f"{match.key} is not called to a table ({match.status})")


def uncall(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "key"))
    if state.draw is not None:
        # A stale call (its players no longer derived so, see dispatch.stale_calls) can always go.
        held = state.open_calls.get(fields.ident(fields.required(cmd, "key"), "key"))
        if held is not None:
            return "match_uncalled", {"key": held.key, "match_id": held.match_id}
    match = draw_match(state, cmd)
    _called(state, match)
    return "match_uncalled", {"key": match.key, "match_id": match.match_id}


def move_call(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "key", "table_id"))
    match = draw_match(state, cmd)
    _called(state, match)
    table_id = _table(state, fields.required(cmd, "table_id"), match.key)
    return "call_moved", {"key": match.key, "match_id": match.match_id, "table_id": table_id}


def order_queue(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "keys"))
    keys = fields.required(cmd, "keys")
    if not isinstance(keys, list) or len(keys) > MAX_KEYS:
        raise bad(f"keys must be a list of at most {MAX_KEYS} keys")
    if len(set(map(str, keys))) != len(keys):
        raise bad("keys must not repeat a key")
    for key in keys:
        match = draw_match(state, {"key": key})
        if match.status != "ready":
            raise conflict("not_ready", f"{match.key} is not in the queue ({match.status})")
    return "queue_ordered", {"keys": list(keys)}


def take_result(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "key", "match_id", "winner", "scores", "ranking", "entered", "match_version",
                      "withdrawn", "races"))
    match = draw_match(state, cmd)
    correcting = match.status == "finished"  # a score corrected by hand replaces the result
    if not correcting:
        _called(state, match)
    match_id = fields.ident(fields.required(cmd, "match_id"), "match_id")
    if match_id != match.match_id:
        raise conflict("wrong_match", f"{match.key} is played by match {match.match_id}, not {match_id}")
    players = state.calls[match.key].players
    winner = fields.required(cmd, "winner")
    if winner is None:
        if len(players) != 3:
            raise bad("winner is required (null only for a three-player match whose top score is shared)")
    else:
        winner = _in_match(state, match, winner, "winner")
    scores = fields.mapping(fields.required(cmd, "scores"), "scores")
    if set(scores) != set(players):
        raise bad(f"scores must give exactly the match's players: {', '.join(players)}")
    clean = {pid: fields.whole(scores[pid], f"scores.{pid}", -MAX_SCORE, MAX_SCORE) for pid in players}
    ranking = cmd.get("ranking")
    if ranking is not None:
        if not isinstance(ranking, list) or sorted(map(str, ranking)) != sorted(players):
            raise bad("ranking must list the match's players once each, highest first")
        ranking = list(ranking)
    data = {"key": match.key, "match_id": match_id, "winner": winner, "scores": clean, "ranking": ranking}
    entered = fields.flag(cmd.get("entered") or False, "entered")
    if entered:  # a score entered by hand: the draw's screens say so
        data["entered"] = True
    if cmd.get("match_version") is not None:  # the match's version the result was read at (the flow
        # takes it again when the match has moved on since: hub/tournaments/flow.py)
        data["match_version"] = fields.whole(cmd["match_version"], "match_version", 0, 2**31 - 1)
    if cmd.get("races") is not None:  # a handicapped race: each player's own race, for the draw's screens
        races = fields.mapping(cmd["races"], "races")
        if set(races) != set(players):
            raise bad(f"races must give exactly the match's players: {', '.join(players)}")
        data["races"] = {pid: fields.whole(races[pid], f"races.{pid}", 1, MAX_SCORE) for pid in players}
    withdrawn = _withdrawn(state, match, cmd.get("withdrawn"))
    if withdrawn:  # lost by a withdrawal from the event while it was played: the draw's screens say so
        data["withdrawn"] = list(withdrawn)
    if correcting:
        result = state.results[match.key]
        if (result.winner == winner and dict(result.scores) == clean and result.entered == entered
                and result.withdrawn == withdrawn):
            raise conflict("already_decided", f"{match.key} has this result already")
        refuse_if_used(state, "result_taken", data, besides=match.key)
    return "result_taken", data


def _withdrawn(state: TournamentState, match: DrawMatch, raw: Any) -> tuple[str, ...]:
    """`withdrawn`: the match's players who withdrew from the event while it was played (it was
    forfeited for them), each once."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(set(map(str, raw))) != len(raw):
        raise bad("withdrawn must be a list of the match's players, each once")
    return tuple(_in_match(state, match, pid, "withdrawn") for pid in raw)


def void_result(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """`requeue: true`: the key goes back to the queue (its match, finished, is let go) instead of being
    called again on its table: for a reopen when that table or a player is in another match now."""
    fields.only(cmd, ("kind", "key", "match_id", "requeue"))
    requeue = fields.flag(cmd.get("requeue") or False, "requeue")
    match = draw_match(state, cmd)
    if match.status != "finished":
        raise conflict("not_finished", f"{match.key} has no result to void ({match.status})")
    match_id = fields.ident(fields.required(cmd, "match_id"), "match_id")
    if match_id != match.match_id:
        raise conflict("wrong_match", f"{match.key} was played by match {match.match_id}, not {match_id}")
    for key in state.derived.downstream(match.key):
        later = state.derived.by_key[key]
        if later.status in ("called", "finished") or key in state.walkovers:
            raise conflict("downstream_started",
                           f"{key} ({_names(state, later)}) depends on {match.key} and is {later.status}")
    if requeue:
        return "result_voided", {"key": match.key, "match_id": match_id, "requeue": True}
    call = state.calls[match.key]
    for other, held in state.open_calls.items():
        if held.table_id == call.table_id:
            raise conflict("table_busy",
                           f"table {call.table_id} has {other} on it now: {match.key} cannot reopen there")
        for pid in set(held.players) & set(call.players):
            raise conflict("player_busy", f"{state.name(pid)} is playing {other} now: {match.key} cannot reopen")
    return "result_voided", {"key": match.key, "match_id": match_id}


def pause_table(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "table_id"))
    table_id = fields.ident(fields.required(cmd, "table_id"), "table_id")
    if table_id in state.paused_tables:
        raise conflict("table_paused", f"table {table_id} is paused already")
    return "table_paused", {"table_id": table_id}


def resume_table(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "table_id"))
    table_id = fields.ident(fields.required(cmd, "table_id"), "table_id")
    if table_id not in state.paused_tables:
        raise conflict("table_not_paused", f"table {table_id} is not paused")
    return "table_resumed", {"table_id": table_id}
