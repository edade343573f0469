from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def ws_url(base_url: str, path: str) -> str:
    """``http://h:p/prefix`` + ``/ws/x`` -> ``ws://h:p/prefix/ws/x`` (https -> wss)."""
    parts = urlsplit(base_url)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None:
        raise ValueError(f"unsupported URL scheme in {base_url!r}")
    prefix = parts.path.rstrip("/")
    return urlunsplit((scheme, parts.netloc, prefix + path, "", ""))


def http_url(base_url: str) -> str:
    parts = urlsplit(base_url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def backoff_delays(initial: float = 0.1, maximum: float = 5.0, factor: float = 2.0):
    delay = initial
    while True:
        yield delay
        delay = min(maximum, delay * factor)
