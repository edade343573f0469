"""A real `cuehub serve` subprocess on a free loopback port, for fault tests (kill -9, restart).

No mocks: the hub is the installed CLI, the store is a SQLite file or a PostgreSQL schema.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.services import free_port, pg_execute  # noqa: F401 - pg_execute re-exported for the fault tests

ADMIN = "faults-admin-token"


class HubProcess:
    """Start, SIGKILL and restart one hub process; the same port and database every time."""

    def __init__(self, database_url: str, workdir: Path, *, schema: str | None = None,
                 env: dict[str, str] | None = None, nofile: int | None = None,
                 extra_args: list[str] | None = None) -> None:
        """`nofile`: RLIMIT_NOFILE of the process (set in preexec_fn); `extra_args`: more
        `cuehub serve` arguments."""
        self.database_url = database_url
        self.nofile, self.extra_args = nofile, extra_args or []
        self.workdir = workdir
        self.port = free_port()
        self.env = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, **(env or {})}
        self.env.pop("HUB_DATABASE_SCHEMA", None)
        if schema:
            self.env["HUB_DATABASE_SCHEMA"] = schema
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.log = workdir / "hub.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> None:
        assert self.proc is None or self.proc.poll() is not None
        nofile = self.nofile

        def limit() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "hub.cli", "serve", "--port", str(self.port),
                 "--database-url", self.database_url, "--log-level", "warning", *self.extra_args],
                cwd=self.workdir, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=limit if nofile is not None else None,
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hub exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"hub did not answer /healthz in {timeout}s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing the process can do about it."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    # --- small REST helpers (admin) ------------------------------------------------------------

    def admin_post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = httpx.post(self.base + path, json=body, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10)
        assert r.status_code == 201, r.text
        return r.json()

    def get(self, path: str) -> Any:
        r = httpx.get(self.base + path, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()
