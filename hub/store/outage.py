"""What counts as the store failing, and how to say so in one short line.

A store outage (PostgreSQL restarting, a network cut, a schema gone, SQLite locked) reaches the
hub as a SQLAlchemy error for a statement, but as the driver's own exception when a new connection
cannot be made: asyncpg's `ConnectionRefusedError` (an OSError), its `CannotConnectNowError` or
`TooManyConnectionsError` (asyncpg exceptions that SQLAlchemy does not wrap on connect). All of
them are the store, not the client: the answer is the retryable one (HTTP 503 `unavailable`, the
table socket's 1011, the watch's `unavailable` error), and the log line is one short line, never
a traceback (during an outage every reconnecting client would write one).
"""

from __future__ import annotations

import logging

from sqlalchemy.exc import SQLAlchemyError

from hub.ops.logbudget import LogBudget, clip, suppressed

STORE_ERRORS: tuple[type[BaseException], ...] = (SQLAlchemyError, OSError)


def store_failed(exc: BaseException) -> bool:
    """True when `exc` is the store (or the way to it) failing, not a bug and not the client."""
    return isinstance(exc, STORE_ERRORS) or type(exc).__module__.split(".", 1)[0] == "asyncpg"


def describe(exc: BaseException, limit: int = 200) -> str:
    """`Type: first line of the message`, clipped: SQLAlchemy's messages go on with the statement,
    its parameters and a link, none of which says more about an outage."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {clip(first, limit)}"


def log_failure(log: logging.Logger, budget: LogBudget, what: str, exc: BaseException) -> None:
    """A background loop's failure in one bounded line: while the store is away a short line a few
    times a minute (the next round writes it all), a traceback only for anything else (a bug)."""
    dropped = budget.allow(store_failed(exc))
    if dropped is None:
        return
    if store_failed(exc):
        log.warning("%s: %s%s", what, describe(exc), suppressed(dropped))
    else:
        log.exception("%s%s", what, suppressed(dropped))
