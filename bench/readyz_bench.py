"""What /readyz's store check costs (hub/api/health.py), on SQLite and PostgreSQL, measured in one
run against the bare read it replaced:

    read        SELECT 1 (yesterday's /readyz store check)
    rollback    SELECT 1, then an UPDATE of the meta row in a transaction rolled back
    commit      SELECT 1, then the UPDATE committed (what /readyz does: it also sees a full disk
                or a file that can no longer be written, which a rollback does not)

    python bench/readyz_bench.py [--n 300] [--pg]

Prints the median and p95 per probe in ms and the ratio to `read`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

from hub.settings import Settings
from hub.store.db import make_engine, migrate
from hub.store.schema import meta

PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


async def _read(engine: sa.ext.asyncio.AsyncEngine) -> None:
    async with engine.connect() as conn:
        await conn.execute(sa.text("SELECT 1"))


async def _rollback(engine: sa.ext.asyncio.AsyncEngine) -> None:
    await _read(engine)
    async with engine.connect() as conn:
        trans = await conn.begin()
        await conn.execute(meta.update().where(meta.c.key == "readyz_probe").values(value=str(time.time_ns())))
        await trans.rollback()


async def _commit(engine: sa.ext.asyncio.AsyncEngine) -> None:
    from hub.api.health import check_store

    class Req:  # check_store reads the engine from request.app.state.services
        class app:  # noqa: N801
            class state:  # noqa: N801
                class services:  # noqa: N801
                    pass

    Req.app.state.services.engine = engine
    await check_store(Req)  # type: ignore[arg-type]


async def measure(settings: Settings, n: int) -> dict[str, list[float]]:
    engine = make_engine(settings)
    await migrate(engine)
    await _commit(engine)  # the probe row exists
    out: dict[str, list[float]] = {"read": [], "rollback": [], "commit": []}
    try:
        for _ in range(n):  # interleaved, so load on the box hits all three alike
            for name, probe in (("read", _read), ("rollback", _rollback), ("commit", _commit)):
                t0 = time.perf_counter()
                await probe(engine)
                out[name].append((time.perf_counter() - t0) * 1000)
    finally:
        await engine.dispose()
    return out


def report(label: str, samples: dict[str, list[float]]) -> None:
    base = statistics.median(samples["read"])
    print(f"{label}:")
    for name, xs in samples.items():
        xs = sorted(xs)
        med, p95 = statistics.median(xs), xs[int(len(xs) * 0.95) - 1]
        print(f"  {name:9s} median {med:7.3f} ms  p95 {p95:7.3f} ms  ({med / base:5.2f}x read)")


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--pg", action="store_true", help="also PostgreSQL at 127.0.0.1:5432 (a fresh schema)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report("SQLite (WAL, synchronous=FULL)",
               await measure(Settings(database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'b.db'}"), args.n))
    if args.pg:
        import asyncpg

        schema = "bench_" + uuid.uuid4().hex[:8]
        dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")
        conn = await asyncpg.connect(dsn)
        await conn.execute(f'CREATE SCHEMA "{schema}"')
        try:
            report(
                "PostgreSQL (loopback)", await measure(Settings(database_url=PG_URL, database_schema=schema), args.n)
            )
        finally:
            await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
            await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
