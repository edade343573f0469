"""The frames tests send on the sockets, built by the hub's wire catalogue (hub/wire/): a field
renamed there changes every test's frames with it, and no test writes a frame by hand."""

from __future__ import annotations

from typing import Any

from hub.wire import table, watch


def auth_frame(token: str, device: str | None = None) -> dict[str, Any]:
    """The table socket's first frame (PROTOCOL.md section 2), naming the tablet's `device`."""
    return dict(table.auth(token, device))


def subscribe_frame(channel: str, since: int | None = None) -> dict[str, Any]:
    """A watch socket's subscription (section 3), `since` to replay what came after a version."""
    return dict(watch.subscribe(channel, since))


def unsubscribe_frame(channel: str) -> dict[str, Any]:
    return dict(watch.unsubscribe(channel))
