"""Round-robin ranking within a group: points, then tie-breaks re-applied to every subgroup still tied.

Order: points (matches won); among the players tied on points, head-to-head wins among themselves;
then score difference; then score for; then seed (seeded first, lower first); then order of entry.
Whenever one of head-to-head, score difference or score for separates some of the tied players but
not all, each subgroup still tied starts again from head-to-head among its own members (so two
players left tied after a three-way tie was split by score difference are separated by their own
match before score for).  Seed and entry never tie, so the ranking is total.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Row = Mapping[str, Any]


def rank(rows: Sequence[Row], wins: Mapping[tuple[str, str], int], last: Callable[[str], tuple[Any, ...]]) -> list[Row]:
    """``rows`` (each with ``player``, ``points``, ``score_for``, ``score_against``) best first;
    ``wins[(a, b)]``: how often a beat b; ``last(pid)``: the final, never-equal key (seed, entry)."""
    out: list[Row] = []
    for tied in _partition(list(rows), lambda row: -row["points"]):
        out.extend(_resolve(tied, wins, last))
    return out


def _partition(rows: list[Row], key: Callable[[Row], Any]) -> list[list[Row]]:
    groups: dict[Any, list[Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return [groups[k] for k in sorted(groups)]


def _resolve(tied: list[Row], wins: Mapping[tuple[str, str], int], last: Callable[[str], tuple[Any, ...]]) -> list[Row]:
    if len(tied) == 1:
        return tied
    members = [row["player"] for row in tied]

    def head_to_head(row: Row) -> int:
        return -sum(wins.get((row["player"], other), 0) for other in members if other != row["player"])

    criteria: tuple[Callable[[Row], Any], ...] = (
        head_to_head,
        lambda row: -(row["score_for"] - row["score_against"]),
        lambda row: -row["score_for"],
    )
    for criterion in criteria:
        parts = _partition(tied, criterion)
        if len(parts) > 1:
            out: list[Row] = []
            for part in parts:
                out.extend(_resolve(part, wins, last))  # start again from head-to-head
            return out
    return sorted(tied, key=lambda row: last(row["player"]))
