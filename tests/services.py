"""The machine's services as the tests use them: PostgreSQL and Redis at 127.0.0.1 (required
in CI: a missing one fails there and skips locally with the reason), and free loopback ports."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Callable
from typing import Any

import pytest

REDIS_HOST = os.environ.get("HUB_TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("HUB_TEST_REDIS_PORT", "6379"))


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def require_service(name: str, host: str, port: int) -> None:
    if reachable(host, port):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{name} at {host}:{port} is required when CI is set")
    pytest.skip(f"{name} at {host}:{port} is not reachable")


def require_redis() -> None:
    require_service("Redis", REDIS_HOST, REDIS_PORT)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_execute(dsn: str, sql: str) -> None:
    """One SQL statement on PostgreSQL, outside any hub (to make or break a test schema)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


def wait_until(check: Callable[[], Any], timeout: float = 10.0, what: str = "", interval: float = 0.05) -> Any:
    """Poll `check` until it returns something true (returned), or fail after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(interval)


async def wait_until_async(check: Callable[[], Any], timeout: float = 10.0, what: str = "",
                           interval: float = 0.02) -> Any:
    """`wait_until` inside a running event loop: the loop keeps running between the checks."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        await asyncio.sleep(interval)
