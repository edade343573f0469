"""decide: a command judged against the current state -> the event `(kind, data)` to store, or
`Reject(code, message)`. Pure: the state is only read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hub.rules import doubles, entered
from hub.rules.commands import (
    ENTERED_KINDS,
    SERVER_KINDS,
    TABLE_KINDS,
    TURN_KINDS,
    check_balls_on_table,
    command_data,
)
from hub.rules.discipline import Discipline
from hub.rules.disciplines import DISCIPLINES
from hub.rules.events import Reject
from hub.rules.state import MatchState

# Strokes and answers are refused while the referee has stopped the clocks (RULES.md); so is a
# rack reported won, the stroke of a match scored rack by rack.
REFUSED_WHILE_PAUSED = ("shot", "decision", "extension", "rack")
# What only a judged match takes (a match scored rack by rack has no strokes to judge).
JUDGED_KINDS = ("shot", "foul", "stalemate")


def decide(st: MatchState, command: Mapping[str, Any], *, server: bool = False) -> tuple[str, dict[str, Any]]:
    if not isinstance(command, Mapping):
        raise Reject("bad_command", "command must be an object")
    kind = command.get("kind")
    if kind not in TABLE_KINDS and not (server and kind in SERVER_KINDS):
        raise Reject("bad_command", f"unknown command kind {str(kind)[:40]!r}")
    if st.paused and kind in REFUSED_WHILE_PAUSED:
        raise Reject("not_allowed", "the match is paused: resume first")
    superseding = _superseding(st, kind, command, server)
    if superseding is not None:
        return superseding
    if kind in TURN_KINDS and command.get("player") is None:
        command = {**command, "player": _player_at_table(st, kind)}
    rack = st.rack
    data = command_data(kind, command, st.setup.player_ids)
    if kind in ("start", "lag"):
        data = {**data, **doubles.start_members(st, command)}
    doubles.check_called(st, kind, data)
    if kind == "foul":
        DISCIPLINES[st.setup.discipline].validate_foul(data["reason"])
    if kind == "penalty" and command.get("withdrawn") is not None:
        data = {**data, **_withdrawal(command, data, server)}
    if kind == "undo":
        if not st.undoable:
            raise Reject("nothing_to_undo", "there is nothing left to undo")
        if st.undoable[-1] in st.desk_only and not server:
            raise Reject("not_allowed", "the desk decided this result: only the desk can undo it (a reopen)")
        return kind, {"target": st.undoable[-1]}
    if kind == "table_moved":
        if st.status != "scheduled":
            raise Reject("already_started", "only a match that has not started can move to another table")
        return kind, data
    if kind == "player_renamed":
        return kind, data  # the match's paperwork: also once it is over
    if kind == entered.KIND:
        return kind, entered.decide(st, command)  # scheduled, live or finished alike
    if st.status == "finished":
        raise Reject("match_over", "the match is over")
    discipline = DISCIPLINES[st.setup.discipline]
    _check(st, discipline, kind, data)
    if kind == "shot":
        check_balls_on_table(data, rack.on_table)
        discipline.validate_shot(st, data)
    return kind, data


def _withdrawal(command: Mapping[str, Any], data: Mapping[str, Any], server: bool) -> dict[str, Any]:
    """`withdrawn: true` on a `forfeit_match` penalty: the hub's own, for a player withdrawn from the
    event while the match is played (the desk's decision: only the desk undoes it)."""
    if not server:
        raise Reject("bad_command", "withdrawn is set by the hub, for a player withdrawn at the desk")
    if command.get("withdrawn") is not True or data["type"] != "forfeit_match":
        raise Reject("bad_command", "withdrawn must be true, on a forfeit_match penalty")
    return {"withdrawn": True}


def _player_at_table(st: MatchState, kind: str) -> str:
    """Who a turn command that names no player is taken for: the shooter (the chooser for a
    decision; either for a concession), judged on the match as it is when the command arrives."""
    rack = st.rack
    pending = rack.pending.player if rack.pending is not None else None
    if kind == "decision":
        player = pending
    elif kind == "concede":
        player = pending or rack.shooter
    else:
        player = rack.shooter
    if player is not None:
        return player
    if st.status == "finished":
        raise Reject("match_over", "the match is over")
    if st.status == "scheduled":
        raise Reject("not_started", "the match has not started: send start (or lag)")
    if pending is not None:
        raise Reject("decision_pending", f"waiting for {pending} to choose")
    if kind == "decision":
        raise Reject("no_decision_pending", "there is no decision to make")
    raise Reject("not_allowed", "nobody is at the table now")


def _superseding(st: MatchState, kind: str, command: Mapping[str, Any],
                 server: bool) -> tuple[str, dict[str, Any]] | None:
    """A turn command entered (`entered_at`) during the turn a `clock_expired` ended, before it
    was stored, by the player whose time ran out: it is judged as if the expiry never happened,
    and its data names the expiry it voids (`voids`: the writer marks it voided, as for an undo).
    None when that does not apply, or when the command is refused on that state too."""
    expired = st.expired_turn
    entered = command.get("entered_at")
    if expired is None or kind not in ENTERED_KINDS or isinstance(entered, bool) or not isinstance(entered, int):
        return None
    named = command.get("player")
    if not expired.started_at <= entered < expired.at or (named is not None and named != expired.player):
        return None
    try:
        kind, data = decide(expired.state, command, server=server)
    except Reject:
        return None
    return kind, {**data, "voids": expired.version}


def _check(st: MatchState, discipline: Discipline, kind: str, data: dict[str, Any]) -> None:
    """Refuse `kind` when the match is not where it can happen (the data itself is well formed).
    The steps go in order: the opening kinds, then any kind but a decision needs a started
    match, then the kinds of any phase, then those of a rack in play, then a turn's own."""
    _check_scoring(st, kind)
    if kind in _OPENING_CHECKS:
        _OPENING_CHECKS[kind](st, discipline, data)
        return
    if st.status == "scheduled" and not (kind == "decision" and _in_lag(st)):
        raise Reject("not_started", "the match has not started: send start (or lag)")
    if kind in _ANY_PHASE_CHECKS:
        _ANY_PHASE_CHECKS[kind](st, discipline, data)
        return
    if st.rack.phase == "lag":
        raise Reject("not_allowed", "waiting for the lag")
    if kind in _RACK_CHECKS:
        _RACK_CHECKS[kind](st, discipline, data)
        return
    _check_turn(st, kind, data)  # shot, foul, clock_expired


def _check_scoring(st: MatchState, kind: str) -> None:
    """PROTOCOL.md section 17: strokes on a judged match, racks on one scored rack by rack."""
    if kind == "rack" and not st.setup.by_racks:
        raise Reject("not_allowed", "this match is judged stroke by stroke: a rack is not reported, it is played")
    if kind in JUDGED_KINDS and st.setup.by_racks:
        raise Reject("not_allowed", "this match is scored rack by rack: report each rack's winner (rack)")


def _check_rack(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    pending = st.rack.pending
    if pending is not None:
        raise Reject("decision_pending", f"waiting for {pending.player} to choose")
    win_types = discipline.traits.win_types
    if data["win_type"] not in win_types:
        raise Reject("bad_command", f"{discipline.name}: win_type must be one of {', '.join(win_types)}")
    discipline.check_rack(st, data["winner"], data["win_type"], data.get("paid_by"))


def _in_lag(st: MatchState) -> bool:
    rack = st.rack
    return rack.phase == "lag" or (rack.pending is not None and rack.pending.context == "lag")


def _check_start(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if st.status != "scheduled" or st.rack.phase != "lag":
        raise Reject("already_started", "the match has already started")


def _check_lag(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    rack = st.rack
    if not st.setup.traits.lag:
        raise Reject("not_allowed", f"{discipline.name} has no lag: start with the order")
    if rack.phase == "decision" and _in_lag(st):
        raise Reject("decision_pending", "the lag winner has to choose break or pass")
    if rack.phase != "lag":
        raise Reject("already_started" if st.status == "live" else "not_allowed", "there is no lag now")


def _check_decision(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    pending = st.rack.pending
    if pending is None:
        raise Reject("no_decision_pending", "there is no decision to make")
    if data.get("player") != pending.player:
        raise Reject("not_your_turn", f"{pending.player} makes this decision")
    if data["choice"] not in pending.options:
        raise Reject("bad_choice", f"choose one of: {', '.join(pending.options)}")


def _check_pause(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if st.paused:
        raise Reject("not_allowed", "the match is already paused")


def _check_resume(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if not st.paused:
        raise Reject("not_allowed", "the match is not paused")


def _check_link_lost(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    clock = st.shot_clock
    if st.link_lost_since is not None or st.status != "live" or clock is None or clock.deadline is None:
        raise Reject("not_allowed", "no shot clock is running")


def _check_link_restored(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if st.link_lost_since is None:
        raise Reject("not_allowed", "the link is not lost")


def _check_match_time_expired(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if st.match_clock is None:
        raise Reject("not_allowed", "this match has no match clock")
    if st.extra_rack:
        raise Reject("not_allowed", "the match clock has already run out")


def _check_penalty(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if data["type"] not in discipline.traits.penalty_types:
        raise Reject("not_allowed", f"{discipline.name} has no {data['type']} penalty here")
    if st.rack.phase == "lag" and data["type"] not in ("forfeit_match",):
        raise Reject("not_allowed", "no rack is in play")


def _check_timeout(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    race_to = discipline.traits.timeout_race_to
    allowed = (
        race_to is not None
        and st.rack.phase == "break"
        and (st.setup.race_to or 0) >= race_to
        and not st.player(data["player"]).timeout_used  # shaped: always one of the players
        and not st.paused
    )
    if not allowed:
        where = f"race to {race_to} or more" if race_to is not None else f"never in {discipline.name}"
        raise Reject("not_allowed", f"a timeout: {where}, once per player, before a break")


def _check_stalemate(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    if st.rack.phase not in ("break", "play", "decision"):
        raise Reject("not_allowed", "no rack is in play")


def _check_concede(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    rack = st.rack
    at_table = rack.shooter if rack.pending is None else rack.pending.player
    if data.get("player") != at_table and not st.setup.by_racks:  # scored by racks: nobody is at the table
        raise Reject("not_your_turn", "only the player at the table may concede")
    if data["scope"] not in discipline.traits.concede_scopes:
        raise Reject("not_allowed", f"{discipline.name}: a {data['scope']} cannot be conceded")


def _check_extension(st: MatchState, discipline: Discipline, data: dict[str, Any]) -> None:
    rack, player = st.rack, data["player"]  # shaped: always one of the players
    if st.setup.shot_clock is None:
        raise Reject("not_allowed", "this match has no shot clock")
    if rack.phase != "play":
        raise Reject("not_allowed", "no extension during a break or a decision")
    if player != rack.shooter:
        raise Reject("not_your_turn", f"{rack.shooter} is at the table")
    if st.player(player).extensions_left <= 0:
        raise Reject("not_allowed", "no extension left in this rack")


def _check_turn(st: MatchState, kind: str, data: dict[str, Any]) -> None:
    """shot, foul, clock_expired: the shooter's own turn, no decision waiting."""
    rack = st.rack
    if rack.phase == "decision":
        assert rack.pending is not None
        raise Reject("decision_pending", f"waiting for {rack.pending.player} to choose")
    if data.get("player") != rack.shooter:
        if kind == "clock_expired":
            raise Reject("not_allowed", "that turn is over")
        raise Reject("not_your_turn", f"{rack.shooter} is at the table")
    if kind == "clock_expired" and (st.paused or st.shot_clock is None or st.link_lost_since is not None):
        raise Reject("not_allowed", "no shot clock is running")


_Check = Callable[[MatchState, Discipline, dict[str, Any]], None]
# Before the match has started.
_OPENING_CHECKS: dict[str, _Check] = {"start": _check_start, "lag": _check_lag}
# Once it has (a decision also during the lag), whatever the rack's phase.
_ANY_PHASE_CHECKS: dict[str, _Check] = {
    "decision": _check_decision,
    "pause": _check_pause,
    "resume": _check_resume,
    "link_lost": _check_link_lost,
    "link_restored": _check_link_restored,
    "match_time_expired": _check_match_time_expired,
    "penalty": _check_penalty,
    "timeout": _check_timeout,
    "stalemate": _check_stalemate,
}
# Only with a rack in play (not during the lag).
_RACK_CHECKS: dict[str, _Check] = {"concede": _check_concede, "extension": _check_extension, "rack": _check_rack}
