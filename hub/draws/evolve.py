"""``initial`` / ``evolve`` / ``fold``: facts only, no derivation.

``evolve`` copies only the fields the event changes (copy on write), so a state handed out is
never changed; ``fold`` applies a whole stream to one working copy and freezes it once.
Events of kinds this package does not know (the I/O layer's own) only advance the version.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from hub.draws import draw_formats, no_shows
from hub.draws.events import TournamentEvent
from hub.draws.state import Call, DrawSpec, Player, Result, TournamentState, Walkover
from hub.draws.teams import members_of

_MAPPINGS = ("calls", "results", "walkovers", "uncalled_at", "match_keys", "no_show_waits",
             "lineups", "rubber_calls", "rubber_results", "rubber_matches")


def initial(tournament_id: str) -> TournamentState:
    return TournamentState(tournament_id=tournament_id)


class _Working:
    """A mutable copy of a state's facts, copying each field the first time it is changed."""

    def __init__(self, state: TournamentState) -> None:
        self.base = state
        self.fields: dict[str, Any] = {}
        self.version = state.version
        self.at = 0  # the `at` of the event being applied (stored data, not a clock read)
        self._index: dict[str, int] | None = None

    def get(self, name: str) -> Any:
        return self.fields[name] if name in self.fields else getattr(self.base, name)

    def mut(self, name: str) -> Any:
        if name not in self.fields:
            value = getattr(self.base, name)
            self.fields[name] = list(value) if isinstance(value, tuple) else dict(value)
        return self.fields[name]

    def set(self, name: str, value: Any) -> None:
        self.fields[name] = value

    def player_index(self, pid: str) -> int:
        if self._index is None:
            self._index = {p.id: i for i, p in enumerate(self.get("players"))}
        return self._index[pid]

    def freeze(self) -> TournamentState:
        # Read-only views: a state handed out cannot be changed through its mappings.
        changes: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else MappingProxyType(v) if isinstance(v, dict) else v
            for k, v in self.fields.items()}
        return replace(self.base, version=self.version, **changes)


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    work = _Working(state)
    _apply(work, event)
    return work.freeze()


def fold(tournament_id: str, events: Iterable[TournamentEvent]) -> TournamentState:
    work = _Working(initial(tournament_id))
    for event in events:
        _apply(work, event)
    return work.freeze()


def _apply(work: _Working, ev: TournamentEvent) -> None:
    work.version = ev.version
    work.at = ev.at
    apply = _APPLY.get(ev.kind)
    if apply is not None:
        apply(work, ev.data, ev.version)


def _players_added(work: _Working, data: dict[str, Any], version: int) -> None:
    players = work.mut("players")
    for p in data["players"]:
        players.append(Player(p["id"], p["name"], p.get("club"), p.get("seed"), p.get("handicap"),
                              work.get("entered"), person=p.get("person"),
                              members=members_of(p.get("members") or ()), captain=p.get("captain")))
        work.set("entered", work.get("entered") + 1)
    work._index = None
    if work.get("draw") is not None:  # late entries: the draw does not hold them until a redraw
        work.set("stale", True)


def _player_updated(work: _Working, data: dict[str, Any], version: int) -> None:
    players = work.mut("players")
    i = work.player_index(data["player"])
    changes = {k: v for k, v in data["changes"].items() if k in ("name", "club", "seed", "handicap", "person",
                                                                  "captain")}
    if "members" in data["changes"]:
        changes["members"] = members_of(data["changes"]["members"])
    players[i] = replace(players[i], **changes)


def _players_linked(work: _Working, data: dict[str, Any], version: int) -> None:
    """Entries given their people after the fact (the upgrade that brought people: PROTOCOL.md section 12)."""
    players = work.mut("players")
    for pid, person in data["links"].items():
        i = work.player_index(pid)
        players[i] = replace(players[i], person=person)


def _player_withdrawn(work: _Working, data: dict[str, Any], version: int) -> None:
    players = work.mut("players")
    i = work.player_index(data["player"])
    players[i] = replace(players[i], withdrawn_at=version)


def _player_removed(work: _Working, data: dict[str, Any], version: int) -> None:
    players = work.mut("players")
    del players[work.player_index(data["player"])]
    work._index = None


def _draw_made(work: _Working, data: dict[str, Any], version: int) -> None:
    params = {name: data.get(name) for name in draw_formats.params()}
    work.set("draw", DrawSpec(data["type"], data["seeding"], data["seed"], data["match"], params,
                              tuple(data["entrants"]), version, data.get("then"), data.get("ratings")))
    for name in _MAPPINGS:
        work.set(name, {})
    work.set("queue_order", ())
    work.set("stale", False)


def _player_reinstated(work: _Working, data: dict[str, Any], version: int) -> None:
    players = work.mut("players")
    i = work.player_index(data["player"])
    players[i] = replace(players[i], withdrawn_at=None)


def _walkover_voided(work: _Working, data: dict[str, Any], version: int) -> None:
    work.mut("walkovers").pop(data["key"], None)
    work.mut("uncalled_at")[data["key"]] = version  # back in the queue, at its end


def _archived(work: _Working, data: dict[str, Any], version: int) -> None:
    work.set("archived", True)


def _unarchived(work: _Working, data: dict[str, Any], version: int) -> None:
    work.set("archived", False)


def _walkover(work: _Working, data: dict[str, Any], version: int) -> None:
    work.mut("walkovers")[data["key"]] = Walkover(data["key"], data["winner"], version)
    if "match_id" in data:  # a called key decided without play: its match is gone
        work.mut("calls").pop(data["key"], None)
        work.mut("match_keys").pop(data["match_id"], None)


def _match_called(work: _Working, data: dict[str, Any], version: int) -> None:
    key = data["key"]
    work.mut("calls")[key] = Call(key, data["match_id"], data["table_id"], tuple(data["players"]), version, work.at)
    work.mut("match_keys")[data["match_id"]] = key
    if key in work.get("no_show_waits"):
        work.mut("no_show_waits").pop(key)


def _match_uncalled(work: _Working, data: dict[str, Any], version: int) -> None:
    key = data["key"]
    call = work.mut("calls").pop(key, None)
    if call is not None:
        work.mut("match_keys").pop(call.match_id, None)
    work.mut("uncalled_at")[key] = version
    if key in work.get("queue_order"):
        work.set("queue_order", tuple(k for k in work.get("queue_order") if k != key))


def _call_moved(work: _Working, data: dict[str, Any], version: int) -> None:
    calls = work.mut("calls")
    calls[data["key"]] = calls[data["key"]]._replace(table_id=data["table_id"])


def _queue_ordered(work: _Working, data: dict[str, Any], version: int) -> None:
    work.set("queue_order", tuple(data["keys"]))


def _result_taken(work: _Working, data: dict[str, Any], version: int) -> None:
    ranking = data.get("ranking")
    work.mut("results")[data["key"]] = Result(data["key"], data["match_id"], data["winner"], dict(data["scores"]),
                                              tuple(ranking) if ranking is not None else None, version,
                                              bool(data.get("entered")), data.get("match_version"),
                                              tuple(data.get("withdrawn") or ()),
                                              dict(data["races"]) if data.get("races") else None)


def _result_voided(work: _Working, data: dict[str, Any], version: int) -> None:
    work.mut("results").pop(data["key"], None)
    if data.get("requeue"):  # its table is taken: the key goes back to the queue, its match is let go
        _match_uncalled(work, data, version)


def _table_paused(work: _Working, data: dict[str, Any], version: int) -> None:
    if data["table_id"] not in work.get("paused_tables"):
        work.set("paused_tables", (*work.get("paused_tables"), data["table_id"]))


def _table_resumed(work: _Working, data: dict[str, Any], version: int) -> None:
    work.set("paused_tables", tuple(t for t in work.get("paused_tables") if t != data["table_id"]))


def _lineup_named(work: _Working, data: dict[str, Any], version: int) -> None:
    lineups = work.mut("lineups")
    lineups[data["rubber"]] = {**lineups.get(data["rubber"], {}), data["team"]: tuple(data["members"])}


def _rubber_called(work: _Working, data: dict[str, Any], version: int) -> None:
    rkey = data["rubber"]
    # the call's time starts a rubber's no-show clock as a match's (hub/draws/no_shows.py)
    work.mut("rubber_calls")[rkey] = Call(rkey, data["match_id"], data["table_id"], tuple(data["players"]), version,
                                          work.at)
    work.mut("rubber_matches")[data["match_id"]] = rkey
    if rkey in work.get("no_show_waits"):  # a new call, a new clock
        work.mut("no_show_waits").pop(rkey)


def _rubber_uncalled(work: _Working, data: dict[str, Any], version: int) -> None:
    call = work.mut("rubber_calls").pop(data["rubber"], None)
    if call is not None:
        work.mut("rubber_matches").pop(call.match_id, None)
    if data.get("requeued"):  # dispatch_rubbers puts it behind the rubbers not requeued
        work.mut("uncalled_at")[data["rubber"]] = version


def _rubber_result_taken(work: _Working, data: dict[str, Any], version: int) -> None:
    rkey = data["rubber"]
    held = work.get("rubber_results").get(rkey)  # a correction keeps its place in the order of results
    work.mut("rubber_results")[rkey] = Result(rkey, data["match_id"], data["winner"], dict(data["scores"]), None,
                                              held.version if held is not None else version,
                                              match_version=data.get("match_version"))
    _team_outcome(work, data, version)


def _rubber_result_voided(work: _Working, data: dict[str, Any], version: int) -> None:
    work.mut("rubber_results").pop(data["rubber"], None)  # its call stays: the rubber is played on
    _team_outcome(work, data, version)


def _team_outcome(work: _Working, data: dict[str, Any], version: int) -> None:
    """The team match won (its result, in rubbers, advances the team), or open again (hub/draws/team_corrections.py)."""
    decides = data.get("decides")
    if decides is not None:
        work.mut("results")[decides["key"]] = Result(decides["key"], "", decides["winner"], dict(decides["scores"]),
                                                     None, version)
    if data.get("reopens") is not None:
        work.mut("results").pop(data["reopens"], None)


_APPLY = {
    "players_added": _players_added,
    "player_updated": _player_updated,
    "players_linked": _players_linked,
    "player_withdrawn": _player_withdrawn,
    "player_removed": _player_removed,
    "draw_made": _draw_made,
    "walkover": _walkover,
    "match_called": _match_called,
    "match_uncalled": _match_uncalled,
    "call_moved": _call_moved,
    "queue_ordered": _queue_ordered,
    "result_taken": _result_taken,
    "result_voided": _result_voided,
    "table_paused": _table_paused,
    "table_resumed": _table_resumed,
    "player_reinstated": _player_reinstated,
    "walkover_voided": _walkover_voided,
    "tournament_archived": _archived,
    "tournament_unarchived": _unarchived,
    **no_shows.APPLY,
    "lineup_named": _lineup_named,
    "rubber_called": _rubber_called,
    "rubber_uncalled": _rubber_uncalled,
    "rubber_result_taken": _rubber_result_taken,
    "rubber_result_voided": _rubber_result_voided,
}
