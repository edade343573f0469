"""Who is asking (hub/guards/peer.py): X-Forwarded-For/-Proto believed only from a trusted proxy (the
right-most forwarded address that is not itself a proxy), ignored and logged once from anyone
else; IPv6 clients counted per /64 and per /48; the sign-in backoff shared by a /48."""

from __future__ import annotations

import logging

import fake_rules
import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from hub.app import create_app
from hub.guards.peer import ForwardedHeaders, client_keys
from hub.guards.throttle import Backoff, Policies
from hub.settings import Settings, SettingsError


def echo_app(trusted: list[str], peer: str) -> TestClient:
    """An app that answers who it thinks the client is, reached from `peer`."""
    app = FastAPI()

    @app.get("/who")
    def who(request: Request) -> dict:
        return {"client": request.client.host, "scheme": request.url.scheme, "keys": client_keys(request)}

    inner = ForwardedHeaders(app, trusted=trusted)

    async def from_peer(scope, receive, send):  # the TCP peer the server would report
        await inner({**scope, "client": (peer, 5555)}, receive, send)

    return TestClient(from_peer)


def test_a_trusted_proxy_names_the_client_and_the_scheme():
    c = echo_app(["10.0.0.0/8"], "10.0.0.2")
    # The client's own X-Forwarded-For is left of what the proxies appended: the right-most address
    # that is not a trusted proxy is the client.
    r = c.get("/who", headers={"X-Forwarded-For": "6.6.6.6, 203.0.113.9, 10.0.0.7", "X-Forwarded-Proto": "https"})
    assert r.json() == {"client": "203.0.113.9", "scheme": "https", "keys": ["203.0.113.9"]}
    assert c.get("/who", headers={"X-Forwarded-For": "garbage"}).json()["client"] == "10.0.0.2"


def test_an_untrusted_peer_is_ignored_and_logged_once(caplog):
    c = echo_app(["10.0.0.0/8"], "192.0.2.50")
    with caplog.at_level(logging.WARNING, "hub.guards.peer"):
        for i in range(3):
            r = c.get("/who", headers={"X-Forwarded-For": f"198.51.100.{i}", "X-Forwarded-Proto": "https"})
            assert r.json()["client"] == "192.0.2.50" and r.json()["scheme"] == "http"
    ignored = [m for m in caplog.messages if "ignored X-Forwarded-For" in m]
    assert len(ignored) == 1 and "192.0.2.50" in ignored[0]


def test_nothing_is_trusted_by_default_not_even_loopback():
    assert Settings().trusted_proxies == ()
    c = echo_app(list(Settings().trusted_proxies), "127.0.0.1")
    assert c.get("/who", headers={"X-Forwarded-For": "198.51.100.1"}).json()["client"] == "127.0.0.1"


def test_ipv6_is_counted_per_64_and_per_48():
    c = echo_app(["*"], "10.0.0.1")
    keys = c.get("/who", headers={"X-Forwarded-For": "2001:db8:1:2:3::4"}).json()["keys"]
    assert keys == ["2001:db8:1:2::/64", "2001:db8:1::/48"]
    assert c.get("/who", headers={"X-Forwarded-For": "::ffff:198.51.100.7"}).json()["keys"] == ["198.51.100.7"]


def test_bad_trusted_proxies_are_a_settings_error():
    with pytest.raises(SettingsError, match="HUB_TRUSTED_PROXIES"):
        Settings.from_env({"HUB_TRUSTED_PROXIES": "10.0.0.0/8,nginx"})
    assert Settings.from_env({"HUB_TRUSTED_PROXIES": "10.0.0.0/8, ::1,*"}).trusted_proxies == ("10.0.0.0/8", "::1", "*")


def test_a_48_shares_one_backoff_across_its_64s(sqlite_settings):
    """Wrong tokens from fresh /64s of one /48 are slowed down as if from one address."""
    quick = Backoff(free=2, first_ms=2000, max_ms=4000, hold_ms=0, refuse_pause_ms=0)
    app = create_app(sqlite_settings.with_(trusted_proxies=("*",)), rules=fake_rules,
                     throttle_policies=Policies(sign_in=quick))
    with TestClient(app) as c:
        codes = [c.post("/api/session", json={"token": "wrong"},
                        headers={"X-Forwarded-For": f"2001:db8:7:{i:x}::1"}).status_code for i in range(5)]
        assert codes == [401, 401, 401, 429, 429], codes  # 2 free, the first slot at once, then refused
        other = c.post("/api/session", json={"token": "wrong"}, headers={"X-Forwarded-For": "2001:db8:8::1"})
        assert other.status_code == 401  # another /48 is not slowed
