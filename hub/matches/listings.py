"""The list reads, in a constant number of queries and cheap when repeated:
`GET /api/matches` and the tables of `GET /api/tournaments/{tid}`.

Every open index page polls `GET /api/matches?status=live` (every 10 s), so 500 of them are
50 listings a second; folding each match per listing (what the writer's per-match reads would do)
cost one or more queries and a fold per match. Instead:

- one query reads the listed matches' ids and versions (`matches.version` is updated in the
  append's transaction, so it is the stream's head);
- a match's short form is kept per (id, version): from the writer's memory when it holds that
  version, else folded here; the matches that are not known at their version are read in two
  batched queries (their setups, their events), whatever their number;
- the whole answer (JSON bytes and ETag) is kept for LISTING_TTL_S. A change this process stores
  reaches it at once (writer listener): a match that only moved on (same status) has its short
  form replaced from the writer's memory, without a query; a new match or a change of status
  drops the cached answer. A change stored by another process shows within LISTING_TTL_S. A
  client sending the ETag back gets a 304.

So a listing is 0 queries (cached, or patched from this process's changes), 1 (the heads: nothing
changed or every changed match known) or 3.
bench/listing_bench.py measures it against the per-match reads.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.matches.writer import Change, MatchWriter
from hub.ops.conditional import etag_of
from hub.rules.interface import MatchRules
from hub.store import catalog
from hub.store import match_events as store
from hub.store.schema import matches, tables, tournaments

LISTING_TTL_S = 1.0
MAX_SHORTS = 20_000  # short forms kept (a few hundred bytes each)


@dataclass(frozen=True, slots=True)
class Listing:
    body: bytes
    etag: str
    built: float  # when its heads were read (the TTL runs from there)
    generation: int
    heads: tuple[tuple[str, int], ...] = ()  # (match id, version) listed, in order


class Listings:
    """Short forms per (match, version) and cached match listings, for one app."""

    def __init__(self, engine: AsyncEngine, rules: MatchRules, writer: MatchWriter,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._engine = engine
        self._rules = rules
        self._writer = writer
        self._clock = clock
        self._shorts: OrderedDict[str, tuple[int, dict[str, Any], str]] = OrderedDict()  # id -> (version, short, json)
        self._listings: dict[str | None, Listing] = {}
        self._generation = 0  # bumped by a change that can add or remove a listed match
        self._moved: dict[str, int] = {}  # match id -> latest version this process stored
        self._unsubscribe = writer.subscribe(self._on_change, "listings")

    def close(self) -> None:
        self._unsubscribe()

    def _on_change(self, change: Change) -> None:
        known = self._shorts.get(change.match_id)
        if change.event is None or known is None or known[1].get("status") != change.projection.get("status"):
            self._generation += 1  # new, unknown here, or moved between statuses: listings are stale
            self._moved.clear()
        else:
            self._moved[change.match_id] = change.version

    # --- GET /api/matches ------------------------------------------------------------------------

    async def match_list(self, status: str | None) -> Listing:
        """`{"matches": [short form, ...]}` newest first, as JSON bytes with their ETag."""
        cached = self._listings.get(status)
        now = self._clock()
        generation = self._generation
        if cached is not None and cached.generation == generation and now - cached.built < LISTING_TTL_S:
            heads = tuple((mid, max(v, self._moved.get(mid, v))) for mid, v in cached.heads)
            if heads == cached.heads:
                return cached
            built = cached.built  # patched from this process's changes: the TTL still runs from the read
        else:
            query = sa.select(matches.c.id, matches.c.version).where(matches.c.status != catalog.CANCELLED)
            if status is not None:
                query = query.where(matches.c.status == status)
            async with self._engine.connect() as conn:
                heads = tuple((r.id, int(r.version)) for r in await conn.execute(query.order_by(matches.c.n.desc())))
            built = now
        fragments = await self._fragments(list(heads))
        body = b'{"matches":[' + ",".join(f for f in fragments if f is not None).encode("utf-8") + b"]}"
        etag = cached.etag if cached is not None and cached.body == body else etag_of(body)
        listing = Listing(body, etag, built, generation, heads)
        self._listings[status] = listing
        return listing

    # --- GET /api/tournaments/{tid} --------------------------------------------------------------

    async def tournament(self, tid: str) -> dict[str, Any] | None:
        """PROTOCOL.md section 5: `{"id", "name", "version", "tables": [{"id", "name", "match"}]}`,
        the same as the writer's per-table reads give, in at most five queries."""
        async with self._engine.connect() as conn:
            t = (
                await conn.execute(sa.select(tournaments.c.id, tournaments.c.name).where(tournaments.c.id == tid))
            ).first()
            if t is None:
                return None
            table_rows = (await conn.execute(
                sa.select(tables.c.id, tables.c.name).where(tables.c.tournament_id == tid).order_by(tables.c.n)
            )).all()
            match_rows = (await conn.execute(
                sa.select(matches.c.id, matches.c.table_id, matches.c.status, matches.c.version)
                .where(matches.c.tournament_id == tid).order_by(matches.c.n.desc())
            )).all()
        # The match on each table now: its scheduled/live one, else its latest (catalog.current_match_id).
        open_on: dict[str, tuple[str, int]] = {}
        latest_on: dict[str, tuple[str, int]] = {}
        for r in match_rows:  # newest first
            if r.status == catalog.CANCELLED:
                continue
            latest_on.setdefault(r.table_id, (r.id, int(r.version)))
            if r.status in catalog.OPEN_STATUSES:
                open_on.setdefault(r.table_id, (r.id, int(r.version)))
        current = {**latest_on, **open_on}
        heads = [current[tb.id] for tb in table_rows if tb.id in current]
        shorts = dict(zip((h[0] for h in heads), await self._shorts_of(heads), strict=True))
        out_tables = []
        for tb in table_rows:
            head = current.get(tb.id)
            out_tables.append({"id": tb.id, "name": tb.name, "match": shorts.get(head[0]) if head else None})
        # catalog.tournament_version, from the rows already read: one per table, one per match, every version.
        version = len(table_rows) + len(match_rows) + sum(int(r.version) for r in match_rows)
        return {"id": t.id, "name": t.name, "version": version, "tables": out_tables}

    # --- short forms -----------------------------------------------------------------------------

    async def _fragments(self, heads: list[tuple[str, int]]) -> list[str | None]:
        await self._fill([h for h in heads if not self._known(*h)])
        return [self._shorts[mid][2] if self._known(mid, v) else None for mid, v in heads]

    async def _shorts_of(self, heads: list[tuple[str, int]]) -> list[dict[str, Any] | None]:
        await self._fill([h for h in heads if not self._known(*h)])
        return [self._shorts[mid][1] if self._known(mid, v) else None for mid, v in heads]

    def _known(self, match_id: str, version: int) -> bool:
        """Known at this version or a later one (read after the heads were)."""
        hit = self._shorts.get(match_id)
        return hit is not None and hit[0] >= version

    def _keep(self, match_id: str, version: int, short: dict[str, Any]) -> None:
        self._shorts[match_id] = (version, short, json.dumps(short, separators=(",", ":"), ensure_ascii=False))
        self._shorts.move_to_end(match_id)
        while len(self._shorts) > MAX_SHORTS:
            self._shorts.popitem(last=False)

    async def _fill(self, heads: Iterable[tuple[str, int]]) -> None:
        """Short forms for matches not known at these versions: the writer's memory, else a fold
        of their stored events (two batched queries for all of them)."""
        to_fold: dict[str, int] = {}
        for mid, version in heads:
            held = self._writer.cached_state(mid)
            if held is not None and held[0] >= version:
                self._keep(mid, held[0], self._rules.short_projection(held[1]))
            else:
                to_fold[mid] = version
        if not to_fold:
            return
        ids = list(to_fold)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(sa.select(matches).where(matches.c.id.in_(ids)))).all()
        streams = await store.read_streams(self._engine, ids)
        for row in rows:
            stream = streams.get(row.id, [])
            setup = self._rules.validate_setup(
                dict(row.setup), match_id=row.id, tournament_id=row.tournament_id, table_id=row.table_id
            )
            state = self._rules.fold(setup, stream)
            # The rows and the events were read together: what was folded is the version they show.
            self._keep(row.id, stream[-1].version if stream else 0, self._rules.short_projection(state))
