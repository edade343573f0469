"""Every knob of the hub, read once from the environment (HUB_*)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Mapping


def _bool(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = "sqlite+aiosqlite:///./cuehub.db"
    # Optional PostgreSQL schema (search_path); lets tests and shared servers isolate a hub.
    database_schema: str | None = None
    admin_token: str | None = None
    bus_url: str = "memory://"
    max_body_bytes: int = 64 * 1024
    # Run Alembic "upgrade head" when the app starts, so a bare `cuehub serve` works.
    auto_migrate: bool = True
    host: str = "127.0.0.1"
    port: int = 8000

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        base = cls()
        return cls(
            database_url=env.get("HUB_DATABASE_URL") or base.database_url,
            database_schema=env.get("HUB_DATABASE_SCHEMA") or None,
            admin_token=env.get("HUB_ADMIN_TOKEN") or None,
            bus_url=env.get("HUB_BUS_URL") or base.bus_url,
            max_body_bytes=int(env.get("HUB_MAX_BODY_BYTES") or base.max_body_bytes),
            auto_migrate=_bool(env["HUB_AUTO_MIGRATE"]) if env.get("HUB_AUTO_MIGRATE") else True,
            host=env.get("HUB_HOST") or base.host,
            port=int(env.get("HUB_PORT") or base.port),
        )

    def with_(self, **changes: object) -> "Settings":
        return replace(self, **changes)  # type: ignore[arg-type]
