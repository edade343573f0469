"""Who is asking, as far as the desk's sign-in and pairing care: the client address the backoff
counts per, whether the request came over HTTPS (the session cookie's `Secure`), and the address
the hub is reached at (the tablet link on table cards).

`ForwardedHeaders` (installed by hub/app.py around every HTTP and WebSocket request) believes
`X-Forwarded-For` and `X-Forwarded-Proto` only from a peer in HUB_TRUSTED_PROXIES (addresses or
networks; `*` any; none by default). From such a peer the client is the right-most address of
X-Forwarded-For that is not itself a trusted proxy (so a client cannot pick its own address by
sending the header: the proxy appends the address it saw), and the scheme is the last value of
X-Forwarded-Proto. From any other peer both headers are ignored, and the first time that happens it
is logged (a proxy in front of the hub that is not in HUB_TRUSTED_PROXIES makes every client count
as the proxy). Loopback is not trusted by default: any local process could otherwise send a fresh
X-Forwarded-For with each guess; `cuehub demo` and the tests need no proxy, and a proxy on the same
host is trusted with HUB_TRUSTED_PROXIES=127.0.0.1.

Counting: an IPv4 client per address; an IPv6 client per /64 (one host usually holds a whole /64)
and also per /48 (the usual size of a site's allocation: a holder of a /56 or /48 would otherwise
have 256 or 65,536 fresh /64 counters).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable
from typing import Any

from fastapi import Request

from hub.settings import Settings

log = logging.getLogger(__name__)

IPV6_PREFIXES = (64, 48)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_keys(request: Request) -> list[str]:
    """The counters an attempt from this client is counted on: [address] or [/64, /48]."""
    return address_keys(request.client.host if request.client else "")


def address_keys(host: str) -> list[str]:
    """The counters a client at `host` (an address, as the hub trusts it) is counted on."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return [host[:64] or "unknown"]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return [str(ip.ipv4_mapped)]
        return [str(ipaddress.IPv6Network((ip, prefix), strict=False)) for prefix in IPV6_PREFIXES]
    return [str(ip)]


def client_key(request: Request) -> str:
    """The client as logs name it (its address, or its /64)."""
    return client_keys(request)[0]


def is_https(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def public_base(request: Request, settings: Settings) -> str:
    """The hub's address for links printed on cards: HUB_PUBLIC_URL, else the one this request used."""
    if settings.public_url:
        return settings.public_url
    return str(request.base_url).rstrip("/")


def _networks(trusted: Iterable[str]) -> list[Network] | None:
    """None: every peer is trusted ("*")."""
    networks: list[Network] = []
    for entry in trusted:
        if entry == "*":
            return None
        networks.append(ipaddress.ip_network(entry, strict=False))
    return networks


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


class TrustedProxies:
    """HUB_TRUSTED_PROXIES applied: who the client is, from the TCP peer and X-Forwarded-For."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.networks = _networks(trusted)

    def trusts(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        if self.networks is None:  # "*": any peer, even one that is not an address (a test client)
            return True
        if ip is None:
            return False
        mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
        return any((mapped or ip) in net for net in self.networks)

    def forwarded_client(self, forwarded_for: str) -> str | None:
        """The client a trusted proxy's X-Forwarded-For names: its right-most address that is not
        itself a trusted proxy (None when it names no address)."""
        hops = [h for h in (_address(x) for x in forwarded_for.split(",")) if h is not None]
        client = next((h for h in reversed(hops) if not self.trusts(h)), hops[0] if hops else None)
        if client is None:
            return None
        return str(client.ipv4_mapped or client) if isinstance(client, ipaddress.IPv6Address) else str(client)

    def client(self, peer: str | None, forwarded_for: str | None) -> str:
        """The client's address: the one X-Forwarded-For names when `peer` is a trusted proxy,
        else the peer itself (the watch sockets the websockets server takes, which no ASGI
        middleware sees, are counted per this)."""
        if forwarded_for is not None and self.trusts(_address(peer) if peer else None):
            named = self.forwarded_client(forwarded_for)
            if named is not None:
                return named
        return peer or ""


class ForwardedHeaders(TrustedProxies):
    """ASGI middleware: the client address and scheme from a trusted proxy's headers."""

    def __init__(self, app: Any, trusted: Iterable[str] = ()) -> None:
        super().__init__(trusted)
        self.app = app
        self.warned = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or ())
            forwarded_for, forwarded_proto = headers.get(b"x-forwarded-for"), headers.get(b"x-forwarded-proto")
            if forwarded_for is not None or forwarded_proto is not None:
                scope = self._rewrite(scope, forwarded_for, forwarded_proto)
        await self.app(scope, receive, send)

    def _rewrite(self, scope: dict[str, Any], forwarded_for: bytes | None,
                 forwarded_proto: bytes | None) -> dict[str, Any]:
        peer = scope.get("client")
        if not self.trusts(_address(peer[0]) if peer else None):
            if not self.warned:
                self.warned = True
                log.warning("ignored X-Forwarded-For/-Proto from %s: not a trusted proxy (HUB_TRUSTED_PROXIES); "
                            "this is logged once", peer[0] if peer else "an unknown peer")
            return scope
        scope = dict(scope)
        if forwarded_for is not None:
            client = self.forwarded_client(forwarded_for.decode("latin-1"))
            if client is not None:
                scope["client"] = (client, 0)
        if forwarded_proto is not None:
            proto = forwarded_proto.decode("latin-1").split(",")[-1].strip().lower()
            secure = proto in ("https", "wss")
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            elif proto in ("http", "https"):
                scope["scheme"] = proto
        return scope
