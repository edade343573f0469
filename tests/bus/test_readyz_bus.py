"""/readyz and the Redis bus: `?channel=` on HUB_BUS_URL is fine (it was always 503), and
the check reports the live subscription, not a fresh connection."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient
from spine_helpers import ADMIN

from hub.app import create_app
from hub.settings import Settings


def test_readyz_is_200_with_a_channel_on_the_bus_url_and_reports_the_live_subscription(
        tmp_path: Path, bus_url: str) -> None:
    assert "?channel=" in bus_url
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", admin_token=ADMIN,
                        bus_url=bus_url, bus_heartbeat_s=0.2)
    with TestClient(create_app(settings)) as c:
        r = c.get("/readyz")
        assert r.status_code == 200 and r.json()["checks"] == {"store": "ok", "bus": "ok"}, r.text
        bus = c.app.state.services.watch.bus  # type: ignore[attr-defined]
        # The live subscription, as the heartbeat sees it: silent -> 503 with the reason.
        bus.heard = time.monotonic() - 10
        r = c.get("/readyz")
        assert r.status_code == 503 and "silent" in r.json()["checks"]["bus"], r.text
        deadline = time.monotonic() + 10
        while c.get("/readyz").status_code != 200:  # a new subscription is made, and heard
            assert time.monotonic() < deadline
            time.sleep(0.05)
        metrics = c.get("/metrics").text
        assert 'cuehub_bus_resyncs_total{cause="silence"} 1.0' in metrics, metrics
        assert 'cuehub_bus_resyncs_total{cause="reconnect"} 1.0' in metrics
        assert "cuehub_bus_subscription_up 1.0" in metrics
        # A bus without health(): the fallback PING is given a URL redis-py accepts.
        bus.health = None
        r = c.get("/readyz")
        assert r.status_code == 200, r.text
