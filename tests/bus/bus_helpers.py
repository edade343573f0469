"""Redis helpers for the bus tests (a module of its own: several conftest.py files exist)."""

from __future__ import annotations

import os
import socket

import pytest

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def require_redis() -> None:
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=1):
            return
    except OSError:
        pass
    if os.environ.get("CI"):
        pytest.fail(f"Redis at {REDIS_HOST}:{REDIS_PORT} is required when CI is set")
    pytest.skip(f"Redis at {REDIS_HOST}:{REDIS_PORT} is not reachable")


def kill_clients(name_prefix: str) -> int:
    """CLIENT KILL the connections whose name starts with `name_prefix` (only ours: the names
    carry the bus's random origin id). Returns how many were killed."""
    import redis

    r = redis.Redis(host=REDIS_HOST, port=REDIS_PORT)
    try:
        n = 0
        for c in r.client_list():
            if c.get("name", "").startswith(name_prefix):
                n += int(r.client_kill_filter(_id=c["id"]))
        return n
    finally:
        r.close()
