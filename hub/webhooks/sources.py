"""Where the webhooks' events come from: the writers' listeners, in the process that stored the change
(so each event is emitted once, whatever the number of hub processes).

- `match.called`: a tournament's `match_called` (the queue gave a draw match a table);
- `match.started`: a match's `start`; `match.finished`: a match that is finished after a change and
  was not before it (a result entered by hand too; a match reopened and finished again is told again);
- `tournament.finished`: a draw whose status became `finished`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from hub.matches.writer import Change, MatchWriter
from hub.tournaments.writer import TournamentChange, TournamentWriter
from hub.webhooks.service import Webhooks

KEEP = 10_000  # matches whose last status is remembered


def _players(projection: dict[str, Any]) -> list[dict[str, Any]]:
    players = projection.get("players") or []
    return [{"id": p.get("id"), "name": p.get("name"), "score": p.get("score")} for p in players]


def _match(change: Change) -> dict[str, Any]:
    p = change.projection
    return {"tournament_id": change.tournament_id, "match_id": change.match_id, "table_id": change.table_id,
            "discipline": p.get("discipline"), "status": p.get("status"), "players": _players(p),
            "winner": p.get("winner"), "draw": p.get("draw")}


class Sources:
    def __init__(self, hooks: Webhooks) -> None:
        self._hooks = hooks
        self._status: OrderedDict[str, str] = OrderedDict()
        self._off: list[Callable[[], None]] = []

    def attach(self, writer: MatchWriter, tournaments: TournamentWriter) -> None:
        self._off = [writer.subscribe(self.on_match, "webhooks"), tournaments.subscribe(self.on_tournament)]

    def detach(self) -> None:
        for off in self._off:
            off()
        self._off = []

    def on_match(self, change: Change) -> None:
        status = change.projection.get("status")
        before = self._status.pop(change.match_id, None)
        self._status[change.match_id] = str(status)
        while len(self._status) > KEEP:
            self._status.popitem(last=False)
        kind = (change.event or {}).get("kind")
        if kind == "start" and status == "live":
            self._hooks.emit("match.started", _match(change))
        elif status == "finished" and before != "finished" and change.event is not None:
            self._hooks.emit("match.finished", _match(change))

    def on_tournament(self, change: TournamentChange) -> None:
        event = change.event
        proj = change.projection
        if event.get("kind") == "match_called":
            data = event.get("data") or {}
            names = {p["id"]: p["name"] for p in proj.get("players") or []}
            self._hooks.emit("match.called", {
                "tournament_id": change.tournament_id, "key": data.get("key"), "match_id": data.get("match_id"),
                "table_id": data.get("table_id"), "called_at": event.get("at"),
                "players": [{"id": pid, "name": names.get(pid)} for pid in data.get("players") or []]})
        draw = proj.get("draw") or {}
        became = change.delta is not None and "status" in (change.delta.get("draw") or {})
        if draw.get("status") == "finished" and became:
            self._hooks.emit("tournament.finished", {"tournament_id": change.tournament_id,
                                                     "champion": draw.get("champion"),
                                                     "standings": proj.get("standings")})
