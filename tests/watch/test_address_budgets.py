"""Snapshots per client address (hub/watch/budgets.py AddressBudgets): a fresh socket has a fresh
socket budget, its address does not. On both fronts (the app's FastAPI /ws/watch and the websockets
gateway), every socket of the process together, the address the hub trusts (X-Forwarded-For only
from HUB_TRUSTED_PROXIES)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import make_match, make_table
from watch_helpers import GatewaySocket, recv, sub

from hub.app import create_app
from hub.services import services_of
from hub.settings import Settings
from hub.watch.budgets import ADDRESS_BUCKETS, AddressBudgets

LIMIT = 5


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    # The test client is the proxy of the app's front ("testclient"), 127.0.0.1 the gateway's peer.
    settings = sqlite_settings.with_(watch_port=0, snapshots_per_address=LIMIT, trusted_proxies=("*",))
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture(params=["app", "gateway"])
def watch(request: pytest.FixtureRequest, c: TestClient) -> Callable[..., Any]:
    """A fresh socket, from the address `forwarded` names (None: the peer's own)."""
    if request.param == "app":
        return lambda forwarded=None: c.websocket_connect(
            "/ws/watch", headers={"X-Forwarded-For": forwarded} if forwarded else {})
    port = c.get("/api/config").json()["watch_port"]
    return lambda forwarded=None: GatewaySocket(
        f"ws://127.0.0.1:{port}/ws/watch",
        additional_headers={"X-Forwarded-For": forwarded} if forwarded else None)


def snapshot_on_a_fresh_socket(watch: Callable[..., Any], channel: str, forwarded: str | None = None) -> dict[str, Any]:
    with watch(forwarded) as ws:
        sub(ws, channel)
        return recv(ws)


def test_fresh_sockets_from_one_address_share_its_budget(c: TestClient, watch: Callable[..., Any]) -> None:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    core = services_of(c.app).watch
    assert core is not None
    clock = Clock()
    core.subscriptions.address_budgets.clock = clock
    channel = f"tournament:{table['tid']}"
    for _ in range(LIMIT):  # each from a socket of its own: every socket's own budget is fresh
        assert snapshot_on_a_fresh_socket(watch, channel)["type"] == "snapshot"
    refused = snapshot_on_a_fresh_socket(watch, channel)
    assert (refused["type"], refused["code"], refused["channel"]) == ("error", "too_many_snapshots", channel)
    assert "from one address" in refused["error"]["message"]
    assert snapshot_on_a_fresh_socket(watch, f"match:{mid}")["type"] == "snapshot"  # a channel of its own
    # Another client behind the trusted proxy has a budget of its own.
    assert snapshot_on_a_fresh_socket(watch, channel, "198.51.100.7")["type"] == "snapshot"
    # The bucket refills at LIMIT a minute: one more after 60 / LIMIT seconds, not before.
    clock.now += 60 / LIMIT - 1
    assert snapshot_on_a_fresh_socket(watch, channel)["code"] == "too_many_snapshots"
    clock.now += 1
    assert snapshot_on_a_fresh_socket(watch, channel)["type"] == "snapshot"
    assert snapshot_on_a_fresh_socket(watch, channel)["code"] == "too_many_snapshots"


def test_a_refusal_by_the_address_does_not_spend_the_sockets_budget(c: TestClient) -> None:
    """One socket, its address out of snapshots: the refused subscribes are not counted on the
    socket (it gets its own 20 once the address has some again)."""
    table = make_table(c)
    core = services_of(c.app).watch
    assert core is not None
    clock = Clock()
    core.subscriptions.address_budgets.clock = clock
    core.subscriptions.budgets.clock = clock
    channel = f"tournament:{table['tid']}"
    with c.websocket_connect("/ws/watch") as ws:
        for _ in range(LIMIT):
            sub(ws, channel)
            assert recv(ws)["type"] == "snapshot"
        for _ in range(20):
            sub(ws, channel)
            assert recv(ws)["code"] == "too_many_snapshots"
        clock.now += 60 / LIMIT
        sub(ws, channel)
        assert recv(ws)["type"] == "snapshot"


def test_the_budget_unit() -> None:
    clock = Clock()
    budgets = AddressBudgets(3, clock=clock)
    v6 = ("2001:db8:1:2::/64", "2001:db8:1::/48")
    assert all(budgets.snapshot(v6, "tournament:t") for _ in range(3))
    assert not budgets.snapshot(v6, "tournament:t")
    # Another /64 of the same /48 shares the /48's counter.
    assert not budgets.snapshot(("2001:db8:1:3::/64", "2001:db8:1::/48"), "tournament:t")
    assert budgets.snapshot(("192.0.2.1",), "tournament:t")
    assert budgets.snapshot((), "tournament:t")  # an unknown address: the socket's budget alone
    clock.now += 20  # a minute's worth is 3: one per 20 s
    assert budgets.snapshot(v6, "tournament:t") and not budgets.snapshot(v6, "tournament:t")


def test_the_buckets_are_bounded() -> None:
    clock = Clock()
    budgets = AddressBudgets(2, clock=clock)
    for i in range(ADDRESS_BUCKETS):
        budgets.snapshot((f"10.{i // 65536}.{i // 256 % 256}.{i % 256}",), "match:m")
    assert len(budgets) == ADDRESS_BUCKETS
    clock.now += 60  # all full again: the next new one drops them
    assert budgets.snapshot(("192.0.2.9",), "match:m")
    assert len(budgets) == 1
