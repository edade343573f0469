"""Shared fixtures: a hub app on a real SQLite file (or PostgreSQL), admin and table helpers."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# Until the rules engine lands, `import hub.rules` fails on hub.rules.engine. The spine's own
# tests run on tests/fake_rules.py, so stand it in for the engine in that case only.
try:
    import hub.rules  # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - temporary
    if exc.name != "hub.rules.engine":
        raise
    import fake_rules

    sys.modules["hub.rules.engine"] = fake_rules
    import hub.rules  # noqa: F401

import fake_rules  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from hub.app import create_app  # noqa: E402
from hub.settings import Settings  # noqa: E402

ADMIN = "test-admin-token"
PG_URL = os.environ.get("HUB_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def pg_available() -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


def require_pg() -> None:
    """PostgreSQL is required in CI; locally, a missing server skips with a reason."""
    if pg_available():
        return
    if os.environ.get("CI"):
        pytest.fail("PostgreSQL at 127.0.0.1:5432 is required when CI is set")
    pytest.skip("PostgreSQL at 127.0.0.1:5432 is not reachable")


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


def admin(headers: dict[str, str] | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN}", **(headers or {})}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_table(c: TestClient) -> dict[str, Any]:
    """A tournament with one table: {"tid", "table_id", "token"}."""
    t = c.post("/api/tournaments", json={"name": "Open"}, headers=admin())
    assert t.status_code == 201, t.text
    tb = c.post(f"/api/tournaments/{t.json()['id']}/tables", json={"name": "Table 1"}, headers=admin())
    assert tb.status_code == 201, tb.text
    return {"tid": t.json()["id"], "table_id": tb.json()["id"], "token": tb.json()["token"]}


def make_match(c: TestClient, table: dict[str, Any], **body: Any) -> dict[str, Any]:
    payload = {
        "tournament_id": table["tid"], "table_id": table["table_id"], "discipline": "golden_nine",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 3},
        **body,
    }
    r = c.post("/api/matches", json=payload, headers=admin())
    assert r.status_code == 201, r.text
    return r.json()


def envelope(mid: str, command: dict[str, Any], *, cid: str | None = None, expected: int | None = None) -> dict[str, Any]:
    env: dict[str, Any] = {"id": cid or str(uuid.uuid4()), "match_id": mid, "command": command}
    if expected is not None:
        env["expected_version"] = expected
    return env
