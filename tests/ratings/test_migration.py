"""migrations/versions/0007_ratings.py up and down, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Connection

from hub.ratings.keeper import RatingsKeeper
from hub.settings import Settings
from hub.store.db import alembic_config, make_engine


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh(request: pytest.FixtureRequest, tmp_path: Any) -> Settings:
    if request.param == "sqlite":
        return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", admin_token="adm")
    return request.getfixturevalue("pg_settings")


def _run(settings: Settings, revision: str, down: bool = False) -> list[str]:
    async def go() -> list[str]:
        engine = make_engine(settings)

        def step(conn: Connection) -> list[str]:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, revision)
            return sorted(sa.inspect(conn).get_table_names())

        try:
            async with engine.begin() as conn:
                return await conn.run_sync(step)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def test_up_and_down(fresh: Settings) -> None:
    tables = _run(fresh, "0007_ratings")
    assert {"ratings", "ratings_heads", "history_matches"} <= set(tables)
    tables = _run(fresh, "0006_people", down=True)
    assert "ratings" not in tables and "ratings_heads" not in tables and "history_matches" in tables


def test_a_large_fit_runs_in_a_worker_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from hub.ratings import keeper as keeper_module

    monkeypatch.setattr(keeper_module, "IN_PROCESS_UNDER", 0)

    async def go() -> Any:
        keeper = RatingsKeeper(engine=None)  # type: ignore[arg-type]  # fit() reads no store
        try:
            fitted = await keeper.fit([("a", "b", 2), ("b", "a", 1)])
            assert keeper._pool is not None
            return fitted
        finally:
            await keeper.stop()

    fitted = asyncio.run(go())
    assert fitted["a"].value > 500 > fitted["b"].value
