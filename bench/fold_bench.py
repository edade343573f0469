"""Fold benchmark: events folded per second over long synthetic match histories.

Builds long histories with the same random player as the property tests (only accepted
commands are kept), then times ``fold`` over them.  Baseline in the same run: a bare loop
that touches every event (dict access per event), so the ratio says how much the rules cost
over merely walking the stream.  Target: >= 200,000 events/s on one core for the pure fold.

    python bench/fold_bench.py [--events 200000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.rules import Event, Reject, decide, fold, initial, projection, validate_setup  # noqa: E402
from hub.rules.engine import evolve  # noqa: E402
from tests.rules.random_play import random_command  # noqa: E402


def history(discipline: str, n_events: int, seed: int) -> tuple[object, list[Event]]:
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
    if discipline == "chase_nine":
        players.append({"id": "c", "name": "C"})
    fmt = {"racks": 10**6} if discipline in ("golden_nine", "chase_nine") else {"race_to": 10**6}
    setup = validate_setup({"discipline": discipline, "players": players, "format": fmt,
                            "options": {"shot_clock": {"shot_s": 30}}}, match_id="m", tournament_id="t", table_id="tb")
    rnd = random.Random(seed)
    state = initial(setup)
    events: list[Event] = []
    while len(events) < n_events:
        cmd = random_command(projection(state), rnd)
        if cmd["kind"] in ("undo", "penalty", "concede"):
            continue  # keep the match going; undo needs a refold
        try:
            kind, data = decide(state, cmd)
        except Reject:
            continue
        ev = Event(len(events) + 1, kind, data, 1_000 * (len(events) + 1))
        events.append(ev)
        state = evolve(state, ev)
    return setup, events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100_000, help="events per discipline")
    args = ap.parse_args()
    print(f"{'discipline':<14} {'events':>8} {'fold s':>8} {'events/s':>12} {'walk events/s':>14} {'ratio':>7}")
    total_events = 0
    total_time = 0.0
    for discipline in ("golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "wpa_eight", "wpa_ten"):
        setup, events = history(discipline, args.events, seed=7)
        t0 = time.perf_counter()
        walked = 0
        for ev in events:  # baseline: touch every event
            walked += len(ev.data) + ev.version
        walk = time.perf_counter() - t0
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            fold(setup, events)
            best = min(best, time.perf_counter() - t0)
        total_events += len(events)
        total_time += best
        print(
            f"{discipline:<14} {len(events):>8} {best:>8.3f} {len(events) / best:>12,.0f} {len(events) / walk:>14,.0f} "
            f"{walk / best:>7.3f}"
        )
    rate = total_events / total_time
    print(
        f"{'all':<14} {total_events:>8} {total_time:>8.3f} {rate:>12,.0f}   "
        f"target 200,000: {'met' if rate >= 200_000 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
