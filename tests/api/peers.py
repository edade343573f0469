"""Requests from several client addresses through one TestClient, so one app runs one lifespan.

hub/guards/peer.py's ForwardedHeaders, trusting every proxy, takes each request's client address from
its X-Forwarded-For header, as it does in front of a real hub behind a trusted proxy. (Starlette's
TestClient only learned a `client=` address in versions newer than our FastAPI floor allows, and
one TestClient per address would start the app's services once per client.)
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from hub.guards.peer import ForwardedHeaders


class Peer:
    """One client address: get/post/put/delete as on a TestClient, from that address."""

    def __init__(self, client: TestClient, host: str) -> None:
        self._client, self._host = client, host

    def request(self, method: str, url: str, **kw: Any) -> Any:
        headers = {**(kw.pop("headers", None) or {}), "x-forwarded-for": self._host}
        return self._client.request(method, url, headers=headers, **kw)

    def get(self, url: str, **kw: Any) -> Any:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        return self.request("POST", url, **kw)

    def put(self, url: str, **kw: Any) -> Any:
        return self.request("PUT", url, **kw)

    def delete(self, url: str, **kw: Any) -> Any:
        return self.request("DELETE", url, **kw)


class Peers:
    """`with Peers(app) as at: c = at("10.0.0.1")`: the app's lifespan runs once, for all of them."""

    def __init__(self, app: Any) -> None:
        self.client = TestClient(ForwardedHeaders(app, trusted=["*"]))

    def __enter__(self) -> Any:
        self.client.__enter__()
        return lambda host: Peer(self.client, host)

    def __exit__(self, *exc: Any) -> None:
        self.client.__exit__(*exc)
