"""JSON at the hub's edge, for the REST routes and the sockets alike: `strict_loads` parses what a
client sends (refusing what could not be stored or sent back out), `error_body` is the shape of
every refusal (`{"error": {"code", "message"}}`, PROTOCOL.md)."""

from __future__ import annotations

import json
from typing import Any


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _utf8_only(value: Any) -> None:
    """Refuse strings that are not valid Unicode text (lone surrogates from \\udXXX escapes) or that
    hold NUL: the databases cannot store them (PostgreSQL text has no NUL). Iterative, so a deep
    value cannot exhaust the stack."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            v.encode("utf-8")  # UnicodeEncodeError is a ValueError
            if "\x00" in v:
                raise ValueError("NUL characters are not allowed in strings")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def strict_loads(raw: str | bytes) -> Any:
    """json.loads without NaN/Infinity (they could not be sent back out as JSON), without lone
    surrogates, and with nesting too deep for the parser reported as bad JSON rather than a crash."""
    try:
        value = json.loads(raw, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    _utf8_only(value)
    return value
