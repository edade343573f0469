"""Draw fold benchmark: tournament events folded per second, hub/draws.

Two tournaments played to the end:
- a 128-player double elimination, driven by ``dispatch`` + ``take_result`` through
  ``decide`` (every command checked, as the writer would);
- a 64-player round robin (2,016 matches): its calls and results are written straight from the
  schedule (every match is ready from the start), because deciding 4,000 commands one by one
  re-derives the whole draw each time and takes minutes; the final fold is checked to be a
  finished draw with a champion.

For each: ``fold`` over the whole stream (facts only: best of several runs), against a bare
loop over the same events measured in the same run (the ratio says what folding costs over
merely walking the stream), and the cost of deriving the draw and its projection once from
the final state (what every screen update costs the I/O layer; it grows with the number of
matches, not of events).

    python bench/draws_bench.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.draws import TournamentEvent, fold, projection  # noqa: E402
from hub.draws.derive import derive  # noqa: E402
from hub.draws.round_robin import schedule  # noqa: E402
from tests.draws.harness import Stream, drive  # noqa: E402


def double_elimination(players: int, seed: int) -> list[TournamentEvent]:
    stream = Stream()
    stream.add(players, seeded=True)
    stream.draw("double_elimination", seeding="random", seed=seed)
    drive(stream, random.Random(seed), [f"tb{i}" for i in range(1, 9)], extra=False)
    assert stream.state.derived.finished
    return stream.events


def round_robin(players: int, seed: int) -> list[TournamentEvent]:
    stream = Stream()
    stream.add(players, seeded=True)
    stream.draw("round_robin", seeding="random", seed=seed)
    events = list(stream.events)
    rnd = random.Random(seed)
    spec = stream.state.draw
    assert spec is not None
    for n, (key, _, _, pair) in enumerate(schedule(spec.entrants, spec.params.get("groups") or 1)):
        match_id = f"m{n}"
        events.append(
            TournamentEvent(
                len(events) + 1,
                "match_called",
                {"key": key, "match_id": match_id, "table_id": f"tb{n % 8}", "players": list(pair)},
            )
        )
        winner = rnd.choice(pair)
        scores = {p: (rnd.randint(5, 9) if p == winner else rnd.randint(0, 4)) for p in pair}
        events.append(TournamentEvent(len(events) + 1, "result_taken",
                                      {"key": key, "match_id": match_id, "winner": winner, "scores": scores,
                                       "ranking": None}))
    final = fold("t1", events)
    assert final.derived.finished and final.derived.champion is not None
    return events


def measure(name: str, events: list[TournamentEvent], repeat: int) -> None:
    walk = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        walked = 0
        for ev in events:  # baseline: touch every event
            walked += len(ev.data) + ev.version
        walk = min(walk, time.perf_counter() - t0)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        state = fold("t1", events)
        best = min(best, time.perf_counter() - t0)
    derive_best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        derived = derive(state)
        state.__dict__["derived"] = derived
        projection(state)
        derive_best = min(derive_best, time.perf_counter() - t0)
        state.__dict__.pop("derived", None)
    matches = len(derived.matches)
    print(f"{name:<24} {len(events):>7} {matches:>7} {best * 1000:>9.2f} {len(events) / best:>12,.0f} "
          f"{len(events) / walk:>14,.0f} {walk / best:>7.3f} {derive_best * 1000:>12.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5, help="runs of each fold (the best is kept)")
    args = ap.parse_args()
    print(f"{'tournament':<24} {'events':>7} {'matches':>7} {'fold ms':>9} {'events/s':>12} {'walk events/s':>14} "
          f"{'ratio':>7} {'derive+proj ms':>12}")
    measure("double_elimination/128", double_elimination(128, seed=7), args.repeat)
    measure("round_robin/64", round_robin(64, seed=7), args.repeat)


if __name__ == "__main__":
    main()
