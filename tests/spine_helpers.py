"""Helpers for the spine's tests (importable as `spine_helpers`: tests/ is put on sys.path by
tests/conftest.py; a module of its own because several conftest.py files exist)."""

from __future__ import annotations

import os
import socket
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

ADMIN = "test-admin-token"
PG_URL = os.environ.get("HUB_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def pg_available() -> bool:
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


def envelope(
    mid: str, command: dict[str, Any], *, cid: str | None = None, expected: int | None = None
) -> dict[str, Any]:
    env: dict[str, Any] = {"id": cid or str(uuid.uuid4()), "match_id": mid, "command": command}
    if expected is not None:
        env["expected_version"] = expected
    return env
