"""The one way tests start hub processes: `cuehub serve`, `cuehub gateway` or the app factory under
uvicorn, as a real subprocess on a free loopback port, with its output in a log file.

No mocks: the hub is the real CLI, the store a SQLite file or a PostgreSQL schema, the bus Redis.
A HubProcess can be killed (SIGKILL: nothing flushed), stopped (SIGTERM, then SIGKILL after 10 s)
and started again on the same port and database, the way a crashed or restarted server looks to a
tablet. Tests that use it are marked `process` (tests/conftest.py), so `make test-fast` leaves them
out.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import httpx

from tests.services import free_port, pg_execute, wait_until  # noqa: F401 - pg_execute re-exported for the fault tests

ADMIN = "faults-admin-token"
REPO = Path(__file__).resolve().parents[1]
Command = Literal["serve", "gateway", "app"]


class HubProcess:
    """One hub process; the same port, database and environment at every start.

    - `database_url`: HUB_DATABASE_URL (None: whatever `env` or the environment says); `schema`:
      HUB_DATABASE_SCHEMA.
    - `command`: `serve` (`python -m hub.cli serve`, as a user runs it), `gateway` (`cuehub gateway`,
      watchers only) or `app` (`uvicorn --factory hub.app:create_app`, the app without the CLI).
    - `env`: more environment (a None value removes the variable); HUB_ADMIN_TOKEN defaults to ADMIN,
      HUB_BUS_URL is removed unless `env` names one (a test's hub never joins another's bus).
    - `ready`: the path that answers 200 once the process is up (`/readyz` waits for the store and
      the bus too); `nofile`: RLIMIT_NOFILE of the process; `extra_args`: more command arguments.
    - `log_stdout`: False keeps only stderr in the log (where the hub's log lines go; `cuehub
      gateway` prints its URL on stdout).
    """

    def __init__(self, database_url: str | None, workdir: Path, *, schema: str | None = None,
                 env: Mapping[str, str | None] | None = None, nofile: int | None = None,
                 extra_args: Sequence[str] = (), command: Command = "serve", name: str = "hub",
                 log_level: str | None = "warning", ready: str = "/healthz", port: int | None = None,
                 log_stdout: bool = True) -> None:
        self.name, self.command, self.workdir = name, command, workdir
        self.database_url, self.nofile, self.extra_args = database_url, nofile, list(extra_args)
        self.log_level, self.ready, self.log_stdout = log_level, ready, log_stdout
        self.port = port or free_port()
        merged: dict[str, str | None] = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "HUB_BUS_URL": None,
                                         "HUB_DATABASE_SCHEMA": schema, "PYTHONUNBUFFERED": "1"}
        if database_url is not None:
            merged["HUB_DATABASE_URL"] = database_url
        merged.update(env or {})
        self.env = {k: v for k, v in merged.items() if v is not None}
        self.admin = self.env.get("HUB_ADMIN_TOKEN", "")
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.log = workdir / f"{name}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    url = base

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def argv(self) -> list[str]:
        where = ["--host", "127.0.0.1", "--port", str(self.port)]
        level = ["--log-level", self.log_level] if self.log_level else []
        if self.command == "app":
            head = [sys.executable, "-m", "uvicorn", "--factory", "hub.app:create_app"]
        else:
            head = [sys.executable, "-m", "hub.cli", self.command]
        return [*head, *where, *level, *self.extra_args]

    # --- the process ----------------------------------------------------------------------------

    def launch(self) -> HubProcess:
        """Start the process and return at once (`wait_ready` waits for it): several processes
        boot side by side."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        nofile = self.nofile

        def limit() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                self.argv(), cwd=self.workdir, env=self.env, stderr=out,
                stdout=out if self.log_stdout else subprocess.DEVNULL,
                start_new_session=True, preexec_fn=limit if nofile is not None else None,
            )
        self.starts += 1
        return self

    def wait_ready(self, timeout: float = 30.0) -> HubProcess:
        """Until `ready` answers 200; fails with the log's tail if the process exits or takes longer."""
        proc = self.proc
        assert proc is not None, "not launched"

        def up() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {proc.returncode}:\n{self.tail()}")
            try:
                return httpx.get(self.base + self.ready, timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        try:
            wait_until(up, timeout, f"{self.name} to answer {self.ready}", interval=0.05)
        except AssertionError:
            raise RuntimeError(f"{self.name} did not answer {self.ready} in {timeout} s:\n{self.tail()}") from None
        return self

    def start(self, timeout: float = 30.0) -> HubProcess:
        return self.launch().wait_ready(timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing the process can do about it."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM (a clean shutdown), SIGKILL if it takes over 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    # --- small REST helpers ---------------------------------------------------------------------

    def admin_post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        r = httpx.post(self.base + path, json=body, headers={"Authorization": f"Bearer {self.admin}"}, timeout=10)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def get(self, path: str) -> Any:
        r = httpx.get(self.base + path, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def metric_total(self, name: str) -> float:
        """The sum of a counter's samples over all its labels, from /metrics."""
        text = httpx.get(self.base + "/metrics", timeout=5).text
        return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith(name + "{") or line.startswith(name + " "))


@contextmanager
def running(*hubs: HubProcess, timeout: float = 30.0) -> Iterator[tuple[HubProcess, ...]]:
    """Launch them all, wait for each, and stop them all afterwards (also when a start fails)."""
    try:
        for hub in hubs:
            hub.launch()
        for hub in hubs:
            hub.wait_ready(timeout)
        yield hubs
    finally:
        for hub in hubs:
            hub.stop()
