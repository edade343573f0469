"""Who is at each table: the tablets this process hears, and (through the store) the other
processes' (the shot clock never calls time on a table whose tablet has lost its link).

- A tablet is heard on every frame of its table socket. The web tablet also sends
  `{"type": "ping"}` every second (answered `pong`): a tablet that pings counts as at the table
  while it was heard within `PRESENT_MS`, so a half-dead link (a socket that stays open but carries
  nothing) is noticed within two seconds. A socket client that never pings (scripts, the Python
  client) counts as at the table while its socket is open.
- Once a beat (`BEAT_S`) each process writes, per table it serves, when it last heard one of its
  tablets (`tablet_presence`, one row per table and process), and reads the other processes' rows.
  A table with no row anywhere has never had a tablet session: it is driven over HTTP, and its
  clock runs as it always did.
- The clocks (hub/matches/clocks.py) ask `attendance` before storing a time foul, and store `link_lost`
  (the shot clock pauses) for a table that has been quiet for the grace (HUB_TABLET_GRACE_S). When
  a tablet of that table is back, the process that hears it stores `link_restored` (`restore`),
  before the tablet's `ready`, so the queued strokes it sends next find the clock running.

A restarted hub has no sockets: its tables' rows are as old as the outage, so they are quiet, and
none of them collects a time foul while nobody is at it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.matches.writer import Ack, Change, MatchWriter
from hub.ops.logbudget import LogBudget
from hub.store import presence as store
from hub.store.db import now_ms
from hub.store.outage import log_failure

log = logging.getLogger(__name__)
_LOG_BUDGET = LogBudget(lines=3, window_s=60.0)  # beat failures (the store away, or a bug)

PRESENT_MS = 2_000  # a pinging tablet (every 1 s) not heard for this long is away
BEAT_S = 1.0  # how often a process writes and reads the presence rows
# Another process's row is written once a beat: it may be up to a beat older than what it heard.
REMOTE_PRESENT_MS = PRESENT_MS + round(BEAT_S * 1000)
CHECK_EVERY_BEATS = 5  # how often the tables served here are checked for a link lost elsewhere
COMPACT_AFTER_MS = 24 * 3600 * 1000

Now = Callable[[], int]


@dataclass(frozen=True, slots=True)
class Attendance:
    known: bool  # the table has had a tablet session (in some process): its clock waits for one
    present: bool  # a tablet of it is heard now
    heard_at: int | None  # server ms it was last heard, any process

    def quiet_for(self, now: int) -> int:
        """How long nobody has been heard at this table (ms); 0 while someone is."""
        if self.present or self.heard_at is None:
            return 0
        return max(0, now - self.heard_at)


class Tablet:
    """One authenticated table socket, as presence sees it."""

    __slots__ = ("table_id", "heard_at", "pings", "open", "ident", "since")

    def __init__(self, table_id: str, now: int, ident: str | None = None) -> None:
        self.table_id = table_id
        self.heard_at = now
        self.pings = False
        self.open = True
        self.ident = ident or uuid.uuid4().hex[:16]  # which tablet (hub/matches/tablet_links.py)
        self.since = now  # when its socket was let in

    def present(self, now: int) -> bool:
        return self.open and (not self.pings or now - self.heard_at <= PRESENT_MS)

    def last_heard(self, now: int) -> int:
        return now if self.open and not self.pings else self.heard_at


class Presence:
    """The tablets of this process, the rows of the others; see the module docstring."""

    def __init__(self, engine: AsyncEngine, writer: MatchWriter | None = None, *, now: Now = now_ms,
                 beat_s: float = BEAT_S, holder: str | None = None) -> None:
        self._engine = engine
        self._writer = writer
        self._now = now
        self._beat_s = beat_s  # real seconds (the beat only paces the writes; `now` stamps them)
        self.holder = holder or uuid.uuid4().hex
        self._local: dict[str, set[Tablet]] = {}
        self._heard: dict[str, int] = {}  # table -> last heard here (closed sockets included)
        self._dirty: set[str] = set()  # tables to write at the next beat
        self._remote: dict[str, int] = {}  # table -> last heard by another process (their rows)
        self._kick = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._restoring: set[str] = set()  # matches with a link_restored being stored
        self._background: set[asyncio.Task[Any]] = set()
        self.closed: deque[Tablet] = deque(maxlen=10_000)  # sockets closed since the links last looked

    # --- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        await store.compact(self._engine, self._now() - COMPACT_AFTER_MS)
        self._remote = await store.read(self._engine, except_holder=self.holder)
        if self._writer is not None:
            self._unsubscribe = self._writer.subscribe(self._on_change, "presence")
        self._task = asyncio.create_task(self._beat(), name="presence")

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        tasks = [t for t in (self._task, *self._background) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self._write()  # what was heard last, for the next start (or the other processes)

    # --- the table sockets --------------------------------------------------------------------

    def open(self, table_id: str, ident: str | None = None) -> Tablet:
        tablet = Tablet(table_id, self._now(), ident)
        self._local.setdefault(table_id, set()).add(tablet)
        self._note(tablet)
        self._kick.set()  # a table's first tablet is written at once: it is a tablet table from now
        return tablet

    def heard(self, tablet: Tablet, *, ping: bool = False) -> None:
        now = self._now()
        back = tablet.pings and not tablet.present(now)  # its socket carried nothing for a while
        tablet.heard_at = now
        tablet.pings = tablet.pings or ping
        self._note(tablet)
        if back and self._writer is not None:
            self._spawn(self._restore_table(tablet.table_id))

    def close(self, tablet: Tablet) -> None:
        if tablet.open and not tablet.pings:
            tablet.heard_at = self._now()  # heard until its socket closed
        tablet.open = False
        self.closed.append(tablet)  # for the desk's list of tablets (hub/matches/tablet_links.py)
        self._note(tablet)
        tablets = self._local.get(tablet.table_id)
        if tablets is not None:
            tablets.discard(tablet)
            if not tablets:
                del self._local[tablet.table_id]

    def _note(self, tablet: Tablet) -> None:
        at = tablet.last_heard(self._now())
        if at > self._heard.get(tablet.table_id, 0):
            self._heard[tablet.table_id] = at
        self._dirty.add(tablet.table_id)

    # --- reading ------------------------------------------------------------------------------

    def attendance(self, table_id: str) -> Attendance:
        """From this process's sockets and the other processes' rows as of the last beat."""
        return self._attendance(table_id, self._remote.get(table_id))

    async def attendance_now(self, table_id: str) -> Attendance:
        """The same, with the other processes' rows read now (before a time foul is stored)."""
        remote = await store.read(self._engine, except_holder=self.holder)
        self._remote = remote
        return self._attendance(table_id, remote.get(table_id))

    def _attendance(self, table_id: str, remote: int | None) -> Attendance:
        now = self._now()
        tablets = self._local.get(table_id, ())
        present = any(t.present(now) for t in tablets) or (remote is not None and now - remote <= REMOTE_PRESENT_MS)
        heard = [h for h in (self._heard.get(table_id), remote, *(t.last_heard(now) for t in tablets)) if h is not None]
        return Attendance(table_id in self._heard or remote is not None, present, max(heard, default=None))

    def tablets_here(self) -> list[Tablet]:
        """Every open table socket of this process."""
        return [t for tablets in self._local.values() for t in tablets]

    def tables_here(self) -> list[str]:
        """Tables with a tablet heard by this process now."""
        now = self._now()
        return [tid for tid, tablets in self._local.items() if any(t.present(now) for t in tablets)]

    # --- the beat -----------------------------------------------------------------------------

    async def _beat(self) -> None:
        beats = 0
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._kick.wait(), self._beat_s)
            self._kick.clear()
            beats += 1
            try:
                await self._write()
                self._remote = await store.read(self._engine, except_holder=self.holder)
                if beats % CHECK_EVERY_BEATS == 0:
                    await self._check_tables_here()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store is away for a moment: the next beat writes it all
                log_failure(log, _LOG_BUDGET, "presence: beat failed", exc)

    async def _write(self) -> None:
        now = self._now()
        for tid, tablets in self._local.items():
            if any(t.open and not t.pings for t in tablets):
                self._heard[tid] = now  # an open socket that does not ping is heard while open
            if tablets:
                self._dirty.add(tid)
        tables, self._dirty = self._dirty, set()
        try:
            await store.record(
                self._engine, self.holder, {tid: self._heard[tid] for tid in tables if tid in self._heard}
            )
        except BaseException:
            self._dirty |= tables
            raise

    async def _check_tables_here(self) -> None:
        """A link lost stored by another process while a tablet of that table is here (it moved
        between processes): restore it. Changes stored here are seen at once (`_on_change`)."""
        if self._writer is None:
            return
        for tid in self.tables_here():
            proj = await self._writer.table_projection(tid)
            if link_lost(proj):
                await restore(self._writer, proj, self._restoring)

    async def _restore_table(self, table_id: str) -> None:
        assert self._writer is not None
        await restore(self._writer, await self._writer.table_projection(table_id), self._restoring)

    def _on_change(self, change: Change) -> None:
        if link_lost(change.projection) and change.table_id in self.tables_here() and self._writer is not None:
            self._spawn(restore(self._writer, change.projection, self._restoring))

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("presence: restoring a link failed", exc_info=task.exception())


def link_lost(projection: dict[str, Any] | None) -> bool:
    return bool(projection and projection.get("status") == "live" and (projection.get("link") or {}).get("lost"))


async def restore(writer: MatchWriter, projection: dict[str, Any] | None,
                  busy: set[str] | None = None) -> dict[str, Any] | None:
    """Store `link_restored` if the projection's match has lost its link; the projection after it."""
    busy = set() if busy is None else busy
    for _ in range(3):
        if not link_lost(projection):
            return projection
        assert projection is not None
        mid = projection["id"]
        if mid in busy:
            return projection
        busy.add(mid)
        try:
            answer = await writer.submit_server(mid, {"kind": "link_restored"}, projection["version"])
        finally:
            busy.discard(mid)
        if isinstance(answer, Ack):
            log.info("presence: link restored on %s as v%s", mid, answer.version)
        projection = await writer.projection(mid)
    return projection
