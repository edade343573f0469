"""Opaque cursors for the paged reads of people (the directory, a person's matches). Pure.

A cursor is the position after the last row of a page, as URL-safe base64 of a small JSON array;
clients pass it back untouched. A cursor that does not decode to the expected shape is
`CursorError` (the API answers `422 bad_cursor`).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

MAX_CURSOR = 600


class CursorError(ValueError):
    pass


def encode(position: list[Any]) -> str:
    raw = json.dumps(position, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(cursor: str, shape: tuple[type, ...]) -> list[Any]:
    """The position a cursor holds, checked against `shape` (the type of each item)."""
    if not cursor or len(cursor) > MAX_CURSOR:
        raise CursorError("bad cursor")
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        position = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise CursorError("bad cursor") from None
    if not isinstance(position, list) or len(position) != len(shape):
        raise CursorError("bad cursor")
    for value, kind in zip(position, shape, strict=True):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CursorError("bad cursor")
    return position
