"""Engine construction (SQLite durability pragmas, PostgreSQL schema) and Alembic upgrades."""

from __future__ import annotations

import time
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from hub.ops.resources import MissingPiece, migrations_dir, require_files
from hub.settings import Settings


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


# How long a SQLite writer waits for another connection's lock before "database is locked".
BUSY_TIMEOUT_MS = 10_000


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL lets readers run beside the writer; synchronous=FULL makes a commit durable before we ack;
    # busy_timeout makes concurrent writers wait for the lock instead of failing at once.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(settings: Settings) -> AsyncEngine:
    url = settings.database_url
    kwargs: dict[str, Any] = {}
    if url.startswith("postgresql") and settings.database_schema:
        kwargs["connect_args"] = {"server_settings": {"search_path": settings.database_schema}}
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def check_migrations() -> None:
    """The migrations are all there (hub/ops/resources.py finds them); MissingPiece otherwise."""
    root = migrations_dir()
    require_files(root, ["env.py", "script.py.mako"], "the migrations")
    if not any((root / "versions").glob("[0-9]*.py")):
        raise MissingPiece(f"the migrations in {root} have no versions/")


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    return cfg


async def migrate(engine: AsyncEngine) -> None:
    """alembic upgrade head on this engine (same migrations for SQLite and PostgreSQL)."""

    def upgrade(conn: Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")

    async with engine.begin() as conn:
        await conn.run_sync(upgrade)
