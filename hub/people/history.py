"""Keeping the read models of people across events from the stored streams (the truth).

`History.refresh_match(mid)`: a finished match's rows (hub/people/facts.py) made from its stored
events (hub/people/stats.py, folded off the event loop), and its players' entries' statistics
summed again; a match that is no longer finished (reopened by an undo) loses its rows. Rows are
replaced only by a newer version's, so a slow writer never puts back an older picture.

`History.refresh_tournament(tid)`: the entries' name, status and place (once the draw is finished:
hub/tournaments/results.py's placings), and the draw's walkovers (listed as matches, counted as
none), from the tournament's fold; `history_heads` remembers the version they were made from.

Both are idempotent: any process may run either at any time (hub/people/keeper.py runs them after
its own writes and sweeps for what another process left; `cuehub people rebuild` runs them all).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.people import facts, stats
from hub.rules.state import MatchState
from hub.store import catalog, match_events
from hub.store import history as rows
from hub.store.db import now_ms
from hub.store.schema import people, people_entries
from hub.tournaments import results
from hub.tournaments.round_names import namer
from hub.tournaments.writer import TournamentWriter

log = logging.getLogger(__name__)

class NotFoldable(Exception):
    """The hub runs on a stand-in rules engine (tests): there are no strokes to count."""


MATCH_STATS_KEPT = 256  # live matches' statistics kept by version (GET /api/matches/{mid}/stats)


def _round_info(draw: dict[str, Any] | None, key: str | None) -> dict[str, Any] | None:
    if not draw or key is None:
        return None
    entry = next((m for m in draw.get("matches") or [] if m.get("key") == key), None)
    if entry is None:
        return {"key": key, "round": None, "name": key, "name_zh": key}
    return {"key": key, "round": entry.get("round"), "name": namer(draw)(entry), "name_zh": namer(draw, "zh")(entry)}


def _discipline_of(proj: dict[str, Any], entry: dict[str, Any]) -> str:
    draw = proj.get("draw") or {}
    stages = draw.get("stages") or []
    template = draw.get("match") or {}
    if entry.get("stage") == 2 and len(stages) > 1:
        discipline = (stages[1].get("match") or {}).get("discipline")
        if discipline:
            return str(discipline)
    return str(template.get("discipline") or "")  # every draw's match names its discipline


def entry_view(proj: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """player id -> {name, status, place} as the tournament's projection says now."""
    draw = proj.get("draw") or {}
    places: dict[str, int | None] = {}
    if draw.get("status") == "finished":
        places = {r["player"]: r["place"] for r in results.placings(proj)}
    return {p["id"]: {"name": p["name"], "status": p.get("status"), "place": places.get(p["id"])}
            for p in proj.get("players") or []}


async def _decided_at(conn: Any, tid: str, state: Any, entry: dict[str, Any]) -> int:
    """When a walkover was decided: the time of its `walkover` event, or of the withdrawal that made
    it (the stream's times, so a rebuild dates it the same)."""
    given = state.walkovers.get(entry["key"])
    versions = [given.version] if given is not None else [
        state.withdrawn_at[p] for p in entry["players"] if p in state.withdrawn_at]
    at = await rows.event_time(conn, tid, max(versions)) if versions else None
    return at if at is not None else now_ms()


class History:
    def __init__(self, engine: AsyncEngine, rules: Any, tournaments: TournamentWriter) -> None:
        self._engine = engine
        self._rules = rules
        self._tournaments = tournaments
        self._kept: OrderedDict[tuple[str, int], stats.MatchStats] = OrderedDict()

    async def cached_match_stats(self, row: catalog.MatchRow) -> stats.MatchStats:
        """A match's statistics now: folded once per version of the match (the store's head), so a
        commentator's screen asking after every stroke folds each version once."""
        version = await match_events.head_version(self._engine, row.id)
        key = (row.id, version)
        found = self._kept.get(key)
        if found is None or found.state.version != version:
            found = await self.match_stats(row)
            self._kept[(row.id, found.state.version)] = found
            while len(self._kept) > MATCH_STATS_KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end((row.id, found.state.version))
        return found

    async def entry_people(self, tid: str, player_ids: list[str]) -> dict[str, str]:
        """player id -> the person the entry is now (merges followed), for the entries that exist."""
        if not player_ids:
            return {}
        e, p = people_entries, people
        async with self._engine.connect() as conn:
            found = await conn.execute(
                sa.select(e.c.player_id, e.c.person_id, p.c.merged_into)
                .select_from(e.join(p, p.c.id == e.c.person_id))
                .where(e.c.tournament_id == tid, e.c.player_id.in_(sorted(set(player_ids)))))
            return {r.player_id: r.merged_into or r.person_id for r in found}

    async def _draw(self, tid: str) -> dict[str, Any] | None:
        state = await self._tournaments.state(tid)
        return None if state is None else self._tournaments.projection(state).get("draw")

    async def match_stats(self, row: catalog.MatchRow) -> stats.MatchStats:
        """What a match's stored events say (folded in a thread: a long match takes milliseconds)."""
        events = await match_events.read_events(self._engine, row.id)
        setup = self._rules.validate_setup(row.setup, match_id=row.id, tournament_id=row.tournament_id,
                                           table_id=row.table_id)
        if not isinstance(self._rules.initial(setup), MatchState):
            raise NotFoldable(row.id)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, stats.match_tallies, self._rules, setup, events)

    async def refresh_match(self, mid: str) -> None:
        row = await catalog.get_match(self._engine, mid)
        async with self._engine.connect() as conn:
            kept = await rows.match_version(conn, mid)
        if row is None or row.status != "finished":
            if kept is not None:
                async with self._engine.begin() as conn:
                    await rows.sum_entry_stats(conn, await rows.drop(conn, [mid]))
            return
        if kept is not None and kept >= row.version:
            return
        try:
            found = await self.match_stats(row)
        except NotFoldable:
            return
        if found.state.status != "finished":
            return  # reopened since the row was read: the undo's own refresh will see it
        draw = await self._draw(row.tournament_id) if row.draw_key else None
        match, players = facts.match_rows(row.tournament_id, mid, found.state.version, row.draw_key,
                                          _round_info(draw, row.draw_key), found, facts.member_entries(row.setup))
        entries = [(row.tournament_id, p["player_id"]) for p in players]
        async with self._engine.begin() as conn:
            await rows.lock_entries(conn, entries)
            kept = await rows.match_version(conn, mid)
            if kept is not None and kept >= found.state.version:
                return
            had = await rows.drop(conn, [mid])
            await rows.put(conn, match, players)
            await rows.sum_entry_stats(conn, entries + had)

    async def refresh_tournament(self, tid: str) -> None:
        state = await self._tournaments.state(tid)
        if state is None:
            return
        proj = self._tournaments.projection(state)
        try:
            async with self._engine.begin() as conn:
                if await rows.head(conn, "tournament", tid) >= state.version:
                    return
                now = await rows.entries_of(conn, tid)
                wanted = entry_view(proj)
                await rows.set_entries(conn, tid, {pid: v for pid, v in wanted.items() if pid in now and now[pid] != v})
                await self._walkovers(conn, tid, proj, state)
                await rows.set_head(conn, "tournament", tid, state.version)
        except IntegrityError:
            log.info("tournament %s: another process refreshed its entries first", tid)

    async def _walkovers(self, conn: Any, tid: str, proj: dict[str, Any], state: Any) -> None:
        draw = proj.get("draw") or {}
        kept = await rows.walkovers_of(conn, tid)
        names = {p["id"]: p["name"] for p in proj.get("players") or []}
        wanted = {facts.walkover_ref(tid, m["key"]): m for m in draw.get("matches") or [] if facts.is_walkover(m)}
        await rows.drop(conn, [ref for ref in kept if ref not in wanted])
        for ref, entry in wanted.items():
            old = kept.get(ref)
            players = [p for p in entry["players"] if p != "bye"]
            if old is not None and old["winner"] == entry.get("winner") and old["players"] == players:
                continue
            at = old["at"] if old is not None else await _decided_at(conn, tid, state, entry)
            match, players_rows = facts.walkover_rows(tid, entry, names, _discipline_of(proj, entry),
                                                      _round_info(draw, entry["key"]), at)
            await rows.drop(conn, [ref])
            await rows.put(conn, match, players_rows)
