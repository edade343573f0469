"""Run a hub app on a real socket in a background thread, for client/simulator tests."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

ADMIN_TOKEN = "client-test-admin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _QuietServer(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self):  # the test runner keeps its own signal handlers
        yield


@contextlib.contextmanager
def serve(app: Any, port: int | None = None) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 as `cuehub serve` does (its uvicorn options: /ws/watch on the
    watch gateway's fast front) and yield its base URL; stops it on exit."""
    from hub.cli import uvicorn_options
    from hub.settings import Settings

    port = port or free_port()
    options = uvicorn_options(Settings.from_env(), app)  # the defaults (the app has its own settings)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=3, **options)
    server = _QuietServer(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the hub did not start")
        if time.monotonic() > deadline:
            raise RuntimeError("the hub did not start within 20 s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
