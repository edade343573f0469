"""Smoke test of an installed cuehub wheel, run by .ci/run with the python of a fresh venv that has
only the wheel (and its dependencies) installed, from a folder outside the checkout, so nothing
of the checkout can stand in for what the wheel lacks. Standard library only.

    python smoke_wheel.py --pg postgresql+asyncpg://postgres@127.0.0.1:5432/test

1. `cuehub migrate` on a fresh PostgreSQL schema (the migrations come from the package);
2. `cuehub serve` on that schema (no auto-migration) on a free port: /readyz 200; every page,
   every file a page loads (stylesheets, scripts and the ES modules they import), /docs and /redoc
   with their assets, /openapi.json: 200; a tournament, a table, a match and a command;
   a 304 for a page sent back its ETag;
3. `cuehub serve` with the default SQLite in an empty folder: it migrates itself and is ready;
4. `HUB_PORT=abc cuehub serve`: exit status 2 and one line naming HUB_PORT.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

BIN = Path(sys.executable).parent
ADMIN = "smoke-admin-" + uuid.uuid4().hex[:8]
PAGES = ["/", "/tablet/x", "/board/x", "/commentator/x", "/watch/x", "/overlay/x", "/docs", "/redoc"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(
    url: str, method: str = "GET", body: dict | None = None, headers: dict | None = None
) -> tuple[int, dict, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={
        **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def check(cond: bool, what: str) -> None:
    if not cond:
        raise SystemExit(f"SMOKE FAILED: {what}")
    print(f"  ok  {what}")


def wait_ready(base: str, proc: subprocess.Popen, log: Path) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"SMOKE FAILED: the hub exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if request(base + "/readyz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"SMOKE FAILED: {base}/readyz not 200 within 60 s:\n{log.read_text()[-3000:]}")


def serve(env: dict[str, str], cwd: Path, log: Path) -> tuple[subprocess.Popen, str]:  # type: ignore[type-arg]
    port = free_port()
    with open(log, "wb") as f:
        proc = subprocess.Popen([str(BIN / "cuehub"), "serve", "--port", str(port)], cwd=cwd, env=env,
                                stdout=f, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, proc, log)
    return proc, base


def stop(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


def assets_of(base: str, path: str, body: bytes) -> set[str]:
    """Files a page or script loads: <script src>, <link href>, ReDoc's spec-url, ES module imports."""
    text = body.decode("utf-8", "replace")
    found = set(re.findall(r'(?:src|href|spec-url)="(/[^"]*)"', text))
    for rel in re.findall(r'(?:import|from)\s*(?:\(\s*)?["\'](\.{1,2}/[^"\']+)["\']', text):
        found.add(os.path.normpath(os.path.join(os.path.dirname(path), rel)))
    return {f for f in found if not f.startswith("data:")}


def crawl(base: str) -> int:
    seen: set[str] = set()
    todo = list(PAGES) + ["/openapi.json"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        status, headers, body = request(base + path)
        check(status == 200 and len(body) > 0, f"GET {path} -> {status} ({len(body)} bytes)")
        kind = headers.get("content-type", headers.get("Content-Type", ""))
        if "html" in kind or "javascript" in kind:
            todo.extend(assets_of(base, path, body) - seen)
    return len(seen)


def make_match(base: str, auth: dict[str, str], name: str) -> tuple[dict, str]:  # type: ignore[type-arg]
    """A tournament named `name`, one table and a golden_nine match on it: (the table, the match id)."""
    s, _, t = request(base + "/api/tournaments", "POST", {"name": name}, auth)
    check(s == 201, "POST /api/tournaments: 201")
    tid = json.loads(t)["id"]
    s, _, tb = request(f"{base}/api/tournaments/{tid}/tables", "POST", {"name": "T1"}, auth)
    table = json.loads(tb)
    s, _, mt = request(base + "/api/matches", "POST", {
        "tournament_id": tid, "table_id": table["id"], "discipline": "golden_nine",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 3}}, auth)
    check(s == 201, "POST /api/matches: 201")
    return table, json.loads(mt)["id"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", required=True, help="postgresql+asyncpg://... of the machine's PostgreSQL")
    args = ap.parse_args()
    import hub  # the installed one: check it is not the checkout

    here = Path(hub.__file__).resolve()
    check("site-packages" in here.parts, f"hub imported from the installed wheel ({here.parent})")
    work = Path(tempfile.mkdtemp(prefix="cuehub-smoke-"))
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("HUB_") and k != "PYTHONPATH"}
    schema = "smoke_" + uuid.uuid4().hex[:10]
    import asyncio

    import asyncpg

    dsn = args.pg.replace("postgresql+asyncpg", "postgresql")

    async def sql(statement: str) -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(sql(f'CREATE SCHEMA "{schema}"'))
    procs: list[subprocess.Popen] = []  # type: ignore[type-arg]
    try:
        v = subprocess.run([str(BIN / "cuehub"), "--version"], capture_output=True, text=True, env=base_env)
        check(
            v.returncode == 0 and v.stdout.strip() == f"cuehub {hub.__version__}",
            f"cuehub --version: {v.stdout.strip()}",
        )

        pg_env = {**base_env, "HUB_DATABASE_URL": args.pg, "HUB_DATABASE_SCHEMA": schema, "HUB_ADMIN_TOKEN": ADMIN,
                  "HUB_AUTO_MIGRATE": "false"}
        m = subprocess.run([str(BIN / "cuehub"), "migrate"], cwd=work, env=pg_env, capture_output=True, text=True)
        check(m.returncode == 0, f"cuehub migrate on PostgreSQL schema {schema}: {m.stdout.strip() or m.stderr[-500:]}")

        proc, base = serve(pg_env, work, work / "pg.log")
        procs.append(proc)
        check(True, f"cuehub serve on PostgreSQL is ready at {base}")
        n = crawl(base)
        check(n >= 20, f"{n} pages, assets and documents answered 200")
        etag = request(base + "/")[1].get("etag") or request(base + "/")[1].get("ETag")
        check(request(base + "/", headers={"If-None-Match": etag or ""})[0] == 304, "a page sent back its ETag: 304")
        admin = {"Authorization": f"Bearer {ADMIN}"}
        tb, mid = make_match(base, admin, "Smoke")
        s, _, ack = request(f"{base}/api/matches/{mid}/commands", "POST",
                            {"id": "c1", "match_id": mid, "command": {"kind": "start", "breaker": "a"}},
                            {"Authorization": f"Bearer {tb['token']}"})
        check(s == 200 and json.loads(ack)["version"] == 1, "a command is acknowledged at version 1")
        s, _, live = request(base + "/api/matches?status=live")
        check(s == 200 and json.loads(live)["matches"][0]["id"] == mid, "the match is listed as live")
        stop(proc)

        sqlite_dir = work / "sqlite"
        sqlite_dir.mkdir()
        proc, base = serve({**base_env, "HUB_ADMIN_TOKEN": ADMIN}, sqlite_dir, work / "sqlite.log")
        procs.append(proc)
        check((sqlite_dir / "cuehub.db").exists(), "cuehub serve with the default SQLite migrated ./cuehub.db itself")
        check(request(base + "/static/js/index.js")[0] == 200, "and serves the pages")
        stop(proc)

        bad = subprocess.run([str(BIN / "cuehub"), "serve"], cwd=work, env={**base_env, "HUB_PORT": "abc"},
                             capture_output=True, text=True, timeout=60)
        lines = [x for x in bad.stderr.splitlines() if x.strip()]
        check(bad.returncode == 2 and len(lines) == 1 and "HUB_PORT" in lines[0], f"HUB_PORT=abc: {lines}")
    finally:
        for p in procs:
            if p.poll() is None:
                stop(p)
        asyncio.run(sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        shutil.rmtree(work, ignore_errors=True)
    print("smoke test of the wheel: passed")


if __name__ == "__main__":
    main()
