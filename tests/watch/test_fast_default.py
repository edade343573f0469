"""A plain `cuehub serve` is fast by default: /ws/watch on the hub's own port is served
by the watch gateway's websockets front (hub/watch/uvicorn_front.py, the coalesced writes of
gateway.py), not by the FastAPI endpoint, while the tablets' /ws/tables/... on the same port is
still the ASGI app; the watch protocol is the same (strict parsing, errors, frame cap, origin
policy), and stopping the hub closes watchers 1012 without waiting for them."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.frames import auth_frame, subscribe_frame, unsubscribe_frame
from tests.hubproc import ADMIN, HubProcess


def metric(base: str, name: str) -> float:
    text = httpx.get(base + "/metrics", timeout=5).text
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))


@pytest.fixture
def hub_process(tmp_path: Path) -> Any:
    h = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path, env={"HUB_ALLOWED_ORIGINS": "http://good.example"})
    h.start()
    try:
        yield h
    finally:
        h.stop()


def setup_match(hub_process: HubProcess) -> tuple[dict[str, Any], dict[str, Any]]:
    t = hub_process.admin_post("/api/tournaments", {"name": "Fast"})
    tb = hub_process.admin_post(f"/api/tournaments/{t['id']}/tables", {"name": "T1"})
    r = httpx.post(hub_process.base + "/api/matches", headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10, json={
        "tournament_id": t["id"], "table_id": tb["id"], "discipline": "golden_nine",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 9}})
    assert r.status_code == 201, r.text
    return tb, r.json()


def test_watch_is_served_by_the_fast_front_and_tables_by_the_app_on_one_port(hub_process: HubProcess) -> None:
    tb, m = setup_match(hub_process)
    writes0 = metric(hub_process.base, "cuehub_watch_writes_total")

    async def run() -> None:
        async with connect(f"{hub_process.ws_base}/ws/watch") as w:
            # The websockets front answers the handshake itself (uvicorn's own protocol names itself).
            assert "uvicorn" not in (w.response.headers.get("Server") or "")
            await w.send(json.dumps(subscribe_frame(f"match:{m['id']}")))
            snap = json.loads(await w.recv())
            assert snap["type"] == "snapshot" and snap["version"] == 0 and isinstance(snap["server_time"], int)
            async with connect(f"{hub_process.ws_base}/ws/tables/{tb['id']}") as t:
                assert "uvicorn" in (t.response.headers.get("Server") or "")  # the ASGI app's socket
                await t.send(json.dumps(auth_frame(tb["token"])))
                assert json.loads(await t.recv())["type"] == "ready"
                await t.send(
                    json.dumps({"id": "c1", "match_id": m["id"], "command": {"kind": "start", "breaker": "a"}})
                )
                replies = [json.loads(await t.recv()) for _ in range(2)]
                assert {"type": "ack", "id": "c1", "version": 1} in replies
            upd = json.loads(await w.recv())
            assert upd["type"] == "update" and upd["version"] == 1 and upd["event"]["version"] == 1
            # The same strict parsing and errors as the FastAPI endpoint and the gateway port.
            await w.send("not json")
            assert json.loads(await w.recv())["error"]["code"] == "bad_message"
            await w.send(json.dumps(subscribe_frame("nope:1")))
            assert json.loads(await w.recv())["error"]["code"] == "unknown_channel"
        # A frame over the cap closes 1009, as on the gateway port.
        async with connect(f"{hub_process.ws_base}/ws/watch", max_size=None) as w:
            await w.send("x" * (2 << 20))
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(w.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # HUB_ALLOWED_ORIGINS, as on the app's /ws/watch: a foreign page's socket is closed 4403.
        async with connect(f"{hub_process.ws_base}/ws/watch", origin="http://evil.example") as w:  # type: ignore[arg-type]
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(w.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403

    asyncio.run(run())
    assert metric(hub_process.base, "cuehub_watch_writes_total") > writes0  # written by the gateway's Outbox
    assert hub_process.get("/healthz") == {"status": "ok"}


def test_stopping_the_hub_closes_watchers_1012_and_does_not_wait_for_them(hub_process: HubProcess) -> None:
    _, m = setup_match(hub_process)

    async def run() -> tuple[int | None, float]:
        async with connect(f"{hub_process.ws_base}/ws/watch", ping_interval=None) as w:
            await w.send(json.dumps(subscribe_frame(f"match:{m['id']}")))
            assert json.loads(await w.recv())["type"] == "snapshot"
            assert hub_process.proc is not None
            t0 = time.monotonic()
            hub_process.proc.send_signal(signal.SIGTERM)
            try:
                while True:
                    await asyncio.wait_for(w.recv(), 10)
            except ConnectionClosed as closed:
                return (closed.rcvd.code if closed.rcvd else None), time.monotonic() - t0

    code, took = asyncio.run(run())
    assert code == 1012
    # A clean stop (recent uvicorn re-raises the signal once it has shut down: -15).
    assert hub_process.proc is not None and hub_process.proc.wait(10) in (0, -signal.SIGTERM)
    assert took < 5
    assert "Traceback" not in hub_process.log.read_text()


def test_after_the_handover_the_transport_talks_to_the_gateway_connection_itself(sqlite_settings: Any) -> None:
    """The chooser (fastws.WatchOrAppProtocol) steps aside: an idle watcher costs the gateway
    connection only, and each packet goes straight to it."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "client"))
    from cuehub_live_hub import serve
    from websockets.sync.client import connect as sync_connect

    from hub.app import create_app
    from hub.watch.server import HandedConnection

    app = create_app(sqlite_settings)
    with serve(app) as url, sync_connect(url.replace("http", "ws") + "/ws/watch", open_timeout=5) as ws:
        ws.send(json.dumps(subscribe_frame("match:none")))
        assert json.loads(ws.recv(timeout=5))["type"] == "error"  # unknown match
        handed = list(app.state.services.watch_front.handed)
        assert len(handed) == 1 and isinstance(handed[0], HandedConnection)
        assert handed[0].transport.get_protocol() is handed[0]


def test_an_open_idle_handed_over_watcher_keeps_no_task_and_no_handshake(sqlite_settings: Any) -> None:
    """Once open, a watcher on the hub's port is answered through callbacks: no handler, reader or
    keepalive task of its own while it idles, and its handshake's headers are gone; its messages
    are still answered, in order."""
    import sys
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "client"))
    from cuehub_live_hub import serve
    from websockets.sync.client import connect as sync_connect

    from hub.app import create_app

    app = create_app(sqlite_settings)
    with serve(app) as url:
        socks = [sync_connect(url.replace("http", "ws") + "/ws/watch", open_timeout=5) for _ in range(5)]
        try:
            for i, ws in enumerate(socks):
                ws.send(json.dumps(subscribe_frame(f"match:none-{i}")))
                ws.send(json.dumps(unsubscribe_frame(f"match:other-{i}")))
            for i, ws in enumerate(socks):
                first = json.loads(ws.recv(timeout=5))
                assert first["type"] == "error" and first["channel"] == f"match:none-{i}"
            front = app.state.services.watch_front
            deadline = time.monotonic() + 5
            while any(h.reading is not None for h in front.handed) and time.monotonic() < deadline:
                time.sleep(0.01)
            handed = list(front.handed)
            assert len(handed) == 5
            assert not front.handover.handler_tasks  # the handshakes' tasks are over
            for h in handed:
                assert h.reading is None and h.keepalive_task is None
                assert h.response is None and not h.request.headers
            assert front.heartbeat.task is not None  # one for all of them
        finally:
            for ws in socks:
                ws.close()


def test_an_idle_handed_over_watcher_keeps_no_parsed_headers_and_no_dict_table_of_its_own(sqlite_settings: Any) -> None:
    """What an idle watcher costs (bench/README.md: 9.05 KB of Python objects before, 5.2 after):
    the request the handshake parsed stays alive in the protocol's parse generator, so its headers
    are emptied; and the connection's `__dict__` keeps websockets' fields only (the rest are slots),
    so it shares its keys with the other connections' instead of being a 1.6 KB table of its own."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "client"))
    from cuehub_live_hub import serve
    from websockets.sync.client import connect as sync_connect

    from hub.app import create_app

    app = create_app(sqlite_settings)
    with serve(app) as url:
        socks = [sync_connect(url.replace("http", "ws") + "/ws/watch", open_timeout=5,
                              additional_headers={"X-Padding": "p" * 500}) for _ in range(3)]
        try:
            for ws in socks:
                ws.send(json.dumps(subscribe_frame("match:none")))
                assert json.loads(ws.recv(timeout=5))["type"] == "error"
            handed = list(app.state.services.watch_front.handed)
            assert len(handed) == 3
            for h in handed:
                frame = h.protocol.parser.gi_frame
                parsed = frame.f_locals.get("request") if frame is not None else None
                assert parsed is None or not parsed.headers  # emptied (it had a Host, the upgrade, the padding)
                assert h.logger is h.protocol.logger is app.state.services.watch_front.handover.logger
                assert sys.getsizeof(h.__dict__) < 800, sys.getsizeof(h.__dict__)
        finally:
            for ws in socks:
                ws.close()
