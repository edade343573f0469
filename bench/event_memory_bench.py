"""Memory per stored event on a long event day: a hub's RSS while match after match is played to
its end, with the bound on finished matches (HUB_FINISHED_MATCH_CACHE: the writer's cache and the
watch history of `since`) against the same hub without it, measured in the same run.

    python bench/event_memory_bench.py [--matches 60] [--shots 150] [--repeat 1]

Each row is a fresh `cuehub serve` (SQLite in a temporary directory, memory bus, the tablet rate
limit lifted), driven over HTTP as a tablet drives it: per match a start, a break, `--shots` legal
misses and a concession (golden_nine, 9 racks). One warm-up match is played before the first RSS
reading, so code paths and first allocations are in the baseline of both rows.

- **baseline** (printed first): the bound lifted (HUB_MATCH_CACHE and HUB_FINISHED_MATCH_CACHE
  100,000): every finished match keeps its folded state, its command ids and its watch history
  (each update there holds the whole projection), what the hub did before the bound;
- **bounded**: the defaults (512 matches in memory, 16 of them finished).

Printed per row: RSS before and after, the events stored, RSS growth per stored event (KB) over
the whole run and over its second half (once the bound is full, a bounded hub should not grow at
all), and the ratio of the bounded row's growth per event to the baseline's (lower is better). Each
figure of `--repeat N` runs is printed, then the medians. The machine's load is printed with the
figures: no figure is final on a shared box.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
ADMIN = "memory-bench-admin"
AUTH = {"Authorization": f"Bearer {ADMIN}"}
GOLDEN = {"discipline": "golden_nine", "format": {"racks": 9}}
UNBOUNDED = {"HUB_MATCH_CACHE": "100000", "HUB_FINISHED_MATCH_CACHE": "100000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_hub(workdir: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    full = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "PYTHONPATH": str(ROOT), "HUB_TABLE_RATE": "100000",
            "HUB_TABLE_BURST": "100000", **env}
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


def play_match(c: httpx.Client, tid: str, n: int, shots: int) -> int:
    """One golden_nine match on a table of its own, played to its end; the events it stored."""
    table = c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{n}"}, headers=AUTH).json()
    body = {"tournament_id": tid, "table_id": table["id"], **GOLDEN,
            "players": [{"id": "a", "name": f"Player A{n}"}, {"id": "b", "name": f"Player B{n}"}]}
    mid = c.post("/api/matches", json=body, headers=AUTH).json()["id"]
    tablet = {"Authorization": f"Bearer {table['token']}"}
    miss: dict[str, Any] = {"kind": "shot", "first_contact": 1, "pocketed": [], "rail": True}
    commands = [{"kind": "start", "breaker": "a"}, {**miss, "break_crossings": 4},
                *[miss] * shots, {"kind": "concede", "scope": "match"}]
    version = 0
    for command in commands:
        r = c.post(f"/api/matches/{mid}/commands", headers=tablet,
                   json={"id": str(uuid.uuid4()), "match_id": mid, "command": command})
        r.raise_for_status()
        version = r.json()["version"]
    assert c.get(f"/api/matches/{mid}").json()["status"] == "finished"
    return version


def run_row(env: dict[str, str], matches: int, shots: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="cuehub-memory-") as tmp:
        proc, base = start_hub(Path(tmp), env)
        try:
            with httpx.Client(base_url=base, timeout=30) as c:
                tid = c.post("/api/tournaments", json={"name": "A long day"}, headers=AUTH).json()["id"]
                play_match(c, tid, 0, shots)  # the warm-up
                time.sleep(0.5)
                before = rss_kb(proc.pid)
                half = matches // 2
                events = sum(play_match(c, tid, n, shots) for n in range(1, half + 1))
                time.sleep(0.5)
                middle = rss_kb(proc.pid)
                later = sum(play_match(c, tid, n, shots) for n in range(half + 1, matches + 1))
                time.sleep(0.5)
                after = rss_kb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    return {"before_mb": before / 1024, "after_mb": after / 1024, "events": events + later,
            "kb_per_event": (after - before) / (events + later), "kb_per_later_event": (after - middle) / later}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=60)
    ap.add_argument("--shots", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    print(f"{args.matches} golden_nine matches of {args.shots + 3} events each, one after the other; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    rows: dict[str, list[dict[str, float]]] = {"baseline": [], "bounded": []}
    ratios = []
    for run in range(args.repeat):
        for name, env in (("baseline", UNBOUNDED), ("bounded", {})):
            row = run_row(env, args.matches, args.shots)
            rows[name].append(row)
            print(f"  run {run + 1} {name:8}: RSS {row['before_mb']:.1f} -> {row['after_mb']:.1f} MB for "
                  f"{row['events']:.0f} events: {row['kb_per_event']:.2f} KB per stored event "
                  f"({row['kb_per_later_event']:.2f} KB in the second half)", flush=True)
        base, bounded = rows["baseline"][-1]["kb_per_event"], rows["bounded"][-1]["kb_per_event"]
        ratios.append(bounded / base if base > 0 else float("nan"))
        print(f"  run {run + 1} bounded / baseline: {ratios[-1]:.3f}x per stored event", flush=True)
    med = {name: statistics.median(r["kb_per_event"] for r in runs) for name, runs in rows.items()}
    later = {name: statistics.median(r["kb_per_later_event"] for r in runs) for name, runs in rows.items()}
    print(f"median KB per stored event: baseline {med['baseline']:.2f} ({later['baseline']:.2f} in the second "
          f"half), bounded {med['bounded']:.2f} ({later['bounded']:.2f}); ratio {statistics.median(ratios):.3f}x "
          f"(load average now {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
