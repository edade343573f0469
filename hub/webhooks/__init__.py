"""Webhooks (PROTOCOL.md section 16): receivers registered by the admin hear what happens in the hub.

- `service.Webhooks`: `emit(event, data)` (never waits: a bounded in-memory inbox), a task that stores
  one delivery per hook that wants the event, and one worker per hook with deliveries waiting that
  sends them in order, signed, retried with backoff for at least an hour (hub/store/webhooks.py).
- `sources`: the events, from the writers' listeners: `match.called`, `match.started`,
  `match.finished`, `tournament.finished`. `entry.created` is emitted by sign-up: it calls
  `emit_entry_created(services, entry)` (below).
"""

from __future__ import annotations

from typing import Any

EVENTS = ("match.called", "match.started", "match.finished", "tournament.finished", "entry.created")


def emit_entry_created(services: Any, tournament_id: str, entry: dict[str, Any]) -> None:
    """The hook point of sign-up (PROTOCOL.md section 14): call it after an entry is stored, with the
    entry as the public sees it (never its contact). Does nothing when webhooks are not running."""
    hooks = getattr(services, "webhooks", None)
    if hooks is not None:
        hooks.emit("entry.created", {"tournament_id": tournament_id, "entry": entry})
