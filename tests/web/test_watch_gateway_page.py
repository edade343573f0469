"""The pages watch through the hub's watch gateway when it advertises one (GET /api/config), and
fall back to the hub's own /ws/watch when the advertised gateway does not answer."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Hub, PageWatch, free_port


def _command(hub_process: Hub, t: dict[str, Any], command: dict[str, Any]) -> None:
    r = httpx.post(f"{hub_process.url}/api/matches/{t['match_id']}/commands", timeout=10,
                   json={"id": uuid.uuid4().hex, "match_id": t["match_id"], "command": command},
                   headers={"Authorization": f"Bearer {t['token']}"})
    assert r.status_code == 200, r.text


def _hub(tmp_path: Path, **env: str) -> Iterator[Hub]:
    h = Hub(tmp_path, **env)
    h.start()
    try:
        yield h
    finally:
        h.stop()


@pytest.fixture
def gw_hub(tmp_path: Path) -> Iterator[Hub]:
    yield from _hub(tmp_path, HUB_WATCH_PORT=str(free_port()))


@pytest.fixture
def dead_gw_hub(tmp_path: Path) -> Iterator[Hub]:
    # Advertises a gateway URL nobody listens on.
    yield from _hub(tmp_path, HUB_WATCH_URL=f"ws://127.0.0.1:{free_port()}/ws/watch")


def _follow(hub_process: Hub, context: Any, guard: PageWatch) -> tuple[Any, list[str], dict[str, Any]]:
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    page = guard.attach(context.new_page())
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{hub_process.url}/watch/{t['match_id']}")
    page.wait_for_selector("body[data-conn='live']", timeout=15000)
    _command(hub_process, t, {"kind": "start", "breaker": "a"})
    page.wait_for_selector("body[data-version='1']", timeout=5000)
    return page, sockets, t


def test_the_spectator_page_watches_through_the_advertised_gateway(gw_hub: Hub, context: Any, guard: PageWatch) -> None:
    port = httpx.get(f"{gw_hub.url}/api/config").json()["watch_port"]
    assert isinstance(port, int)
    _, sockets, _ = _follow(gw_hub, context, guard)
    assert sockets and all(u.startswith(f"ws://127.0.0.1:{port}/ws/watch") for u in sockets), sockets
    assert guard.errors == [], guard.errors


def test_the_page_falls_back_to_the_hubs_own_socket(dead_gw_hub: Hub, context: Any, guard: PageWatch) -> None:
    _, sockets, _ = _follow(dead_gw_hub, context, guard)
    assert sockets[-1] == dead_gw_hub.url.replace("http", "ws", 1) + "/ws/watch", sockets
    assert guard.errors == [], guard.errors
