"""The state a match's events fold into.

``MatchState`` is treated as a value: ``evolve`` clones it and changes only the clone, so a
state handed out is never changed afterwards.  Inside one ``fold`` a single working copy is
changed in place, which keeps replays fast (the fold benchmark in bench/ measures this).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hub.rules.notes import Note

if TYPE_CHECKING:  # the setup module reads the discipline registry, whose modules import this one
    from hub.rules.setup import MatchSetup

STAT_KEYS = ("break_and_runs", "table_runs", "golden_breaks", "fouls", "loss_of_chance")


@dataclass(slots=True)
class PlayerState:
    id: str
    name: str
    handicap: str | None
    score: int = 0
    racks_won: int = 0
    fouls_in_rack: int = 0
    consecutive_fouls: int = 0
    extensions_left: int = 0
    group: str | None = None
    warnings: int = 0
    intentional_fouls: int = 0
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STAT_KEYS, 0))
    # Counts the projection does not show but the rules need.
    penalties: dict[str, int] = field(default_factory=dict)  # penalty type -> times given
    break_position_warned: bool = False
    not_trying_in_rack: int = 0
    rail_safeties_in_rack: int = 0
    timeout_used: bool = False
    disqualified: bool = False
    # Scotch doubles (doubles.py): the side's members in playing order (set by `start`; empty: the
    # setup's order) and the turns the side has had, whose count says which member is due.
    member_order: tuple[str, ...] = ()
    member_turns: int = 0


@dataclass(slots=True)
class Pending:
    player: str
    options: tuple[str, ...]
    context: str  # what the choice answers: lag, loss_of_chance, break_foul, push_out, snooker, ...

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "options": list(self.options)}


@dataclass(slots=True)
class RackState:
    number: int = 0
    breaker: str | None = None
    shooter: str | None = None
    phase: str = "lag"
    on_table: set[int] = field(default_factory=set)
    ball_in_hand: str | None = None
    pending: Pending | None = None
    table_open: bool = True
    push_out_allowed: bool = False
    order: tuple[str, ...] = ()
    # Inning bookkeeping (golds, runs, chase payments).
    inning_player: str | None = None
    inning_is_break: bool = False  # the breaker's inning that began with the break stroke
    gold_inning: bool = False  # break inning after a legal break that pocketed a ball
    inning_start_full: bool = False  # the inning began with every object ball on the table
    inning_start_one_and_nine: bool = False  # ... with both the 1 and the 9 (a small gold: RULES.md (c))
    innings_had: set[str] = field(default_factory=set)  # players who had an inning in this rack
    inning_first: bool = False  # this is the inning player's first inning of the rack
    after_break: bool = False  # the next stroke is the first after the break
    snooker_passer: str | None = None  # the 下家 who passed after a snooker; set for the returned inning
    rebreak_warned: bool = False  # this break is the warned rebreak (after a bad break's rerack_other)
    points: dict[str, int] = field(default_factory=dict)  # every point change of this rack
    # What a stalemate takes back (all of this rack number, reracks included).
    foul_points: list[tuple[str, int]] = field(default_factory=list)
    foul_counts: dict[str, int] = field(default_factory=dict)
    loss_of_chance: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class ShotClock:
    player: str
    limit_ms: int  # the full limit of this turn, extension excluded
    deadline: int | None  # server ms, while running
    remaining_ms: int | None  # while paused
    extended: bool = False
    started_at: int = 0  # server ms when this turn's clock started (a lost link pauses it no earlier)


@dataclass(frozen=True, slots=True)
class ExpiredTurn:
    """The turn a `clock_expired` ended, kept until the next event that is not a link event: a
    stroke the referee entered before the expiry is judged on `state` instead (engine.decide)."""

    version: int  # the clock_expired event
    at: int  # when it was stored
    started_at: int  # when that turn's clock started
    player: str  # whose time ran out
    state: MatchState  # the match as if the expiry had not happened (never changed in place)


@dataclass(slots=True)
class MatchClock:
    limit_ms: int
    remaining_ms: int
    running_since: int | None = None  # server ms when it last started running

    def remaining_at(self, at: int) -> int:
        if self.running_since is None:
            return self.remaining_ms
        return max(0, self.remaining_ms - (at - self.running_since))


@dataclass(slots=True)
class MatchState:
    setup: MatchSetup
    players: list[PlayerState]
    rack: RackState
    version: int = 0
    status: str = "scheduled"
    racks: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None
    result: dict[str, Any] | None = None
    last: tuple[int, str, str | None, tuple[str, ...], tuple[Note, ...]] | None = (
        None  # version, kind, player, fouls, notes
    )
    last_called: int | None = None  # the `called` ball of the stroke `last` is (a call-shot discipline)
    paused: bool = False
    official_timeout: bool = False  # timed match: the match clock rests until the next break
    official_timeout_since: int | None = None  # server ms when the official timeout began
    first_break_played: bool = False  # a timed match's clock starts with the first break stroke
    extra_rack: bool = False  # the tie-break rack of a match on points
    shot_clock: ShotClock | None = None
    match_clock: MatchClock | None = None
    first_order: tuple[str, ...] = ()  # rack 1's order (a ranked match's ties)
    undoable: list[int] = field(default_factory=list)  # versions an undo may void, oldest first
    # Of those, the desk's decisions (a result entered by hand, a withdrawn player's forfeit): only the
    # desk undoes them (PROTOCOL.md section 9). A tuple: replaced, never changed in place.
    desk_only: tuple[int, ...] = ()
    table_id: str | None = None  # set by a `table_moved` event; else the setup's table
    link_lost_since: int | None = None  # server ms since the table's tablets were last heard (link_lost)
    expired_turn: ExpiredTurn | None = None

    def clone(self) -> MatchState:
        """A copy that shares nothing mutable with this state.  Completed ``racks`` entries
        and ``last`` are never changed after they are made, so they are shared."""
        new = copy.copy(self)
        new.players = [_clone_player(p) for p in self.players]
        new.rack = _clone_rack(self.rack)
        new.racks = list(self.racks)
        new.undoable = list(self.undoable)
        new.shot_clock = copy.copy(self.shot_clock)
        new.match_clock = copy.copy(self.match_clock)
        return new

    def player(self, pid: str) -> PlayerState:
        return self.players[self.setup.player_index[pid]]

    def ids(self) -> list[str]:
        return list(self.setup.player_ids)


def _clone_player(p: PlayerState) -> PlayerState:
    new = copy.copy(p)
    new.stats = dict(p.stats)
    new.penalties = dict(p.penalties)
    return new


def _clone_rack(r: RackState) -> RackState:
    new = copy.copy(r)
    new.on_table = set(r.on_table)
    new.innings_had = set(r.innings_had)
    new.points = dict(r.points)
    new.foul_points = list(r.foul_points)
    new.foul_counts = dict(r.foul_counts)
    new.loss_of_chance = dict(r.loss_of_chance)
    return new  # pending is replaced, never changed in place
