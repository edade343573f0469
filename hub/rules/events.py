"""Stored events as the rules see them, and the two errors the rules raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One stored event of a match stream (PROTOCOL.md section 6)."""

    version: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    at: int = 0  # server ms when stored
    command_id: str | None = None
    voided: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "data": self.data,
            "at": self.at,
            "command_id": self.command_id,
            "voided": self.voided,
        }


class Reject(Exception):
    """A command the rules refuse; ``code`` is one of PROTOCOL.md section 3's reject codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class SetupError(ValueError):
    """A match setup (POST /api/matches body) that cannot be played; ``code`` is the API's error code."""

    def __init__(self, message: str, *, code: str = "bad_setup") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
