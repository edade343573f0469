"""Single and double elimination: the bracket's structure and its matches derived from facts.

Structure (depends only on the bracket size S, the next power of two >= the N entrants):

- Winners bracket ``W{r}-{i}``, round ``"W{r}"``, r = 1..k for S = 2**k, S/2**r matches in
  round r.  Round 1 places entrants by the standard seed order (S=8: 1 v 8, 4 v 5, 2 v 7,
  3 v 6), seed s being the s-th entrant of the draw's seeding order; positions s > N are byes.
  So with ``seeded`` seeds 1 and 2 are in opposite halves and meet only in the final, and the
  byes fall on the top seeds, one per match at most (never a bye against a bye: N > S/2).
  ``W{r}-{i}`` (r > 1) is the winner of ``W{r-1}-{2i-1}`` against the winner of ``W{r-1}-{2i}``.
- Losers bracket (double elimination) ``L{r}-{i}``, round ``"L{r}"``, 2(k-1) rounds:
  ``L1-{i}``: the losers of ``W1-{2i-1}`` and ``W1-{2i}``;
  ``L{2j}-{i}``: the winner of ``L{2j-1}-{i}`` against a loser of ``W{j+1}``, in the drop order
  of ``drop_order`` (a rematch of a winners-bracket match as late as the bracket allows);
  ``L{2j+1}-{i}``: the winners of ``L{2j}-{2i-1}`` and ``L{2j}-{2i}``.
- Grand final ``GF`` (round ``"GF"``, bracket ``final``): the winner of the winners' final
  against the winner of the losers' final (S = 2: the winner against the loser of ``W1-1``).
  When the player from the losers bracket (the second slot) wins ``GF``, the reset ``GF2``
  appears with the same two players and decides the champion; when the winners-bracket player
  wins ``GF`` there is no ``GF2``, nor after a ``GF`` walkover (the winners-side finalist
  withdrawn: the walkover decides the title).  ``GF``'s ``winner_to``/``loser_to`` are ``"GF2"``
  once it exists, else null.
- With a next stage (``then.advance`` K = 2**j): the winners bracket stops when K/2 players are
  left unbeaten, the losers bracket when K/2 are left there (``L{2(k-j)}``), no grand final.

Byes: a round-1 position beyond N is an empty slot (``"bye"`` in ``players``); a match with one player and one empty
slot is a ``bye`` won by that player, never played.  In double elimination a bye's "loser" is
an empty slot too: the ``L1`` match it feeds has one player (a ``bye`` for that player) or,
when both its ``W1`` matches were byes, none (a ``bye`` with no winner, which leaves the
``L2`` slot it feeds empty, so that ``L2`` match is a ``bye`` for the player dropping from
``W2``).  ``W2`` matches always have two players, so empty slots never go past ``L2``.
A bye lists ``loser_to`` null (nobody goes there).

Withdrawals: a withdrawn player's match, once both players are known and it is not called,
is a derived ``walkover`` for the opponent.  It is decided when it happens (the match becoming
ready with a withdrawn player, or the first withdrawal after that), so a later withdrawal of the
player who went on does not change it.  When both were withdrawn by then, the first slot "wins"
and loses its next match the same way.  A walkover is a loss for the absent player, so in double
elimination everyone but the champion loses exactly twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from hub.draws import drop_order
from hub.draws.settle import BYE, RESOLVED, DrawMatch, TypeResult, settle

if TYPE_CHECKING:
    from hub.draws.state import DrawSpec, TournamentState


@dataclass(frozen=True, slots=True)
class Slot:
    source: str  # "seed" | "winner" | "loser"
    ref: int | str  # seed number (1-based) or a key


@dataclass(frozen=True, slots=True)
class Node:
    key: str
    round: str
    bracket: str
    slots: tuple[Slot, Slot]
    winner_to: str | None
    loser_to: str | None


def bracket_size(n: int) -> int:
    size = 2
    while size < n:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds by first-round position: [1, 2] -> [1, 4, 2, 3] -> [1, 8, 4, 5, 2, 7, 3, 6] ..."""
    order = [1, 2]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@lru_cache(maxsize=64)
def structure(double: bool, size: int, prefix: str = "W", stop: int | None = None) -> tuple[Node, ...]:
    """Every node in structural order.  ``prefix`` names the winners rounds (``K`` for a knockout
    stage); ``stop`` (double elimination with a next stage): play on until ``stop`` players
    remain, half of them unbeaten, half with one loss; no grand final then."""
    k = size.bit_length() - 1
    last_drop = k - 1 if stop is None else k - (stop.bit_length() - 1)  # the last j of L{2j}
    w_rounds = k if stop is None else last_drop + 1
    rows: list[tuple[str, str, str, tuple[Slot, Slot]]] = []
    order = seed_order(size)
    for r in range(1, w_rounds + 1):
        for i in range(1, (size >> r) + 1):
            if r == 1:
                slots = (Slot("seed", order[2 * i - 2]), Slot("seed", order[2 * i - 1]))
            else:
                slots = (Slot("winner", f"{prefix}{r - 1}-{2 * i - 1}"), Slot("winner", f"{prefix}{r - 1}-{2 * i}"))
            rows.append((f"{prefix}{r}-{i}", f"{prefix}{r}", "winners", slots))
    if double and k == 1:
        rows.append(("GF", "GF", "final", (Slot("winner", "W1-1"), Slot("loser", "W1-1"))))
    elif double:
        rows.extend(_losers_rows(k, last_drop))
        if stop is None:
            rows.append(("GF", "GF", "final", (Slot("winner", f"W{k}-1"), Slot("winner", f"L{2 * k - 2}-1"))))
    winner_to: dict[str, str] = {}
    loser_to: dict[str, str] = {}
    for key, _, _, slots in rows:
        for slot in slots:
            if slot.source == "winner":
                winner_to[str(slot.ref)] = key
            elif slot.source == "loser":
                loser_to[str(slot.ref)] = key
    return tuple(Node(key, rnd, bracket, slots, winner_to.get(key), loser_to.get(key))
                 for key, rnd, bracket, slots in rows)


def _losers_rows(k: int, last_drop: int) -> list[tuple[str, str, str, tuple[Slot, Slot]]]:
    size = 1 << k
    rows = [(f"L1-{i}", "L1", "losers", (Slot("loser", f"W1-{2 * i - 1}"), Slot("loser", f"W1-{2 * i}")))
            for i in range(1, (size >> 2) + 1)]
    for j in range(1, last_drop + 1):
        m = size >> (j + 1)
        for i in range(1, m + 1):
            drop = drop_order.dropped(k, j, i)
            rows.append((f"L{2 * j}-{i}", f"L{2 * j}", "losers",
                         (Slot("winner", f"L{2 * j - 1}-{i}"), Slot("loser", f"W{j + 1}-{drop}"))))
        if j < last_drop:
            for i in range(1, (size >> (j + 2)) + 1):
                rows.append((f"L{2 * j + 1}-{i}", f"L{2 * j + 1}", "losers",
                             (Slot("winner", f"L{2 * j}-{2 * i - 1}"), Slot("winner", f"L{2 * j}-{2 * i}"))))
    return rows


@lru_cache(maxsize=64)
def feeds_of(double: bool, size: int, prefix: str = "W", stop: int | None = None) -> dict[str, tuple[str, ...]]:
    """key -> the keys its winner or loser goes to (GF -> GF2 is added when the reset exists)."""
    feeds: dict[str, list[str]] = {}
    for node in structure(double, size, prefix, stop):
        for slot in node.slots:
            if slot.source != "seed":
                feeds.setdefault(str(slot.ref), []).append(node.key)
    return {k: tuple(v) for k, v in feeds.items()}


# A slot's value while deriving: (known, pid, version).  known=False with pid None and a
# version is an empty slot (a bye); None is a slot still waiting for its source.
SlotValue = tuple[bool, str | None, int] | None


def derive_bracket(state: TournamentState, spec: DrawSpec, double: bool, stop: int | None) -> TypeResult:
    """The first stage of a draw: a single or (``double``) a double elimination, stopped at ``stop``
    players (a knockout follows) or played to its final."""
    entrants = spec.entrants
    size = bracket_size(len(entrants))

    def seat(s: int) -> SlotValue:
        return (True, entrants[s - 1], spec.version) if s <= len(entrants) else (False, None, spec.version)

    matches = derive_nodes(state, structure(double, size, "W", stop), seat)
    feeds = feeds_of(double, size, "W", stop)
    champion: str | None = None
    if stop is not None:
        pass  # the knockout stage decides the champion
    elif double:
        gf = matches[-1]
        # A reset only after a GF that was played: a walkover (the winners-side finalist gone) is the title.
        if gf.status == "finished" and gf.winner is not None and gf.winner == gf.players[1]:
            matches[-1] = gf._replace(winner_to="GF2", loser_to="GF2")
            players = (gf.players[0], gf.players[1])
            st = settle(state, "GF2", players, gf.resolved_at or 0)  # type: ignore[arg-type]
            gf2 = DrawMatch("GF2", "GF2", "final", None, players, st.status, st.match_id, st.table_id,
                            st.winner, st.losers, st.scores, None, None, st.ready_at, st.resolved_at, len(matches))
            matches.append(gf2)
            feeds = {**feeds, "GF": ("GF2",)}
            champion = gf2.winner if gf2.resolved else None
        elif gf.resolved:
            champion = gf.winner
    else:
        final = matches[-1]
        champion = final.winner if final.resolved else None
    return TypeResult(tuple(matches), champion, None, feeds, 2 if double else 1)


def derive_nodes(state: TournamentState, nodes: tuple[Node, ...], seat: Callable[[int], SlotValue], *,
                 stage: int = 1, order_from: int = 0) -> list[DrawMatch]:
    """Settle ``nodes`` in order; ``seat(s)`` is the value of seed slot s (None: not known yet)."""
    outcome: dict[str, tuple[str | None, str | None, int]] = {}  # key -> (winner, loser, resolved_at)
    matches: list[DrawMatch] = []

    def value(slot: Slot) -> SlotValue:
        if slot.source == "seed":
            return seat(int(slot.ref))
        got = outcome.get(str(slot.ref))
        if got is None:
            return None
        pid = got[0] if slot.source == "winner" else got[1]
        return (pid is not None, pid, got[2])

    for order, node in enumerate(nodes, start=order_from):
        match = _bracket_match(state, node, value(node.slots[0]), value(node.slots[1]), order)
        if stage != 1:
            match = match._replace(stage=stage)
        if match.status in RESOLVED:
            outcome[node.key] = (match.winner, match.losers[0] if match.losers else None, match.resolved_at or 0)
        matches.append(match)
    return matches


def _shown(v: SlotValue) -> str | None:
    if v is None:
        return None
    return v[1] if v[0] else BYE


def _bracket_match(state: TournamentState, node: Node, a: SlotValue, b: SlotValue, order: int) -> DrawMatch:
    shown = (_shown(a), _shown(b))
    if a is None or b is None:
        return DrawMatch(node.key, node.round, node.bracket, None, shown, "waiting", winner_to=node.winner_to,
                         loser_to=node.loser_to, order=order)
    at = a[2] if a[2] > b[2] else b[2]
    if not (a[0] and b[0]):
        winner = a[1] if a[0] else b[1]
        return DrawMatch(node.key, node.round, node.bracket, None, shown, "bye", winner=winner,
                         winner_to=node.winner_to, resolved_at=at, order=order)
    st = settle(state, node.key, shown, at)  # type: ignore[arg-type]
    return DrawMatch(node.key, node.round, node.bracket, None, shown, st.status, st.match_id, st.table_id,
                     st.winner, st.losers, st.scores, node.winner_to, node.loser_to, st.ready_at, st.resolved_at,
                     order)
