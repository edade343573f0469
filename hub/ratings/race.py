"""Races: the exact chance of winning a race from any score, and the fair handicapped race. Pure.

A race where `a` needs `x` more racks and `b` needs `y` more, each rack won by `a` with chance p
(independent racks, as the rating model has them): `a` wins when they take x racks before b takes
y, that is in the race's last rack after k of b's racks, k = 0 .. y-1:

    P(a) = sum over k < y of C(x - 1 + k, k) * p**x * (1 - p)**k

A handicapped race gives each player their own race (PROTOCOL.md section 13: "7 - 5"): `a` races
to A, `b` to B, and from a score of (sa, sb) a needs A - sa and b needs B - sb.
"""

from __future__ import annotations

from math import comb

from hub.ratings.scale import rack_chance

MAX_RACE = 99


def race_chance(p: float, need_a: int, need_b: int) -> float:
    """The chance that `a` wins a race needing `need_a` more racks against `need_b`."""
    if need_a <= 0:
        return 1.0 if need_b > 0 else 0.0  # a finished race: whoever reached their race first won it
    if need_b <= 0:
        return 0.0
    q = 1.0 - p
    return sum(comb(need_a - 1 + k, k) * p ** need_a * q ** k for k in range(need_b))


def match_chance(a: float, b: float, race_a: int, race_b: int, score_a: int = 0, score_b: int = 0) -> float:
    """The chance that the player rated `a`, racing to `race_a`, beats `b` racing to `race_b`,
    from the score (score_a, score_b)."""
    return race_chance(rack_chance(a, b), race_a - score_a, race_b - score_b)


def handicap_races(a: float, b: float, race_to: int) -> tuple[int, int]:
    """(a's race, b's race): the higher-rated races to `race_to`; the other to the race, from 1 up to
    `race_to`, whose chance of winning the match is closest to one half (the longer race when two
    are as close: fewer strokes given). Equal ratings: both race to `race_to`."""
    if a == b:
        return race_to, race_to
    strong, weak = (a, b) if a > b else (b, a)
    p_weak = rack_chance(weak, strong)
    best = min(range(1, race_to + 1),
               key=lambda r: (abs(race_chance(p_weak, r, race_to) - 0.5), -r))
    return (race_to, best) if a > b else (best, race_to)
