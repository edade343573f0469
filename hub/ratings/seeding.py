"""A draw's field ordered by rating (`"seeding": "rating"`, PROTOCOL.md section 13). Pure.

The ratings are those read when the draw was made and stored in its `draw_made` event, so a replay
orders the field the same way whatever the ratings are now. The order: players with a rating that
is not provisional, best first; then the provisional and unrated ones by `seed` (1 first), then the
unseeded at random. Ties (equal values, equal seeds) are settled by the draw's random generator: the
field is shuffled first and the sort is stable.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


def by_rating(players: Sequence[tuple[str, int | None]], ratings: Mapping[str, Any], rng: random.Random) -> list[str]:
    """`players`: (player id, seed or None); `ratings`: player id -> {"value", "provisional"} or None."""
    order = list(players)
    rng.shuffle(order)

    def key(player: tuple[str, int | None]) -> tuple[int, float, int, int]:
        pid, seed = player
        rating = ratings.get(pid)
        if rating is not None and not rating.get("provisional"):
            return (0, -float(rating["value"]), 0, 0)
        return (1, 0.0, 0 if seed is not None else 1, seed or 0)

    return [pid for pid, _ in sorted(order, key=key)]
