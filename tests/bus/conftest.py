"""Bus tests: Redis (127.0.0.1:6379) and PostgreSQL; skipped locally when absent, failed under CI."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
for p in (str(_HERE), str(_HERE.parent / "watch")):
    if p not in sys.path:
        sys.path.insert(0, p)

from bus_helpers import REDIS_HOST, REDIS_PORT, require_redis  # noqa: E402


@pytest.fixture
def bus_url() -> str:
    """A Redis bus URL on a channel of its own, so concurrent test runs never hear each other."""
    require_redis()
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/0?channel=cuehub-test-{uuid.uuid4().hex[:10]}"
