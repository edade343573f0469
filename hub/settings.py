"""Every knob of the hub, read once from the environment (HUB_*)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Mapping


def _bool(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _origins(value: str | None) -> tuple[str, ...]:
    return tuple(o.strip().rstrip("/") for o in (value or "").split(",") if o.strip())


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
    # Browser origins allowed by CORS and by the WebSocket Origin check; ("*",) allows every origin
    # (SECURITY.md explains why that is the demo default). HUB_ALLOWED_ORIGINS: comma-separated.
    allowed_origins: tuple[str, ...] = ("*",)
    # Command frames per second a table socket may send (token bucket), and the burst above it.
    table_rate_per_s: float = 50.0
    table_rate_burst: int = 100
    # The watch gateway (hub/realtime/gateway.py) in this process, on its own port (None: off);
    # HUB_WATCH_HOST defaults to HUB_HOST. HUB_WATCH_URL is what GET /api/config advertises to the
    # pages (e.g. "/ws/watch" behind a proxy that routes it to gateway processes, or
    # "ws://scores.example:8001/ws/watch"); unset, the pages are told the port alone.
    watch_port: int | None = None
    watch_host: str | None = None
    watch_url: str | None = None
    # Heartbeats on every WebSocket (tablets, /ws/watch, the gateway port): a ping every this many
    # seconds, and a socket that has not answered one within as long again is closed (its
    # watcher's subscriptions go with it).
    ws_ping_s: float = 20.0

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
            allowed_origins=_origins(env.get("HUB_ALLOWED_ORIGINS")) or base.allowed_origins,
            table_rate_per_s=float(env.get("HUB_TABLE_RATE") or base.table_rate_per_s),
            table_rate_burst=int(env.get("HUB_TABLE_BURST") or base.table_rate_burst),
            watch_port=int(env["HUB_WATCH_PORT"]) if env.get("HUB_WATCH_PORT") else None,
            watch_host=env.get("HUB_WATCH_HOST") or None,
            watch_url=env.get("HUB_WATCH_URL") or None,
            ws_ping_s=float(env.get("HUB_WS_PING_S") or base.ws_ping_s),
        )

    def with_(self, **changes: object) -> "Settings":
        return replace(self, **changes)  # type: ignore[arg-type]
