"""The per-rack odds scale (FargoRate's): a rating gap of 100 points is odds of 2:1 a rack.

P(a wins a rack against b) = 1 / (1 + 2 ** (-(a - b) / 100)): equal ratings 1/2, a 100-point gap
2/3, a 200-point gap 4/5. Internally a rating r is the strength 2 ** (r / 100) (Bradley-Terry's
gamma): P = gamma_a / (gamma_a + gamma_b).
"""

from __future__ import annotations

import math

POINTS_PER_DOUBLING = 100.0  # 100 points = odds twice as good
MEAN = 500.0  # where the prior puts a player nobody has seen, and so a field's mean
LN2 = math.log(2.0)


def rack_chance(a: float, b: float) -> float:
    """The chance that a player rated `a` wins a rack against one rated `b`."""
    return 1.0 / (1.0 + 2.0 ** (-(a - b) / POINTS_PER_DOUBLING))


def to_theta(rating: float) -> float:
    """A rating in natural-log strength units (theta = ln gamma, centred on MEAN)."""
    return (rating - MEAN) * LN2 / POINTS_PER_DOUBLING


def from_theta(theta: float) -> float:
    return MEAN + theta * POINTS_PER_DOUBLING / LN2
