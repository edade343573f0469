"""The command envelope (PROTOCOL.md section 3), checked the same way for HTTP and the table socket."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Envelope:
    id: str
    match_id: str
    expected_version: int | None
    command: dict[str, Any]


class BadEnvelope(Exception):
    """Not a command envelope; `id` is the envelope's id when it had a usable one."""

    def __init__(self, message: str, id: str | None = None) -> None:
        super().__init__(message)
        self.message, self.id = message, id


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_envelope(raw: Any) -> Envelope:
    if not isinstance(raw, dict):
        raise BadEnvelope("the envelope must be a JSON object")
    cid = raw.get("id")
    good_id = cid if isinstance(cid, str) and 1 <= len(cid) <= 64 else None
    if good_id is None:
        raise BadEnvelope("id must be a string of 1 to 64 characters")
    mid = raw.get("match_id")
    if not isinstance(mid, str) or not mid:
        raise BadEnvelope("match_id must be a string", good_id)
    expected = raw.get("expected_version")
    if expected is not None and (not _is_int(expected) or expected < 0):
        raise BadEnvelope("expected_version must be a non-negative integer", good_id)
    command = raw.get("command")
    if not isinstance(command, dict) or not isinstance(command.get("kind"), str):
        raise BadEnvelope("command must be an object with a string kind", good_id)
    return Envelope(good_id, mid, expected, command)
