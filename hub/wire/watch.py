"""The watch socket's messages (`/ws/watch`, PROTOCOL.md sections 3 and 10).

A screen sends `subscribe` (a channel, and `since` to replay what it missed), `unsubscribe` and
`ping`; it is sent a `snapshot` per subscription, an `update` per change (tournament channels:
a delta with its `base` version), `error` and `pong`. Snapshots and updates are built once per
change and channel and shared by every watcher: `message` splices JSON already made, never
re-serialising a projection (the fan-out's fast path).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

# pydantic validates these (the clients' tests) on Python < 3.12 only in typing_extensions' form
from typing_extensions import TypedDict

from hub.store.db import now_ms
from hub.watch.history import dumps


class ErrorDetail(TypedDict):
    code: str
    message: str


# --- what a screen sends --------------------------------------------------------------------------

class Subscribe(TypedDict):
    type: Literal["subscribe"]
    channel: str  # match:<id>, table:<id> or tournament:<id>
    since: NotRequired[int]  # the last version seen: replay what came after it


class Unsubscribe(TypedDict):
    type: Literal["unsubscribe"]
    channel: str


class Ping(TypedDict):
    type: Literal["ping"]


RECEIVED = ("subscribe", "unsubscribe", "ping")  # every type a screen may send


def subscribe(channel: str, since: int | None = None) -> Subscribe:
    frame: Subscribe = {"type": "subscribe", "channel": channel}
    if since is not None:
        frame["since"] = since
    return frame


def unsubscribe(channel: str) -> Unsubscribe:
    return {"type": "unsubscribe", "channel": channel}


# --- what a screen is sent ------------------------------------------------------------------------

class Snapshot(TypedDict):
    type: Literal["snapshot"]
    channel: str
    version: int
    server_time: int
    data: Any  # the channel's projection (null: nothing there yet)


class Update(TypedDict):
    type: Literal["update"]
    channel: str
    version: int
    server_time: int
    data: Any  # the projection, or on a tournament channel with `base` the changes since `base`
    event: Any  # the stored event that made it
    base: NotRequired[int]


class Error(TypedDict):
    type: Literal["error"]
    code: str  # at the top (section 10) and in `error` (section 2's clients read it there)
    error: ErrorDetail
    channel: NotRequired[str]


class Pong(TypedDict):
    type: Literal["pong"]
    server_time: int


SENT = ("snapshot", "update", "error", "pong")  # every type a screen may receive


def message(kind: Literal["snapshot", "update"], channel: str, version: int, data: str, event: str | None = None,
            extra: str = "") -> str:
    """One snapshot/update text; `data` and `event` are JSON already (spliced, not re-serialised);
    `extra` more members, JSON already, each starting with a comma."""
    head = (f'{{"type":"{kind}","channel":{dumps(channel)},"version":{version},"server_time":{now_ms()}{extra}'
            f',"data":{data}')
    return head + ("}" if event is None else f',"event":{event}}}')


def error_text(code: str, msg: str, channel: Any = None) -> str:
    body: Error = {"type": "error", "code": code, "error": {"code": code, "message": msg}}
    if isinstance(channel, str):
        body["channel"] = channel
    return dumps(body)


def pong_text() -> str:
    return dumps(Pong(type="pong", server_time=now_ms()))
