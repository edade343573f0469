"""The hub's clocks: at a deadline of a live match, the hub itself stores the expiry.

The rules engine already computes every deadline from event times (projection `clock.shot`,
`clock.match`); this service only waits for them. One timer per live match, armed from the
match's projection at its version:

- shot clock running -> at `clock.shot.deadline`: `clock_expired` for `clock.shot.player`;
- match clock running -> at `clock.match.deadline`: `match_time_expired` (the earlier of the two
  fires first; on the same millisecond the match clock wins, since it ends the rack anyway);
- match clock at zero but not running (an event was stored after its zero, before the timer ran)
  -> `match_time_expired` at once, unless the extra rack is already being played.

Every expiry is stored with `writer.submit_server(..., expected_version=the armed version)`:
whatever was stored since (a stroke that arrived first, a pause, another hub process's expiry)
makes it a silent `version_conflict`, so a clock fires at most once per turn, in any number of
hub processes. Every `Change` of a match re-arms its timer; the start re-arms every live match
from its stored projection, so a deadline that passed while the hub was down fires at once.

Tablets (hub/matches/presence.py): at a shot deadline on a table whose tablets are not heard
(a table that has had a tablet session, in any process), no time foul is stored. The expiry waits
while they are quiet for less than the grace (HUB_TABLET_GRACE_S), and fires if one is heard again;
past the grace the service stores `link_lost` instead (the shot clock pauses, as of when they were
last heard), and a sweep does the same for every running shot clock of a quiet table, so screens
show the pause long before any deadline (not in the first STARTUP_GRACE_S after a start, while
the tablets find the hub again). The process that hears a tablet again stores
`link_restored`. A restarted hub hears nobody: its live tables pause rather than collect fouls.

Time is `now()` (server ms, as the writer stamps events) and `sleep(seconds)`; tests inject both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.matches.presence import Presence
from hub.matches.writer import Ack, Change, MatchWriter
from hub.store import catalog
from hub.store.db import now_ms

log = logging.getLogger(__name__)

Now = Callable[[], int]
Sleep = Callable[[float], Awaitable[None]]

SHOT = "clock_expired"
MATCH = "match_time_expired"
# A timer wakes at least this often to look at now() again, so a step of the wall clock (which
# stamps the events, hence the deadlines) delays an expiry by at most this much.
MAX_NAP_S = 1.0
MAX_RETRY_S = 60.0
LINK_LOST = "link_lost"
HOLD_NAP_S = 0.25  # while a deadline waits for a quiet tablet, how often presence is asked again
SWEEP_S = 1.0  # how often the running shot clocks of quiet tables are paused
# After a start the tablets need a moment to find the hub again: the sweep leaves their clocks
# running that long (a deadline in it still waits for them, and pauses the clock rather than fire).
STARTUP_GRACE_S = 10.0


@dataclass(frozen=True, slots=True)
class Due:
    """What a match's clocks do next: store `kind` (for `player`) at server ms `at`."""

    kind: str
    at: int
    player: str | None = None

    def command(self) -> dict[str, Any]:
        if self.kind == SHOT:
            return {"kind": SHOT, "player": self.player}
        return {"kind": MATCH}


def next_due(projection: Mapping[str, Any]) -> Due | None:
    """The next expiry of a projection (PROTOCOL.md section 4), or None when no clock runs."""
    if projection.get("status") != "live":
        return None
    clocks = projection.get("clock") or {}
    rack = projection.get("rack") or {}
    candidates: list[Due] = []
    match = clocks.get("match")
    if isinstance(match, Mapping) and not rack.get("extra"):
        if match.get("running") and isinstance(match.get("deadline"), int):
            candidates.append(Due(MATCH, match["deadline"]))
        elif isinstance(match.get("remaining_ms"), int) and match["remaining_ms"] <= 0:
            candidates.append(Due(MATCH, 0))  # its zero has passed: at once
    shot = clocks.get("shot")
    if (
        isinstance(shot, Mapping)
        and shot.get("running")
        and isinstance(shot.get("deadline"), int)
        and shot.get("player")
    ):
        candidates.append(Due(SHOT, shot["deadline"], shot["player"]))
    if not candidates:
        return None
    return min(candidates, key=lambda d: (d.at, d.kind != MATCH))


@dataclass(slots=True)
class _Timer:
    version: int
    due: Due | None
    task: asyncio.Task[None] | None = None
    firing: bool = False  # inside submit_server: never cancelled there (the store must finish)
    table_id: str | None = None
    shot_running: bool = False  # the shot clock runs at this version (the sweep may pause it)


def shot_running(projection: Mapping[str, Any]) -> bool:
    shot = (projection.get("clock") or {}).get("shot")
    return isinstance(shot, Mapping) and bool(shot.get("running"))


@dataclass(slots=True)
class _Recheck:
    match_id: str
    force: bool = False  # arm again even at the same version (after a failed store)


class ClockService:
    """Arms one timer per live match; see the module docstring."""

    def __init__(
        self, writer: MatchWriter, engine: AsyncEngine, *, now: Now = now_ms, sleep: Sleep = asyncio.sleep,
        retry_s: float = 1.0, presence: Presence | None = None, grace_s: float = 3.0,
        startup_grace_s: float = STARTUP_GRACE_S,
    ) -> None:
        self._writer = writer
        self._presence = presence  # None: every table counts as attended (no tablet sessions known)
        self._grace_ms = round(grace_s * 1000)
        self._sweeper: asyncio.Task[None] | None = None
        self._started_at = 0
        self._startup_grace_ms = round(startup_grace_s * 1000)
        self._engine = engine
        self._now = now
        self._sleep = sleep
        self._retry_s = retry_s
        self._timers: dict[str, _Timer] = {}
        self._versions: dict[str, int] = {}  # the newest version seen per match (stale arms are dropped)
        self._queue: asyncio.Queue[Change | _Recheck] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._failures: dict[str, int] = {}  # match -> failed re-arms or stores in a row (backoff)
        # The latest expiries stored by this service: (match, version, kind); tests, diagnostics.
        self.fired: deque[tuple[str, int, str]] = deque(maxlen=256)

    # --- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe, then re-arm every live match from its projection (subscribing first, so no
        change falls between the listing and the pushes)."""
        self._unsubscribe = self._writer.subscribe(self._on_change, "clocks")
        self._worker = asyncio.create_task(self._run(), name="clocks")
        self._started_at = self._now()
        if self._presence is not None:
            self._sweeper = asyncio.create_task(self._sweep(), name="clocks-sweep")
        for row in await catalog.list_matches(self._engine, status="live"):
            try:
                await self._rearm(row.id, force=False)
            except Exception:  # one unreadable match must not keep the hub from starting
                log.exception("clocks: re-arming %s on start failed", row.id)
                self._later(row.id, force=True)

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for task in (self._worker, self._sweeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._worker = self._sweeper = None
        firing = [t.task for t in self._timers.values() if t.task is not None and t.firing]
        for timer in self._timers.values():
            if timer.task is not None and not timer.firing:
                timer.task.cancel()
        for task in self._background:
            task.cancel()
        # An expiry being stored is let finish (bounded), so the writer's memory stays whole.
        if firing:
            await asyncio.wait(firing, timeout=5)
        rest = [t.task for t in self._timers.values() if t.task is not None] + list(self._background)
        for task in rest:
            if not task.done():
                task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)
        self._timers.clear()
        self._background.clear()

    def armed(self, match_id: str) -> Due | None:
        """What the timer of a match waits for now (tests, diagnostics)."""
        timer = self._timers.get(match_id)
        return None if timer is None else timer.due

    # --- arming -------------------------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        self._queue.put_nowait(change)  # a writer listener only queues

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            try:
                if isinstance(item, _Recheck):
                    await self._rearm(item.match_id, force=item.force)
                else:
                    self._arm(item.match_id, item.version, item.projection)
            except asyncio.CancelledError:
                raise
            except Exception:  # a database failure while re-reading: try again a little later
                log.exception("clocks: re-arming %s failed", getattr(item, "match_id", "?"))
                if isinstance(item, _Recheck):
                    self._later(item.match_id, force=True)

    async def _rearm(self, match_id: str, *, force: bool) -> None:
        proj = await self._writer.projection(match_id)
        if proj is not None:
            self._arm(match_id, int(proj.get("version", 0)), proj, force=force)

    def _arm(self, match_id: str, version: int, projection: Mapping[str, Any], *, force: bool = False) -> None:
        seen = self._versions.get(match_id, -1)
        if version < seen or (version == seen and not force):
            return  # stale, or already armed for this version
        self._versions[match_id] = version
        self._disarm(match_id)
        due = next_due(projection)
        if due is None:
            if projection.get("status") == "finished":
                self._versions.pop(match_id, None)  # nothing more to arm (an undo comes as a newer change)
            return
        timer = _Timer(version, due, table_id=projection.get("table_id"), shot_running=shot_running(projection))
        timer.task = asyncio.create_task(self._wait_and_fire(match_id, timer), name=f"clock {match_id} v{version}")
        self._timers[match_id] = timer

    def _disarm(self, match_id: str) -> None:
        timer = self._timers.pop(match_id, None)
        if timer is not None and timer.task is not None and not timer.firing:
            timer.task.cancel()

    def _later(self, match_id: str, *, force: bool) -> None:
        """Re-arm from the writer after a failure, backing off while it keeps failing."""
        failures = self._failures[match_id] = self._failures.get(match_id, 0) + 1
        delay = min(self._retry_s * 2 ** (failures - 1), MAX_RETRY_S)

        async def again() -> None:
            await self._sleep(delay)
            self._queue.put_nowait(_Recheck(match_id, force))

        task = asyncio.create_task(again())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- firing -------------------------------------------------------------------------------

    async def _wait_and_fire(self, match_id: str, timer: _Timer) -> None:
        due = timer.due
        assert due is not None
        while (left := due.at - self._now()) > 0:
            await self._sleep(min(left / 1000, MAX_NAP_S))
        command = due.command()
        if due.kind == SHOT:
            quiet_since = await self._hold_for_tablet(timer)
            if quiet_since is not None:  # nobody at the table: pause the clock instead of a time foul
                command = {"kind": LINK_LOST, "since": quiet_since}
        await self._store(match_id, timer, command)

    async def _hold_for_tablet(self, timer: _Timer) -> int | None:
        """At a shot deadline: None when the expiry may be stored (a tablet is heard, or the table
        has never had one); else wait while its tablets are quiet for less than the grace, and
        return when they were last heard once it is over."""
        if self._presence is None or timer.table_id is None:
            return None
        while True:
            seen = await self._presence.attendance_now(timer.table_id)
            if not seen.known or seen.present:
                return None
            assert seen.heard_at is not None
            wait = seen.heard_at + self._grace_ms - self._now()
            if wait <= 0:
                return seen.heard_at
            await self._sleep(min(wait / 1000, HOLD_NAP_S))

    async def _sweep(self) -> None:
        """Pause the running shot clock of every armed match whose table has been quiet for the grace."""
        assert self._presence is not None
        while True:
            await self._sleep(SWEEP_S)
            now = self._now()
            if now - self._started_at < self._startup_grace_ms:
                continue
            for match_id, timer in list(self._timers.items()):
                if not timer.shot_running or timer.firing or timer.table_id is None:
                    continue
                seen = self._presence.attendance(timer.table_id)
                if seen.known and seen.heard_at is not None and seen.quiet_for(now) >= self._grace_ms:
                    # The timer's task stores it (stop() lets a store being made finish).
                    if timer.task is not None:
                        timer.task.cancel()
                    timer.shot_running = False
                    timer.task = asyncio.create_task(
                        self._store(match_id, timer, {"kind": LINK_LOST, "since": seen.heard_at}),
                        name=f"link lost {match_id} v{timer.version}")

    async def _store(self, match_id: str, timer: _Timer, command: dict[str, Any]) -> None:
        kind = command["kind"]
        timer.firing = True
        try:
            answer = await self._writer.submit_server(match_id, command, timer.version)
        except Exception:
            log.exception("clocks: storing %s on %s failed; trying again", kind, match_id)
            timer.firing = False
            self._later(match_id, force=True)
            return
        finally:
            timer.firing = False
        self._failures.pop(match_id, None)
        if isinstance(answer, Ack):
            self.fired.append((match_id, answer.version, kind))
            log.info("clocks: %s stored on %s as v%s", kind, match_id, answer.version)
            return  # its Change re-arms the timer
        if answer.code != "version_conflict":
            log.warning(
                "clocks: %s refused on %s v%s: %s %s", kind, match_id, timer.version, answer.code, answer.message
            )
        if self._timers.get(match_id) is timer:
            del self._timers[match_id]
        # Something else was stored first (here or in another hub process, whose change this one
        # may never hear of): arm from what the writer knows now.
        self._queue.put_nowait(_Recheck(match_id))
