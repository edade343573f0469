"""Alembic environment: runs on a connection handed in by hub.store.db.migrate, or, from the
plain `alembic` command, on an engine built from HUB_DATABASE_URL."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from hub.settings import Settings
from hub.store.schema import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _run_from_settings() -> None:
    from hub.store.db import make_engine

    async def go() -> None:
        engine = make_engine(Settings.from_env())
        async with engine.connect() as conn:
            await conn.run_sync(_run)
            await conn.commit()
        await engine.dispose()

    asyncio.run(go())


if context.is_offline_mode():
    context.configure(url=Settings.from_env().database_url, target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
    else:
        _run_from_settings()
