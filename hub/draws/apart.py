"""Knockout seats for the players of several groups: two of one group as far apart as the bracket allows.

``tiers``: every group's 1st (group winners) first, then every group's 2nd, ...; tier t takes the
next seeds in order (tier 1 seeds 1..G, tier 2 seeds G+1..2G, ...), and within its seeds each group's
player is placed so that two players of one group meet as late as possible.  With A players a group,
the bracket's 2**ceil(log2 A) parts (blocks) can each hold one player of every group, since the
standard seed chart spreads any run of seeds evenly over the blocks: no block holds more than G of the
seeds.  That makes it an edge colouring of the bipartite multigraph tiers x blocks (an edge per seed)
with G colours, which always exists (König) and gives each colour, a group, one seed per tier in
distinct blocks.  Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from hub.draws.brackets import seed_order


def place_by_group(tiers: Sequence[Sequence[tuple[str, str]]], size: int) -> list[str]:
    """``tiers`` of (player, group) in order; the players by seed slot (seed 1 first).

    With A players a group at most, two of a group can be kept apart until the round where the
    bracket's 2**ceil(log2 A) parts meet.  A depth-first search (each tier's players in order, each
    trying its tier's free slots from the lowest seed) finds a placement that does it in small
    fields; past its budget, an edge colouring always does when every group has a player in every
    tier (``_by_colouring``); else each player takes the slot where it meets its group latest."""
    complete = all(sorted(g for _, g in tier) == sorted(g for _, g in tiers[0]) for tier in tiers)
    return _search(tiers, size) or (_by_colouring(tiers, size) if complete else None) or _greedy(tiers, size)


SEARCH_BUDGET = 20_000


def _search(tiers: Sequence[Sequence[tuple[str, str]]], size: int) -> list[str] | None:
    position = {seed: pos for pos, seed in enumerate(seed_order(size))}
    spread = (len(tiers) - 1).bit_length()  # a group has at most len(tiers) players
    shift = size.bit_length() - 1 - spread  # two of a group must be in different blocks of 2**shift
    players = [(pid, group, t) for t, tier in enumerate(tiers) for pid, group in tier]
    starts = [sum(len(tier) for tier in tiers[:t]) + 1 for t in range(len(tiers))]
    used: dict[str, set[int]] = {}
    taken: set[int] = set()
    chosen: list[int] = []
    budget = [SEARCH_BUDGET]

    def place(i: int) -> bool:
        if i == len(players):
            return True
        pid, group, t = players[i]
        blocks = used.setdefault(group, set())
        for seed in range(starts[t], starts[t] + len(tiers[t])):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            block = position[seed] >> shift
            if seed in taken or block in blocks:
                continue
            taken.add(seed)
            blocks.add(block)
            chosen.append(seed)
            if place(i + 1):
                return True
            chosen.pop()
            blocks.discard(block)
            taken.discard(seed)
        return False

    if not place(0):
        return None
    by_seed = {seed: players[i][0] for i, seed in enumerate(chosen)}
    return [by_seed[s] for s in sorted(by_seed)]


def _greedy(tiers: Sequence[Sequence[tuple[str, str]]], size: int) -> list[str]:
    position = {seed: pos for pos, seed in enumerate(seed_order(size))}
    placed: dict[int, tuple[str, str]] = {}
    first = 1
    for tier in tiers:
        free = list(range(first, first + len(tier)))
        for pid, group in tier:
            mates = [position[s] for s, (_, g) in placed.items() if g == group]

            def latest(seed: int, mates: list[int] = mates) -> tuple[int, int]:
                meet = min(((position[seed] ^ q).bit_length() for q in mates), default=size.bit_length())
                return (-meet, seed)

            seed = min(free, key=latest)
            free.remove(seed)
            placed[seed] = (pid, group)
        first += len(tier)
    return [placed[s][0] for s in sorted(placed)]


def _by_colouring(tiers: Sequence[Sequence[tuple[str, str]]], size: int) -> list[str] | None:
    """Every group has a player in every tier: each colour of a G-edge-colouring of tiers x blocks is
    a group's seeds.  Colours go to the groups so that tier 1 keeps its order (A1 seed 1, B1 seed 2...);
    in later tiers, groups sharing a block take its seeds in their tier's order."""
    g = len(tiers[0])
    shift = size.bit_length() - 1 - (len(tiers) - 1).bit_length()
    position = {seed: pos for pos, seed in enumerate(seed_order(size))}
    seeds = [(t, s) for t in range(len(tiers)) for s in range(t * g + 1, t * g + g + 1)]
    colours = _colour_edges([(t, position[s] >> shift) for t, s in seeds], g)
    if colours is None:
        return None
    seat: dict[int, dict[int, int]] = {}  # colour -> tier -> seed
    for (t, s), c in zip(seeds, colours, strict=True):
        seat.setdefault(c, {})[t] = s
    order = sorted(seat, key=lambda c: seat[c][0])  # the colour with seed 1 first, ...
    group_colour = {group: order[i] for i, (_, group) in enumerate(tiers[0])}
    by_seed: dict[int, str] = {}
    for t, tier in enumerate(tiers):
        blocks: dict[int, list[int]] = {}  # block -> its seeds of this tier, lowest first
        for c in seat:
            blocks.setdefault(position[seat[c][t]] >> shift, []).append(seat[c][t])
        for block_seeds in blocks.values():
            block_seeds.sort()
        for pid, group in tier:
            by_seed[blocks[position[seat[group_colour[group]][t]] >> shift].pop(0)] = pid
    return [by_seed[s] for s in sorted(by_seed)]


def _colour_edges(edges: Sequence[tuple[int, int]], count: int) -> list[int] | None:
    """A proper colouring with ``count`` colours of a bipartite multigraph's ``edges`` (left, right):
    each edge takes a colour free at both ends, after flipping an alternating path when needed.
    None when a vertex has more than ``count`` edges."""
    ends: tuple[dict[int, dict[int, int]], dict[int, dict[int, int]]] = ({}, {})  # side -> vertex -> colour -> edge
    out = [-1] * len(edges)

    def free(side: int, v: int) -> int | None:
        used = ends[side].setdefault(v, {})
        return next((c for c in range(count) if c not in used), None)

    def put(e: int, c: int) -> None:
        out[e] = c
        ends[0][edges[e][0]][c] = e
        ends[1][edges[e][1]][c] = e

    for e, (u, v) in enumerate(edges):
        a, b = free(0, u), free(1, v)
        if a is None or b is None:
            return None
        if a in ends[1][v]:  # the path from v coloured a, b, a, ... is flipped: a is free at v then
            path, side, x, want = [], 1, v, a
            while want in ends[side].setdefault(x, {}):
                f = ends[side][x][want]
                path.append(f)
                side, x, want = 1 - side, edges[f][1 - side], b if want == a else a
            for f in path:
                del ends[0][edges[f][0]][out[f]], ends[1][edges[f][1]][out[f]]
            for f in path:
                put(f, b if out[f] == a else a)
        put(e, a)
    return out
