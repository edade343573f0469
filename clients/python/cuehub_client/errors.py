"""Errors raised by the cuehub client."""

from __future__ import annotations

from typing import Any


class HubError(Exception):
    """The hub answered a REST call with an error (``{"error": {"code", "message"}}``)."""

    def __init__(self, status: int, code: str, message: str, body: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


class CommandRejected(Exception):
    """The hub refused a command; ``code`` is one of PROTOCOL.md section 3's reject codes."""

    def __init__(self, command_id: str, code: str, message: str) -> None:
        super().__init__(f"{code}: {message} (command {command_id})")
        self.command_id = command_id
        self.code = code
        self.message = message


class AuthError(Exception):
    """The table socket was closed with 4401: the table token is wrong."""


class SessionClosed(Exception):
    """The session or watcher was closed while a call was waiting on it."""
