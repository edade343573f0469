"""One draw match as derived from the facts, and how a match whose players are known is settled.

``settle`` decides, in this order of precedence: a taken result (``finished``), an explicit
walkover (``walkover``), a call (``called``: a call is kept even when one of its players has
since withdrawn: the I/O layer uncalls a scheduled match, after which it becomes a derived
walkover), a withdrawn player (a derived ``walkover``: also for a team match whose rubbers are on
their tables, which the I/O layer then takes off or has forfeited), a team match with a rubber
called (``called``), else ``ready``.

A match *becomes ready* at the version its last source was resolved (the draw's own version
for first-round matches), or at its last uncall if later; the queue is ordered by it.  A
derived walkover is resolved at the later of becoming ready and its first withdrawal, and the
players withdrawn by then are the absent ones (a later withdrawal changes nothing about it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from hub.draws.state import TournamentState


def team_live(state: TournamentState, key: str) -> bool:
    """A rubber of the team match ``key`` is called and the team match is not decided (hub/draws/teams.py)."""
    prefix = key + "/"
    return key not in state.results and any(k.startswith(prefix) for k in state.open_rubbers)

RESOLVED = frozenset({"finished", "walkover", "bye"})
BYE = "bye"  # a slot that will never get a player (player ids are never this)


class DrawMatch(NamedTuple):
    """One match of the draw as derived from the facts (a tuple: cheap to build in bulk)."""

    key: str
    round: str
    bracket: str  # winners | losers | final | group | chase
    group: str | None
    players: tuple[str | None, ...]
    status: str  # waiting | ready | called | finished | walkover | bye
    match_id: str | None = None
    table_id: str | None = None
    winner: str | None = None
    losers: tuple[str, ...] = ()  # who lost it (a walkover's absent player included)
    scores: Mapping[str, int] | None = None
    winner_to: str | None = None
    loser_to: str | None = None
    ready_at: int | None = None  # version it became ready (queue order), when its players are known
    resolved_at: int | None = None
    order: int = 0  # structural order
    stage: int = 1  # 1, or 2 for the knockout stage of a draw with ``then``

    @property
    def resolved(self) -> bool:
        return self.status in RESOLVED

    @property
    def known_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p is not None and p != BYE)


class Settled(NamedTuple):
    status: str
    winner: str | None = None
    losers: tuple[str, ...] = ()
    scores: Mapping[str, int] | None = None
    match_id: str | None = None
    table_id: str | None = None
    resolved_at: int | None = None
    ready_at: int | None = None


def ready_version(state: TournamentState, key: str, sources_at: int) -> int:
    uncalled = state.uncalled_at.get(key)
    return sources_at if uncalled is None or uncalled < sources_at else uncalled


def settle(state: TournamentState, key: str, players: Sequence[str], sources_at: int, *,
           pick_winner: bool = True) -> Settled:
    """The status of a match whose players are all known (see the module docstring).

    ``pick_winner``: a derived walkover goes to the first player present (two-player draws;
    when all are withdrawn, the first slot); chase matches of three name no winner."""
    ready_at = ready_version(state, key, sources_at)
    result = state.results.get(key)
    call = state.calls.get(key)
    if result is not None:
        losers = tuple(p for p in players if p != result.winner)
        return Settled("finished", result.winner, losers, result.scores,
                       call.match_id if call else result.match_id, call.table_id if call else None,
                       result.version, ready_at)
    walkover = state.walkovers.get(key)
    if walkover is not None:
        losers = tuple(p for p in players if p != walkover.winner)
        return Settled("walkover", walkover.winner, losers, None, None, None, walkover.version, ready_at)
    if call is not None:
        return Settled("called", match_id=call.match_id, table_id=call.table_id, ready_at=ready_at)
    gone = state.withdrawn_at
    if gone:
        withdrawn = [gone[p] for p in players if p in gone]
        if withdrawn:
            # Decided once, when it happened: a later withdrawal (of the player who went on)
            # must not change who won it.
            at = max(ready_at, min(withdrawn))
            if not pick_winner:
                return Settled("walkover", None, tuple(players), None, None, None, at, ready_at)
            present = [p for p in players if p not in gone or gone[p] > at]
            winner = present[0] if present else players[0]
            return Settled("walkover", winner, tuple(p for p in players if p != winner), None, None, None, at,
                           ready_at)
    if state.open_rubbers and team_live(state, key):  # a team match: its rubbers are on their tables
        return Settled("called", ready_at=ready_at)
    return Settled("ready", ready_at=ready_at)


@dataclass(frozen=True, slots=True)
class TypeResult:
    """What one draw type derives: matches in structural order, champion, standings, and
    for each key the keys whose players it feeds directly."""

    matches: tuple[DrawMatch, ...]
    champion: str | None
    standings: list[dict[str, Any]] | None
    feeds: Mapping[str, tuple[str, ...]]
    eliminated_after_losses: int | None  # SE 1, DE 2, else None (eliminated when the draw ends)
    stages: tuple[Any, ...] = ()  # ``stages.StageView`` of each stage (filled by ``derive``)
    statuses: Mapping[str, str] | None = None  # player statuses, when the type decides them itself
