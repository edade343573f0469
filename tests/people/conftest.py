"""The people tests' store: a SQLite file and a PostgreSQL schema of the test's own (both migrated)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from hub import draws
from hub.people.linking import complete_event
from hub.settings import Settings
from hub.store import catalog
from hub.store.db import make_engine, migrate
from hub.tournaments.writer import TournamentWriter


@pytest.fixture(params=["sqlite", "postgresql"])
def db_settings(request: pytest.FixtureRequest) -> Settings:
    return request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")


@pytest.fixture
async def engine(db_settings: Settings) -> AsyncIterator[AsyncEngine]:
    eng = make_engine(db_settings)
    await migrate(eng)
    yield eng
    await eng.dispose()


def writer(engine: AsyncEngine) -> TournamentWriter:
    """A tournament writer as the hub makes it: entries linked in the event's transaction."""
    return TournamentWriter(engine, draws, completer=complete_event)


async def tournament(engine: AsyncEngine, name: str = "Week") -> str:
    return (await catalog.create_tournament(engine, name))["id"]
