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
3. `--acks`: what a refit costs a live table (PostgreSQL, HUB_TEST_PG_URL). bench/people_data.py
   fills a fresh schema with `--acks-matches` finished matches of `--acks-people` people (their
   history rows, as the people keeper writes them), all moved to one discipline. Then two phases on
   the same store, each a fresh `cuehub serve` (the ratings keeper on, as always) with a single
   elimination of 64 players in wpa_nine, race to `--race`, on `--tables` tables whose tablets
   (bench/venue_bench.py) play legal strokes at `--rate` commands a second for `--seconds` (after a
   3 s warm-up): "with", the stored history is wpa_nine, so every match that finishes makes the
   keeper refit all of it (read, tally, fit in its worker process, write); "without", the stored
   history is moved to chinese_eight first, so the same finishes refit only the live matches (a
   few racks). Each phase starts with the ratings current (`cuehub ratings rebuild`'s refit, timed).
   Printed per phase: ack p50 / p99 / max, the refits the keeper wrote during it (polled from
   `ratings_heads`), the load average; then the ratios with / without; `--repeat` runs of both.
   `--acks-schema NAME --keep` keeps the filled store for the next run (filling takes minutes).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

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


def acks(args: argparse.Namespace) -> None:
    import asyncio
    import os
    import tempfile
    import uuid

    import asyncpg
    import httpx

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from people_bench import AUTH, DSN, PG_URL, make_schema, sql, start_hub, stop_hub  # noqa: E402
    from people_data import generate  # noqa: E402
    from venue_bench import play  # noqa: E402

    from hub.ratings.rebuild import rebuild  # noqa: E402
    from hub.settings import Settings  # noqa: E402
    from hub.store.db import make_engine  # noqa: E402

    schema = args.acks_schema or "ratings_acks_" + uuid.uuid4().hex[:8]

    async def refit_all() -> float:
        engine = make_engine(Settings(database_url=PG_URL, database_schema=schema))
        try:
            return float((await rebuild(engine))["seconds"])
        finally:
            await engine.dispose()

    async def move_history(discipline: str) -> None:
        await sql(f'UPDATE "{schema}".history_matches SET discipline = \'{discipline}\'')
        await sql(f'UPDATE "{schema}".history_players SET discipline = \'{discipline}\'')

    def make_event(base: str, name: str) -> list[dict[str, Any]]:
        with httpx.Client(base_url=base, headers=AUTH, timeout=120) as c:
            tid = c.post("/api/tournaments", json={"name": name}).json()["id"]
            made = [c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i + 1}"}).json()
                    for i in range(args.tables)]
            c.post(f"/api/tournaments/{tid}/players",
                   json={"players": [{"name": f"{name} {i}"} for i in range(64)]}).raise_for_status()
            c.post(f"/api/tournaments/{tid}/draw", json={
                "type": "single_elimination", "seed": 1,
                "match": {"discipline": "wpa_nine", "format": {"race_to": args.race}, "options": {}}}
            ).raise_for_status()
        return made

    async def live(base: str, tables: list[dict[str, Any]]) -> tuple[dict[str, Any], int]:
        """The tablets' acks, and how many refits of wpa_nine the keeper wrote meanwhile."""
        conn = await asyncpg.connect(DSN)
        seen: set[int] = set()
        counting = False

        def start_counting() -> None:
            nonlocal counting
            counting = True

        async def poll() -> None:
            query = f'SELECT fitted_at FROM "{schema}".ratings_heads WHERE discipline = \'wpa_nine\''
            first = await conn.fetchval(query)
            while True:
                at = await conn.fetchval(query)
                if counting and at is not None and at != first:
                    seen.add(at)
                await asyncio.sleep(0.2)

        poller = asyncio.create_task(poll())
        try:
            r = await play(base.replace("http", "ws", 1), tables, args.rate, args.seconds, start_counting)
        finally:
            poller.cancel()
            with contextlib.suppress(BaseException):
                await poller
            await conn.close()
        return r, len(seen)

    asyncio.run(make_schema(schema))
    try:
        t0 = time.perf_counter()
        filled = asyncio.run(sql(f'SELECT count(*) c FROM "{schema}".history_matches'))[0]["c"]
        if not filled:
            asyncio.run(generate(DSN, schema, people=args.acks_people, matches=args.acks_matches,
                                 log=lambda _line: None))
        rows = asyncio.run(sql(f'SELECT count(DISTINCT h.ref) m, sum((r.value->>2)::int) r FROM '
                               f'"{schema}".history_matches h, json_array_elements(h.racks::json) r'))[0]
        print(f"store {schema}: {rows['m']:,} finished matches, {rows['r']:,} racks "
              f"({'reused' if filled else 'filled'} in {time.perf_counter() - t0:.0f} s; load "
              f"{os.getloadavg()[0]:.1f})", flush=True)
        with tempfile.TemporaryDirectory() as d:
            for rep in range(args.repeat):
                done: dict[str, dict[str, Any]] = {}
                for name, discipline in (("without", "chinese_eight"), ("with", "wpa_nine")):
                    asyncio.run(move_history(discipline))
                    took = asyncio.run(refit_all())
                    proc, base = start_hub(schema, Path(d))
                    try:
                        r, refits = asyncio.run(live(base, make_event(base, f"Live {name} {rep}")))
                    finally:
                        stop_hub(proc)
                    done[name] = r
                    print(f"run {rep + 1} {name:7} the big refit (history in {discipline}; a whole refit took "
                          f"{took:.1f} s before): acks {r['acks']:5d} ({r['rate']:4.1f}/s)  p50 {r['p50']:6.1f} ms"
                          f"  p99 {r['p99']:7.1f} ms  max {r['max']:7.1f} ms  wpa_nine refits during it {refits}"
                          f"  (load {os.getloadavg()[0]:.1f})", flush=True)
                w, wo = done["with"], done["without"]
                print(f"run {rep + 1} ratios with / without the big refit: ack p50 "
                      f"{w['p50'] / max(wo['p50'], 1e-9):.2f}x, p99 {w['p99'] / max(wo['p99'], 1e-9):.2f}x "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        if not args.keep:
            asyncio.run(sql(f'DROP SCHEMA "{schema}" CASCADE'))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--big-matches", type=int, default=100_000)
    ap.add_argument("--big-people", type=int, default=1_000)
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--skip-prediction", action="store_true")
    ap.add_argument("--acks", action="store_true", help="measure a refit's cost to live tables' acks")
    ap.add_argument("--acks-matches", type=int, default=100_000)
    ap.add_argument("--acks-people", type=int, default=5_000)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--rate", type=float, default=30.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--race", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--acks-schema", default=None, help="fill this schema, or reuse it when filled")
    ap.add_argument("--keep", action="store_true", help="keep the schema for the next run")
    args = ap.parse_args()
    if not args.skip_prediction:
        prediction(args.seed)
    if not args.skip_big:
        big(args.seed, args.big_matches, args.big_people)
    if args.acks:
        acks(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
