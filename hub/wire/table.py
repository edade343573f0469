"""The table socket's messages (`/ws/tables/{table_id}`, PROTOCOL.md sections 2 and 9).

A tablet sends `auth` first, then command envelopes (hub/api/envelope.py parses them) and `ping`;
it is sent `ready` once, then `ack`/`reject` for its commands, `state` after every change of the
table's match, `match_left` when the match it shows left the table, and `pong`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import (
    TypedDict,  # pydantic validates these (the clients' tests) on Python < 3.12 only in this form
)

from hub.store.db import now_ms


class ErrorDetail(TypedDict):
    code: str
    message: str


# --- what a tablet sends --------------------------------------------------------------------------

class Auth(TypedDict):
    type: Literal["auth"]
    token: str
    device: NotRequired[str]  # the tablet's own id, for the desk's list of tablets (PROTOCOL.md section 16)


class Ping(TypedDict):
    type: Literal["ping"]


def auth(token: str, device: str | None = None) -> Auth:
    frame: Auth = {"type": "auth", "token": token}
    if device is not None:
        frame["device"] = device
    return frame


PING_TEXT = '{"type":"ping"}'  # the frame as tablets send it (a presence sign; hub/matches/presence.py)


# --- what a tablet is sent ------------------------------------------------------------------------

class Ready(TypedDict):
    type: Literal["ready"]
    match: dict[str, Any] | None  # the table's current match's projection, or null: none now
    server_time: int


class State(TypedDict):
    type: Literal["state"]
    match: dict[str, Any] | None
    server_time: int


class Ack(TypedDict):
    type: Literal["ack"]
    id: str | None
    version: int


class Reject(TypedDict):
    type: Literal["reject"]
    id: str | None
    error: ErrorDetail


class Pong(TypedDict):
    type: Literal["pong"]
    server_time: int


class MatchLeft(TypedDict):
    type: Literal["match_left"]
    match_id: str
    to: dict[str, Any] | None  # the table it went to (`table_id`, `name`); null: cancelled, nowhere


SENT = ("ready", "state", "ack", "reject", "pong", "match_left")  # every type a tablet may receive


def ready(match: dict[str, Any] | None) -> Ready:
    return {"type": "ready", "match": match, "server_time": now_ms()}


def state(match: dict[str, Any] | None) -> State:
    return {"type": "state", "match": match, "server_time": now_ms()}


def state_text(projection_json: str) -> str:
    """`state` spliced from a projection already serialised (the push after every change)."""
    return f'{{"type":"state","match":{projection_json},"server_time":{now_ms()}}}'


def ack(command_id: str | None, version: int) -> Ack:
    return {"type": "ack", "id": command_id, "version": version}


def reject(command_id: str | None, code: str, message: str) -> Reject:
    return {"type": "reject", "id": command_id, "error": {"code": code, "message": message}}


def pong() -> Pong:
    return {"type": "pong", "server_time": now_ms()}


def match_left(match_id: str, to: dict[str, Any] | None) -> MatchLeft:
    return {"type": "match_left", "match_id": match_id, "to": to}
