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


# --- the limits on the public reads (limit_req / limit_conn per client address) ------------------


def _directives(body: str, name: str) -> list[list[str]]:
    return [line.split() for line in re.findall(rf"^\s*{name}\s+([^;]*);", body, re.M)]


def test_the_public_reads_are_limited_per_client_address() -> None:
    text = re.sub(r"#.*", "", (DEPLOY / "nginx.conf").read_text())
    (_, http), = _blocks(text, "http")
    (_, server), = _blocks(text, "server")
    req_zones = {z[1].split("=")[1].split(":")[0]: z for z in _directives(http, "limit_req_zone")}
    conn_zones = {z[1].split("=")[1].split(":")[0]: z for z in _directives(http, "limit_conn_zone")}
    # 429, not 503: a 503 at /ws/watch goes to the hubs' own /ws/watch (error_page), past the limit.
    assert _directives(http, "limit_req_status") == [["429"]] and _directives(http, "limit_conn_status") == [["429"]]
    # Reads only: the key is empty (not counted) for anything but GET and HEAD.
    (read_map,) = [body for head, body in _blocks(http, "map") if head.split()[0] == "$request_method"]
    assert re.search(r"^\s*default\s+\"\";", read_map, re.M) and re.search(r"^\s*GET\s+\$binary_remote_addr;",
                                                                             read_map, re.M)
    locations = dict(_blocks(server, "location"))
    watch = locations["= /ws/watch"]
    exports = next(body for name, body in locations.items() if "results" in name and "placings" in name)
    limited = {"watch upgrades": watch, "exports": exports, "REST reads": locations["/"]}
    used_conn_zones = []
    for what, body in limited.items():
        (req,) = _directives(body, "limit_req")
        zone = req[0].split("=")[1]
        assert zone in req_zones, (what, zone)
        burst = int(next(x for x in req if x.startswith("burst=")).split("=")[1])
        assert "nodelay" in req and burst >= 20, (what, req)
        (conn,) = _directives(body, "limit_conn")
        assert conn[0] in conn_zones and int(conn[1]) >= 20, (what, conn)
        used_conn_zones.append(conn[0])
    # A zone counts every location using it together: each limit has its own.
    assert len(set(used_conn_zones)) == len(used_conn_zones)
    assert req_zones[_directives(locations["/"], "limit_req")[0][0].split("=")[1]][0] == "$read_address"
    # A venue: hundreds of phones behind one address open the pages and reconnect their watchers at once.
    assert int(_directives(watch, "limit_req")[0][1].split("=")[1]) >= 200
    assert int(_directives(watch, "limit_conn")[0][1]) >= 500
    assert int(_directives(locations["/"], "limit_req")[0][1].split("=")[1]) >= 500
    # The tablets' sockets and the writes are not limited here (the hub limits each table's commands).
    assert not _directives(locations["/ws/"], "limit_req")


def _nginx() -> str:
    import os
    import shutil

    import pytest

    found = shutil.which("nginx") or (shutil.which("nginx", path="/usr/sbin:/usr/local/sbin"))
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is required when CI is set (.ci/run installs Debian's nginx-light)")
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    return found


def test_nginx_takes_the_shipped_config_and_answers_429_past_a_limit(tmp_path: Path) -> None:
    """Debian's nginx checks deploy/nginx.conf (`nginx -t`), then serves it in front of a real hub
    (the service names replaced by the hub's loopback address): an export polled faster than its
    limit, and watch upgrades past their burst, get 429 from nginx; what is within goes to the hub."""
    import subprocess
    import time

    import httpx

    from tests.hubproc import HubProcess
    from tests.services import free_port, wait_until

    nginx = _nginx()
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    prefix.chmod(0o777)  # worker processes may run as another user
    checked = subprocess.run([nginx, "-t", "-p", str(prefix), "-c", str(DEPLOY / "nginx.conf")],
                             capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path)
    hub.start()
    port = free_port()
    conf = (DEPLOY / "nginx.conf").read_text()
    for old, new in (("listen 80 default_server;", f"listen 127.0.0.1:{port} default_server;"),
                     ("hub:8000;", f"127.0.0.1:{hub.port};"), ("gw:8001;", f"127.0.0.1:{hub.port};"),
                     ("pid /tmp/nginx.pid;", f"pid {prefix / 'nginx.pid'};"),
                     ("worker_processes auto;", "worker_processes 1;"), ("worker_rlimit_nofile 200000;", ""),
                     ("worker_connections 65536;", "worker_connections 1024;"),
                     ("access_log /dev/stdout;", "access_log off;")):
        assert old in conf, old
        conf = conf.replace(old, new)
    (prefix / "nginx.conf").write_text(conf)
    with open(prefix / "nginx.log", "wb") as log:
        proc = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                                stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        tid = hub.admin_post("/api/tournaments", {"name": "Limits"})["id"]
        with httpx.Client(timeout=10) as client:
            wait_until(lambda: client.get(base + "/nginx-health").status_code == 200, 10, "nginx to answer")
            t0 = time.monotonic()
            exports = [client.get(f"{base}/api/tournaments/{tid}/placings.csv").status_code for _ in range(40)]
            took = time.monotonic() - t0
            assert set(exports) == {200, 429}, exports
            assert 21 <= exports.count(200) <= 21 + 2 * took + 1 and exports[:21] == [200] * 21, (exports, took)
            t0 = time.monotonic()
            watch = [client.get(base + "/ws/watch").status_code for _ in range(500)]
            took = time.monotonic() - t0
            assert 429 not in watch[:301] and 429 in watch, watch
            assert watch.count(429) >= 500 - 301 - 20 * took - 1, (watch.count(429), took)
            assert client.post(f"{base}/api/tournaments/{tid}/players", json={"name": "Writes pass"},
                               headers={"Authorization": f"Bearer {hub.admin}"}).status_code == 201
    finally:
        proc.terminate()
        proc.wait(10)
        hub.stop()
