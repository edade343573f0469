"""The Python client checked against the hub's wire catalogue (hub/wire/): every frame it sends has
the catalogue's shape, and every message the hub builds is one the client reads as meant."""

from __future__ import annotations

import asyncio
import json
from typing import Any, get_type_hints

import pytest
from cuehub_client import TableSession, Watcher
from pydantic import TypeAdapter, ValidationError
from websockets.asyncio.server import serve

from hub.wire import table, watch

SHAPES: dict[str, type] = {"auth": table.Auth, "subscribe": watch.Subscribe, "unsubscribe": watch.Unsubscribe,
                           "ping": table.Ping}


def conforms(frame: dict[str, Any]) -> None:
    """Raises unless `frame` is exactly its type's TypedDict (no field more, none missing or mistyped)."""
    shape = SHAPES[frame["type"]]
    unknown = set(frame) - set(get_type_hints(shape))
    if unknown:
        raise ValueError(f"fields the catalogue does not know: {sorted(unknown)}")
    TypeAdapter(shape).validate_python(frame, strict=True)


def test_conforms_says_something() -> None:
    conforms(watch.subscribe("match:m1", 3))
    with pytest.raises(ValueError, match="chanel"):
        conforms({"type": "subscribe", "chanel": "match:m1"})
    with pytest.raises(ValueError, match="extra"):
        conforms({"type": "auth", "token": "t", "extra": 1})
    with pytest.raises(ValidationError):
        conforms({"type": "subscribe", "channel": "match:m1", "since": "3"})


async def test_the_table_session_sends_the_catalogue_auth_and_reads_ready_and_ack() -> None:
    frames: list[dict[str, Any]] = []
    projection = {"id": "m1", "version": 3}

    async def tablet_end(ws: Any) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            frames.append(frame)
            if frame.get("type") == "auth":
                await ws.send(json.dumps(table.ready(projection)))
            elif "command" in frame:
                await ws.send(json.dumps(table.state({**projection, "version": 4})))
                await ws.send(json.dumps(table.ack(frame["id"], 4)))

    async with serve(tablet_end, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        session = TableSession(f"http://127.0.0.1:{port}", "tb1", "secret-token", reconnect=False)
        try:
            match = await session.connect(timeout=5)
            assert match is not None and match["version"] == 3  # read from `ready`
            answer = await asyncio.wait_for(session.send({"kind": "foul", "player": "p1"}), 5)
            assert answer["type"] == "ack" and answer["version"] == 4
            assert session.match is not None and session.match["version"] == 4  # read from `state`
        finally:
            await session.close()
    assert frames[0] == table.auth("secret-token")
    conforms(frames[0])


async def test_the_watcher_sends_catalogue_subscribes() -> None:
    frames: list[dict[str, Any]] = []

    async def watch_end(ws: Any) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            frames.append(frame)
            if frame.get("type") == "subscribe":
                text = watch.message("snapshot", frame["channel"], 5, json.dumps({"version": 5}))
                await ws.send(text)

    async with serve(watch_end, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        async with Watcher(f"http://127.0.0.1:{port}") as w:
            await w.subscribe("match:m1")
            got = await w.next(timeout=5)
            assert (got.type, got.channel, got.version, got.data) == ("snapshot", "match:m1", 5, {"version": 5})
            await w.unsubscribe("match:m1")
            for _ in range(50):
                if len(frames) >= 2:
                    break
                await asyncio.sleep(0.02)
    assert [f["type"] for f in frames] == ["subscribe", "unsubscribe"]
    for frame in frames:
        conforms(frame)


def test_every_message_the_client_reads_is_in_the_catalogue() -> None:
    # What the client dispatches on (its `_handle`s) is a subset of what the hub may send.
    assert {"ready", "state", "ack", "reject"} <= set(table.SENT)
    assert {"snapshot", "update"} <= set(watch.SENT)
    for kind in ("snapshot", "update"):
        text = watch.message(kind, "match:m1", 1, "{}", None if kind == "snapshot" else "{}")
        assert json.loads(text)["type"] == kind
    error = json.loads(watch.error_text("bad_message", "no"))
    assert error["code"] == error["error"]["code"] == "bad_message"
