"""Smoke test of the cuehub Docker image, run by .ci/docker_smoke.sh once the image is built, as
.ci/smoke_wheel.py tests the wheel. Every container uses the host's network (`--network host`), so
they reach the machine's PostgreSQL and Redis on loopback and listen on free loopback ports.

    python .ci/smoke_image.py --image cuehub:ci --pg postgresql+asyncpg://postgres@127.0.0.1:5432/test

1. `cuehub migrate` in a container, on a fresh PostgreSQL schema;
2. two hub containers (`cuehub serve`, no auto-migration) and a gateway container (`cuehub
   gateway`), one Redis deployment name for the three: /readyz 200 on each;
3. through the first hub every page and the files they load, /docs, /openapi.json (the wheel's
   crawl); a tournament, a table, a match; a watcher on the gateway's /ws/watch; a command sent to
   the second hub: acknowledged, listed live by the first, and the watcher gets its update;
4. the image's HEALTHCHECK turns `healthy` on all three; they run as `cuehub` (uid 10001), not
   root; the hub's log lines are JSON;
5. SIGTERM stops each container within 10 s, exit status 0.
Containers and the schema are removed afterwards, whatever happened.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from smoke_wheel import check, crawl, free_port, make_match, request  # noqa: E402

STOP_WITHIN_S = 10.0
UID = "10001"


def docker(*args: str, timeout: float = 120, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if ok and done.returncode != 0:
        raise SystemExit(f"SMOKE FAILED: docker {' '.join(args[:3])}...: {done.stderr.strip()[-1500:]}")
    return done


def wait_for(what: str, probe, seconds: float, name: str | None = None) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if probe():
                return
        except OSError:
            pass
        time.sleep(0.3)
    logs = docker("logs", "--tail", "40", name, ok=False).stdout if name else ""
    raise SystemExit(f"SMOKE FAILED: {what} within {seconds:g} s\n{logs}")


def sql(dsn: str, statement: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(run())


def watch_update(port: int, channel: str, send_command) -> dict:  # type: ignore[no-untyped-def]
    """Subscribe on the gateway, run `send_command()`, return the first update of the channel."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/ws/watch", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "subscribe", "channel": channel}))
        first = json.loads(ws.recv(timeout=10))
        check(first.get("type") == "snapshot", f"the gateway answers a subscription with a snapshot ({channel})")
        send_command()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=15))
            if message.get("type") == "update":
                return message
    raise SystemExit("SMOKE FAILED: no update on the gateway within 15 s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--image", required=True)
    ap.add_argument("--pg", required=True, help="postgresql+asyncpg://... of the machine's PostgreSQL")
    args = ap.parse_args()
    run_id = uuid.uuid4().hex[:8]
    schema, admin = f"image_{run_id}", f"image-admin-{run_id}"
    dsn = args.pg.replace("postgresql+asyncpg", "postgresql")
    env = {"HUB_DATABASE_URL": args.pg, "HUB_DATABASE_SCHEMA": schema, "HUB_ADMIN_TOKEN": admin,
           "HUB_AUTO_MIGRATE": "false", "HUB_BUS_URL": "redis://127.0.0.1:6379/0",
           "HUB_DEPLOYMENT": f"image-{run_id}", "HUB_HOST": "127.0.0.1"}
    flags = [x for k, v in env.items() for x in ("-e", f"{k}={v}")]
    names: list[str] = []
    sql(dsn, f'CREATE SCHEMA "{schema}"')
    try:
        t0 = time.monotonic()
        m = docker("run", "--rm", "--network", "host", *flags, args.image, "migrate")
        check("migrated" in m.stdout, f"cuehub migrate in a container, schema {schema} ({time.monotonic() - t0:.1f} s)")

        ports = {"hub1": free_port(), "hub2": free_port(), "gw": free_port()}
        for role, port in ports.items():
            name = f"cuehub-ci-{role}-{run_id}"
            command = ["gateway", "--host", "127.0.0.1", "--port", str(port)] if role == "gw" else ["serve"]
            # HUB_PORT is also the port the image's HEALTHCHECK asks.
            docker("run", "-d", "--name", name, "--network", "host", *flags, "-e", f"HUB_PORT={port}",
                   args.image, *command)
            names.append(name)
        t0 = time.monotonic()
        for name, port in zip(names, ports.values(), strict=True):
            wait_for(f"{name} /readyz 200", lambda p=port: request(f"http://127.0.0.1:{p}/readyz")[0] == 200, 90, name)
        check(True, f"two hubs and a gateway ready ({time.monotonic() - t0:.1f} s)")

        hub1, hub2 = (f"http://127.0.0.1:{ports[r]}" for r in ("hub1", "hub2"))
        n = crawl(hub1)
        check(n >= 20, f"{n} pages, assets and documents answered 200")
        auth = {"Authorization": f"Bearer {admin}"}
        table, mid = make_match(hub1, auth, "Image")
        acked: list[int] = []

        def command() -> None:
            s, _, ack = request(f"{hub2}/api/matches/{mid}/commands", "POST",
                                {"id": "c1", "match_id": mid, "command": {"kind": "start", "breaker": "a"}},
                                {"Authorization": f"Bearer {table['token']}"})
            acked.append(json.loads(ack).get("version") if s == 200 else -s)

        update = watch_update(ports["gw"], f"match:{mid}", command)
        check(acked == [1], "a command sent to the second hub is acknowledged at version 1")
        check(update["version"] == 1 and update["data"]["status"] == "live",
              "the gateway's watcher gets the update (version 1, live)")
        s, _, live = request(hub1 + "/api/matches?status=live")
        check(s == 200 and json.loads(live)["matches"][0]["id"] == mid, "the first hub lists the match as live")

        t0 = time.monotonic()
        for name in names:
            wait_for(f"{name} HEALTHCHECK healthy",
                     lambda n=name: docker("inspect", "-f", "{{.State.Health.Status}}", n).stdout.strip() == "healthy",
                     60, name)
        check(True, f"HEALTHCHECK healthy on all three ({time.monotonic() - t0:.1f} s more)")
        for name in names:
            who = docker("exec", name, "id", "-u").stdout.strip()
            check(who == UID, f"{name} runs as uid {who} (cuehub), not root")
        logs = docker("logs", names[0])  # uvicorn logs to stderr
        lines = [x for x in (logs.stdout + logs.stderr).splitlines() if x.strip()]
        def is_json(line: str) -> bool:
            try:
                return isinstance(json.loads(line), dict)
            except ValueError:
                return False

        bad = [x for x in lines if not is_json(x)]
        check(bool(lines) and not bad,
              f"the hub logs {len(lines)} JSON lines" + (f"; not JSON: {bad[:3]}" if bad else ""))

        for name in names:
            t0 = time.monotonic()
            docker("kill", "--signal", "TERM", name)
            done = docker("wait", name, timeout=STOP_WITHIN_S + 5, ok=False)
            took = time.monotonic() - t0
            check(done.returncode == 0 and done.stdout.strip() == "0" and took < STOP_WITHIN_S,
                  f"SIGTERM stops {name} in {took:.1f} s, exit status {done.stdout.strip() or done.stderr.strip()}")
    finally:
        for name in names:
            docker("rm", "-f", name, ok=False)
        sql(dsn, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    print("smoke test of the image: passed")


if __name__ == "__main__":
    main()
