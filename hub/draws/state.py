"""The facts a tournament's events fold into.

``TournamentState`` holds facts only (players, the draw as made, results, walkovers, calls,
uncalls, the explicit queue order, paused tables).  Everything a screen sees about the draw's
matches (players in later rounds, statuses, the queue, standings, the champion) is derived
from those facts by ``hub.draws.derive`` once per state and cached on it, so a voided result or
a withdrawal is one more fact and the rest follows.

States are values: ``evolve`` builds a new state (copying only the mapping it changes) and
never touches the old one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from hub.draws.derive import Derived, derive


class Member(NamedTuple):
    """One member of a team: ``id`` is ``{team id}.{n}`` (never given again in that team)."""

    id: str
    person: str | None
    name: str
    club: str | None


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    club: str | None
    seed: int | None
    handicap: str | None
    entry: int  # order of entry, 0-based (ids are p1, p2, ... in this order; a removed one's is not reused)
    withdrawn_at: int | None = None  # version of the player_withdrawn event
    person: str | None = None  # the person of the directory this entry points at (PROTOCOL.md section 12)
    members: tuple[Member, ...] = ()  # a team's members (PROTOCOL.md section 15); () for a player
    captain: int | None = None  # index into members

    @property
    def team(self) -> bool:
        return bool(self.members)

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


@dataclass(frozen=True, slots=True)
class DrawSpec:
    """The draw as ``draw_made`` stored it; ``entrants`` is the seeding order the RNG produced."""

    type: str
    seeding: str
    seed: int
    match: Mapping[str, Any]  # {discipline, format, options}
    params: Mapping[str, int | None]  # every format's settings (``groups``, ``rounds``), null when not this one's
    entrants: tuple[str, ...]
    version: int  # version of the draw_made event
    then: Mapping[str, Any] | None = None  # the next stage: {type, advance, seeding, match}
    ratings: Mapping[str, Any] | None = None  # player id -> rating read at draw time (seeding, handicaps)


class Call(NamedTuple):
    key: str
    match_id: str
    table_id: str
    players: tuple[str, ...]
    version: int
    at: int = 0  # server ms the call was stored (the no-show clock starts here: hub/draws/no_shows.py)


class Result(NamedTuple):
    key: str
    match_id: str
    winner: str | None
    scores: Mapping[str, int]
    ranking: tuple[str, ...] | None
    version: int
    entered: bool = False  # a score entered by hand at the desk
    match_version: int | None = None  # the match's stream version this result was read at (None: not recorded)
    withdrawn: tuple[str, ...] = ()  # players who withdrew from the event while it was played
    races: Mapping[str, int] | None = None  # a handicapped race: each player's own (PROTOCOL.md section 13)


class Walkover(NamedTuple):
    key: str
    winner: str
    version: int


@dataclass(frozen=True)
class TournamentState:
    tournament_id: str
    version: int = 0
    players: tuple[Player, ...] = ()
    entered: int = 0  # players ever added, removed ones too: the next id is p{entered + 1}
    draw: DrawSpec | None = None
    # key -> fact.  A call stays after its result (voiding the result makes the key called again).
    calls: Mapping[str, Call] = field(default_factory=dict)
    results: Mapping[str, Result] = field(default_factory=dict)
    walkovers: Mapping[str, Walkover] = field(default_factory=dict)
    uncalled_at: Mapping[str, int] = field(default_factory=dict)  # key -> version of its last uncall
    queue_order: tuple[str, ...] = ()  # keys of the last queue_ordered, uncalled ones removed
    paused_tables: tuple[str, ...] = ()  # in the order they were paused
    match_keys: Mapping[str, str] = field(default_factory=dict)  # match_id -> key, for calls kept
    stale: bool = False  # players joined after the draw was made: a redraw takes them in
    archived: bool = False  # left out of the public list of tournaments (its pages still answer)
    no_show_minutes: float = 10.0  # a called match not started this long after its call is flagged
    no_show_waits: Mapping[str, int] = field(default_factory=dict)  # key -> ms the desk's "wait" runs to
    # Team matches (hub/draws/teams.py), by rubber key ``{key}/{i}``: the lineups named (team -> member
    # ids), the rubbers' calls (kept after their result) and results, and match id -> rubber key.
    lineups: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    rubber_calls: Mapping[str, Call] = field(default_factory=dict)
    rubber_results: Mapping[str, Result] = field(default_factory=dict)
    rubber_matches: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def player_by_id(self) -> dict[str, Player]:
        return {p.id: p for p in self.players}

    @cached_property
    def withdrawn_at(self) -> dict[str, int]:
        """pid -> version of the withdrawal, withdrawn players only."""
        return {p.id: p.withdrawn_at for p in self.players if p.withdrawn_at is not None}

    @cached_property
    def open_calls(self) -> dict[str, Call]:
        """key -> call of every called key without a result (a call stays after its result)."""
        return {k: c for k, c in self.calls.items() if k not in self.results}

    @cached_property
    def open_rubbers(self) -> dict[str, Call]:
        """rubber key -> call of every called rubber without a result."""
        return {k: c for k, c in self.rubber_calls.items() if k not in self.rubber_results}

    @cached_property
    def member_team(self) -> dict[str, str]:
        """member id -> team id."""
        return {m.id: p.id for p in self.players for m in p.members}

    @cached_property
    def derived(self) -> Derived:
        return derive(self)

    def player(self, pid: str) -> Player:
        return self.player_by_id[pid]

    def name(self, pid: str | None) -> str:
        """A player's name for messages (the id when unknown)."""
        player = self.player_by_id.get(pid) if pid is not None else None
        return player.name if player is not None else str(pid)
