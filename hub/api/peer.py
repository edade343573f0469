"""Who is asking, as far as the desk's sign-in and pairing care: the client address the backoff
counts per, whether the request came over HTTPS (the session cookie's `Secure`), and the address
the hub is reached at (the tablet link on table cards).

Proxy headers are not parsed here: `cuehub serve` gives HUB_TRUSTED_PROXIES to uvicorn's own
proxy-headers handling (`forwarded_allow_ips`), which rewrites the client address and scheme only
for requests from those proxies. Running uvicorn by hand, its `--forwarded-allow-ips` decides.
"""

from __future__ import annotations

import ipaddress

from fastapi import Request

from hub.settings import Settings

# IPv6 clients are counted per /64: one host usually holds a whole /64, and counting per address
# would give it 2**64 fresh counters.
IPV6_PREFIX = 64


def client_key(request: Request) -> str:
    host = request.client.host if request.client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def is_https(request: Request) -> bool:
    return request.url.scheme == "https"


def public_base(request: Request, settings: Settings) -> str:
    """The hub's address for links printed on cards: HUB_PUBLIC_URL, else the one this request used."""
    if settings.public_url:
        return settings.public_url
    return str(request.base_url).rstrip("/")
