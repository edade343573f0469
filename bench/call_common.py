"""What the sign-up, call and webhook benchmarks share (PROTOCOL.md sections 14 and 16): a fresh
`cuehub serve` on a SQLite file with the tablets' rate limit and the snapshot budget per address
lifted (every client of a bench is on this host), percentiles, and the load average to print
beside every figure (the box is shared)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.services import free_port  # noqa: E402

ADMIN = "venue-bench-admin"  # the admin token venue_bench.make_event signs with
AUTH = {"Authorization": f"Bearer {ADMIN}"}


def start_hub(workdir: Path, **env: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    full = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "PYTHONPATH": str(ROOT),
            "HUB_TABLE_RATE": "1000", "HUB_TABLE_BURST": "1000", "HUB_SNAPSHOTS_PER_ADDRESS": "1000000", **env}
    log = open(workdir / "hub.log", "wb")  # noqa: SIM115 - open for the process's life
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--port", str(port), "--database-url",
                             f"sqlite+aiosqlite:///{workdir / 'hub.db'}", "--log-level", "warning"],
                            cwd=workdir, env=full, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the hub did not start")


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
