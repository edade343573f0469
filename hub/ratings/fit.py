"""Ratings from racks: a Bradley-Terry fit with a prior toward 500 (docs/ratings.md). Pure.

The model: each person i has a strength gamma_i = 2 ** ((r_i - 500) / 100) and wins a rack against
j with chance gamma_i / (gamma_i + gamma_j) (hub/ratings/scale.py). The ratings are the maximum of
the likelihood of every rack between people times a prior: each person has also played PRIOR_RACKS
virtual racks against a player rated 500 and won half of them. The prior keeps everyone finite
(a player who never lost a rack is not infinitely strong), pulls people with few racks toward 500
and puts a field's mean near 500; at a hundred racks it takes about 5 points off a 100-point gap.

Fitted by Hunter's MM iteration (2004), which raises the likelihood at every step, with a step
after each that moves each connected group of people as one toward the prior (the direction MM
alone crawls along: racks inside a group say nothing about the group's level, only the prior does).

Order independence: racks are summed into whole numbers per pair of people and people are taken
in the order of their ids, so the same racks in any order give the same numbers, bit for bit.
Every rack weighs the same whatever its date (see docs/ratings.md: a decay would be a weight per
rack computed from its date and the newest date, still order-independent).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from hub.ratings.scale import from_theta

PRIOR_RACKS = 10.0  # virtual racks against a 500 player, half won (docs/ratings.md: why 10)
PROVISIONAL_UNDER = 100  # racks
TOLERANCE = 0.005  # rating points: stop when no rating moves by more in one step
MAX_STEPS = 5000


@dataclass(frozen=True, slots=True)
class Rating:
    value: int
    racks: int
    provisional: bool
    exact: float  # the fitted value before rounding (odds are computed from it)

    def json(self) -> dict[str, object]:
        return {"value": self.value, "racks": self.racks, "provisional": self.provisional}


def tally_pairs(racks: Iterable[tuple[str, str, int]]) -> dict[tuple[str, str], list[int]]:
    """(a, b) with a < b -> [racks a won, racks b won]; a rack of someone against themself is none."""
    pairs: dict[tuple[str, str], list[int]] = {}
    for winner, loser, count in racks:
        if winner == loser or count <= 0:
            continue
        if winner < loser:
            pairs.setdefault((winner, loser), [0, 0])[0] += count
        else:
            pairs.setdefault((loser, winner), [0, 0])[1] += count
    return pairs


def fit(racks: Iterable[tuple[str, str, int]], *, prior: float = PRIOR_RACKS) -> dict[str, Rating]:
    """person -> Rating, from (winner, loser, count) racks between people (one discipline)."""
    return fit_pairs(tally_pairs(racks), prior=prior)


def fit_pairs(pairs: dict[tuple[str, str], list[int]], *, prior: float = PRIOR_RACKS) -> dict[str, Rating]:
    """`fit` from the racks already summed per pair (`tally_pairs`): what a worker process is sent."""
    people = sorted({p for pair in pairs for p in pair})
    index = {p: i for i, p in enumerate(people)}
    n = len(people)
    ii: list[int] = []
    jj: list[int] = []
    nn: list[float] = []
    wins = [prior / 2.0] * n
    played = [0] * n
    for (a, b), (wa, wb) in sorted(pairs.items()):
        i, j = index[a], index[b]
        ii.append(i)
        jj.append(j)
        nn.append(float(wa + wb))
        wins[i] += wa
        wins[j] += wb
        played[i] += wa + wb
        played[j] += wa + wb
    gamma = _solve(n, ii, jj, nn, wins, prior, _groups(n, ii, jj))
    out = {}
    for p, i in index.items():
        exact = from_theta(math.log(gamma[i]))
        out[p] = Rating(round(exact), played[i], played[i] < PROVISIONAL_UNDER, exact)
    return out


def _groups(n: int, ii: list[int], jj: list[int]) -> list[list[int]]:
    """The connected groups of people (who played whom, directly or not), by union-find."""
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in zip(ii, jj, strict=True):
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return [groups[r] for r in sorted(groups)]


def _solve(n: int, ii: list[int], jj: list[int], nn: list[float], wins: list[float], prior: float,
           groups: list[list[int]]) -> list[float]:
    gamma = [1.0] * n
    for _ in range(MAX_STEPS):
        denom = [prior / (g + 1.0) for g in gamma]
        for i, j, count in zip(ii, jj, nn, strict=True):
            t = count / (gamma[i] + gamma[j])
            denom[i] += t
            denom[j] += t
        new = [w / d for w, d in zip(wins, denom, strict=True)]
        _shift_groups(new, groups, prior)
        moved = max((abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True)), default=0.0)
        gamma = new
        if from_theta(moved) - from_theta(0.0) < TOLERANCE:
            break
    return gamma


def _shift_groups(gamma: list[float], groups: list[list[int]], prior: float) -> None:
    """Move each group as one to where the prior is best (the group's racks are unchanged by it):
    the shift s with sum(sigmoid(theta_i + s)) = size / 2, by Newton's method."""
    for group in groups:
        if len(group) < 2:
            continue
        thetas = [math.log(gamma[i]) for i in group]
        s = 0.0
        for _ in range(20):
            chances = [1.0 / (1.0 + math.exp(-(t + s))) for t in thetas]
            slope = sum(c * (1.0 - c) for c in chances)
            step = (len(group) / 2.0 - sum(chances)) / slope
            s += step
            if abs(step) < 1e-12:
                break
        factor = math.exp(s) if prior > 0 else 1.0
        for i in group:
            gamma[i] *= factor
