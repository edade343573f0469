"""GET /api/matches?status=live at a big venue: hub/matches/listings.py against the per-match reads it
replaced, measured in the same run on the same database.

Every open index page polls that listing every 10 s, so 500 pages are 50 listings a second.

    python bench/listing_bench.py [--matches 300] [--rounds 30]

Cases (each the median of --rounds listings; ms of the hub's event loop per listing):
    per-match reads   one query and a short form per row (the listing before hub/matches/listings.py)
    cold              a process that knows none of the matches: 3 queries, every match folded
    one changed       the usual case: one match moved since the last listing (1 query, 1 short form)
    cached            within LISTING_TTL_S of the last listing, nothing changed here (no query)
Then the whole ASGI stack (in the hub's loop, no socket) for a cached listing and a 304 revalidation.
The last column is what 500 index pages polling every 10 s would cost at that figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from hub.app import create_app
from hub.matches.listings import Listings
from hub.settings import Settings
from hub.store import catalog

ADMIN = "bench-admin"
H = {"Authorization": f"Bearer {ADMIN}"}


def setup(c: TestClient, n: int) -> list[tuple[str, str]]:
    tid = c.post("/api/tournaments", json={"name": "Bench"}, headers=H).json()["id"]
    out = []
    for i in range(n):
        tb = c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i}"}, headers=H).json()
        m = c.post("/api/matches", headers=H, json={
            "tournament_id": tid, "table_id": tb["id"], "discipline": "golden_nine",
            "players": [{"id": "a", "name": f"A{i}"}, {"id": "b", "name": f"B{i}"}], "format": {"racks": 9},
            "options": {"shot_clock": {"shot_s": 600}}}).json()
        auth = {"Authorization": f"Bearer {tb['token']}"}
        for cmd in ({"kind": "start", "breaker": "a"},
                    {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "break_crossings": 4},
                    {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": []}):
            c.post(f"/api/matches/{m['id']}/commands", headers=auth,
                   json={"id": str(uuid.uuid4()), "match_id": m["id"], "command": cmd})
        out.append((m["id"], tb["token"]))
    return out


def timed(c: TestClient, fn: Callable[[], Any], rounds: int, before: Callable[[], None] | None = None) -> list[float]:
    xs = []
    for _ in range(rounds):
        if before is not None:
            before()
        t0 = time.perf_counter()
        c.portal.call(fn)  # type: ignore[union-attr]
        xs.append((time.perf_counter() - t0) * 1000)
    return xs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'b.db'}", admin_token=ADMIN)
        with TestClient(create_app(settings)) as c:
            matches = setup(c, args.matches)
            state = c.app.state.services

            async def per_match() -> bytes:
                rows = await catalog.list_matches(state.engine, status="live")
                shorts = [await state.writer.short_projection(r.id) for r in rows]
                return json.dumps({"matches": shorts}, separators=(",", ":")).encode()

            async def listing() -> bytes:
                return (await state.listings.match_list("live")).body

            fresh: list[Listings] = []

            async def cold() -> bytes:
                return (await fresh[-1].match_list("live")).body

            def new_listings() -> None:
                fresh.append(Listings(state.engine, state.rules, state.writer))

            async def fold_cold() -> bytes:  # nothing in the writer's memory either
                return (await fresh[-1].match_list("live")).body

            def forget_all() -> None:
                new_listings()
                fresh[-1]._writer = type("NoMemory", (), {"cached_state": staticmethod(lambda mid: None),
                                                          "subscribe": staticmethod(lambda f: (lambda: None))})()

            k = [0]

            def change_one() -> None:
                mid, token = matches[k[0] % len(matches)]
                k[0] += 1
                c.post(f"/api/matches/{mid}/commands", headers={"Authorization": f"Bearer {token}"},
                       json={"id": str(uuid.uuid4()), "match_id": mid, "command": {"kind": "pause"}})
                c.post(f"/api/matches/{mid}/commands", headers={"Authorization": f"Bearer {token}"},
                       json={"id": str(uuid.uuid4()), "match_id": mid, "command": {"kind": "resume"}})

            assert c.portal.call(per_match) == c.portal.call(listing)  # the same answer, byte for byte
            results = {
                "per-match reads": timed(c, per_match, args.rounds),
                "cold (writer memory)": timed(c, cold, args.rounds, before=new_listings),
                "cold (folded)": timed(c, fold_cold, max(3, args.rounds // 5), before=forget_all),
                "one changed": timed(c, listing, args.rounds, before=change_one),
                "cached": timed(c, listing, args.rounds),
            }
            async def over_http() -> dict[str, list[float]]:
                # The whole ASGI stack (middleware, routing, handler), in the hub's own loop.
                out: dict[str, list[float]] = {"HTTP cached 200": [], "HTTP 304": []}
                async with httpx.AsyncClient(transport=httpx.ASGITransport(app=c.app), base_url="http://hub") as h:
                    etag = (await h.get("/api/matches?status=live")).headers["etag"]
                    for _ in range(args.rounds):
                        t0 = time.perf_counter()
                        assert (await h.get("/api/matches?status=live")).status_code == 200
                        out["HTTP cached 200"].append((time.perf_counter() - t0) * 1000)
                        t0 = time.perf_counter()
                        r = await h.get("/api/matches?status=live", headers={"If-None-Match": etag})
                        assert r.status_code == 304
                        out["HTTP 304"].append((time.perf_counter() - t0) * 1000)
                return out

            http = c.portal.call(over_http)  # type: ignore[union-attr]
    base = statistics.median(results["per-match reads"])
    print(f"{args.matches} live matches, GET /api/matches?status=live, median of {args.rounds}:")
    for name, xs in {**results, **http}.items():
        med = statistics.median(xs)
        print(f"  {name:22s} {med:9.3f} ms  ({med / base:7.4f}x per-match)  500 pages / 10 s: "
              f"{med * 50 / 10:6.2f} % of a core")


if __name__ == "__main__":
    main()
