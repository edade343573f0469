"""Where the losers of each winners round drop into the losers bracket, and how early a rematch can be.

A bracket of S = 2**k players has winners rounds ``W1``..``Wk`` and losers rounds ``L1``..``L{2k-2}``:
``L1-{i}`` takes the losers of ``W1-{2i-1}`` and ``W1-{2i}``; ``L{2j}-{i}`` (j = 1..k-1) takes the
winner of ``L{2j-1}-{i}`` against the loser of ``W{j+1}-{d}``; ``L{2j+1}-{i}`` the winners of
``L{2j}-{2i-1}`` and ``L{2j}-{2i}``.  The drop order is the choice of d for each i: here
``d - 1 = (i - 1) XOR mask(k, j)`` (``mask`` 0 keeps the order, all ones reverses it, the top bit
swaps the halves, ...), with the masks of ``MASKS``.

Why these masks: two players can meet again in the losers bracket only if they met in the winners
bracket, and for losers dropped from winners matches D1 and D2 that is possible exactly when one of
D1, D2 lies in the other's part of the bracket (their sets of first-round matches overlap).  So each
losers-bracket slot "covers" the first-round matches its possible occupants came through, and a
rematch is possible in a losers match exactly when its two slots' covers overlap (``rematch_rounds``
computes this exhaustively for a size, over every outcome of every match).  Covers only grow, and a
match of slots covering x and y first-round matches among S/2 is free of rematches only if
x + y <= S/2, which gives the earliest losers round where a rematch cannot be avoided whatever the
order (``forced_round``).  ``MASKS`` were found by a depth-first search over XOR masks, round by
round, keeping only orders with no possible rematch before that round; they reach it for every size
up to 1024 (2048, the most the 4,096-match cap allows, takes 1024's masks doubled and comes one
round short): the first losers round where a rematch is possible at all is

    S         4   8   16  32  64  128  256  512  1024  2048
    round     L2  L3  L4  L5  L7  L8   L9   L11  L13   L14 (bound L15)
    matches   1   2   4   6   6   10   10   10   14    22   (losers matches where one is possible)

(brackets-manager's default orderings, defined for 4 to 128 players and measured the same way:
L2, L3, then L3 for 16 in 4 matches, L5 for 32 in 6, L6 for 64 in 10, L7 for 128 in 10; this order
is never worse, round by round).
Sizes beyond the table (never reached under the cap) keep the straight order.
"""

from __future__ import annotations

from functools import lru_cache

# k -> mask for j = 1..k-1 (the drop into L2, L4, ...).
MASKS: dict[int, tuple[int, ...]] = {
    2: (0,),
    3: (1, 0),
    4: (2, 0, 0),
    5: (2, 2, 0, 0),
    6: (4, 4, 3, 0, 0),
    7: (8, 8, 6, 0, 0, 0),
    8: (8, 8, 6, 4, 3, 0, 0),
    9: (16, 16, 12, 8, 5, 3, 0, 0),
    10: (32, 32, 24, 16, 10, 6, 0, 0, 0),
    11: (64, 64, 48, 32, 20, 12, 0, 0, 0, 0),  # 1024's doubled: one round short of the bound
}


def dropped(k: int, j: int, i: int) -> int:
    """The ``W{j+1}`` match (1-based) whose loser plays ``L{2j}-{i}`` in a bracket of 2**k."""
    masks = MASKS.get(k)
    mask = masks[j - 1] if masks is not None and j - 1 < len(masks) else 0
    return ((i - 1) ^ mask) + 1


def _cover(r: int, i: int) -> int:
    """First-round matches (bits, 0-based) under winners match ``W{r}-{i+1}``."""
    width = 1 << (r - 1)
    return ((1 << width) - 1) << (i * width)


Orders = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=64)
def rematch_rounds(size: int, present: int | None = None, orders: Orders | None = None) -> tuple[tuple[int, int], ...]:
    """``(losers round, matches where a winners-bracket rematch is possible)`` for every losers
    round of a bracket of ``size``; ``present`` (a bit set of first-round matches, None = all)
    leaves out the first-round byes, which drop nobody into the losers bracket.  ``orders``
    measures another drop order: ``orders[j - 1][i - 1]`` is the ``W{j+1}`` match whose loser plays
    ``L{2j}-{i}`` (None: this module's ``dropped``)."""
    k = size.bit_length() - 1
    full = (1 << (size // 2)) - 1
    live = full if present is None else present
    covers = [(_cover(1, 2 * i) | _cover(1, 2 * i + 1)) & live for i in range(size // 4)]
    out: list[tuple[int, int]] = [(1, 0)]
    for j in range(1, k):
        m = size >> (j + 1)
        drops = orders[j - 1] if orders is not None else [dropped(k, j, i + 1) for i in range(m)]
        dropped_in = [_cover(j + 1, drops[i] - 1) for i in range(m)]
        out.append((2 * j, sum(1 for i in range(m) if covers[i] & dropped_in[i])))
        covers = [covers[i] | dropped_in[i] for i in range(m)]
        if j < k - 1:
            out.append((2 * j + 1, sum(1 for i in range(m // 2) if covers[2 * i] & covers[2 * i + 1])))
            covers = [covers[2 * i] | covers[2 * i + 1] for i in range(m // 2)]
    return tuple(out)


def first_rematch_round(size: int, present: int | None = None, orders: Orders | None = None) -> int | None:
    """The first losers round where two players who met in the winners bracket can meet again."""
    return next((r for r, count in rematch_rounds(size, present, orders) if count), None)


def forced_round(size: int) -> int | None:
    """The first losers round where some rematch is possible whatever the drop order (a bound)."""
    k = size.bit_length() - 1
    half = size // 2
    cover = 2  # an L1 winner came through two first-round matches
    for j in range(1, k):
        cover += 1 << j  # the loser dropped from W{j+1} came through 2**j first-round matches
        if cover > half:
            return 2 * j
        if j < k - 1:
            if 2 * cover > half:
                return 2 * j + 1
            cover *= 2
    return None
