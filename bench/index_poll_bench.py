"""500 open index pages against a real `cuehub serve` on PostgreSQL: each polls
`GET /api/matches?status=live` every 10 s (50 listings a second) at 300 live matches, for 20 s,
first with plain 200s, then sending the ETag back (304s). Prints the hub process's CPU time
(/proc/<pid>/stat) as a share of a core, and the latency median and p99.

    PYTHONPATH=.:clients/python python bench/index_poll_bench.py
"""
import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tests"))
sys.path.insert(0, str(HERE / "tests" / "faults"))
sys.path.insert(0, str(HERE))

import test_bounds_procs as T  # noqa: E402 - from tests/, on sys.path just above
from spine_helpers import PG_URL  # noqa: E402

from tests.hubproc import HubProcess, pg_execute  # noqa: E402

schema = "t_" + uuid.uuid4().hex[:12]
dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")
pg_execute(dsn, f'CREATE SCHEMA "{schema}"')
wd = Path(tempfile.mkdtemp(prefix="cuehub-poll-"))
h = HubProcess(PG_URL, wd, schema=schema)
h.start()


def cpu(pid):
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
try:
    H = {"Authorization": f"Bearer {T.ADMIN}"}
    with httpx.Client(base_url=h.base, timeout=30) as c:
        tid = c.post("/api/tournaments", json={"name": "Big"}, headers=H).json()["id"]
        for i in range(300):
            tb = c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i}"}, headers=H).json()
            m = c.post(
                "/api/matches",
                headers=H,
                json={
                    "tournament_id": tid,
                    "table_id": tb["id"],
                    "discipline": "golden_nine",
                    "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                    "format": {"racks": 3},
                },
            ).json()
            r = c.post(
                f"/api/matches/{m['id']}/commands",
                json=T._env(m["id"], T.START),
                headers={"Authorization": f"Bearer {tb['token']}"},
            )
            assert r.status_code == 200
        live = c.get("/api/matches?status=live").json()
        n = len(live["matches"]) if isinstance(live, dict) else len(live)
        print("live matches listed:", n)
    async def poll(seconds, rate, etag):
        lat = []
        async with httpx.AsyncClient(base_url=h.base, timeout=30, limits=httpx.Limits(max_connections=50)) as ac:
            tag = None
            async def one():
                nonlocal tag
                hd = {"If-None-Match": tag} if (etag and tag) else {}
                t0 = time.perf_counter()
                r = await ac.get("/api/matches?status=live", headers=hd)
                lat.append(time.perf_counter() - t0)
                assert r.status_code in (200, 304)
                tag = r.headers.get("etag", tag)
            tasks = []
            start = time.perf_counter()
            k = 0
            while time.perf_counter() - start < seconds:
                tasks.append(asyncio.create_task(one()))
                k += 1
                await asyncio.sleep(max(0, start + k / rate - time.perf_counter()))
            await asyncio.gather(*tasks)
        lat.sort()
        return len(lat), lat[len(lat)//2], lat[int(len(lat)*0.99)]
    for etag in (False, True):
        c0 = cpu(h.proc.pid)
        t0 = time.perf_counter()
        n, med, p99 = asyncio.run(poll(20, 50, etag))
        used = cpu(h.proc.pid) - c0
        wall = time.perf_counter() - t0
        print(
            f"500 pages (50 listings/s) {'with ETag (304s)' if etag else 'plain 200s'}: {n} listings in "
            f"{wall:.1f} s, hub CPU {used:.2f} s = {100 * used / wall:.1f} % of a core, "
            f"median {med * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
        )
finally:
    h.stop()
    pg_execute(dsn, f'DROP SCHEMA "{schema}" CASCADE')
