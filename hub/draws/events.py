"""A tournament's stored events as the draw logic sees them, and the error it raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    """One stored event of a tournament stream (``tournament_events``)."""

    version: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    at: int = 0  # server ms when stored; the draw logic never needs it
    command_id: str | None = None


class DrawReject(Exception):
    """A command the draw logic refuses.

    ``status`` is the HTTP status the API answers with (404 unknown id, 409 conflict with the
    tournament's state, 422 bad input); ``code`` is the error code of the answer body and
    ``message`` a plain-English sentence naming players by name where it can."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def bad(message: str) -> DrawReject:
    return DrawReject(422, "bad_request", message)


def conflict(code: str, message: str) -> DrawReject:
    return DrawReject(409, code, message)
