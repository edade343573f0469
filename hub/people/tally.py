"""The statistics of section 12 as one mergeable value: a tally of counts. Pure.

A tally is a flat JSON object of whole numbers, plus two nested objects of whole numbers:
`fouls_by_code` (code -> strokes or turns with that foul) and `stroke_ms` (the histogram of the
time per stroke: bin -> strokes). Adding two tallies is adding every count, so a career is the sum
of its events, an event the sum of its matches, and a merge of two people the sum of both: no
median or percentile is ever stored, only the histogram they are read from.

Histogram bins (`stroke_bin`): half a second wide below one minute (0-119), five seconds wide from
one to three minutes (120-143), and one bin for three minutes or more (144). A median or a 90th
percentile is the middle of the bin it falls in: exact to a quarter of a second below a minute.

`summary(tally)` is what the API shows (docs/people.md lists every field); `by_discipline` tallies
(discipline -> tally) become `{"total": summary, "disciplines": {d: summary}}` with `stats_json`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Tally = dict[str, Any]

COUNTS = (
    "matches", "matches_won", "matches_entered",
    "racks", "racks_won", "racks_won_own_break", "racks_won_opponent_break",
    "breaks", "break_balls", "dry_breaks", "break_fouls",
    "break_and_runs", "table_runs", "golden_breaks", "loss_of_chance", "fouls",
    "strokes", "pot", "pot_success", "safety", "safety_success", "kick",
)
NESTED = ("fouls_by_code", "stroke_ms")

FINE_MS, FINE_BINS = 500, 120  # 0 .. 60 s by half seconds
COARSE_MS, COARSE_BINS = 5_000, 24  # 60 .. 180 s by five seconds
LAST_BIN = FINE_BINS + COARSE_BINS


def empty() -> Tally:
    return {**dict.fromkeys(COUNTS, 0), "fouls_by_code": {}, "stroke_ms": {}}


def add(into: Tally, other: Mapping[str, Any]) -> Tally:
    """Add `other` to `into` (in place; returns it). Unknown keys are added too, so a tally made
    by a later version with more counts merges without loss."""
    for key, value in other.items():
        if isinstance(value, Mapping):
            nested = into.setdefault(key, {})
            for k, n in value.items():
                nested[k] = nested.get(k, 0) + int(n)
        elif isinstance(value, int) and not isinstance(value, bool):
            into[key] = into.get(key, 0) + value
    return into


def total(tallies: Iterable[Mapping[str, Any]]) -> Tally:
    out = empty()
    for t in tallies:
        add(out, t)
    return out


def add_by_discipline(into: dict[str, Tally], other: Mapping[str, Mapping[str, Any]]) -> dict[str, Tally]:
    for discipline, t in other.items():
        add(into.setdefault(discipline, empty()), t)
    return into


def stroke_bin(ms: int) -> int:
    if ms < FINE_MS * FINE_BINS:
        return max(0, ms) // FINE_MS
    ms -= FINE_MS * FINE_BINS
    if ms < COARSE_MS * COARSE_BINS:
        return FINE_BINS + ms // COARSE_MS
    return LAST_BIN


def bin_middle(index: int) -> int:
    if index < FINE_BINS:
        return index * FINE_MS + FINE_MS // 2
    if index < LAST_BIN:
        return FINE_MS * FINE_BINS + (index - FINE_BINS) * COARSE_MS + COARSE_MS // 2
    return FINE_MS * FINE_BINS + COARSE_MS * COARSE_BINS  # three minutes or more: shown as 180 s


def add_stroke_time(t: Tally, ms: int) -> None:
    key = str(stroke_bin(ms))
    t["stroke_ms"][key] = t["stroke_ms"].get(key, 0) + 1


def quantiles_ms(histogram: Mapping[str, int], *qs: float) -> list[int | None]:
    """The q-quantiles (0 < q <= 1) of the histogram: the middle of the bin holding the
    ceil(q * n)-th stroke in time order; None when it holds none."""
    bins = sorted((int(k), int(v)) for k, v in histogram.items() if int(v) > 0)
    n = sum(v for _, v in bins)
    if n == 0:
        return [None for _ in qs]
    out: list[int | None] = []
    for q in qs:
        rank = max(1, -(-int(q * n * 1000) // 1000))  # ceil(q * n) without float surprises at exact ranks
        seen = 0
        for index, count in bins:
            seen += count
            if seen >= rank:
                out.append(bin_middle(index))
                break
    return out


def quantile_ms(histogram: Mapping[str, int], q: float) -> int | None:
    return quantiles_ms(histogram, q)[0]


def summary(t: Mapping[str, Any]) -> dict[str, Any]:
    g = t.get
    times = t.get("stroke_ms") or {}
    median, p90 = quantiles_ms(times, 0.5, 0.9)
    return {
        "matches": {"played": g("matches", 0), "won": g("matches_won", 0), "entered": g("matches_entered", 0)},
        "racks": {"played": g("racks", 0), "won": g("racks_won", 0),
                  "won_on_own_break": g("racks_won_own_break", 0),
                  "won_on_opponent_break": g("racks_won_opponent_break", 0)},
        "breaks": {"taken": g("breaks", 0), "balls": g("break_balls", 0), "dry": g("dry_breaks", 0),
                   "fouls": g("break_fouls", 0), "racks_won": g("racks_won_own_break", 0)},
        "break_and_runs": g("break_and_runs", 0), "table_runs": g("table_runs", 0),
        "golden_breaks": g("golden_breaks", 0), "loss_of_chance": g("loss_of_chance", 0),
        "fouls": {"total": g("fouls", 0), "by_code": dict(sorted((t.get("fouls_by_code") or {}).items()))},
        "strokes": {"count": g("strokes", 0), "timed": sum(int(v) for v in times.values()),
                    "median_ms": median, "p90_ms": p90},
        "intent": {"pot": {"strokes": g("pot", 0), "success": g("pot_success", 0)},
                   "safety": {"strokes": g("safety", 0), "success": g("safety_success", 0)},
                   "kick": {"strokes": g("kick", 0)}},
    }


def stats_json(by_discipline: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """`{"total": ..., "disciplines": {d: ...}}`: what a person, an entry or a match shows."""
    return {"total": summary(total(by_discipline.values())),
            "disciplines": {d: summary(t) for d, t in sorted(by_discipline.items())}}
