"""The shipped deploy/ configuration: nginx tells the hubs who the client is on every proxied
location (the WebSocket ones included), and compose trusts exactly its own network as the proxy."""

from __future__ import annotations

import re
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _blocks(text: str, head: str) -> list[tuple[str, str]]:
    """(header, body) of every `head ... { ... }` block, nested braces matched."""
    out = []
    for m in re.finditer(rf"^\s*{head}\b([^{{;]*)\{{", text, re.M):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append((m.group(1).strip(), text[m.end():i - 1]))
    return out


def _headers(body: str) -> set[str]:
    return {h.lower() for h in re.findall(r"^\s*proxy_set_header\s+(\S+)", body, re.M)}


def test_every_proxied_location_forwards_the_client_and_the_scheme() -> None:
    text = re.sub(r"#.*", "", (DEPLOY / "nginx.conf").read_text())
    (_, server), = _blocks(text, "server")
    locations = _blocks(server, "location")
    server_level = _headers(re.sub(r"location\b[^{]*\{[^}]*\}", "", server))
    assert {"x-forwarded-for", "x-forwarded-proto"} <= server_level
    proxied = [(name, body) for name, body in locations if "proxy_pass" in body]
    assert len(proxied) >= 4, [name for name, _ in proxied]
    for name, body in proxied:
        # nginx inherits the server's proxy_set_header lines only into a location that sets none.
        own = _headers(body)
        effective = own or server_level
        assert {"x-forwarded-for", "x-forwarded-proto"} <= effective, f"location {name} drops them: {sorted(own)}"
    websocket = [name for name, body in proxied if "upgrade" in _headers(body)]
    assert {"= /ws/watch", "/ws/", "@hub_watch"} <= set(websocket)


def test_compose_trusts_its_own_network_as_the_proxy() -> None:
    compose = (DEPLOY / "compose.yaml").read_text()
    trusted = re.findall(r"HUB_TRUSTED_PROXIES:\s*(\S+)", compose)
    subnets = re.findall(r"subnet:\s*(\S+)", compose)
    assert trusted and subnets and set(trusted) == set(subnets), (trusted, subnets)
