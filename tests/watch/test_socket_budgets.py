"""What one watch socket may cost (PROTOCOL.md section 10), on both fronts (the app's FastAPI
/ws/watch and the websockets gateway): at most 20 snapshots of a channel a minute (then
`too_many_snapshots`), and at most 100 error answers a minute (then the socket is closed 1008)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import make_match, make_table
from starlette.websockets import WebSocketDisconnect
from watch_helpers import GatewaySocket, recv, sub
from websockets.exceptions import ConnectionClosed

from hub.app import create_app
from hub.services import services_of
from hub.settings import Settings
from hub.watch.budgets import ERRORS_PER_MINUTE, SNAPSHOTS_PER_MINUTE
from tests.frames import unsubscribe_frame


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings.with_(watch_port=0))) as client:
        yield client


@pytest.fixture(params=["app", "gateway"])
def watch(request: pytest.FixtureRequest, c: TestClient) -> Callable[[], Any]:
    if request.param == "app":
        return lambda: c.websocket_connect("/ws/watch")
    port = c.get("/api/config").json()["watch_port"]
    return lambda: GatewaySocket(f"ws://127.0.0.1:{port}/ws/watch")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_socket_gets_at_most_20_snapshots_of_a_channel_a_minute(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    clock = Clock()
    core = services_of(c.app).watch
    assert core is not None
    core.subscriptions.budgets.clock = clock
    channel = f"tournament:{table['tid']}"
    with watch() as ws:
        for _ in range(SNAPSHOTS_PER_MINUTE):
            sub(ws, channel)
            assert recv(ws)["type"] == "snapshot"
            ws.send_text(json.dumps(unsubscribe_frame(channel)))
            clock.now += 1
        sub(ws, channel)
        refused = recv(ws)
        assert (refused["type"], refused["code"], refused["error"]["code"], refused["channel"]) == (
            "error", "too_many_snapshots", "too_many_snapshots", channel)
        sub(ws, f"match:{mid}")  # another channel has a budget of its own
        assert recv(ws)["type"] == "snapshot"
        clock.now += 40.5  # the first snapshot is a minute old (only it): one more is allowed
        sub(ws, channel)
        assert recv(ws)["type"] == "snapshot"
        sub(ws, channel)
        assert recv(ws)["code"] == "too_many_snapshots"


def read_until_closed(ws: Any) -> tuple[list[dict[str, Any]], int | None]:
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(json.loads(ws.receive_text()))
    except WebSocketDisconnect as closed:
        return got, closed.code
    except ConnectionClosed as closed:
        return got, closed.rcvd.code if closed.rcvd else None


def test_a_socket_sending_bad_frames_is_closed_1008(c: TestClient, watch: Callable[[], Any]) -> None:
    with watch() as ws:
        for i in range(ERRORS_PER_MINUTE + 50):
            try:
                ws.send_text(f"not json {i}")
            except (ConnectionClosed, WebSocketDisconnect):
                break
        got, code = read_until_closed(ws)
    assert code == 1008
    errors = [m for m in got if m.get("type") == "error"]
    assert 0 < len(errors) <= ERRORS_PER_MINUTE and all(m["code"] == "bad_message" for m in errors)


def test_errors_within_the_budget_leave_the_socket_open(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    with watch() as ws:
        for _ in range(ERRORS_PER_MINUTE - 1):
            ws.send_text("[]")
        got = [recv(ws) for _ in range(ERRORS_PER_MINUTE - 1)]
        assert {m["code"] for m in got} == {"bad_message"}
        sub(ws, f"table:{table['table_id']}")
        assert recv(ws)["type"] == "snapshot"  # still served
