"""``decide(state, command)``: the event a command makes, or a ``DrawReject``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hub.draws import corrections, draw_commands, match_commands, no_shows, player_commands, team_corrections, teams
from hub.draws.events import bad
from hub.draws.state import TournamentState

Handler = Callable[[TournamentState, Mapping[str, Any]], tuple[str, dict[str, Any]]]

HANDLERS: dict[str, Handler] = {
    "add_players": player_commands.add_players,
    "update_player": player_commands.update_player,
    "withdraw": player_commands.withdraw,
    "remove_player": player_commands.remove_player,
    "make_draw": draw_commands.make_draw,
    "walkover": match_commands.walkover,
    "call": match_commands.call,
    "uncall": match_commands.uncall,
    "move_call": match_commands.move_call,
    "order_queue": match_commands.order_queue,
    "take_result": match_commands.take_result,
    "void_result": match_commands.void_result,
    "pause_table": match_commands.pause_table,
    "resume_table": match_commands.resume_table,
    "reinstate": corrections.reinstate,
    "void_walkover": corrections.void_walkover,
    "archive": corrections.archive,
    "unarchive": corrections.unarchive,
    **no_shows.HANDLERS,
    "name_lineup": teams.name_lineup,
    "call_rubber": teams.call_rubber,
    "uncall_rubber": teams.uncall_rubber,
    "take_rubber": team_corrections.take_rubber,
    "void_rubber": team_corrections.void_rubber,
}


def decide(state: TournamentState, command: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    if not isinstance(command, Mapping):
        raise bad("command must be an object")
    kind = command.get("kind")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise bad(f"unknown command kind {str(kind)[:40]!r}")
    return handler(state, command)
