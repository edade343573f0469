"""A webhook receiver for the tests: http.server on a loopback port, in a thread, recording every
request; `fail` the first N, `delay` each answer, or stay `down` (no server on the port yet)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.services import free_port


class Receiver:
    def __init__(self, fail: int = 0, delay: float = 0.0, port: int | None = None) -> None:
        self.port = port or free_port()
        self.fail = fail
        self.delay = delay
        self.seen: list[dict[str, Any]] = []  # every request, in arrival order
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    failing = receiver.fail > 0
                    receiver.fail -= failing
                    receiver.seen.append({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body,
                                          "ok": not failing, "received_at": time.time() * 1000})
                time.sleep(receiver.delay)
                self.send_response(500 if failing else 204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def delivered(self) -> list[dict[str, Any]]:
        """The bodies answered 2xx, in order."""
        with self.lock:
            return [json.loads(r["body"]) for r in self.seen if r["ok"]]

    def wait(self, n: int, timeout: float = 15.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(got := self.delivered()) < n:
            assert time.monotonic() < deadline, f"{len(got)} of {n} delivered; seen {len(self.seen)}"
            time.sleep(0.05)
        return got
