"""Structured logs: one JSON object per line, carrying the match / table / tournament ids.

`cuehub serve` configures this formatter for the hub's and uvicorn's loggers unless
`HUB_LOG_FORMAT=text`. Ids come from two places:

- `bind(match_id=..., table_id=...)`: a context manager (contextvars, so per asyncio task) that
  tags every record logged inside it; the match writer binds them around each command;
- `log.info("...", extra={"match_id": ...})`: per call.

A line: {"ts": "2025-01-01T12:00:00.123Z", "level": "info", "logger": "hub.matches.instrumented",
"msg": "command shot stored as v12", "match_id": "m..", "table_id": "tb..", "kind": "shot", ...}

uvicorn's access lines also carry `client`, `method`, `path`, `http_version` and `status`. Never
in a line: ANSI colour codes (uvicorn's `color_message` extra is dropped, escapes are stripped).
Every process logs this way: `cuehub serve` (uvicorn's log_config), `cuehub gateway` and
`cuehub migrate` (`configure`), unless HUB_LOG_FORMAT=text.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

_context: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "cuehub_log_context", default=MappingProxyType({}))

# Attributes every LogRecord has; anything else on a record came from `extra=` and is emitted.
_STANDARD = set(vars(logging.LogRecord("x", 0, "x", 0, "x", None, None))) | {"message", "asctime", "taskName"}
# Extras that are presentation, not data: uvicorn's coloured copy of the message.
_DROPPED = frozenset({"color_message"})
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")


@contextmanager
def bind(**ids: Any) -> Iterator[None]:
    """Tag the records logged inside this block (None values are left out)."""
    current = _context.get()
    token = _context.set({**current, **{k: v for k, v in ids.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": _ANSI.sub("", record.getMessage()),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            out.update(zip(_ACCESS_FIELDS, record.args, strict=True))
        out.update(_context.get())
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in _DROPPED and not key.startswith("_"):
                out[key] = _ANSI.sub("", value) if isinstance(value, str) else value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, default=str, ensure_ascii=False)


def announce(msg: str, *, json_format: bool, logger: str = "hub", **fields: Any) -> None:
    """A line for the person who started the hub (the desk's address, a generated token) on stdout:
    plain text, or one JSON object like every other line when the logs are JSON, so a collector
    that parses the container's output line by line never meets a line it cannot read."""
    if json_format:
        record = logging.LogRecord(logger, logging.INFO, __file__, 0, msg, None, None)
        record.__dict__.update(fields)
        line = JsonFormatter().format(record)
    else:
        line = msg
    print(line, flush=True)


def json_enabled(env: dict[str, str] | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    return (env.get("HUB_LOG_FORMAT") or "json").strip().lower() != "text"


def log_config(level: str = "info", *, json_format: bool = True) -> dict[str, Any]:
    """A logging.config.dictConfig for `uvicorn.run(log_config=...)`: the hub's loggers and
    uvicorn's (errors and access lines) to stderr, JSON or uvicorn's usual text."""
    lvl = level.upper()
    formatter: dict[str, Any]
    if json_format:
        formatter = {"()": "hub.ops.logs.JsonFormatter"}
    else:
        formatter = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {"default": {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}},
        "loggers": {
            "hub": {"handlers": ["default"], "level": lvl, "propagate": False},
            "uvicorn": {"handlers": ["default"], "level": lvl, "propagate": False},
            "uvicorn.error": {"level": lvl},
            "uvicorn.access": {"handlers": ["default"], "level": lvl, "propagate": False},
            "alembic": {"level": lvl},  # "Running upgrade 0001 -> 0002" (through the root handler)
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }


def configure(level: str = "info", *, json_format: bool | None = None) -> None:
    """Configure logging now (for commands that do not go through uvicorn)."""
    import logging.config

    logging.config.dictConfig(log_config(level, json_format=json_enabled() if json_format is None else json_format))
