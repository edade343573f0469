"""What the sign-up, call and webhook benchmarks share (PROTOCOL.md sections 14 and 16): a fresh
`cuehub serve` on a SQLite file with the tablets' rate limit and the snapshot budget per address
lifted (every client of a bench is on this host), percentiles, and the load average to print
beside every figure (the box is shared)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from venue_bench import start_hub  # noqa: E402,F401 - the benches here start their hub as venue_bench does

ADMIN = "venue-bench-admin"  # the admin token venue_bench.make_event signs with
AUTH = {"Authorization": f"Bearer {ADMIN}"}


def stop_hub(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def pct(values: list[float], p: int) -> float:
    """The p-th percentile (nearest rank of statistics.quantiles), 0 for no values."""
    if not values:
        return 0.0
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(sorted(values), n=100, method="inclusive")[p - 1]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "n/a"
