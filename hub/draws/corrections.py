"""Corrections during a live event: undoing what the draw has taken, while nothing depends on it.

Commands (see ``hub.draws`` for the table of every command):

- ``reinstate`` {player} -> ``player_reinstated`` {player}: a withdrawal undone. The walkovers it
  made are open again (ready, in the queue); a chase round formed without the player is formed
  again with them when none of its matches is called or decided.
- ``void_walkover`` {key} -> ``walkover_voided`` {key}: an explicit walkover undone; the key is
  ready again, at the end of the queue. A walkover derived from a withdrawal is undone by
  reinstating the player (409 ``withdrawn`` says so); a bye is no result (409 ``not_walkover``).
- ``archive`` / ``unarchive`` -> ``tournament_archived`` / ``tournament_unarchived``: the public list
  of tournaments leaves archived ones out; nothing else changes (409 ``archived`` /
  ``not_archived`` when there is nothing to do).

Every correction, and a result taken again for a finished key (``take_result`` on a finished key
replaces its result: a score corrected by hand), is refused with 409 ``result_used`` when it would
change the players of a draw match that is finished or given as an explicit walkover; the message
names that match. ``affected_calls`` lists the called matches it would change: the I/O layer refuses
the correction when one of those has started, and the flow takes the others off their tables (their
calls are stale then; see ``dispatch.stale_calls``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.draws import fields
from hub.draws.events import DrawReject, TournamentEvent, conflict
from hub.draws.player_commands import known_player
from hub.draws.state import TournamentState


def _names(state: TournamentState, players: tuple[str | None, ...]) -> str:
    return " v ".join(state.name(p) for p in players if p is not None) or "nobody yet"


def disturbed(before: TournamentState, after: TournamentState, *, besides: str | None = None) -> list[str]:
    """Keys (other than ``besides``) that are called, finished or an explicit walkover in ``before``
    whose players are not the same in ``after`` (or that are gone from it), in structural order."""
    if before.draw is None:
        return []
    later = after.derived.by_key
    out = []
    for m in before.derived.matches:
        if m.key == besides or not (m.status in ("called", "finished") or m.key in before.walkovers):
            continue
        now = later.get(m.key)
        if now is None or now.players != m.players:
            out.append(m.key)
    return out


def state_after(state: TournamentState, kind: str, data: Mapping[str, Any]) -> TournamentState:
    from hub.draws.evolve import evolve  # evolve is pure and imports nothing of the commands

    return evolve(state, TournamentEvent(state.version + 1, kind, dict(data)))


def refuse_if_used(state: TournamentState, kind: str, data: Mapping[str, Any], besides: str | None = None) -> None:
    """409 ``result_used`` when the event would change a finished match or an explicit walkover."""
    after = state_after(state, kind, data)
    for key in disturbed(state, after, besides=besides):
        m = state.derived.by_key[key]
        if m.status == "finished" or key in state.walkovers:
            what = "has been played" if m.status == "finished" else "was given as a walkover"
            raise conflict("result_used", f"{key} ({_names(state, m.players)}) {what} since: it depends on this; "
                                          f"reopen {key} first")


def affected_calls(state: TournamentState, kind: str, data: Mapping[str, Any],
                   besides: str | None = None) -> list[tuple[str, str]]:
    """(key, match_id) of the called matches whose players the event would change."""
    after = state_after(state, kind, data)
    return [(k, state.open_calls[k].match_id) for k in disturbed(state, after, besides=besides)
            if k in state.open_calls]


def reinstate(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "player"))
    pid = known_player(state, fields.required(cmd, "player"))
    player = state.player(pid)
    if not player.withdrawn:
        raise conflict("not_withdrawn", f"{player.name} has not withdrawn")
    if state.draw is not None and state.derived.finished:
        raise conflict("draw_finished", "the draw is over: its results stand")
    data = {"player": pid}
    refuse_if_used(state, "player_reinstated", data)
    return "player_reinstated", data


def void_walkover(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "key"))
    if state.draw is None:
        raise conflict("no_draw", "there is no draw yet")
    key = fields.ident(fields.required(cmd, "key"), "key")
    match = state.derived.by_key.get(key)
    if match is None:
        raise DrawReject(404, "unknown_key", f"the draw has no match {key!r}")
    if key not in state.walkovers:
        if match.status == "walkover":
            gone = [state.name(p) for p in match.known_players if state.player(p).withdrawn]
            raise conflict("withdrawn", f"{key} is a walkover because {' and '.join(gone) or 'a player'} withdrew: "
                                        "reinstate the player to open it again")
        raise conflict("not_walkover", f"{key} is {match.status}, not a walkover")
    data = {"key": key}
    refuse_if_used(state, "walkover_voided", data, besides=key)
    return "walkover_voided", data


def archive(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind",))
    if state.archived:
        raise conflict("archived", "the tournament is archived already")
    return "tournament_archived", {}


def unarchive(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind",))
    if not state.archived:
        raise conflict("not_archived", "the tournament is not archived")
    return "tournament_unarchived", {}
