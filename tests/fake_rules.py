"""A tiny stand-in with the hub.rules contract, so the spine (store, writer, API, sockets) is
tested on its own terms. It knows nothing about billiards: `start`, then `shot`s that score a
point for the shooter and pass the turn, `concede` ends the match, `undo`, `clock_expired`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from hub.rules.events import Event, Reject, SetupError


@dataclass(frozen=True)
class MatchSetup:
    match_id: str
    tournament_id: str
    table_id: str
    discipline: str
    players: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class MatchState:
    setup: MatchSetup
    version: int = 0
    status: str = "scheduled"
    shooter: str | None = None
    scores: tuple[int, ...] = ()
    live_versions: tuple[int, ...] = field(default=())  # undoable event versions
    last: dict[str, Any] | None = None


def validate_setup(body: Mapping[str, Any], *, match_id: str, tournament_id: str, table_id: str) -> MatchSetup:
    if body.get("discipline") not in {"golden_nine", "wpa_nine", "chinese_eight", "chase_nine"}:
        raise SetupError("unknown discipline")
    players = body.get("players")
    if not isinstance(players, list) or len(players) not in (2, 3) or not all(isinstance(p, dict) for p in players):
        raise SetupError("players: two or three objects")
    ids = [p.get("id") for p in players]
    if len(set(ids)) != len(ids) or not all(isinstance(i, str) for i in ids):
        raise SetupError("player ids must be unique strings")
    return MatchSetup(match_id, tournament_id, table_id, body["discipline"],
                      tuple((p["id"], str(p.get("name", ""))) for p in players))


def initial(setup: MatchSetup) -> MatchState:
    return MatchState(setup=setup, scores=tuple(0 for _ in setup.players))


def _ids(state: MatchState) -> list[str]:
    return [pid for pid, _ in state.setup.players]


def decide(state: MatchState, command: Mapping[str, Any], *, server: bool = False) -> tuple[str, dict]:
    if not isinstance(command, Mapping) or not isinstance(command.get("kind"), str):
        raise Reject("bad_command", "command.kind missing")
    kind = command["kind"]
    if kind == "undo":
        if not state.live_versions:
            raise Reject("nothing_to_undo", "nothing to undo")
        return "undo", {"target": state.live_versions[-1]}
    if kind == "start":
        if state.status != "scheduled":
            raise Reject("already_started", "already started")
        if command.get("breaker") not in _ids(state):
            raise Reject("bad_command", "breaker must be a player id")
        return "start", {"breaker": command["breaker"]}
    if kind in ("shot", "concede", "clock_expired"):
        if kind == "clock_expired" and not server:
            raise Reject("bad_command", "server-made kind")
        if state.status == "scheduled":
            raise Reject("not_started", "not started")
        if state.status == "finished":
            raise Reject("match_over", "match over")
        if command.get("player") != state.shooter:
            raise Reject("not_your_turn", "not your turn")
        return kind, {"player": command["player"]}
    raise Reject("bad_command", f"unknown kind {kind!r}")


def evolve(state: MatchState, event: Event) -> MatchState:
    state = replace(state, version=event.version)
    if event.voided or event.kind == "undo":
        return state
    ids = _ids(state)
    lv = state.live_versions + (event.version,)
    last = {"version": event.version, "kind": event.kind}
    if event.kind == "start":
        return replace(state, status="live", shooter=event.data["breaker"], live_versions=lv, last=last)
    i = ids.index(event.data["player"])
    nxt = ids[(i + 1) % len(ids)]
    if event.kind == "shot":
        scores = tuple(s + (1 if j == i else 0) for j, s in enumerate(state.scores))
        return replace(state, scores=scores, shooter=nxt, live_versions=lv, last=last)
    if event.kind == "concede":
        return replace(state, status="finished", shooter=None, live_versions=lv, last=last)
    return replace(state, shooter=nxt, live_versions=lv, last=last)  # clock_expired


def fold(setup: MatchSetup, events: Iterable[Event]) -> MatchState:
    state = initial(setup)
    for e in events:
        state = evolve(state, e)
    return state


def projection(state: MatchState) -> dict[str, Any]:
    s = state.setup
    return {
        "id": s.match_id, "tournament_id": s.tournament_id, "table_id": s.table_id,
        "discipline": s.discipline, "status": state.status, "version": state.version,
        "players": [{"id": pid, "name": name, "score": sc, "racks_won": 0}
                    for (pid, name), sc in zip(s.players, state.scores, strict=True)],
        "rack": {"number": 1, "shooter": state.shooter},
        "clock": {"shot": None, "match": None}, "winner": None, "result": None, "last": state.last,
    }


def short_projection(state: MatchState) -> dict[str, Any]:
    p = projection(state)
    return {k: p[k] for k in ("id", "discipline", "status", "players", "rack", "clock", "winner")}
