"""The losers bracket's drop order: a winners-bracket rematch as late as the bracket allows.

Measured exhaustively over the bracket structure (``drop_order.rematch_rounds``: a rematch is
possible in a losers match when the first-round matches its two slots' players can have come
through overlap), checked against a brute force over real outcomes for small sizes, for every
bracket size up to 2048 and every field size up to 1,024 (byes drop nobody)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.draws import drop_order
from hub.draws.brackets import bracket_size, structure

SIZES = [1 << k for k in range(2, 12)]
# brackets-manager's default orderings: the first losers round where a rematch is possible
BRACKETS_MANAGER = {16: 3, 32: 5, 64: 6}


@pytest.mark.parametrize("size", SIZES)
def test_no_rematch_before_the_forced_round(size: int) -> None:
    first = drop_order.first_rematch_round(size)
    forced = drop_order.forced_round(size)
    assert first is not None and forced is not None and first <= forced
    if size <= 1024:
        assert first == forced  # as late as any drop order could make it
    else:
        assert first >= forced - 1
    if size in BRACKETS_MANAGER:
        assert first >= BRACKETS_MANAGER[size]


@pytest.mark.parametrize(("size", "first", "matches"), [
    (16, 4, 4), (32, 5, 6), (64, 7, 6), (128, 8, 10), (256, 9, 10), (512, 11, 10), (1024, 13, 14)])
def test_the_figures_of_the_documentation(size: int, first: int, matches: int) -> None:
    rounds = drop_order.rematch_rounds(size)
    assert drop_order.first_rematch_round(size) == first
    assert sum(count for _, count in rounds) == matches


def test_every_field_size_up_to_1024_keeps_it() -> None:
    for n in range(4, 1025):
        size = bracket_size(n)
        byes = size - n  # byes fall on the top seeds: one per first-round match at most
        present = _present_first_round(size, n)
        first = drop_order.first_rematch_round(size, present)
        assert first is None or first >= drop_order.first_rematch_round(size), (n, byes)


def _present_first_round(size: int, n: int) -> int:
    from hub.draws.brackets import seed_order
    order = seed_order(size)
    bits = 0
    for i in range(size // 2):
        if order[2 * i] <= n and order[2 * i + 1] <= n:
            bits |= 1 << i
    return bits


def _brute_force(size: int) -> dict[str, bool]:
    """losers key -> a winners-bracket rematch is possible there, over every winners outcome and
    every losers outcome (2**(matches) cases: small sizes only)."""
    nodes = structure(True, size)
    winners = [n for n in nodes if n.bracket == "winners"]
    losers = [n for n in nodes if n.bracket == "losers"]
    possible = {n.key: False for n in losers}
    for w_bits in itertools.product((0, 1), repeat=len(winners)):
        won: dict[str, tuple[int, int]] = {}
        met: set[frozenset[int]] = set()
        for node, bit in zip(winners, w_bits, strict=True):
            a, b = (_seat(s, won) for s in node.slots)
            met.add(frozenset((a, b)))
            won[node.key] = (a, b) if bit == 0 else (b, a)  # (winner, loser)
        for l_bits in itertools.product((0, 1), repeat=len(losers)):
            out = dict(won)
            for node, bit in zip(losers, l_bits, strict=True):
                a, b = (_seat(s, out) for s in node.slots)
                if frozenset((a, b)) in met:
                    possible[node.key] = True
                out[node.key] = (a, b) if bit == 0 else (b, a)
    return possible


def _seat(slot, outcome: dict[str, tuple[int, int]]) -> int:
    if slot.source == "seed":
        return int(slot.ref)
    winner, loser = outcome[str(slot.ref)]
    return winner if slot.source == "winner" else loser


@pytest.mark.parametrize("size", [4, 8])
def test_the_measure_agrees_with_every_outcome_played(size: int) -> None:
    brute = _brute_force(size)
    by_round: dict[int, int] = {}
    for key, possible in brute.items():
        r = int(key[1:].split("-")[0])
        by_round[r] = by_round.get(r, 0) + possible
    assert tuple(sorted(by_round.items())) == drop_order.rematch_rounds(size)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 11), data=st.data())
def test_dropped_is_a_permutation_of_each_winners_round(k: int, data: st.DataObject) -> None:
    j = data.draw(st.integers(1, k - 1))
    m = (1 << k) >> (j + 1)
    assert sorted(drop_order.dropped(k, j, i) for i in range(1, m + 1)) == list(range(1, m + 1))


@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 11))
def test_every_winners_loser_drops_exactly_once(k: int) -> None:
    nodes = structure(True, 1 << k)
    dropped = [str(s.ref) for n in nodes if n.bracket == "losers" for s in n.slots if s.source == "loser"]
    assert sorted(dropped) == sorted(n.key for n in nodes if n.bracket == "winners")
