"""Redis helpers for the bus tests (a module of its own: several conftest.py files exist)."""

from __future__ import annotations

from tests.services import REDIS_HOST, REDIS_PORT, require_redis  # noqa: F401 - the bus tests' names


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
