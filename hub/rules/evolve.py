"""evolve / fold: the state after stored events (`initial` is the match before any). Pure and
deterministic: voided events and `undo` events advance the version and change nothing else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from hub.rules import core, doubles, entered, notes
from hub.rules.clock import (
    advance_match_clock,
    extend,
    pause_shot_clock,
    reset_shot_clock,
    resume_shot_clock,
    sync_match_clock,
)
from hub.rules.commands import ADMIN_KINDS
from hub.rules.discipline import Discipline
from hub.rules.disciplines import DISCIPLINES
from hub.rules.events import Event
from hub.rules.notes import Note
from hub.rules.setup import MatchSetup
from hub.rules.state import ExpiredTurn, MatchClock, MatchState, PlayerState, RackState

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
        reset_shot_clock(st, ev.at)  # RULES.md: after an undo the shot clock starts again, full limit
        st.last = (ev.version, "undo", None, (), (notes.UNDONE(event=ev.data.get("target")),))
        return
    if ev.kind in ADMIN_KINDS:
        _apply_admin(st, ev.kind, ev.data)
        return
    if ev.kind == entered.KIND:
        advance_match_clock(st, ev.at)
        entered.apply(st, ev.version, ev.data)
        return
    _apply_play(st, ev)


def _apply_play(st: MatchState, ev: Event) -> None:
    """A stroke, decision, foul, clock or referee event: the play itself (`_apply_kind`), then what
    every such event does to the clocks, the undo list and `last`."""
    data = ev.data
    kind = ev.kind
    expired = _expired_turn(st, ev) if kind == "clock_expired" else None
    advance_match_clock(st, ev.at)
    note: list[Note] = []
    if data.get("voids") is not None:
        note.append(notes.VOIDED_TIME())
    fouls, restart_clock = _apply_kind(st, DISCIPLINES[st.setup.discipline], ev, note)
    doubles.count_turn(st, kind, data)
    if st.official_timeout and st.official_timeout_since is None:
        st.official_timeout_since = ev.at
    if kind != "match_time_expired":
        st.undoable.append(ev.version)
    if restart_clock:
        reset_shot_clock(st, ev.at)
    sync_match_clock(st, ev.at)
    st.last = (ev.version, kind, data.get("player"), tuple(fouls), tuple(note))
    st.last_called = data.get("called") if kind == "shot" else None
    st.expired_turn = expired
    if st.status != "live":
        st.link_lost_since = None  # a finished (or un-started) match has no link to lose


def _apply_kind(st: MatchState, discipline: Discipline, ev: Event, note: list[Note]) -> tuple[list[str], bool]:
    """The event's own change: (the fouls it gave, whether the shot clock starts again after it)."""
    data, kind = ev.data, ev.kind
    was_break = st.rack.phase == "break"
    fouls: list[str] = []
    restart_clock = True
    if was_break and kind in ("shot", "foul", "clock_expired"):
        # The match clock starts with the first break and an official timeout ends with the next
        # break (cleared before the stroke: it may end the rack and begin another). A foul before
        # the break stroke counts as the break (RULES.md "Also settled").
        st.official_timeout = False
        st.official_timeout_since = None
        st.first_break_played = True
    if kind == "start":
        _start(st, data)
    elif kind == "lag":
        doubles.apply_start(st, data)
        core.ask(st, data["winner"], ("break", "pass"), "lag")
        note.append(notes.WINS_LAG(player=data["winner"]))
    elif kind == "shot":
        fouls = (discipline.break_shot if was_break else discipline.play_shot)(st, data, note)
    elif kind == "decision":
        _decision(st, discipline, data["player"], data["choice"], note)
    elif kind == "foul":
        fouls = discipline.foul_outside_stroke(st, data["player"], data["reason"], note)
    elif kind == "clock_expired":
        note.append(notes.CLOCK_EXPIRED())
        fouls = discipline.foul_outside_stroke(st, data["player"], "time", note)
    elif kind == "penalty" and data.get("withdrawn"):
        _withdrew(st, discipline, data["player"], ev.version, note)
    elif kind == "penalty":
        note.append(notes.PENALTY(penalty=data["type"]))
        discipline.penalty(st, data["player"], data["type"], note)
    elif kind == "concede":
        note.append(notes.CONCEDES(player=data["player"], scope=data["scope"]))
        discipline.concede(st, data["player"], data["scope"], note)
    elif kind == "stalemate":
        core.stalemate(st, note)
    elif kind == "rack":
        discipline.rack_won(st, data["winner"], data["win_type"], data.get("paid_by"), note)
    elif kind == "extension":
        extend(st, data["player"])
        note.append(notes.EXTENSION())
        restart_clock = False
    elif kind in ("pause", "timeout", "resume"):
        _apply_pause(st, ev)
        restart_clock = False
    elif kind == "match_time_expired":
        assert st.match_clock is not None
        st.match_clock.remaining_ms = 0
        st.match_clock.running_since = None
        note.append(notes.MATCH_TIME_UP())
        core.settle_on_points(st, "time", note)
    return fouls, restart_clock


def _withdrew(st: MatchState, discipline: Discipline, pid: str, version: int, note: list[Note]) -> None:
    """The forfeit of a player withdrawn from the event (`forfeit_match`, as the discipline rules it):
    the result says who withdrew, the note says only that (not a referee's penalty), and only the
    desk undoes it (a reopen)."""
    discipline.penalty(st, pid, "forfeit_match", [])
    st.desk_only = (*st.desk_only, version)
    if st.result is not None:
        st.result = {**st.result, "withdrawn": [*st.result.get("withdrawn", ()), pid]}
    note.append(notes.WITHDREW(player=pid))


def _apply_pause(st: MatchState, ev: Event) -> None:
    """pause / timeout stop the clocks; resume lets the shot clock run again unless the link is lost."""
    if ev.kind == "resume":
        st.paused = False
        if st.link_lost_since is None:
            resume_shot_clock(st, ev.at)
        return
    if ev.kind == "timeout":
        st.player(ev.data["player"]).timeout_used = True
    st.paused = True
    pause_shot_clock(st, ev.at)


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
            resume_shot_clock(st, ev.at)
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
    doubles.apply_start(st, data)
    if "order" in data:
        order = tuple(data["order"])
        st.first_order = order
        core.begin_rack(st, 1, order[0], order)
    else:
        core.begin_rack(st, 1, data["breaker"])
        st.first_order = st.rack.order
    st.status = "live"


def _decision(st: MatchState, discipline: Discipline, pid: str, choice: str, note: list[Note]) -> None:
    pending = st.rack.pending
    assert pending is not None
    if pending.context == "lag":
        breaker = pid if choice == "break" else next(p for p in st.ids() if p != pid)
        note.append(notes.CHOOSES_BREAK(player=pid, choice=choice, breaker=breaker))
        number = st.rack.number
        core.begin_rack(st, number, breaker)
        if st.status == "scheduled":
            st.first_order = st.rack.order
            st.status = "live"
        return
    note.append(notes.CHOOSES(player=pid, choice=choice))
    discipline.decide_choice(st, pid, choice, pending.context, note)
