"""Command shapes: turn the ``command`` object of an envelope into the data of its event.

Only the shape is checked here (``bad_command``); whether the rules allow the command now
is the engine's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules.core import CALLED_FOULS, CUE_BALL_STATES
from hub.rules.events import Reject
from hub.rules.names import BadName, clean_name

TABLE_KINDS = (
    "start",
    "lag",
    "shot",
    "decision",
    "extension",
    "foul",
    "penalty",
    "concede",
    "stalemate",
    "timeout",
    "pause",
    "resume",
    "undo",
    "rack",
)
SERVER_KINDS = ("clock_expired", "match_time_expired", "link_lost", "link_restored", "player_renamed", "table_moved",
                "result_entered")
# Server-made events that correct the match's paperwork, not its play: taken in any phase (a rename
# also once the match is over), never undone, and they leave the clocks and `last` as they were.
ADMIN_KINDS = ("player_renamed", "table_moved")
MAX_NAME = 100
MAX_ID = 64
# Commands bound to the turn: the player may be left out (or null), and is then taken for the player
# at the table when the hub judges it (a tablet that was offline cannot know whose turn it is now).
TURN_KINDS = ("shot", "foul", "extension", "concede", "decision")
# ... and those that may say when the referee entered them (`entered_at`, server ms): one entered
# before the shot clock ran out takes back the time foul stored after it (engine.decide).
ENTERED_KINDS = ("shot", "foul", "extension", "concede")
MAX_MS = 2**53 - 1
PENALTY_TYPES = ("intentional_foul", "unsportsmanlike", "device", "forfeit_rack", "forfeit_match")
WIN_TYPES = ("normal", "small_gold", "big_gold")
MAX_COUNT = 1000
MAX_REASON = 200
# PROTOCOL.md section 12: what the shooter meant, as the referee saw it (optional; never changes a
# verdict: only the statistics read it). kick: the cue ball sent to a cushion before any object ball.
INTENTS = ("pot", "safety", "kick")


def bad(message: str) -> Reject:
    return Reject("bad_command", message)


def _int(value: Any, what: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"{what} must be a whole number")
    if not lo <= value <= hi:
        raise bad(f"{what} must be between {lo} and {hi}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise bad(f"{what} must be true or false")
    return value


def _player(cmd: Mapping[str, Any], players: tuple[str, ...]) -> str:
    pid = cmd.get("player")
    if not isinstance(pid, str):
        raise bad("player must be a player id")
    if pid not in players:
        raise bad(f"unknown player {pid[:64]!r}")
    return pid


def _balls(value: Any, what: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 15:
        raise bad(f"{what} must be a list of ball numbers")
    return [_int(b, f"{what}: ball number", 1, 15) for b in value]


def check_balls_on_table(shot: Mapping[str, Any], on_table: set[int]) -> None:
    """PROTOCOL.md: a ball number that is not on the table is ``bad_command``."""
    first = shot["first_contact"]
    if first is not None and first not in on_table:
        raise bad(f"first_contact: the {first} is not on the table")
    for ball in shot["pocketed"] + shot["off_table"]:
        if ball not in on_table:
            raise bad(f"the {ball} is not on the table")


def _entered_at(cmd: Mapping[str, Any]) -> dict[str, int]:
    """`entered_at` when the command carries it: server ms at which the referee entered it."""
    if cmd.get("entered_at") is None:
        return {}
    return {"entered_at": _int(cmd["entered_at"], "entered_at", 0, MAX_MS)}


def shot_data(cmd: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    player = _player(cmd, players)
    if "first_contact" not in cmd:
        raise bad("first_contact is required (null when the cue ball struck no ball)")
    first = cmd["first_contact"]
    if first is not None:
        first = _int(first, "first_contact", 1, 15)
    pocketed = _balls(cmd.get("pocketed"), "pocketed")
    off_table = _balls(cmd.get("off_table"), "off_table")
    if len(set(pocketed + off_table)) != len(pocketed) + len(off_table):
        raise bad("a ball appears twice across pocketed and off_table")
    cue_ball = cmd.get("cue_ball", "table")
    if cue_ball not in CUE_BALL_STATES:
        raise bad("cue_ball must be 'table', 'pocketed' or 'off_table'")
    called_fouls = cmd.get("called_fouls") or []
    if not isinstance(called_fouls, list) or any(c not in CALLED_FOULS for c in called_fouls):
        raise bad(f"called_fouls must be a list of: {', '.join(CALLED_FOULS)}")
    return {
        "player": player,
        "first_contact": first,
        "pocketed": pocketed,
        "off_table": off_table,
        "cue_ball": cue_ball,
        "rail": _bool(cmd.get("rail", False), "rail"),
        "break_rails": _int(cmd.get("break_rails", 0), "break_rails", 0, 15),
        "break_crossings": _int(cmd.get("break_crossings", 0), "break_crossings", 0, 100),
        "called_fouls": list(dict.fromkeys(called_fouls)),
        "called": _called(cmd.get("called"), pocketed),
        "break_position": _bool(cmd.get("break_position", False), "break_position"),
        "push_out": _bool(cmd.get("push_out", False), "push_out"),
        "snooker": _bool(cmd.get("snooker", False), "snooker"),
        "rail_safety": _bool(cmd.get("rail_safety", False), "rail_safety"),
        **_intent(cmd.get("intent")),
        **_entered_at(cmd),
    }


def _intent(value: Any) -> dict[str, str]:
    """`intent` when given (stored with the event only then): one of INTENTS, or null for none."""
    if value is None:
        return {}
    if value not in INTENTS:
        raise bad(f"intent must be one of: {', '.join(INTENTS)} (or left out)")
    return {"intent": value}


def _called(value: Any, pocketed: list[int]) -> int | None:
    """PROTOCOL.md section 17: the ball that went into the called pocket, one of ``pocketed``, or null."""
    if value is None:
        return None
    ball = _int(value, "called", 1, 15)
    if ball not in pocketed:
        raise bad(f"called: the {ball} must be one of pocketed (the ball that went in as called)")
    return ball


def rack_data(cmd: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    """A rack reported won (scoring by racks): ``winner``, ``win_type`` (default normal), ``paid_by``."""
    winner = cmd.get("winner")
    if not isinstance(winner, str) or winner not in players:
        raise bad("winner must be one of the match's players")
    win_type = cmd.get("win_type", "normal")
    if win_type not in WIN_TYPES:
        raise bad(f"win_type must be one of: {', '.join(WIN_TYPES)}")
    paid_by = cmd.get("paid_by")
    if paid_by is not None and (not isinstance(paid_by, str) or paid_by not in players or paid_by == winner):
        raise bad("paid_by must be one of the match's players other than the winner")
    return {"winner": winner, "win_type": win_type, **({"paid_by": paid_by} if paid_by is not None else {})}


def command_data(kind: str, cmd: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    """The event data of a well-formed command of ``kind`` (raises ``bad_command``)."""
    if kind == "shot":
        return shot_data(cmd, players)
    if kind == "rack":
        return rack_data(cmd, players)
    if kind == "start":
        if "order" in cmd:
            order = cmd["order"]
            if (not isinstance(order, list) or sorted(map(str, order)) != sorted(players)
                    or len(set(order)) != len(order)):
                raise bad("order must list every player once")
            if len(players) != 3:
                raise bad("order is for a three-player match; two-player matches take breaker")
            return {"order": list(order)}
        if len(players) == 3:
            raise bad("a three-player match starts with order, [3 player ids], the first breaks")
        breaker = cmd.get("breaker")
        if breaker not in players:
            raise bad("breaker must be one of the match's players")
        return {"breaker": breaker}
    if kind == "lag":
        winner = cmd.get("winner")
        if winner not in players:
            raise bad("winner must be one of the match's players")
        return {"winner": winner}
    if kind == "decision":
        choice = cmd.get("choice")
        if not isinstance(choice, str) or not choice or len(choice) > 32:
            raise bad("choice must be one of rack.pending.options")
        return {"player": _player(cmd, players), "choice": choice}
    if kind == "extension":
        return {"player": _player(cmd, players), **_entered_at(cmd)}
    if kind in ("timeout", "clock_expired"):
        return {"player": _player(cmd, players)}
    if kind == "foul":
        reason = cmd.get("reason")
        if reason not in CALLED_FOULS:
            raise bad(f"reason must be one of: {', '.join(CALLED_FOULS)}")
        return {"player": _player(cmd, players), "reason": reason, **_entered_at(cmd)}
    if kind == "penalty":
        ptype = cmd.get("type")
        if ptype not in PENALTY_TYPES:
            raise bad(f"type must be one of: {', '.join(PENALTY_TYPES)}")
        return {"player": _player(cmd, players), "type": ptype}
    if kind == "concede":
        scope = cmd.get("scope")
        if scope not in ("rack", "match"):
            raise bad("scope must be 'rack' or 'match'")
        return {"player": _player(cmd, players), "scope": scope, **_entered_at(cmd)}
    if kind in ("pause", "resume"):
        reason = cmd.get("reason")
        if reason is not None and (not isinstance(reason, str) or len(reason) > MAX_REASON):
            raise bad(f"reason must be a string of at most {MAX_REASON} characters")
        return {"reason": reason} if reason else {}
    if kind == "player_renamed":
        name = cmd.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise bad(f"name must be a non-empty string of at most {MAX_NAME} characters")
        try:
            name = clean_name(name)
        except BadName as exc:
            raise bad(str(exc)) from None
        return {"player": _player(cmd, players), "name": name}
    if kind == "table_moved":
        table_id = cmd.get("table_id")
        if not isinstance(table_id, str) or not table_id or len(table_id) > MAX_ID:
            raise bad(f"table_id must be a string of 1 to {MAX_ID} characters")
        return {"table_id": table_id}
    if kind == "link_lost":
        return {"since": _int(cmd.get("since"), "since", 0, MAX_MS)}
    return {}  # stalemate, undo, match_time_expired, link_restored
