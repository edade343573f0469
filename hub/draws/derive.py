"""Derive every draw match from the facts: players, status, winner, where they go, the queue.

Nothing here is patched incrementally: ``derive(state)`` walks the draw's structure in order
(its format's: ``brackets``, ``round_robin``, ``chase``) and settles each match from the facts alone (the
draw as made, results, walkovers, calls, uncalls, withdrawals; see ``settle``), so voiding a
result or withdrawing a player needs no special repair.  ``TournamentState.derived`` caches the
answer once per state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hub.draws import draw_formats, stages
from hub.draws.settle import DrawMatch, TypeResult

if TYPE_CHECKING:
    from hub.draws.state import TournamentState


@dataclass(frozen=True)
class Derived:
    matches: tuple[DrawMatch, ...]
    by_key: Mapping[str, DrawMatch]
    queue: tuple[str, ...]
    finished: bool
    champion: str | None
    standings: list[dict[str, Any]] | None
    feeds: Mapping[str, tuple[str, ...]]
    player_status: Mapping[str, str]
    stages: tuple[stages.StageView, ...] = ()

    def downstream(self, key: str) -> list[str]:
        """Keys whose players depend on ``key``'s result, directly or further, in structural order."""
        seen: set[str] = set()
        todo = list(self.feeds.get(key, ()))
        while todo:
            k = todo.pop()
            if k not in seen:
                seen.add(k)
                todo.extend(self.feeds.get(k, ()))
        return [m.key for m in self.matches if m.key in seen]



def derive(state: TournamentState) -> Derived:
    spec = state.draw
    if spec is None:
        statuses = {p.id: ("withdrawn" if p.withdrawn else "active") for p in state.players}
        return Derived((), {}, (), False, None, None, {}, statuses)
    kind = draw_formats.format_of(spec.type)
    result = kind.derive(state, spec)
    two = spec.then is not None
    result = stages.derive_two_stage(state, spec, result, kind) if two else stages.one_stage(spec, result)
    by_key = {m.key: m for m in result.matches}
    finished = all(m.resolved for m in result.matches)
    return Derived(result.matches, by_key, queue_of(state, result.matches), finished,
                   result.champion if finished else None, result.standings, result.feeds,
                   result.statuses if result.statuses is not None else player_statuses(state, result, finished),
                   result.stages)


def queue_of(state: TournamentState, matches: Sequence[DrawMatch]) -> tuple[str, ...]:
    """Ready keys in call order: the explicit order first, then by the version each became
    ready, then structural order."""
    ready = {m.key: m for m in matches if m.status == "ready"}
    first = [k for k in state.queue_order if k in ready]
    chosen = set(first)
    rest = sorted((m for k, m in ready.items() if k not in chosen), key=lambda m: (m.ready_at or 0, m.order))
    return tuple(first + [m.key for m in rest])


def player_statuses(state: TournamentState, result: TypeResult, finished: bool) -> dict[str, str]:
    losses: dict[str, int] = {}
    for m in result.matches:
        if m.status in ("finished", "walkover"):
            for loser_id in m.losers:
                losses[loser_id] = losses.get(loser_id, 0) + 1
    entrants = set(state.draw.entrants) if state.draw else set()
    # A finished draw that ends with players going on (a round robin of several groups' winners).
    spec = state.draw
    qualified = draw_formats.format_of(spec.type).qualified(state, spec, result) if finished and spec else None
    out: dict[str, str] = {}
    for p in state.players:
        if p.withdrawn:
            out[p.id] = "withdrawn"
        elif finished and p.id == result.champion:
            out[p.id] = "champion"
        elif p.id not in entrants:
            out[p.id] = "active"
        elif result.eliminated_after_losses is not None:
            # Out after this many losses, or when the draw ends without them: a grand-final walkover
            # to the losers-bracket player decides the title, and the winners-side finalist (one
            # loss) is out too (no player stays `active` in a finished draw, PROTOCOL.md 11).
            out_now = losses.get(p.id, 0) >= result.eliminated_after_losses or finished
            out[p.id] = "eliminated" if out_now else "active"
        elif finished and result.champion is not None:
            out[p.id] = "eliminated"
        elif qualified is not None:
            out[p.id] = "qualified" if p.id in qualified else "eliminated"
        else:
            out[p.id] = "active"
    return out

