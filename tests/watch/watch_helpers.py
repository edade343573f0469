"""Plain helpers for the watch tests: a golden_nine match played through the REST API."""

from __future__ import annotations

import json
from typing import Any

from spine_helpers import bearer, envelope

from tests.frames import subscribe_frame


class Play:
    """Commands on one match over HTTP (any client with .post/.get: TestClient or httpx.Client)."""

    def __init__(self, c: Any, table: dict[str, Any], mid: str) -> None:
        self.c, self.table, self.mid = c, table, mid

    def cmd(self, command: dict[str, Any]) -> int:
        r = self.c.post(f"/api/matches/{self.mid}/commands", json=envelope(self.mid, command),
                        headers=bearer(self.table["token"]))
        assert r.status_code == 200, r.text
        return r.json()["version"]

    def projection(self) -> dict[str, Any]:
        return self.c.get(f"/api/matches/{self.mid}").json()

    def start(self) -> int:
        return self.cmd({"kind": "start", "breaker": "a"})

    def shot(self) -> int:
        """A legal miss by whoever is at the table (the turn passes)."""
        rack = self.projection()["rack"]
        x: dict[str, Any] = {"kind": "shot", "player": rack["shooter"], "first_contact": min(rack["on_table"]),
                             "pocketed": [], "rail": True}
        if rack["phase"] == "break":
            x["break_crossings"] = 4
        return self.cmd(x)

    def concede(self) -> int:
        return self.cmd({"kind": "concede", "player": self.projection()["rack"]["shooter"], "scope": "match"})


def recv(ws: Any) -> dict[str, Any]:
    msg = json.loads(ws.receive_text())
    if msg.get("type") in ("snapshot", "update"):
        assert isinstance(msg.get("server_time"), int), msg
    return msg


def sub(ws: Any, channel: str, since: int | None = None) -> None:
    m: dict[str, Any] = subscribe_frame(channel)
    if since is not None:
        m["since"] = since
    ws.send_text(json.dumps(m))


class GatewaySocket:
    """A real WebSocket to the watch gateway with the TestClient socket's methods (sync)."""

    def __init__(self, url: str, **kwargs: Any) -> None:
        from websockets.sync.client import connect

        self._cm = connect(url, open_timeout=5, **kwargs)
        self.ws = self._cm.__enter__()

    def __enter__(self) -> GatewaySocket:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._cm.__exit__(*exc)

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def receive_text(self, timeout: float = 10) -> str:
        msg = self.ws.recv(timeout=timeout)
        assert isinstance(msg, str)
        return msg
