"""/ws/watch in one process (memory bus, SQLite, the real rules): PROTOCOL.md section 2.

Every test runs against both fronts of the watch core: the app's FastAPI endpoint (through the
TestClient) and the in-process websockets gateway (HUB_WATCH_PORT, a real socket)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import make_match, make_table
from watch_helpers import GatewaySocket, Play, recv, sub

from hub.app import create_app
from hub.settings import Settings
from hub.watch import subscriptions
from tests.frames import subscribe_frame, unsubscribe_frame
from tests.watch.tournament_view import TournamentView


@pytest.fixture
def app_settings(sqlite_settings: Settings) -> Settings:
    return sqlite_settings.with_(watch_port=0)  # the in-process gateway on a free port


@pytest.fixture
def c(app_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as client:
        yield client


@pytest.fixture(params=["app", "gateway"])
def watch(request: pytest.FixtureRequest, c: TestClient) -> Callable[[], Any]:
    """Opens a watch socket on the app's /ws/watch or on the in-process gateway."""
    if request.param == "app":
        return lambda: c.websocket_connect("/ws/watch")
    port = c.get("/api/config").json()["watch_port"]
    assert isinstance(port, int)
    return lambda: GatewaySocket(f"ws://127.0.0.1:{port}/ws/watch")


def test_snapshot_then_updates_in_order(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    with watch() as ws:
        sub(ws, f"match:{mid}")
        snap = recv(ws)
        assert snap["type"] == "snapshot" and snap["channel"] == f"match:{mid}" and snap["version"] == 0
        assert snap["data"]["id"] == mid
        play.start()
        for _ in range(5):
            play.shot()
        got = [recv(ws) for _ in range(6)]
    assert [g["type"] for g in got] == ["update"] * 6
    assert [g["version"] for g in got] == list(range(1, 7))
    for g in got:
        assert g["data"]["version"] == g["version"] == g["event"]["version"]
    assert got[0]["event"]["kind"] == "start"
    assert got[-1]["data"] == play.projection()


def test_resume_with_since_misses_nothing(c: TestClient, watch: Callable[[], Any]) -> None:
    """A scoreboard loses its socket mid-match and reconnects with since: no gap, no duplicate."""
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    play.start()
    with watch() as ws:
        sub(ws, f"match:{mid}")
        assert recv(ws)["version"] == 1
        play.shot()
        play.shot()
        last = [recv(ws), recv(ws)][-1]["version"]
    assert last == 3
    seen_then = {}
    for _ in range(4):  # missed while away
        v = play.shot()
        seen_then[v] = play.projection()
    with watch() as ws:
        sub(ws, f"match:{mid}", since=last)
        replayed = [recv(ws) for _ in range(4)]
        assert [m["type"] for m in replayed] == ["update"] * 4
        assert [m["version"] for m in replayed] == [4, 5, 6, 7]
        for m in replayed:  # the projection as it was then, not now
            assert m["data"] == seen_then[m["version"]]
        play.shot()
        live = recv(ws)
        assert (live["type"], live["version"]) == ("update", 8)


def test_since_falls_back_to_the_store_and_accounts_for_undo(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    play.start()
    before = {}
    for _ in range(3):
        v = play.shot()
        before[v] = play.projection()
    undo_v = play.cmd({"kind": "undo"})  # voids version 4
    assert undo_v == 5
    with watch() as ws:
        sub(ws, f"match:{mid}", since=2)
        got = [recv(ws) for _ in range(3)]
    assert [m["version"] for m in got] == [3, 4, 5]
    assert got[0]["data"] == before[3]
    # version 4 is voided now: the replay shows it changing nothing.
    assert got[1]["event"]["voided"] is True
    assert got[1]["data"]["rack"] == before[3]["rack"]
    assert got[2]["event"]["kind"] == "undo"
    assert got[2]["data"] == play.projection()


def test_since_beyond_the_history_gets_a_snapshot(c: TestClient, watch: Callable[[], Any],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    play.start()
    for _ in range(4):
        play.shot()
    monkeypatch.setattr(subscriptions, "MAX_REPLAY", 2)
    with watch() as ws:
        sub(ws, f"match:{mid}", since=1)
        snap = recv(ws)
        assert (snap["type"], snap["version"]) == ("snapshot", 5)
        sub(ws, f"match:{mid}", since=99)  # a version from the future: also a snapshot
        snap = recv(ws)
        assert (snap["type"], snap["version"]) == ("snapshot", 5)


def test_undo_reaches_watchers_with_the_refolded_projection(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    play.start()
    play.shot()
    before = play.projection()
    play.shot()
    with watch() as ws:
        sub(ws, f"match:{mid}")
        recv(ws)
        play.cmd({"kind": "undo"})
        m = recv(ws)
    assert m["type"] == "update" and m["event"]["kind"] == "undo" and m["version"] == 4
    assert m["data"]["rack"] == before["rack"] and m["data"]["players"] == before["players"]


def test_table_channel_follows_the_next_match(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    with watch() as ws:
        sub(ws, f"table:{table['table_id']}")
        empty = recv(ws)
        assert empty["type"] == "snapshot" and empty["data"] is None
        first = make_match(c, table)["id"]
        snap = recv(ws)
        assert (snap["type"], snap["data"]["id"], snap["version"]) == ("snapshot", first, 0)
        play = Play(c, table, first)
        play.start()
        play.shot()
        play.concede()
        ups = [recv(ws) for _ in range(3)]
        assert [u["version"] for u in ups] == [1, 2, 3]
        assert ups[-1]["data"]["status"] == "finished"
        second = make_match(c, table)["id"]
        snap = recv(ws)
        assert (snap["type"], snap["data"]["id"], snap["version"]) == ("snapshot", second, 0)
        Play(c, table, second).start()
        up = recv(ws)
        assert (up["type"], up["data"]["id"], up["version"]) == ("update", second, 1)


def test_tournament_channel(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    with watch() as ws:
        sub(ws, f"tournament:{table['tid']}")
        snap = recv(ws)
        assert snap["type"] == "snapshot"
        assert snap["data"] == c.get(f"/api/tournaments/{table['tid']}").json()
        view = TournamentView()
        view.take(snap)
        play.start()
        play.shot()
        ups = [recv(ws), recv(ws)]
        for up in ups:
            view.take(up)
    assert [u["version"] for u in ups] == [snap["version"] + 1, snap["version"] + 2]
    assert [u["base"] for u in ups] == [snap["version"], snap["version"] + 1]
    # Only what changed: the table the stroke was played on.
    assert set(ups[-1]["data"]) == {"tables"} and ups[-1]["data"]["tables"][0]["match"]["status"] == "live"
    assert view.gaps == 0 and view.proj == c.get(f"/api/tournaments/{table['tid']}").json()


def test_bad_messages_get_errors_not_crashes(c: TestClient, watch: Callable[[], Any],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    monkeypatch.setattr(subscriptions, "MAX_SUBSCRIPTIONS", 2)
    with watch() as ws:
        for bad, code in [
            ("not json", "bad_message"),
            ("[1, 2]", "bad_message"),
            ('{"type": "dance"}', "bad_message"),
            ('{"type": "subscribe"}', "bad_message"),
            ('{"type": "subscribe", "channel": "match:' + mid + '", "since": -1}', "bad_message"),
            (json.dumps(subscribe_frame("moon:1")), "unknown_channel"),
            (json.dumps(subscribe_frame("match:nope")), "unknown_channel"),
            (json.dumps(subscribe_frame("table:nope")), "unknown_channel"),
            (json.dumps(subscribe_frame("tournament:nope")), "unknown_channel"),
            ("x" * 10000, "bad_message"),
        ]:
            ws.send_text(bad)
            m = recv(ws)
            assert m["type"] == "error" and m["error"]["code"] == code, (bad[:40], m)
            assert m["error"]["message"]
        sub(ws, f"match:{mid}")
        assert recv(ws)["type"] == "snapshot"
        sub(ws, f"table:{table['table_id']}")
        assert recv(ws)["type"] == "snapshot"
        sub(ws, f"tournament:{table['tid']}")
        m = recv(ws)
        assert m["type"] == "error" and m["error"]["code"] == "too_many_subscriptions"
        ws.send_text('{"type": "unsubscribe", "channel": "table:' + table["table_id"] + '"}')
        sub(ws, f"tournament:{table['tid']}")
        assert recv(ws)["type"] == "snapshot"  # the socket still works


def test_unsubscribe_stops_updates(c: TestClient, watch: Callable[[], Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    with watch() as ws:
        sub(ws, f"match:{mid}")
        sub(ws, f"table:{table['table_id']}")
        recv(ws), recv(ws)
        ws.send_text(json.dumps(unsubscribe_frame(f"match:{mid}")))
        play.start()
        m = recv(ws)
        assert m["channel"] == f"table:{table['table_id']}" and m["version"] == 1
        play.shot()
        m = recv(ws)
        assert m["channel"] == f"table:{table['table_id']}" and m["version"] == 2
