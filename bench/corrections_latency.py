"""How long a correction takes to reach a tablet and a watcher (wall time, a real hub process).

    python bench/corrections_latency.py [--rounds 10] [--processes 2]

A hub (`cuehub serve`, SQLite; with `--processes 2`: two hubs on one PostgreSQL database and the
Redis bus, the desk on A, the tablet and the watcher on B) runs a 4-player race-to-2 draw on two
tables. A tablet is paired to the first table (`/ws/tables/...`) and a watcher subscribes to
`table:` and `tournament:` (`/ws/watch`). Each round the desk enters W1-1's result by hand
(`POST /api/matches/{mid}/result`), then reopens it (`POST .../draw/W1-1/reopen`: the next match
called meanwhile leaves the table, the first match is back on it). For each, the time from sending
the call to the tablet's `state` showing it, and to the watchers' `update`, is printed (median and
worst over the rounds), next to the call's own answer time measured in the same run: the baseline
(what the desk waits for anyway).
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
import websockets

HERE = Path(__file__).resolve().parents[1]
ADMIN = "latency-admin"
PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
HEAD = {"Authorization": f"Bearer {ADMIN}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_hub(workdir: Path, database_url: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = open(workdir / f"hub-{port}.log", "wb")  # noqa: SIM115 - kept open for the process
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--port", str(port), "--database-url",
                             database_url, "--log-level", "warning"], cwd=workdir, stdout=log,
                            stderr=subprocess.STDOUT, env={**os.environ, "HUB_ADMIN_TOKEN": ADMIN, **env})
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the hub did not start")


class Listener:
    """A socket whose messages are kept with their arrival time."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[tuple[float, dict[str, Any]]] = []
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            self.seen.append((time.perf_counter(), json.loads(raw)))

    async def first(self, since: float, pred: Any, within_s: float = 10.0) -> float:
        deadline = time.perf_counter() + within_s
        while time.perf_counter() < deadline:
            for at, msg in self.seen:
                if at >= since and pred(msg):
                    return at
            await asyncio.sleep(0.001)
        raise TimeoutError("never arrived")


async def run(rounds: int, processes: int) -> dict[str, list[float]]:
    workdir = Path(tempfile.mkdtemp(prefix="cuehub-latency-"))
    schema = None
    if processes == 2:
        schema = "lat_" + uuid.uuid4().hex[:8]
        await pg(f'CREATE SCHEMA "{schema}"')
        env = {"HUB_BUS_URL": "redis://127.0.0.1:6379/0", "HUB_DATABASE_SCHEMA": schema}
        hubs = [start_hub(workdir, PG, env)]
        hubs.append(start_hub(workdir, PG, env))
    else:
        hubs = [start_hub(workdir, f"sqlite+aiosqlite:///{workdir / 'hub.db'}", {})]
    desk, seen_by = hubs[0][1], hubs[-1][1]
    figures: dict[str, list[float]] = {k: [] for k in ("result answer", "result -> tablet", "result -> watcher",
                                                       "reopen answer", "reopen -> tablet", "reopen -> watcher",
                                                       "move answer", "move -> match_left")}
    try:
        async with httpx.AsyncClient(base_url=desk, headers=HEAD, timeout=30) as c:
            tid = (await c.post("/api/tournaments", json={"name": "Latency"})).json()["id"]
            tables = [(await c.post(f"/api/tournaments/{tid}/tables", json={"name": f"Table {i}"})).json()
                      for i in (1, 2)]
            await c.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": f"P{i}"} for i in range(4)]})
            draw = (await c.post(f"/api/tournaments/{tid}/draw", json={
                "type": "single_elimination", "seeding": "random", "seed": 3,
                "match": {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}})).json()
            entry = next(m for m in draw["draw"]["matches"] if m["key"] == "W1-1")
            table = next(t for t in tables if t["id"] == entry["table_id"])
            ws_base = seen_by.replace("http", "ws")
            async with websockets.connect(f"{ws_base}/ws/tables/{table['id']}") as tab, \
                    websockets.connect(f"{ws_base}/ws/watch") as watch:
                await tab.send(json.dumps({"type": "auth", "token": table["token"]}))
                tablet = Listener(tab)
                await watch.send(json.dumps({"type": "subscribe", "channel": f"table:{table['id']}"}))
                watcher = Listener(watch)
                await asyncio.sleep(0.3)
                a, b = entry["players"]
                mid = entry["match_id"]
                for _ in range(rounds):
                    sent = time.perf_counter()
                    r = await c.post(f"/api/matches/{mid}/result", json={"winner": a, "score": {a: 2, b: 1}})
                    figures["result answer"].append(time.perf_counter() - sent)
                    assert r.status_code == 200, r.text

                    def finished(msg: dict[str, Any]) -> bool:
                        m = msg.get("match") if msg.get("type") == "state" else msg.get("data")
                        return isinstance(m, dict) and m.get("id") == mid and m.get("status") == "finished"

                    figures["result -> tablet"].append(await tablet.first(sent, finished) - sent)
                    figures["result -> watcher"].append(await watcher.first(sent, finished) - sent)
                    await asyncio.sleep(0.2)  # the flow calls the next match on the table
                    sent = time.perf_counter()
                    r = await c.post(f"/api/tournaments/{tid}/draw/W1-1/reopen")
                    figures["reopen answer"].append(time.perf_counter() - sent)
                    assert r.status_code == 200, r.text

                    def reopened(msg: dict[str, Any]) -> bool:
                        m = msg.get("match") if msg.get("type") == "state" else msg.get("data")
                        return isinstance(m, dict) and m.get("id") == mid and m.get("status") == "scheduled"

                    figures["reopen -> tablet"].append(await tablet.first(sent, reopened) - sent)
                    figures["reopen -> watcher"].append(await watcher.first(sent, reopened) - sent)
                    await asyncio.sleep(0.2)
                tablet.task.cancel()
                watcher.task.cancel()
            await moves(c, tid, ws_base, rounds, figures)
    finally:
        for proc, _ in hubs:
            proc.terminate()
            proc.wait(10)
        if schema is not None:
            await pg(f'DROP SCHEMA "{schema}" CASCADE')
    return figures


async def pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG.replace("postgresql+asyncpg", "postgresql"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def moves(c: httpx.AsyncClient, tid: str, ws_base: str, rounds: int, figures: dict[str, list[float]]) -> None:
    """A hand-made match moved between two more tables: the time to the left table's `match_left`."""
    spare = [(await c.post(f"/api/tournaments/{tid}/tables", json={"name": f"Spare {i}"})).json() for i in (1, 2)]
    body = {"tournament_id": tid, "table_id": spare[0]["id"], "discipline": "wpa_nine", "format": {"race_to": 3},
            "players": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}]}
    mid = (await c.post("/api/matches", json=body)).json()["id"]
    async with websockets.connect(f"{ws_base}/ws/tables/{spare[0]['id']}") as s0, \
            websockets.connect(f"{ws_base}/ws/tables/{spare[1]['id']}") as s1:
        tablets = []
        for ws, table in ((s0, spare[0]), (s1, spare[1])):
            await ws.send(json.dumps({"type": "auth", "token": table["token"]}))
            tablets.append(Listener(ws))
        await asyncio.sleep(0.3)
        at = 0
        for _ in range(rounds):
            to = 1 - at
            sent = time.perf_counter()
            r = await c.patch(f"/api/matches/{mid}", json={"table_id": spare[to]["id"]})
            figures["move answer"].append(time.perf_counter() - sent)
            assert r.status_code == 200, r.text
            left = await tablets[at].first(sent, lambda m: m.get("type") == "match_left")
            figures["move -> match_left"].append(left - sent)
            at = to
            await asyncio.sleep(0.1)
        for t in tablets:
            t.task.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    args = parser.parse_args()
    figures = asyncio.run(run(args.rounds, args.processes))
    print(f"{args.processes} process(es), {args.rounds} rounds; milliseconds, median / worst")
    for name, values in figures.items():
        ms = [v * 1000 for v in values]
        print(f"  {name:20s} {statistics.median(ms):7.1f} / {max(ms):7.1f}")


if __name__ == "__main__":
    main()
