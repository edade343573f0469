"""Every tablet of every table, online or not and since when (PROTOCOL.md section 16), for the desk.

Presence (hub/matches/presence.py) knows this process's table sockets; once a beat (BEAT_S) this
writes a row per tablet it holds or held (`tablet_links`): `online` (a pinging tablet heard within
presence's PRESENT_MS, or a socket that does not ping while it is open), `since` (when that state
began: the socket let in, or the tablet fell quiet, or its socket closed), `heard_at` (this beat).
Every process writes its own tablets, so the rows together are the whole hall; a row whose
`heard_at` is older than STALE_MS was written by a process that is gone: offline since then.
A tablet that drops off shows within PRESENT_MS + BEAT_S (3 s) in the rows; the desk reads them
every 1.5 s (`GET /api/tournaments/{tid}/tablets`).

A tablet is named by `device` in its `auth` frame (the web tablet keeps a random id in its storage),
else by a digest of its token (tablets paired apart from each other have tokens of their own).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.matches.presence import Presence, Tablet
from hub.ops.logbudget import LogBudget
from hub.store.db import now_ms
from hub.store.outage import log_failure
from hub.store.schema import tablet_links as links

log = logging.getLogger(__name__)
_LOG_BUDGET = LogBudget(lines=3, window_s=60.0)  # beat failures (the store away, or a bug)

BEAT_S = 1.0
STALE_MS = 3_500


def tablet_ident(auth: dict[str, Any]) -> str:
    device = auth.get("device")
    if isinstance(device, str) and 8 <= len(device) <= 64 and device.isascii() and device.isprintable():
        return "dv-" + hashlib.sha256(device.encode()).hexdigest()[:20]
    return "tk-" + hashlib.sha256(str(auth.get("token")).encode()).hexdigest()[:20]


class TabletLinks:
    def __init__(self, engine: AsyncEngine, presence: Presence, *, now: Callable[[], int] = now_ms) -> None:
        self._engine = engine
        self._presence = presence
        self._now = now
        self._state: dict[str, tuple[str, bool, int]] = {}  # ident -> (table, online, since)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._beat(), name="tablet-links")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.write()  # the sockets this process held are closed now: say so

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT_S)
            try:
                await self.write()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store away for a moment: the next beat writes it all
                log_failure(log, _LOG_BUDGET, "tablet links: beat failed", exc)

    def _states(self, now: int) -> dict[str, tuple[str, bool, int]]:
        """ident -> (table, online, since) now, for this process's tablets (open, or closed since)."""
        seen: dict[str, Tablet] = {}
        while self._presence.closed:
            tablet = self._presence.closed.popleft()
            seen.setdefault(tablet.ident, tablet)
        for tablet in self._presence.tablets_here():
            seen[tablet.ident] = tablet  # an open socket of the same tablet outweighs a closed one
        out: dict[str, tuple[str, bool, int]] = {}
        for ident, tablet in seen.items():
            online = tablet.open and tablet.present(now)
            before = self._state.get(ident)
            if before is not None and before[1] == online and before[0] == tablet.table_id:
                since = before[2]
            elif online:
                since = tablet.since if before is None else now
            else:
                since = tablet.heard_at if tablet.pings or not tablet.open else now
            out[ident] = (tablet.table_id, online, since)
        return out

    async def write(self) -> None:
        now = self._now()
        states = self._states(now)
        if not states:
            return  # no tablet here: nothing to say (and no statement to the store)
        holder = self._presence.holder
        async with self._engine.begin() as conn:
            for ident, (table_id, online, since) in states.items():
                values = {"table_id": table_id, "holder": holder, "online": online, "since": since, "heard_at": now}
                done = await conn.execute(links.update().where(links.c.tablet_id == ident).values(**values))
                if done.rowcount == 0:
                    await conn.execute(links.insert().values(tablet_id=ident, **values))
        open_now = {t.ident for t in self._presence.tablets_here()}
        for ident, state in states.items():
            if ident in open_now:
                self._state[ident] = state
            else:
                self._state.pop(ident, None)  # closed, written once: its row keeps saying so


async def tablets_of(engine: AsyncEngine, table_ids: list[str], now: int) -> dict[str, list[dict[str, Any]]]:
    """table id -> its tablets [{id, online, since}], online first, then the latest change first."""
    out: dict[str, list[dict[str, Any]]] = {tid: [] for tid in table_ids}
    if not table_ids:
        return out
    async with engine.connect() as conn:
        rows = (await conn.execute(sa.select(links).where(links.c.table_id.in_(table_ids)))).all()
    for r in rows:
        stale = now - r.heard_at > STALE_MS
        online = bool(r.online) and not stale
        since = r.since if not (r.online and stale) else r.heard_at
        out[r.table_id].append({"id": r.tablet_id, "online": online, "since": since})
    for tablets in out.values():
        tablets.sort(key=lambda t: (not t["online"], -t["since"]))
    return out
