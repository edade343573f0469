"""Shared fixtures: a hub app on a real SQLite file or a fresh PostgreSQL schema.
Plain helpers (tokens, envelopes, tables, matches) are in spine_helpers.py."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fake_rules  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from spine_helpers import ADMIN, PG_URL, require_pg  # noqa: E402

from hub.app import create_app  # noqa: E402
from hub.settings import Settings  # noqa: E402


@pytest.fixture
def sqlite_settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", admin_token=ADMIN)


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema for one test, dropped afterwards."""
    require_pg()
    import asyncio

    import asyncpg

    schema = "t_" + uuid.uuid4().hex[:12]
    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run(f'CREATE SCHEMA "{schema}"'))
    yield schema
    asyncio.run(run(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def pg_settings(pg_schema: str) -> Settings:
    return Settings(database_url=PG_URL, database_schema=pg_schema, admin_token=ADMIN)


@pytest.fixture
def client(sqlite_settings: Settings) -> Iterator[TestClient]:
    """The hub on the fake rules (spine tests)."""
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as c:
        yield c
