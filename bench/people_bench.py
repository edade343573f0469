"""People across events at scale (PROTOCOL.md section 12; docs/people.md), on PostgreSQL.

    python bench/people_bench.py [--people 100000] [--matches 1000000] [--schema NAME] [--keep]
                                 [--queries 300] [--tables 16] [--rate 40] [--seconds 20] [--repeat 2]
                                 [--skip-reads] [--skip-acks]

**Reads.** bench/people_data.py fills a fresh PostgreSQL schema (HUB_TEST_PG_URL, default
127.0.0.1:5432 db `test`) with `--people` people and `--matches` finished matches straight through
the store's tables (COPY). `--schema NAME` fills that schema, or reuses it when it is filled already
(with `--keep`, the schema is kept for the next run; otherwise it is dropped at the end). Then one
`cuehub serve` on it, and over HTTP, one request at a time, after a warm-up:
- search: `GET /api/people?q=` with what people type (a finder asks as they type): a Chinese
  name's pinyin spaced and run together, its first syllable and a letter, its characters, the
  surname alone, a Latin name's first letter, first three letters, first name, first name and two
  letters, two letters of the last name;
- profile: `GET /api/people/{id}`, half of them regulars (hundreds of matches), half anyone;
- matches: `GET /api/people/{id}/matches` (the first page) of regulars;
- head-to-head: `GET /api/people/{a}/versus/{b}` of people who met;
printed as p50 / p95 / max in ms against the targets (search p95 < 100 ms, profile < 200 ms,
head-to-head < 50 ms); and the keeper's first sweep (the query a hub runs at start to find
finished matches without history), timed on the same store.

**The cost of keeping statistics per stored stroke.** `cuehub serve` with the keeper (the default)
and with `HUB_PEOPLE_KEEPER=false`, in turns (with, without, `--repeat` times), each on a fresh
schema of its own, each on a single elimination of 2 x `--tables` players (wpa_nine, race to
`--race`: matches finish during the phase, so the keeper reads, folds and writes each one and the
tournament's entries after each result), its tablets playing legal strokes on the table sockets
(bench/venue_bench.py's tablets) at `--rate` commands a second for `--seconds` (after a 3 s
warm-up). Printed: ack p50 / p99 / max per phase, matches finished, and the ratios with / without.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from people_data import Made, generate  # noqa: E402
from venue_bench import play  # noqa: E402

from hub.people import romanize  # noqa: E402
from tests.services import free_port  # noqa: E402

ADMIN = "people-bench-admin"
AUTH = {"Authorization": f"Bearer {ADMIN}"}
PG_URL = os.environ.get("HUB_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
DSN = PG_URL.replace("postgresql+asyncpg", "postgresql")
TARGETS = {"search": 100.0, "profile": 200.0, "versus": 50.0}


def start_hub(schema: str, workdir: Path, **env: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    full = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "PYTHONPATH": str(ROOT), "HUB_DATABASE_URL": PG_URL,
            "HUB_DATABASE_SCHEMA": schema, "HUB_TABLE_RATE": "1000", "HUB_TABLE_BURST": "1000", **env}
    log = open(workdir / f"hub-{port}.log", "wb")  # noqa: SIM115 - open for the process's life
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--port", str(port), "--log-level", "warning"],
                            cwd=workdir, env=full, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the hub did not start")


def stop_hub(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(15)


async def sql(statement: str) -> Any:
    conn = await asyncpg.connect(DSN)
    try:
        return await conn.fetch(statement)
    finally:
        await conn.close()


async def make_schema(schema: str) -> None:
    from hub.settings import Settings
    from hub.store.db import make_engine, migrate

    await sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    engine = make_engine(Settings(database_url=PG_URL, database_schema=schema))
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


async def known(schema: str) -> Made | None:
    """What a filled schema holds (a reused one), or None when it is empty."""
    rows = await sql(f'SELECT id, name FROM "{schema}".people ORDER BY n')
    if not rows:
        return None
    made = Made(people=[r["id"] for r in rows], names=[r["name"] for r in rows])
    made.regulars = made.people[: max(1, len(made.people) // 100)]
    pairs = await sql(f'''SELECT e1.person_id a, e2.person_id b FROM "{schema}".history_players h1
        JOIN "{schema}".history_players h2 ON h2.ref = h1.ref AND h2.player_id > h1.player_id
        JOIN "{schema}".people_entries e1 ON e1.tournament_id = h1.tournament_id AND e1.player_id = h1.player_id
        JOIN "{schema}".people_entries e2 ON e2.tournament_id = h2.tournament_id AND e2.player_id = h2.player_id
        LIMIT 5000''')
    made.met = [(r["a"], r["b"]) for r in pairs]
    made.matches = int((await sql(f'SELECT count(*) c FROM "{schema}".matches'))[0]["c"])
    return made


def queries(made: Made, n: int, rng: random.Random) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        name = rng.choice(made.names)
        if romanize.is_ideograph(name[0]):
            spoken = [romanize.readings(ch)[0] for ch in name]
            out += [" ".join(spoken), "".join(spoken), f"{spoken[0]} {spoken[1][0]}", name, name[0]]
        else:
            first, _, last = name.partition(" ")
            out += [name.lower()[:3], first, f"{first} {last[:2]}", last.lower()[:2], name[0].lower()]
    rng.shuffle(out)
    return out[:n]


def timed(client: httpx.Client, paths: list[str]) -> dict[str, Any]:
    times, sizes = [], []
    for path in paths:
        t0 = time.perf_counter()
        r = client.get(path)
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])
        sizes.append(len(r.content))
    q = statistics.quantiles(times, n=100)
    return {"n": len(times), "p50": statistics.median(times), "p95": q[94], "max": max(times),
            "bytes": statistics.median(sizes)}


def reads(schema: str, made: Made, n: int, workdir: Path) -> None:
    rng = random.Random(3)
    t0 = time.perf_counter()
    # The reads alone: no keeper (its first sweep of the whole store would run beside them; it is
    # timed on its own below).
    proc, base = start_hub(schema, workdir, HUB_AUTO_MIGRATE="false", HUB_PEOPLE_KEEPER="false")
    print(f"hub up in {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores", flush=True)
    try:
        with httpx.Client(base_url=base, timeout=60) as c:
            timed(c, [f"/api/people?q={q}" for q in queries(made, 30, rng)])  # warm-up
            some = [rng.choice(made.regulars) if i % 2 else rng.choice(made.people) for i in range(n)]
            kinds = {
                "search": [f"/api/people?q={q}" for q in queries(made, n, rng)],
                "profile": [f"/api/people/{p}" for p in some],
                "matches": [f"/api/people/{rng.choice(made.regulars)}/matches" for _ in range(n // 3)],
                "versus": [f"/api/people/{a}/versus/{b}" for a, b in rng.sample(made.met, min(n, len(made.met)))],
            }
            for kind, paths in kinds.items():
                r = timed(c, paths)
                target = TARGETS.get(kind)
                verdict = "" if target is None else (
                    f"  target p95 < {target:.0f} ms: {'met' if r['p95'] < target else 'NOT met'}")
                print(f"{kind:8} n={r['n']:4d}  p50 {r['p50']:7.1f} ms  p95 {r['p95']:7.1f} ms  max {r['max']:7.1f} ms"
                      f"  answer {r['bytes'] / 1e3:6.1f} KB{verdict}  (load {os.getloadavg()[0]:.1f})", flush=True)
            heavy = c.get(f"/api/people/{made.regulars[0]}").json()
            print(f"a regular's profile: {len(heavy['events'])} events,"
                  f" {heavy['stats']['total']['matches']['played']} matches", flush=True)
    finally:
        stop_hub(proc)
    asyncio.run(sweep_cost(schema))


async def sweep_cost(schema: str) -> None:
    from hub.people.keeper import stale_matches, stale_tournaments
    from hub.settings import Settings
    from hub.store.db import make_engine

    engine = make_engine(Settings(database_url=PG_URL, database_schema=schema))
    try:
        for recent in (None, 10_000):
            t0 = time.perf_counter()
            found = await stale_matches(engine, recent)
            took = time.perf_counter() - t0
            t0 = time.perf_counter()
            tournaments = await stale_tournaments(engine)
            print(f"keeper sweep ({'every match' if recent is None else f'latest {recent:,}'}): {took * 1000:.0f} ms"
                  f" for the matches ({len(found)} stale), {(time.perf_counter() - t0) * 1000:.0f} ms for the"
                  f" tournaments ({len(tournaments)} stale)", flush=True)
    finally:
        await engine.dispose()


def make_event(base: str, tables: int, name: str, race: int) -> list[dict[str, Any]]:
    with httpx.Client(base_url=base, headers=AUTH, timeout=120) as c:
        tid = c.post("/api/tournaments", json={"name": name}).json()["id"]
        made = [c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i + 1}"}).json() for i in range(tables)]
        players = [{"name": f"{name} player {i}"} for i in range(2 * tables)]
        c.post(f"/api/tournaments/{tid}/players", json={"players": players}).raise_for_status()
        c.post(f"/api/tournaments/{tid}/draw", json={
            "type": "single_elimination", "seed": 1,
            "match": {"discipline": "wpa_nine", "format": {"race_to": race}, "options": {}}}).raise_for_status()
    return made


def phase(args: argparse.Namespace, workdir: Path, keeper: bool, name: str) -> dict[str, Any]:
    """One hub on a schema of its own (nothing left for its keeper to catch up at start)."""
    schema = "people_acks_" + uuid.uuid4().hex[:8]
    asyncio.run(make_schema(schema))
    try:
        proc, base = start_hub(schema, workdir, HUB_PEOPLE_KEEPER="true" if keeper else "false")
        try:
            tables = make_event(base, args.tables, name, args.race)
            r = asyncio.run(play(base.replace("http", "ws", 1), tables, args.rate, args.seconds))
        finally:
            stop_hub(proc)
        finished = f"SELECT count(*) c FROM \"{schema}\".matches WHERE status = 'finished'"
        r["finished"] = asyncio.run(sql(finished))[0]["c"]
        r["kept"] = asyncio.run(sql(f'SELECT count(*) c FROM "{schema}".history_matches'))[0]["c"]
        return r
    finally:
        asyncio.run(sql(f'DROP SCHEMA "{schema}" CASCADE'))


def acks(args: argparse.Namespace, workdir: Path) -> None:
    for rep in range(args.repeat):
        done = {}
        for keeper in (True, False):
            r = done[keeper] = phase(args, workdir, keeper, f"{'with' if keeper else 'without'} {rep}")
            print(f"run {rep + 1} {'with' if keeper else 'without':7} the keeper: acks {r['acks']:5d}"
                  f" ({r['rate']:5.1f}/s)  p50 {r['p50']:6.1f} ms  p99 {r['p99']:7.1f} ms  max {r['max']:7.1f} ms"
                  f"  ({r['finished']} matches finished, {r['kept']} in history; load {os.getloadavg()[0]:.1f})",
                  flush=True)
        w, wo = done[True], done[False]
        print(f"run {rep + 1} ratios with / without: ack p50 {w['p50'] / max(wo['p50'], 1e-9):.2f}x,"
              f" p99 {w['p99'] / max(wo['p99'], 1e-9):.2f}x", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--people", type=int, default=100_000)
    ap.add_argument("--matches", type=int, default=1_000_000)
    ap.add_argument("--schema", default=None, help="fill this schema, or reuse it when filled")
    ap.add_argument("--keep", action="store_true", help="keep the schema for the next run")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--rate", type=float, default=40.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--race", type=int, default=5, help="the matches' race (wpa_nine); shorter: more finishes")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--skip-reads", action="store_true")
    ap.add_argument("--skip-acks", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        if not args.skip_reads:
            schema = args.schema or "people_bench_" + uuid.uuid4().hex[:8]
            try:
                asyncio.run(make_schema(schema))
                made = asyncio.run(known(schema))
                if made is None:
                    print(f"filling {schema}: {args.people:,} people, {args.matches:,} matches", flush=True)
                    made = asyncio.run(generate(DSN, schema, people=args.people, matches=args.matches))
                    print(f"filled in {made.seconds:.0f} s (load {os.getloadavg()[0]:.1f})", flush=True)
                print(f"store: {len(made.people):,} people, {made.matches:,} finished matches", flush=True)
                reads(schema, made, args.queries, Path(d))
            finally:
                if not args.keep:
                    asyncio.run(sql(f'DROP SCHEMA "{schema}" CASCADE'))
        if not args.skip_acks:
            acks(args, Path(d))


if __name__ == "__main__":
    main()
