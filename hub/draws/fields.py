"""Field checks shared by the commands: each raises ``DrawReject(422, "bad_request", ...)``
naming the field."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.draws.events import bad
from hub.rules.names import BadName, clean_name

MAX_ID = 64


def only(cmd: Mapping[str, Any], allowed: Iterable[str], what: str = "command") -> None:
    allowed = set(allowed)
    for name in cmd:
        if name not in allowed:
            shown = str(name)[:40]
            raise bad(f"unknown field {shown!r} in the {what} (allowed: {', '.join(sorted(allowed))})")


def mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise bad(f"{what} must be an object")
    return value


def text(value: Any, what: str, *, max_len: int = 100) -> str:
    """A name: a stripped, non-empty string of at most ``max_len`` characters, under the one rule
    for names (hub/rules/names.py: control characters, separators and bidi controls refused,
    invisible characters stripped)."""
    if not isinstance(value, str):
        raise bad(f"{what} must be a string")
    try:
        stripped: str = clean_name(value, what)
    except BadName as exc:
        raise bad(str(exc)) from None
    if len(stripped) > max_len:
        raise bad(f"{what} must be at most {max_len} characters (got {len(stripped)})")
    return stripped


def whole(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"{what} must be a whole number")
    if not lo <= value <= hi:
        raise bad(f"{what} must be between {lo} and {hi} (got {value})")
    return value


def flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise bad(f"{what} must be true or false")
    return value


def ident(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID:
        raise bad(f"{what} must be a string of 1 to {MAX_ID} characters")
    return value


def required(cmd: Mapping[str, Any], name: str) -> Any:
    if name not in cmd:
        raise bad(f"{name} is required")
    return cmd[name]

