"""decide / evolve / fold / projection: the rules engine's public face (see __init__.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from hub.rules import core
from hub.rules.chase_nine import ChaseNine
from hub.rules.chinese_eight import ChineseEight
from hub.rules.commands import (
    ADMIN_KINDS,
    ENTERED_KINDS,
    SERVER_KINDS,
    TABLE_KINDS,
    TURN_KINDS,
    check_balls_on_table,
    command_data,
)
from hub.rules.discipline import Discipline
from hub.rules.events import Event, Reject
from hub.rules.golden_nine import GoldenNine
from hub.rules.setup import MatchSetup
from hub.rules.state import ExpiredTurn, MatchClock, MatchState, PlayerState, RackState, ShotClock
from hub.rules.wpa_nine import WpaNine

DISCIPLINES: dict[str, Discipline] = {
    d.name: d for d in (GoldenNine(), WpaNine(), ChineseEight(), ChaseNine())
}
# Strokes and answers are refused while the referee has stopped the clocks (RULES.md).
REFUSED_WHILE_PAUSED = ("shot", "decision", "extension")
WARNING_MS = 10_000
COUNTDOWN_MS = 5_000
# Server-made, stored when a table's tablets have not been heard for a short grace and when one is
# back: they pause and resume the shot clock and change nothing else (no undo, no `last`).
LINK_KINDS = ("link_lost", "link_restored")


def initial(setup: MatchSetup) -> MatchState:
    players = [PlayerState(p.id, p.name, p.handicap) for p in setup.players]
    st = MatchState(setup=setup, players=players, rack=RackState(number=1, phase="lag"))
    st.rack.points = {p.id: 0 for p in players}
    if setup.minutes is not None:
        limit = round(setup.minutes * 60_000)
        st.match_clock = MatchClock(limit_ms=limit, remaining_ms=limit)
    return st


# --- decide ------------------------------------------------------------------------------


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
    if kind == "undo":
        if not st.undoable:
            raise Reject("nothing_to_undo", "there is nothing left to undo")
        return kind, {"target": st.undoable[-1]}
    if kind == "table_moved":
        if st.status != "scheduled":
            raise Reject("already_started", "only a match that has not started can move to another table")
        return kind, data
    if kind == "player_renamed":
        return kind, data  # the match's paperwork: also once it is over
    if st.status == "finished":
        raise Reject("match_over", "the match is over")
    discipline = DISCIPLINES[st.setup.discipline]
    _check(st, discipline, kind, data)
    if kind == "shot":
        check_balls_on_table(data, rack.on_table)
        discipline.validate_shot(st, data)
    return kind, data


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


def _superseding(st: MatchState, kind: str, command: Mapping[str, Any], server: bool) -> tuple[str, dict[str, Any]] | None:
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
    rack = st.rack
    player = data.get("player")
    in_lag = rack.phase == "lag" or (rack.pending is not None and rack.pending.context == "lag")
    if kind == "start":
        if st.status != "scheduled" or rack.phase != "lag":
            raise Reject("already_started", "the match has already started")
        return
    if kind == "lag":
        if st.setup.discipline == "chase_nine":
            raise Reject("not_allowed", "chase_nine has no lag: start with the order")
        if rack.phase == "decision" and in_lag:
            raise Reject("decision_pending", "the lag winner has to choose break or pass")
        if rack.phase != "lag":
            raise Reject("already_started" if st.status == "live" else "not_allowed", "there is no lag now")
        return
    if st.status == "scheduled" and not (kind == "decision" and in_lag):
        raise Reject("not_started", "the match has not started: send start (or lag)")
    if kind == "decision":
        if rack.pending is None:
            raise Reject("no_decision_pending", "there is no decision to make")
        if player != rack.pending.player:
            raise Reject("not_your_turn", f"{rack.pending.player} makes this decision")
        if data["choice"] not in rack.pending.options:
            raise Reject("bad_choice", f"choose one of: {', '.join(rack.pending.options)}")
        return
    if kind == "pause":
        if st.paused:
            raise Reject("not_allowed", "the match is already paused")
        return
    if kind == "resume":
        if not st.paused:
            raise Reject("not_allowed", "the match is not paused")
        return
    if kind == "link_lost":
        clock = st.shot_clock
        if st.link_lost_since is not None or st.status != "live" or clock is None or clock.deadline is None:
            raise Reject("not_allowed", "no shot clock is running")
        return
    if kind == "link_restored":
        if st.link_lost_since is None:
            raise Reject("not_allowed", "the link is not lost")
        return
    if kind == "match_time_expired":
        if st.match_clock is None:
            raise Reject("not_allowed", "this match has no match clock")
        if st.extra_rack:
            raise Reject("not_allowed", "the match clock has already run out")
        return
    if kind == "penalty":
        if data["type"] not in discipline.penalty_types:
            raise Reject("not_allowed", f"{discipline.name} has no {data['type']} penalty here")
        if rack.phase == "lag" and data["type"] not in ("forfeit_match",):
            raise Reject("not_allowed", "no rack is in play")
        return
    if kind == "timeout":
        allowed = (
            discipline.name == "chinese_eight"
            and rack.phase == "break"
            and (st.setup.race_to or 0) >= 6
            and not st.player(player).timeout_used
            and not st.paused
        )
        if not allowed:
            raise Reject("not_allowed", "a timeout: chinese_eight, race to 6 or more, once per player, before a break")
        return
    if kind == "stalemate":
        if rack.phase not in ("break", "play", "decision"):
            raise Reject("not_allowed", "no rack is in play")
        return
    if rack.phase == "lag":
        raise Reject("not_allowed", "waiting for the lag")
    if kind == "concede":
        at_table = rack.shooter if rack.pending is None else rack.pending.player
        if player != at_table:
            raise Reject("not_your_turn", "only the player at the table may concede")
        if data["scope"] not in discipline.concede_scopes:
            raise Reject("not_allowed", f"{discipline.name}: a {data['scope']} cannot be conceded")
        return
    if kind == "extension":
        if st.setup.shot_clock is None:
            raise Reject("not_allowed", "this match has no shot clock")
        if rack.phase != "play":
            raise Reject("not_allowed", "no extension during a break or a decision")
        if player != rack.shooter:
            raise Reject("not_your_turn", f"{rack.shooter} is at the table")
        if st.player(player).extensions_left <= 0:
            raise Reject("not_allowed", "no extension left in this rack")
        return
    # shot, foul, clock_expired
    if rack.phase == "decision":
        assert rack.pending is not None
        raise Reject("decision_pending", f"waiting for {rack.pending.player} to choose")
    if player != rack.shooter:
        if kind == "clock_expired":
            raise Reject("not_allowed", "that turn is over")
        raise Reject("not_your_turn", f"{rack.shooter} is at the table")
    if kind == "clock_expired" and (st.paused or st.shot_clock is None or st.link_lost_since is not None):
        raise Reject("not_allowed", "no shot clock is running")


# --- evolve / fold -----------------------------------------------------------------------


def evolve(st: MatchState, event: Event) -> MatchState:
    """The state after ``event``; ``st`` itself is left as it was.  An ``undo`` needs the
    whole stream: use ``fold``."""
    if event.kind == "undo" and not event.voided:
        raise ValueError("an undo voids an earlier event: fold the stream again")
    nxt = st.clone()
    _apply(nxt, event)
    return nxt


def fold(setup: MatchSetup, events: Iterable[Event]) -> MatchState:
    st = initial(setup)
    for event in events:
        _apply(st, event)
    return st


def _apply(st: MatchState, ev: Event) -> None:
    st.version = ev.version
    if ev.voided:
        return
    if ev.kind in LINK_KINDS:
        _apply_link(st, ev)
        return
    if ev.kind == "undo":
        st.expired_turn = None
        _reset_shot_clock(st, ev.at)  # RULES.md: after an undo the shot clock starts again, full limit
        st.last = (ev.version, "undo", None, (), (f"event {ev.data.get('target')} undone",))
        return
    data = ev.data
    if ev.kind in ADMIN_KINDS:
        _apply_admin(st, ev.kind, data)
        return
    expired = _expired_turn(st, ev) if ev.kind == "clock_expired" else None
    _advance_match_clock(st, ev.at)
    discipline = DISCIPLINES[st.setup.discipline]
    note: list[str] = []
    fouls: list[str] = []
    kind = ev.kind
    was_break = st.rack.phase == "break"
    reset_shot_clock = True
    if data.get("voids") is not None:
        note.append("entered before the shot clock ran out: the time foul is taken back")
    if kind == "start":
        _start(st, data)
    elif kind == "lag":
        core.ask(st, data["winner"], ("break", "pass"), "lag")
        note.append(f"{data['winner']} wins the lag")
    elif kind == "shot":
        if was_break:
            # The match clock starts with the first break and an official timeout ends with
            # the next break (cleared before the stroke: it may end the rack and begin another).
            st.official_timeout = False
            st.official_timeout_since = None
            st.first_break_played = True
        fouls = (discipline.break_shot if was_break else discipline.play_shot)(st, data, note)
    elif kind == "decision":
        _decision(st, discipline, data["player"], data["choice"], note)
    elif kind == "foul":
        fouls = discipline.foul_outside_stroke(st, data["player"], data["reason"], note)
    elif kind == "clock_expired":
        note.append("shot clock expired")
        fouls = discipline.foul_outside_stroke(st, data["player"], "time", note)
    elif kind == "penalty":
        note.append(f"penalty: {data['type']}")
        discipline.penalty(st, data["player"], data["type"], note)
    elif kind == "concede":
        note.append(f"{data['player']} concedes the {data['scope']}")
        discipline.concede(st, data["player"], data["scope"], note)
    elif kind == "stalemate":
        core.stalemate(st, note)
    elif kind == "extension":
        _extend(st, data["player"])
        note.append("extension")
        reset_shot_clock = False
    elif kind in ("pause", "timeout"):
        if kind == "timeout":
            st.player(data["player"]).timeout_used = True
        st.paused = True
        _pause_shot_clock(st, ev.at)
        reset_shot_clock = False
    elif kind == "resume":
        st.paused = False
        if st.link_lost_since is None:
            _resume_shot_clock(st, ev.at)
        reset_shot_clock = False
    elif kind == "match_time_expired":
        assert st.match_clock is not None
        st.match_clock.remaining_ms = 0
        st.match_clock.running_since = None
        note.append("match time is up")
        core.settle_on_points(st, "time", note)
    if st.official_timeout and st.official_timeout_since is None:
        st.official_timeout_since = ev.at
    if kind != "match_time_expired":
        st.undoable.append(ev.version)
    if reset_shot_clock:
        _reset_shot_clock(st, ev.at)
    _sync_match_clock(st, ev.at)
    st.last = (ev.version, kind, data.get("player"), tuple(fouls), tuple(note))
    st.expired_turn = expired
    if st.status != "live":
        st.link_lost_since = None  # a finished (or un-started) match has no link to lose


def _expired_turn(st: MatchState, ev: Event) -> ExpiredTurn | None:
    """What a stroke entered before this clock_expired needs: the match before it."""
    clock = st.shot_clock
    if clock is None:
        return None
    before = st.clone()
    before.expired_turn = None
    return ExpiredTurn(ev.version, ev.at, clock.started_at, ev.data["player"], before)


def _apply_link(st: MatchState, ev: Event) -> None:
    """link_lost pauses the shot clock as of when the tablets were last heard (never before its
    turn began, never after the event): the time nobody could see the table is not counted.
    link_restored lets it run again unless the referee has paused the match."""
    clock = st.shot_clock
    if ev.kind == "link_lost":
        since = min(int(ev.data["since"]), ev.at)
        st.link_lost_since = since
        if clock is not None and clock.deadline is not None:
            clock.remaining_ms = max(0, clock.deadline - max(since, clock.started_at))
            clock.deadline = None
    else:
        st.link_lost_since = None
        if not st.paused:
            _resume_shot_clock(st, ev.at)
    if st.expired_turn is not None:  # the state before the expiry hears of the link too
        before = st.expired_turn.state.clone()
        _apply_link(before, ev)
        before.version = ev.version
        st.expired_turn = ExpiredTurn(st.expired_turn.version, st.expired_turn.at, st.expired_turn.started_at,
                                      st.expired_turn.player, before)


def _apply_admin(st: MatchState, kind: str, data: Mapping[str, Any]) -> None:
    """A rename or a move: no clock, no `last`, nothing to undo (an undo of the stroke before it
    must not be blocked by paperwork)."""
    if kind == "player_renamed":
        st.player(data["player"]).name = data["name"]
    elif kind == "table_moved":
        st.table_id = data["table_id"]
    if st.expired_turn is not None:  # the state a late stroke goes back to hears of it too
        before = st.expired_turn.state.clone()
        _apply_admin(before, kind, data)
        st.expired_turn = dataclasses.replace(st.expired_turn, state=before)


def _start(st: MatchState, data: Mapping[str, Any]) -> None:
    if "order" in data:
        order = tuple(data["order"])
        st.first_order = order
        core.begin_rack(st, 1, order[0], order)
    else:
        core.begin_rack(st, 1, data["breaker"])
        st.first_order = st.rack.order
    st.status = "live"


def _decision(st: MatchState, discipline: Discipline, pid: str, choice: str, note: list[str]) -> None:
    pending = st.rack.pending
    assert pending is not None
    if pending.context == "lag":
        breaker = pid if choice == "break" else next(p for p in st.ids() if p != pid)
        note.append(f"{pid} chooses to {choice}: {breaker} breaks")
        number = st.rack.number
        core.begin_rack(st, number, breaker)
        if st.status == "scheduled":
            st.first_order = st.rack.order
            st.status = "live"
        return
    note.append(f"{pid} chooses {choice}")
    discipline.decide_choice(st, pid, choice, pending.context, note)


# --- clocks (deadlines from event times only) --------------------------------------------


def _turn_limit_ms(st: MatchState) -> int | None:
    cfg = st.setup.shot_clock
    rack = st.rack
    if cfg is None or st.status != "live" or rack.phase not in ("break", "play") or rack.shooter is None:
        return None
    if rack.phase == "break":
        seconds = cfg.break_s
    elif rack.after_break:
        seconds = cfg.first_shot_s
    else:
        seconds = cfg.shot_s
    return round(seconds * 1000)


def _reset_shot_clock(st: MatchState, at: int) -> None:
    limit = _turn_limit_ms(st)
    if limit is None:
        st.shot_clock = None
        return
    assert st.rack.shooter is not None
    if st.official_timeout and st.official_timeout_since is not None:
        # the break after an official timeout: its clock runs once the timeout is over
        at = max(at, st.official_timeout_since + round(st.setup.timeout_s * 1000))
    if st.paused or st.link_lost_since is not None:
        st.shot_clock = ShotClock(st.rack.shooter, limit, None, limit, started_at=at)
    else:
        st.shot_clock = ShotClock(st.rack.shooter, limit, at + limit, None, started_at=at)



def _extend(st: MatchState, pid: str) -> None:
    cfg = st.setup.shot_clock
    assert cfg is not None
    st.player(pid).extensions_left -= 1
    clock = st.shot_clock
    if clock is None:
        return
    ext = round(cfg.extension_s * 1000)
    if clock.deadline is not None:
        clock.deadline += ext
    elif clock.remaining_ms is not None:
        clock.remaining_ms += ext
    clock.extended = True


def _pause_shot_clock(st: MatchState, at: int) -> None:
    clock = st.shot_clock
    if clock is not None and clock.deadline is not None:
        clock.remaining_ms = max(0, clock.deadline - at)
        clock.deadline = None


def _resume_shot_clock(st: MatchState, at: int) -> None:
    clock = st.shot_clock
    if clock is not None and clock.remaining_ms is not None:
        clock.deadline = at + clock.remaining_ms
        clock.remaining_ms = None


def _advance_match_clock(st: MatchState, at: int) -> None:
    mc = st.match_clock
    if mc is not None and mc.running_since is not None:
        mc.remaining_ms = mc.remaining_at(at)
        mc.running_since = at


def _sync_match_clock(st: MatchState, at: int) -> None:
    """Timed match: starts with the first break stroke and runs while racks are played; stops
    when paused, in a lag, at the end and for the official timeout after every
    ``timeout_every_racks``-th rack until the next rack's break stroke."""
    mc = st.match_clock
    if mc is None:
        return
    running = (
        st.status == "live"
        and st.first_break_played
        and not st.paused
        and not st.official_timeout
        and not st.extra_rack
        and st.rack.phase not in ("lag", "over")
        and mc.remaining_ms > 0
    )
    if running and mc.running_since is None:
        mc.running_since = at
    elif not running:
        mc.running_since = None


# --- projection --------------------------------------------------------------------------


def _seconds(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _shot_clock_json(st: MatchState) -> dict[str, Any] | None:
    clock = st.shot_clock
    if clock is None:
        return None
    out: dict[str, Any] = {
        "player": clock.player,
        "limit_s": _seconds(clock.limit_ms / 1000),
        "extended": clock.extended,
        "running": clock.deadline is not None,
    }
    if clock.deadline is not None:
        out["deadline"] = clock.deadline
        out["warn_at"] = clock.deadline - WARNING_MS
        out["countdown_at"] = clock.deadline - COUNTDOWN_MS
    else:
        out["remaining_ms"] = clock.remaining_ms
        out["reason"] = "pause" if st.paused else "link"
    return out


def _match_clock_json(st: MatchState) -> dict[str, Any] | None:
    mc = st.match_clock
    if mc is None:
        return None
    running = mc.running_since is not None
    return {
        "limit_s": _seconds(mc.limit_ms / 1000),
        "remaining_ms": mc.remaining_ms,
        "running": running,
        "deadline": mc.running_since + mc.remaining_ms if running else None,
        "official_timeout": st.official_timeout,
        "official_timeout_until": (
            st.official_timeout_since + round(st.setup.timeout_s * 1000)
            if st.official_timeout and st.official_timeout_since is not None else None
        ),
    }


def _last_json(st: MatchState) -> dict[str, Any] | None:
    if st.last is None:
        return None
    version, kind, player, fouls, notes = st.last
    return {"version": version, "kind": kind, "player": player, "foul": bool(fouls), "fouls": list(fouls), "notes": list(notes)}


def projection(st: MatchState) -> dict[str, Any]:
    setup = st.setup
    discipline = DISCIPLINES[setup.discipline]
    rack = st.rack
    return {
        "id": setup.match_id,
        "tournament_id": setup.tournament_id,
        "table_id": st.table_id or setup.table_id,
        "discipline": setup.discipline,
        "draw": dict(setup.draw) if setup.draw else None,
        "status": st.status,
        "version": st.version,
        "format": setup.format_json(),
        "options": setup.options_json(),
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "handicap": p.handicap,
                "score": p.score,
                "racks_won": p.racks_won,
                "fouls_in_rack": p.fouls_in_rack,
                "consecutive_fouls": p.consecutive_fouls,
                "extensions_left": p.extensions_left,
                "group": p.group,
                "win_ball": discipline.win_ball(st, p.id),
                "warnings": p.warnings,
                "intentional_fouls": p.intentional_fouls,
                "disqualified": p.disqualified,
                "stats": dict(p.stats),
            }
            for p in st.players
        ],
        "rack": {
            "number": rack.number,
            "breaker": rack.breaker,
            "shooter": rack.shooter,
            "phase": rack.phase,
            "on_table": sorted(rack.on_table),
            "ball_in_hand": rack.ball_in_hand,
            "pending": rack.pending.to_json() if rack.pending else None,
            "table_open": rack.table_open,
            "push_out_allowed": rack.push_out_allowed,
            "order": list(rack.order),
            "extra": st.extra_rack,
        },
        "racks": [dict(r, points=dict(r["points"])) for r in st.racks],
        "clock": {"shot": _shot_clock_json(st), "match": _match_clock_json(st)},
        "paused": st.paused,
        "link": {"lost": st.link_lost_since is not None, "since": st.link_lost_since},
        "winner": st.winner,
        "result": dict(st.result) if st.result else None,
        "last": _last_json(st),
    }


def short_projection(st: MatchState) -> dict[str, Any]:
    """PROTOCOL.md section 5: the short form of a match inside the tournament projection."""
    full = projection(st)
    return {
        "id": full["id"],
        "discipline": full["discipline"],
        "status": full["status"],
        "version": full["version"],
        "players": [
            {"id": p["id"], "name": p["name"], "score": p["score"], "racks_won": p["racks_won"]}
            for p in full["players"]
        ],
        "rack": {
            "number": full["rack"]["number"],
            "shooter": full["rack"]["shooter"],
            "phase": full["rack"]["phase"],
            "ball_in_hand": full["rack"]["ball_in_hand"],
        },
        "clock": full["clock"],
        "winner": full["winner"],
        "draw": full["draw"],
    }
