"""`cuehub people rebuild`: make people's links and read models again from the stored streams.

The tournament events carry every entry's link (`players_added`' `person` and `link`,
`player_updated`'s `person`, `players_linked`); the match events carry every stroke. So:
1. each tournament's entry rows (`people_entries`: person, link) are compared with its events and
   rewritten where they differ (the events win); an entry whose events name no person (a store
   written by a hub without people after the upgrade) is linked by the rule and its tournament
   gets a `players_linked` event;
2. the read models are dropped (matches, walkovers, heads, entries' status, places and statistics)
   and made again: every tournament's entries and walkovers, every finished match's rows
   (hub/people/history.py, the same code the running hub uses).
The directory itself (people, aliases, merges) is not derived from anything: it is kept as is.
Best run with the hubs stopped (right after `cuehub migrate` on a big store, so the hub does not
make the read models at its start); every step is idempotent, and a running hub's keeper puts back
whatever it refreshes meanwhile (a tournament event stored at the same moment as step 1's stops the
command: run it again). Progress on stderr, a summary on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub import draws
from hub.people import linking
from hub.people.history import History
from hub.settings import Settings
from hub.store import directory
from hub.store import tournament_events as streams
from hub.store.db import now_ms
from hub.store.schema import history_heads, history_matches, history_players, matches, people_entries, tournaments
from hub.tournaments.writer import TournamentWriter

Link = tuple[str | None, str, str]  # (person, link, name played under)


def links_from_events(events: Iterable[Any]) -> dict[str, Link]:
    """player id -> (person, link, name) as a tournament's events say. Pure."""
    out: dict[str, Link] = {}
    for event in events:
        data = event.data
        if event.kind == "players_added":
            for p in data.get("players") or []:
                if p.get("members") is not None:  # a team: its members are the entries (PROTOCOL.md section 15)
                    out.update(_member_links(p["members"]))
                    continue
                out[p["id"]] = (p.get("person"), p.get("link") or linking.LINKED, p["name"])
        elif event.kind == "player_updated" and "members" in (data.get("changes") or {}):
            for pid in [k for k in out if k.startswith(f"{data['player']}.")]:
                del out[pid]
            out.update(_member_links(data["changes"]["members"]))
        elif event.kind == "player_updated" and data.get("player") in out:
            person, link, name = out[data["player"]]
            changes = data.get("changes") or {}
            if "person" in changes:
                person, link = changes["person"], linking.LINKED
            out[data["player"]] = (person, link, changes.get("name", name))
        elif event.kind == "player_removed":  # gone before the draw: no entry, no link
            out.pop(data.get("player"), None)
            for pid in [k for k in out if k.startswith(f"{data.get('player')}.")]:  # a team's members
                del out[pid]
        elif event.kind == "players_linked":
            made = set(data.get("created") or [])
            for pid, person in (data.get("links") or {}).items():
                if pid in out:
                    out[pid] = (person, linking.CREATED if pid in made else linking.LINKED, out[pid][2])
    return out


def _member_links(members: Iterable[dict[str, Any]]) -> dict[str, Link]:
    return {m["id"]: (m.get("person"), m.get("link") or linking.LINKED, m.get("name") or m["id"]) for m in members}


async def _relink(engine: AsyncEngine, tid: str, report: dict[str, int]) -> None:
    events = await streams.read(engine, tid)
    wanted = links_from_events(events)
    async with engine.begin() as conn:
        rows = {r.player_id: (r.person_id, r.link) for r in await conn.execute(
            sa.select(people_entries.c.player_id, people_entries.c.person_id, people_entries.c.link)
            .where(people_entries.c.tournament_id == tid))}
        unlinked = {pid: name for pid, (person, _, name) in wanted.items() if person is None}
        fixed = {pid: (person, link, name) for pid, (person, link, name) in wanted.items()
                 if person is not None and rows.get(pid) != (person, link)}
        if unlinked:
            await directory.lock(conn)
            now, taken = now_ms(), {p for p, _, _ in wanted.values() if p}
            made: list[str] = []
            for pid, name in unlinked.items():
                person, link = await linking.link_one(conn, name, None, None, now, taken)
                taken.add(person)
                fixed[pid] = (person, link, name)
                if link == linking.CREATED:
                    made.append(pid)
            version = (events[-1].version if events else 0) + 1
            await streams.append(conn, tid, draws.TournamentEvent(
                version, "players_linked", {"links": {pid: fixed[pid][0] for pid in unlinked}, "created": made}, now))
        await linking.write_links(conn, tid, {pid: (str(p), link, name) for pid, (p, link, name) in fixed.items()},
                                  events[-1].version if events else 0)
        gone = sorted(set(rows) - set(wanted))
        if gone:
            await conn.execute(people_entries.delete().where(people_entries.c.tournament_id == tid,
                                                             people_entries.c.player_id.in_(gone)))
    report["entries relinked"] += len(fixed) + len(gone)


async def rebuild(engine: AsyncEngine, rules: Any, *, progress: bool = True) -> dict[str, Any]:
    t0 = time.perf_counter()
    report = {"tournaments": 0, "entries relinked": 0, "finished matches": 0}
    async with engine.connect() as conn:
        tids = [r.id for r in await conn.execute(sa.select(tournaments.c.id).order_by(tournaments.c.n))]
        mids = [r.id for r in await conn.execute(
            sa.select(matches.c.id).where(matches.c.status == "finished").order_by(matches.c.n))]
    for tid in tids:
        await _relink(engine, tid, report)
    async with engine.begin() as conn:
        await conn.execute(history_players.delete())
        await conn.execute(history_matches.delete())
        await conn.execute(history_heads.delete())
        await conn.execute(people_entries.update().values(status=None, place=None, stats=None))
    history = History(engine, rules, TournamentWriter(engine, draws))
    for i, tid in enumerate(tids, 1):
        await history.refresh_tournament(tid)
        report["tournaments"] = i
        _progress(progress, "tournaments", i, len(tids), t0)
    for i, mid in enumerate(mids, 1):
        await history.refresh_match(mid)
        report["finished matches"] = i
        _progress(progress, "matches", i, len(mids), t0)
    return {**report, "seconds": round(time.perf_counter() - t0, 3)}


def _progress(on: bool, what: str, done: int, total: int, t0: float) -> None:
    if on and (done == total or done % 1000 == 0):
        print(f"people rebuild: {what} {done}/{total} ({time.perf_counter() - t0:.1f}s)", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cuehub people rebuild",
                                 description="make people's links and read models again from the stored events")
    ap.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL")
    ap.add_argument("--no-progress", action="store_true", help="no progress output on stderr")
    args = ap.parse_args(list(argv) if argv is not None else None)

    from hub.store.db import make_engine, migrate

    settings = Settings.from_env()
    if args.database_url:
        settings = settings.with_(database_url=args.database_url)
    rules = importlib.import_module("hub.rules")

    async def run() -> dict[str, Any]:
        engine = make_engine(settings)
        try:
            await migrate(engine)
            return await rebuild(engine, rules, progress=not args.no_progress)
        finally:
            await engine.dispose()

    report = asyncio.run(run())
    print("people rebuild: " + ", ".join(f"{k} {v}" for k, v in report.items()))
    return 0
