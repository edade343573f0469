"""The flow of a draw, run by the hub: results in, players on, free tables fed (PROTOCOL.md section 7).

`TournamentFlow.kick(tid)` asks for a `reconcile` of one tournament; kicks that arrive while one
runs are folded into one more pass. A pass compares the draw state (the fold) with the matches in
the store and does the first thing that is due, then looks again, until nothing is due:

1. a called match that finished -> `take_result` (its winner and scores; a ranked match its ranking),
   read from the match as it is when the tournament's event commits (hub/tournaments/draw_results.py);
   a result whose match finished again since it was taken (a correction) -> taken again;
2. a called match that is gone (cancelled outside the draw) -> `uncall`;
3. a result whose match was reopened by an undo -> the downstream matches called meanwhile are
   taken off their tables (they have not started: the reopen guard saw to that), then `void_result`
   (while the match is still open when it commits);
4. a called match whose players changed (a result voided or changed upstream, a reinstatement that
   reopened the walkover that fed it: its players may not even be known any more, `waiting`) ->
   taken off its table (cancelled: its tablets get `match_left`), so the table takes the next one;
5. a withdrawn player's called match: not started -> taken off its table (the fold then gives it to
   the opponent as a walkover; a chase round none of whose matches has started loses all its calls,
   so it is formed again without the player); being played -> the withdrawn player forfeits it on
   the match (the hub's `penalty forfeit_match` with `withdrawn: true`: the result and the draw match
   say who withdrew, and only the desk undoes it, by a reopen);
6. free tables (no open match, not paused) -> `dispatch` pairs them with the queue, and each call
   stores its match and its `match_called` in one transaction.

Every step is idempotent against the store, so any number of hub processes may run passes at once:
the tournament stream's primary key and the one-open-match-per-table index decide the races. Kicks
come from this process's changes (a draw match finishing or reopening, a cancelled match, every
tournament event, a new table); a sweep every SWEEP_S seconds also looks at every running draw, for
what another process stored and could not finish (it crashed between a match's last stroke and its
result, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.draws.interface import DrawRules
from hub.matches.writer import Ack, Change, MatchWriter, TableNotice
from hub.store import catalog
from hub.store import tournament_events as store
from hub.tournaments.draw_results import DrawResults
from hub.tournaments.rubbers import RubberFlow
from hub.tournaments.writer import NotStored, TournamentChange, TournamentWriter

log = logging.getLogger(__name__)

SWEEP_S = 5.0
MAX_STEPS = 10_000  # per pass; a draw of 1024 players is about 2,000 matches
RETRY_S = 1.0
RESERVE_S = 5.0  # how long a table an undo is reopening a match on is kept from the queue


def draw_entries(projection: dict[str, Any]) -> dict[str, dict[str, Any]]:
    draw = projection.get("draw") or {}
    return {m["key"]: m for m in draw.get("matches") or []}


def chase_round_to_form_again(state: Any, entries: dict[str, dict[str, Any]], withdrawn: set[str],
                              called: dict[str, tuple[str, str]], statuses: dict[str, str]) -> str | None:
    """A chase round holding a withdrawn player whose matches are all called and none started (nor
    decided): the key to take off next, the withdrawn player's last, so the draw forms the round
    again without them (hub/draws/chase.py) instead of voiding the match of the other two."""
    rounds: dict[str, list[str]] = {}
    for key, e in entries.items():
        rounds.setdefault(e["round"], []).append(key)
    for keys in rounds.values():
        held = [k for k in keys if k in called]
        if not any(withdrawn & set(entries[k]["players"]) for k in held):
            continue
        if any(entries[k]["status"] == "finished" or k in state.walkovers for k in keys):
            continue
        if any(statuses.get(called[k][0]) != "scheduled" for k in held):
            continue
        held.sort(key=lambda k: bool(withdrawn & set(entries[k]["players"])))
        return held[0]
    return None


class TournamentFlow:
    def __init__(self, engine: AsyncEngine, matches: MatchWriter, tournaments: TournamentWriter,
                 draws: DrawRules, *, sweep_s: float = SWEEP_S) -> None:
        self._engine = engine
        self._matches = matches
        self._tournaments = tournaments
        self._draws = draws
        self._sweep_s = sweep_s
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._watched: set[str] = set()  # tournaments with a draw (swept)
        self._unsubscribe: list[Any] = []
        self._sweeper: asyncio.Task[None] | None = None
        # Tables an undo is reopening a match on (table id -> until, loop time): the flow gives them
        # nothing meanwhile, or the match it took off them would be replaced before the undo lands.
        self._reserved: dict[str, float] = {}
        self.results = DrawResults(engine, matches, tournaments, draws)
        self.rubbers = RubberFlow(engine, matches, tournaments)  # team matches' rubbers (hub/tournaments/rubbers.py)
        self.passes = 0  # reconcile passes run (tests, diagnostics)

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        self._unsubscribe = [
            self._matches.subscribe(self._on_match, "flow"),
            self._matches.subscribe_tables(self._on_table),
            self._tournaments.subscribe(self._on_tournament),
        ]
        self._matches.reopen_guard = self.check_reopen
        self._watched.update(await store.with_draws(self._engine))
        for tid in self._watched:
            self.kick(tid)
        self._sweeper = asyncio.create_task(self._sweep(), name="tournament-sweep")

    async def stop(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._matches.reopen_guard = None
        tasks = [t for t in [self._sweeper, *self._running.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    @property
    def watched(self) -> frozenset[str]:
        """Tournaments with a draw (the ones the flow has work for)."""
        return frozenset(self._watched)

    async def idle(self, tid: str | None = None) -> None:
        """Wait until no pass of `tid` (of any tournament when None) is running or due."""
        while True:
            tasks = [t for k, t in self._running.items() if tid is None or k == tid]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # --- kicks --------------------------------------------------------------------------------

    def _on_match(self, change: Change) -> None:
        ev = change.event
        draw = change.projection.get("draw")
        if draw is None:
            return
        self._watched.add(change.tournament_id)  # a draw made by another process, maybe
        status = change.projection.get("status")
        if status != "finished":
            self._reserved.pop(change.table_id, None)  # the undo it was kept for has landed
        # A draw match matters to the flow when it finishes, when it reopens, and when it is created
        # (nothing to do then, but cheap); strokes of a live match do not.
        if ev is None or status == "finished" or (ev.get("kind") == "undo"):
            self.kick(change.tournament_id)

    def _on_table(self, notice: TableNotice) -> None:
        if notice.tournament_id in self._watched:  # a tournament without a draw has no flow
            self.kick(notice.tournament_id)

    def _on_tournament(self, change: TournamentChange) -> None:
        if change.event["kind"] == "draw_made":
            self._watched.add(change.tournament_id)
        if change.tournament_id in self._watched:
            self.kick(change.tournament_id)

    def kick(self, tid: str) -> None:
        if tid in self._running:
            self._again.add(tid)
            return
        self._running[tid] = asyncio.create_task(self._run(tid), name=f"tournament-flow-{tid}")

    async def _run(self, tid: str) -> None:
        try:
            while True:
                self._again.discard(tid)
                try:
                    await self.reconcile(tid)
                except (SQLAlchemyError, OSError) as exc:
                    log.warning("tournament %s: the flow could not reach the store (%s); retrying", tid, exc)
                    await asyncio.sleep(RETRY_S)
                    self._again.add(tid)
                except Exception:
                    log.exception("tournament %s: the flow failed", tid)
                if tid not in self._again:
                    return
        finally:
            self._running.pop(tid, None)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self._sweep_s)
            try:  # draws another process made since
                self._watched.update(await store.with_draws(self._engine))
            except (SQLAlchemyError, OSError) as exc:
                log.warning("tournament sweep: the store is unreachable (%s)", exc)
            for tid in list(self._watched):
                self.kick(tid)

    # --- one pass -----------------------------------------------------------------------------

    async def reconcile(self, tid: str) -> None:
        self.passes += 1
        for _ in range(MAX_STEPS):
            state = await self._tournaments.state(tid)
            if state is None:
                self._watched.discard(tid)
                return
            proj = self._tournaments.projection(state)
            if proj.get("draw") is None:
                return
            if not await self._step(tid, state, proj):
                return
        log.error("tournament %s: the flow did not settle in %d steps", tid, MAX_STEPS)

    async def _step(self, tid: str, state: Any, proj: dict[str, Any]) -> bool:
        """Do the first thing that is due; True if something was done (look again)."""
        draws = self._draws
        entries = draw_entries(proj)
        held = {key: e for key, e in entries.items() if e.get("match_id")}
        called = draws.calls(state)
        # Every call's match, also one whose key no longer shows it (a correction upstream made its
        # players unknown again: `waiting`): else it would look gone, be uncalled without being
        # cancelled, and stay on its table.
        mids = {e["match_id"] for e in held.values()} | {mid for mid, _table in called.values()}
        heads = await catalog.match_heads(self._engine, sorted(mids))
        statuses = {mid: status for mid, (status, _version) in heads.items()}
        # 1, 2: called matches that finished, or vanished; results whose match finished again since
        for key, (mid, _table) in called.items():
            status = statuses.get(mid)
            if status == "finished":
                if await self._take_result(tid, key, mid):
                    return True
            elif status is None or status == catalog.CANCELLED:
                return await self._command(tid, {"kind": "uncall", "key": key})
        for key, mid, version in self.results.due(state, heads):
            if await self.results.retake(tid, state, key, mid, version):
                return True
        # 3: results whose match was reopened (a void the draw refused is not tried again at that version)
        for key, e in held.items():
            mid = e["match_id"]
            if (e["status"] == "finished" and statuses.get(mid) in catalog.OPEN_STATUSES
                    and not self.results.looked(mid, heads[mid][1])):
                for down in draws.downstream(state, key):
                    if down in called and await self.take_off(tid, down, called[down][0]):
                        return True
                return await self.results.void(tid, key, mid, heads[mid][1])
        # 4: calls whose players are no longer those of the match
        for key in draws.stale_calls(state):
            if await self.take_off(tid, key, called[key][0]):
                return True
        # 5: withdrawn players' called matches (a chase round not started yet is formed again first)
        withdrawn = {p["id"] for p in proj["players"] if p["status"] == "withdrawn"}
        if draws.forms_rounds_again(state):
            to_form = chase_round_to_form_again(state, entries, withdrawn, called, statuses)
            if to_form is not None and await self.take_off(tid, to_form, called[to_form][0]):
                return True
        for key, (mid, _table) in called.items():
            quitters = [p for p in entries[key]["players"] if p in withdrawn]
            if not quitters:
                continue
            if statuses.get(mid) == "scheduled":
                if await self.take_off(tid, key, mid):
                    return True
            elif statuses.get(mid) == "live":
                await self._forfeit(mid, quitters)
        if await self.rubbers.settle(tid, state):  # team matches: rubbers finished, gone, or not to be played
            return True
        # 6: free tables
        tables = await catalog.list_tables(self._engine, tid)
        busy = await catalog.open_matches(self._engine, tid)
        now = asyncio.get_running_loop().time()
        free = [(t.id, t.id not in busy and self._reserved.get(t.id, 0.0) < now) for t in tables]
        if await self.rubbers.feed(tid, state, free):
            return True
        for key, table_id in draws.dispatch(state, free):
            if await self._call(tid, state, key, table_id):
                return True
        return False

    async def _command(self, tid: str, command: dict[str, Any], **kw: Any) -> bool:
        try:
            await self._tournaments.apply(tid, command, **kw)
            return True
        except self._draws.DrawReject as r:
            # The state moved under us (another process did it first): look again.
            log.info("tournament %s: %s refused (%s: %s)", tid, command["kind"], r.code, r.message)
            return True
        except (NotStored, catalog.TableBusy):
            return True

    async def _take_result(self, tid: str, key: str, mid: str) -> bool:
        try:
            return await self.results.take(tid, key, mid) != "open"
        except self._draws.DrawReject as r:  # the state moved under us (another process took it): look again
            log.info("tournament %s: take_result refused (%s: %s)", tid, r.code, r.message)
            return True

    def forget(self, tid: str) -> None:
        """The tournament was deleted: no more passes for it."""
        self._watched.discard(tid)

    async def take_off(self, tid: str, key: str, mid: str) -> bool:
        """Cancel a called match that has not started and put its key back (`uncall`), together (also
        for a correction upstream that changed it)."""
        async def store_with(append: catalog.InTransaction) -> Any:
            return await self._matches.cancel_match(mid, also=append)

        status = (await catalog.match_statuses(self._engine, [mid])).get(mid)
        if status != "scheduled":
            log.warning("tournament %s: %s (%s) should come off its table but is %s", tid, key, mid, status)
            return False
        return await self._command(tid, {"kind": "uncall", "key": key}, store_with=store_with)

    async def _forfeit(self, mid: str, players: list[str]) -> None:
        for pid in players:
            # the hub's own (server) forfeit, marked: the result says who withdrew, and only the desk undoes it
            answer = await self._matches.submit(
                mid, f"withdrawn:{pid}", {"kind": "penalty", "player": pid, "type": "forfeit_match", "withdrawn": True},
                server=True,
            )
            if not isinstance(answer, Ack):
                log.warning("match %s: the withdrawn %s could not forfeit (%s)", mid, pid, answer)

    async def _call(self, tid: str, state: Any, key: str, table_id: str) -> bool:
        body = self._draws.match_body(state, key)
        match_id = catalog.new_id("m")

        async def store_with(append: catalog.InTransaction) -> Any:
            return await self._matches.create_match(
                body, tournament_id=tid, table_id=table_id, match_id=match_id, draw_key=key, also=append
            )

        command = {"kind": "call", "key": key, "match_id": match_id, "table_id": table_id}
        return await self._command(tid, command, store_with=store_with)

    # --- the match writer's reopen guard ------------------------------------------------------

    async def check_reopen(self, row: catalog.MatchRow) -> str | None:
        """An undo would reopen `row`, a finished match. Refuse when the draw has moved on: a match
        fed by its result has started. Otherwise let it through, first taking the match called onto
        the same table meanwhile back off it (not started yet), so the undo can reopen this one; the
        flow then voids the result and takes off whatever else it fed."""
        if row.draw_key is None:
            return None
        state = await self._tournaments.state(row.tournament_id)
        if state is None:
            return None
        if row.id in state.rubber_matches:  # a team match's rubber (hub/tournaments/rubbers.py)
            self._reserved[row.table_id] = asyncio.get_running_loop().time() + RESERVE_S  # nothing fed meanwhile
            refusal = await self.rubbers.check_reopen(state, row)
            if refusal is not None:
                self._reserved.pop(row.table_id, None)
            return refusal
        entries = draw_entries(self._tournaments.projection(state))
        entry = entries.get(row.draw_key)
        if entry is None or entry.get("match_id") != row.id or entry["status"] != "finished":
            return None
        fed = [entries[k] for k in self._draws.downstream(state, row.draw_key) if k in entries]
        mids = [e["match_id"] for e in fed if e.get("match_id")]
        statuses = await catalog.match_statuses(self._engine, mids)
        for e in fed:
            live = statuses.get(e.get("match_id") or "")
            if e["status"] in ("finished", "walkover") or live in ("live", "finished"):
                what = {"walkover": "was given as a walkover", "finished": "has been played"}.get(
                    e["status"], "is being played")
                names = " v ".join(state.name(p) for p in e["players"] if p and p != "bye")
                return f"{e['key']} ({names}) {what} since: it depends on this result, which stands"
        # What took this match's table or players meanwhile (not started yet) comes off again, so
        # the match can be played on where it was; a match that has started keeps them: refused.
        players = {p.get("id") for p in row.setup.get("players") or []}
        table_open = (await catalog.open_matches(self._engine, row.tournament_id)).get(row.table_id)
        calls = self._draws.calls(state)
        holders = {mid for key, (mid, table) in calls.items()
                   if table == row.table_id or players & set(entries[key]["players"])}
        if table_open is not None:
            holders.add(table_open)
        self._reserved[row.table_id] = asyncio.get_running_loop().time() + RESERVE_S
        for mid in holders:
            other = await catalog.get_match(self._engine, mid)
            if other is None:
                continue
            if other.draw_key is None or other.status != "scheduled":
                return "this match's table or a player of it is in another match that has started"
            if calls.get(other.draw_key, ("",))[0] != other.id:  # a leftover no call holds: it just goes
                await self._matches.cancel_match(other.id)
            elif not await self.take_off(row.tournament_id, other.draw_key, other.id):
                return "the match called meanwhile could not be taken off its table"
        return None
