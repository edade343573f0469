"""`cuehub ratings rebuild`: fit every discipline's ratings again from people's history.

Ratings are read from `history_matches` (docs/people.md), so run `cuehub people rebuild` first when
that history is to be made again too. Every discipline with history is refitted whatever its
fingerprint; rows of disciplines with no history left are dropped. Safe while hubs run (each refit
replaces a discipline's rows in one transaction). A summary on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.ratings import store
from hub.ratings.keeper import RatingsKeeper
from hub.settings import Settings


async def rebuild(engine: AsyncEngine) -> dict[str, Any]:
    t0 = time.perf_counter()
    keeper = RatingsKeeper(engine)
    try:
        async with engine.connect() as conn:
            now = await store.fingerprints(conn)
            kept = await store.stored_fingerprints(conn)
        for discipline in sorted(now):
            await keeper.refresh(discipline, force=True)
        async with engine.begin() as conn:
            await store.forget(conn, set(kept) - set(now))
    finally:
        await keeper.stop()
    return {"disciplines": len(now), "seconds": round(time.perf_counter() - t0, 3)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cuehub ratings rebuild",
                                 description="fit every discipline's ratings again from the stored history")
    ap.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL")
    args = ap.parse_args(list(argv) if argv is not None else None)

    from hub.store.db import make_engine, migrate

    settings = Settings.from_env()
    if args.database_url:
        settings = settings.with_(database_url=args.database_url)

    async def run() -> dict[str, Any]:
        engine = make_engine(settings)
        try:
            await migrate(engine)
            return await rebuild(engine)
        finally:
            await engine.dispose()

    report = asyncio.run(run())
    print("ratings rebuild: " + ", ".join(f"{k} {v}" for k, v in report.items()))
    return 0
