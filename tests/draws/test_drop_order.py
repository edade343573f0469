"""The losers bracket's drop order: a winners-bracket rematch as late as the bracket allows.

Measured exhaustively over the bracket structure (``drop_order.rematch_rounds``: a rematch is
possible in a losers match when the first-round matches its two slots' players can have come
through overlap), checked against a brute force over real outcomes for small sizes, for every
bracket size up to 2048 and every field size up to 1,024 (byes drop nobody)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.draws import drop_order
from hub.draws.brackets import bracket_size, structure

SIZES = [1 << k for k in range(2, 12)]
# brackets-manager's default orderings: the first losers round where a rematch is possible
BRACKETS_MANAGER = {16: 3, 32: 5, 64: 6}

# brackets-manager (1.x) ``defaultMinorOrdering``: per bracket size, the ordering of the W1 losers
# into L1, then of the losers of W2, W3, ... as they drop (the i-th of the ordered list plays the
# i-th match of that losers round); it defines none beyond 128.
BM_DEFAULTS = {
    4: ("natural", "reverse"),
    8: ("natural", "reverse", "natural"),
    16: ("natural", "reverse_half_shift", "reverse", "natural"),
    32: ("natural", "reverse", "half_shift", "natural", "natural"),
    64: ("natural", "reverse", "half_shift", "reverse", "natural", "natural"),
    128: ("natural", "reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"),
}


def _bm_ordering(name: str, items: list[int]) -> list[int]:
    half = len(items) // 2
    if name == "natural":
        return list(items)
    if name == "reverse":
        return items[::-1]
    if name == "half_shift":
        return items[half:] + items[:half]
    if name == "reverse_half_shift":
        return items[:half][::-1] + items[half:][::-1]
    assert name == "pair_flip"
    return [x for i in range(0, len(items), 2) for x in (items[i + 1], items[i])]


def _bm_orders(size: int) -> drop_order.Orders:
    names = BM_DEFAULTS[size]
    assert names[0] == "natural"  # L1 pairs W1-1's and W1-2's losers, ..., as here
    k = size.bit_length() - 1
    return tuple(tuple(_bm_ordering(names[j], list(range(1, (size >> (j + 1)) + 1)))) for j in range(1, k))


def _cumulative(rounds: tuple[tuple[int, int], ...]) -> list[int]:
    total, out = 0, []
    for _, count in rounds:
        total += count
        out.append(total)
    return out


@pytest.mark.parametrize("size", sorted(BM_DEFAULTS))
def test_at_least_as_good_as_brackets_managers_defaults_at_every_size(size: int) -> None:
    theirs = drop_order.rematch_rounds(size, None, _bm_orders(size))
    ours = drop_order.rematch_rounds(size)
    assert [r for r, _ in theirs] == [r for r, _ in ours]
    first_theirs = drop_order.first_rematch_round(size, None, _bm_orders(size))
    assert first_theirs is not None and drop_order.first_rematch_round(size) >= first_theirs
    # by every losers round, no more matches where a rematch is possible than theirs
    assert all(a <= b for a, b in zip(_cumulative(ours), _cumulative(theirs), strict=True)), (ours, theirs)
    if size in BRACKETS_MANAGER:  # the figures brackets-manager 1.11.1 gave when run on these sizes
        assert first_theirs == BRACKETS_MANAGER[size]
    assert (size, first_theirs, sum(c for _, c in theirs)) in {
        (4, 2, 1), (8, 3, 2), (16, 3, 4), (32, 5, 6), (64, 6, 10), (128, 7, 10)}


def _every_drop_order(size: int) -> Iterator[drop_order.Orders]:
    k = size.bit_length() - 1
    choices = [list(itertools.permutations(range(1, (size >> (j + 1)) + 1))) for j in range(1, k)]
    yield from itertools.product(*choices)


@pytest.mark.parametrize("size", [4, 8, 16])
def test_no_drop_order_at_all_gets_past_the_bound(size: int) -> None:
    forced = drop_order.forced_round(size)
    firsts = {drop_order.first_rematch_round(size, None, orders) for orders in _every_drop_order(size)}
    assert max(r for r in firsts if r is not None) == forced == drop_order.first_rematch_round(size)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(5, 10), data=st.data())
def test_a_random_drop_order_never_gets_past_the_bound(k: int, data: st.DataObject) -> None:
    size = 1 << k
    orders = tuple(tuple(data.draw(st.permutations(range(1, (size >> (j + 1)) + 1)))) for j in range(1, k))
    first = drop_order.first_rematch_round(size, None, orders)
    assert first is not None and first <= drop_order.forced_round(size)


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
