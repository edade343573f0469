"""How well ratings predict, and what a refit costs (PROTOCOL.md section 13; docs/ratings.md).

`python bench/ratings_bench.py [--seed 1] [--big-matches 100000] [--big-people 1000] [--skip-big]`

1. Prediction, per simulated field (people with known strengths drawn from N(500, 100) on the
   per-rack scale, matches between random pairs, races to 5 played rack by rack from the true
   chances): the first 80% of matches (by time) train, the last 20% are predicted rack by rack.
   Printed: the Spearman rank correlation of the fitted ratings (all matches) with the truth; the
   log loss (nats per rack) of the test racks for a coin (50/50, ln 2 = 0.693), a per-match Elo on
   the same scale (K points per rack over expectation; the best K of 2-32 on the test set itself,
   which favours Elo), and the fit (hub/ratings/fit.py) on the training racks. The smallest fields'
   test sets are a few dozen racks: their log losses are noise.
2. A refit at size: `--big-matches` races to 5 between `--big-people` people (about 7 racks each
   match, ~700,000 racks for 100,000 matches), timed; the baseline measured in the same run is one
   pure-Python pass summing the racks per pair (`tally_pairs`), which any fit must at least do.
   Target: under 10 s on this box.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hub.ratings.fit import fit, fit_pairs, tally_pairs  # noqa: E402
from hub.ratings.scale import POINTS_PER_DOUBLING, rack_chance  # noqa: E402

Match = list[tuple[str, str, int]]
FIELDS = [(24, 10), (24, 100), (200, 30), (200, 150), (1000, 10), (1000, 300)]  # people, racks each


def simulate(rng: random.Random, people: int, racks_each: int, race: int = 5) -> tuple[dict[str, float], list[Match]]:
    truth = {f"p{i:05d}": rng.gauss(500, 100) for i in range(people)}
    ids = sorted(truth)
    matches: list[Match] = []
    total = people * racks_each // 2
    played = 0
    while played < total:
        a, b = rng.sample(ids, 2)
        p = rack_chance(truth[a], truth[b])
        wa = wb = 0
        while wa < race and wb < race:
            if rng.random() < p:
                wa += 1
            else:
                wb += 1
        matches.append([(a, b, wa), (b, a, wb)])
        played += wa + wb
    return truth, matches


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0.0] * len(v)
        for r, i in enumerate(order):
            out[i] = float(r)
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def log_loss(test: list[Match], value: dict[str, float]) -> float:
    total = n = 0.0
    for match in test:
        (a, b, wa), (_, _, wb) = match
        p = min(max(rack_chance(value.get(a, 500.0), value.get(b, 500.0)), 1e-9), 1 - 1e-9)
        total -= wa * math.log(p) + wb * math.log(1 - p)
        n += wa + wb
    return total / n


def elo(train: list[Match], k: float) -> dict[str, float]:
    value: dict[str, float] = {}
    for (a, b, wa), (_, _, wb) in train:
        ra, rb = value.get(a, 500.0), value.get(b, 500.0)
        expected = rack_chance(ra, rb) * (wa + wb)
        value[a], value[b] = ra + k * (wa - expected), rb - k * (wa - expected)
    return value


def prediction(seed: int) -> None:
    print("field (people x racks each) | spearman | log loss: coin / elo (best K) / fit | fit s")
    for people, racks_each in FIELDS:
        rng = random.Random(seed * 1000 + people + racks_each)
        truth, matches = simulate(rng, people, racks_each)
        cut = int(len(matches) * 0.8)
        train, test = matches[:cut], matches[cut:]
        t0 = time.perf_counter()
        fitted = fit([r for m in train for r in m])
        fit_s = time.perf_counter() - t0
        whole = fit([r for m in matches for r in m])
        ids = sorted(whole)
        rho = spearman([whole[p].exact for p in ids], [truth[p] for p in ids])
        elo_loss, k = min((log_loss(test, elo(train, k)), k) for k in (2.0, 4.0, 8.0, 16.0, 32.0))
        fit_loss = log_loss(test, {p: r.exact for p, r in fitted.items()})
        print(f"{people:>5} x {racks_each:<4} | {rho:.3f} | {math.log(2):.4f} / {elo_loss:.4f} (K={k:g}) / "
              f"{fit_loss:.4f} | {fit_s:.2f}")


def big(seed: int, matches_n: int, people: int) -> None:
    rng = random.Random(seed)
    truth = {f"p{i:05d}": rng.gauss(500, 100) for i in range(people)}
    ids = sorted(truth)
    racks: list[tuple[str, str, int]] = []
    for _ in range(matches_n):
        a, b = rng.sample(ids, 2)
        p = rack_chance(truth[a], truth[b])
        wa = wb = 0
        while wa < 5 and wb < 5:
            if rng.random() < p:
                wa += 1
                racks.append((a, b, 1))
            else:
                wb += 1
                racks.append((b, a, 1))
    t0 = time.perf_counter()
    pairs = tally_pairs(racks)
    base_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    fitted = fit_pairs(pairs)
    fit_s = time.perf_counter() - t0
    rho = spearman([fitted[p].exact for p in ids], [truth[p] for p in ids])
    total = base_s + fit_s
    print(f"refit: {matches_n:,} matches, {len(racks):,} racks, {people:,} people, {len(pairs):,} pairs: "
          f"{total:.2f} s (target < 10 s); baseline pass {base_s:.2f} s; ratio {total / base_s:.1f}x; "
          f"spearman {rho:.3f}; scale {POINTS_PER_DOUBLING:g} points = 2:1")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--big-matches", type=int, default=100_000)
    ap.add_argument("--big-people", type=int, default=1_000)
    ap.add_argument("--skip-big", action="store_true")
    args = ap.parse_args()
    prediction(args.seed)
    if not args.skip_big:
        big(args.seed, args.big_matches, args.big_people)
    return 0


if __name__ == "__main__":
    sys.exit(main())
