"""The draw's side of a match's result: taken from the match's own latest result, taken again when
the match moved on, voided when it reopened (the flow, hub/tournaments/flow.py, and the desk's
corrections, hub/api/corrections.py, both go through here).

Taking: the match is read as it stands (caught up with the store), the `take_result` command
carries the version it was read at (`match_version`), and the tournament's transaction locks the
match row and checks that version before it commits (writer.MatchAt). A result entered on another
process between the read and the commit fails the check: the match is read again and the draw
decides again. Two desks entering different results for one match at the same moment, on two
processes, leave the draw with the match's own last result.

Taking again: the version kept in the draw shows a match that moved on after its result was taken
(a correction whose process stopped before telling the draw, say). `due` lists those; `retake`
takes the result again as a correction, unless a match fed by it has started (refused, logged:
a correction by hand would be answered 409 result_used), and a match whose only new events leave
its result as it was (a player renamed) is looked at once per version.

Voiding: a result whose match reopened (an undo) is voided only while the match is still open
when the tournament's event commits (its row locked the same way); a void the draw refuses (a match
fed by the result was called or played meanwhile, on another process) is logged and not retried
until the match changes again: the flow does not spin on it, and `cuehub replay` reports the bracket
that differs from its match.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.draws.interface import DrawRules
from hub.matches.writer import MatchWriter
from hub.store import catalog
from hub.tournaments.writer import MatchAt, MatchMoved, TournamentWriter

log = logging.getLogger(__name__)

ATTEMPTS = 8  # reads of a match that keeps changing under the tournament's transaction
LOOKED_MAX = 10_000  # (match, version) pairs remembered as needing nothing; beyond, forgotten at once
STARTED = ("live", "finished")
MOVED_ON = ("not_finished", "wrong_match")  # refusals that mean another process did it first

# What `take` did.
TAKEN, SAME, OPEN, MOVED = "taken", "same", "open", "moved"


def result_command(key: str, mid: str, proj: dict[str, Any] | None) -> dict[str, Any] | None:
    """The `take_result` of a finished match's projection; None when it is not finished (or, but for
    a ranked match's shared top, has no winner: logged)."""
    if proj is None or proj.get("status") != "finished":
        return None
    winner = proj.get("winner")
    if winner is None and not (proj.get("result") or {}).get("ranking"):
        log.error("match %s (%s) finished without a winner", mid, key)
        return None
    command: dict[str, Any] = {
        "kind": "take_result", "key": key, "match_id": mid, "winner": winner,
        "scores": {p["id"]: p["score"] for p in proj.get("players") or []},
        "match_version": int(proj["version"]),
    }
    result = proj.get("result") or {}
    if result.get("ranking"):
        command["ranking"] = list(result["ranking"])
    if result.get("entered"):
        command["entered"] = True
    races = {p["id"]: p.get("race_to") for p in proj.get("players") or []}
    if len(set(races.values())) > 1 and None not in races.values():  # a handicapped race (PROTOCOL.md 13)
        command["races"] = races
    if result.get("withdrawn"):  # forfeited by a withdrawal from the event while it was played
        command["withdrawn"] = list(result["withdrawn"])
    return command


class DrawResults:
    def __init__(self, engine: AsyncEngine, matches: MatchWriter, tournaments: TournamentWriter,
                 draws: DrawRules) -> None:
        self._engine = engine
        self._matches = matches
        self._tournaments = tournaments
        self._draws = draws
        # (match id, version) looked at and left as it is: its result is the draw's already, or the
        # draw refused to follow it (logged once). A new version of the match is looked at again.
        self._looked: set[tuple[str, int]] = set()

    def looked(self, mid: str, version: int) -> bool:
        return (mid, version) in self._looked

    def _leave(self, mid: str, version: int) -> None:
        if len(self._looked) >= LOOKED_MAX:
            self._looked.clear()
        self._looked.add((mid, version))

    async def take(self, tid: str, key: str, mid: str) -> str:
        """Take the match's latest result into the draw: TAKEN, SAME (the draw holds it already),
        OPEN (the match is not finished), MOVED (it kept changing: look again later). Raises
        draws.DrawReject when the draw refuses it otherwise (its key no longer called, say)."""
        for _ in range(ATTEMPTS):
            command = result_command(key, mid, await self._matches.projection(mid))
            if command is None:
                return OPEN
            try:
                await self._tournaments.apply(tid, command,
                                              expect=MatchAt(mid, ("finished",), command["match_version"]))
                return TAKEN
            except MatchMoved:
                continue  # an event of the match landed since it was read: read it again
            except self._draws.DrawReject as r:
                if r.code == "already_decided":
                    return SAME
                raise
        return MOVED

    def due(self, state: Any, heads: dict[str, tuple[str, int]]) -> list[tuple[str, str, int]]:
        """(key, match id, match version) of each result whose match finished again at a later
        version than the draw read it at, not looked at yet at that version."""
        out = []
        for key, result in state.results.items():
            head = heads.get(result.match_id)
            if result.match_version is None or head is None:
                continue
            status, version = head
            if status == "finished" and version > result.match_version and not self.looked(result.match_id, version):
                out.append((key, result.match_id, version))
        return out

    async def retake(self, tid: str, state: Any, key: str, mid: str, version: int) -> bool:
        """Take again the result of a match that moved on since the draw took it; True if stored."""
        command = result_command(key, mid, await self._matches.projection(mid))
        if command is None:
            return False  # reopened meanwhile: the flow voids the result
        data = {k: command.get(k) for k in ("key", "match_id", "winner", "scores", "ranking")}
        called = self._draws.affected_calls(state, "result_taken", data, besides=key)
        statuses = await catalog.match_statuses(self._engine, [m for _, m in called])
        started = [k for k, m in called if statuses.get(m) in STARTED]
        if started:
            log.error("tournament %s: match %s (%s) has a new result, but %s has started since: the draw keeps "
                      "the one it took", tid, mid, key, started[0])
            self._leave(mid, version)
            return False
        try:
            outcome = await self.take(tid, key, mid)
        except self._draws.DrawReject as r:
            log.error("tournament %s: match %s (%s) has a new result the draw refuses (%s: %s)",
                      tid, mid, key, r.code, r.message)
            self._leave(mid, version)
            return False
        if outcome == SAME:
            self._leave(mid, version)
        return outcome in (TAKEN, MOVED)

    async def void(self, tid: str, key: str, mid: str, version: int) -> bool:
        """Void the result of a match that reopened, while it is still open; True: look again."""
        command = {"kind": "void_result", "key": key, "match_id": mid}
        try:
            await self._tournaments.apply(tid, command, expect=MatchAt(mid, catalog.OPEN_STATUSES))
        except self._draws.DrawReject as r:
            if r.code not in MOVED_ON:
                log.error("tournament %s: match %s (%s) reopened, but the draw keeps its result (%s: %s)",
                          tid, mid, key, r.code, r.message)
                self._leave(mid, version)
        except MatchMoved:
            pass  # finished again meanwhile: the result is taken again instead
        return True
