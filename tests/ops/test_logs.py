"""hub/ops/logs.py: every process writes one JSON object per line, with no ANSI colour codes and no
uvicorn `color_message`: `cuehub serve` (uvicorn's own lines included) and `cuehub gateway`."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from services import free_port, require_redis, stop_processes

from hub.ops.logs import JsonFormatter


def test_color_message_and_ansi_never_reach_a_line() -> None:
    rec = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, "Started server process [%d]", (42,), None)
    rec.color_message = "Started server process [\x1b[36m%d\x1b[0m]"
    out = json.loads(JsonFormatter().format(rec))
    assert out["msg"] == "Started server process [42]" and "color_message" not in out
    rec = logging.LogRecord("hub.x", logging.INFO, __file__, 1, "\x1b[31mred\x1b[0m", (), None)
    rec.detail = "\x1b[1mbold\x1b[0m"
    out = json.loads(JsonFormatter().format(rec))
    assert out["msg"] == "red" and out["detail"] == "bold"


def test_access_lines_carry_their_fields() -> None:
    rec = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                            ("127.0.0.1:5000", "GET", "/api/matches", "1.1", 200), None)
    out = json.loads(JsonFormatter().format(rec))
    assert (out["client"], out["method"], out["path"], out["http_version"], out["status"]) == \
        ("127.0.0.1:5000", "GET", "/api/matches", "1.1", 200)


def _json_lines(text: str) -> list[dict]:
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines, "the process logged nothing"
    assert not any("\x1b" in line for line in lines), [line for line in lines if "\x1b" in line]
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            pytest.fail(f"not a JSON line: {line!r}")
    assert all("color_message" not in x for x in out)
    return out


def _wait(url: str, proc: subprocess.Popen, log: Path) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail(f"{url} did not answer:\n{log.read_text()[-2000:]}")


def test_cuehub_serve_logs_json_lines_only(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "serve.log"
    env = {**os.environ, "HUB_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", "HUB_ADMIN_TOKEN": "x"}
    env.pop("HUB_LOG_FORMAT", None)
    with open(log, "wb") as f:
        proc = subprocess.Popen([sys.executable, "-m", "hub", "serve", "--port", str(port)], cwd=tmp_path,
                                env=env, stderr=f, stdout=subprocess.DEVNULL)
    try:
        _wait(f"http://127.0.0.1:{port}/healthz", proc, log)
        httpx.get(f"http://127.0.0.1:{port}/api/matches")
    finally:
        stop_processes([proc])
    lines = _json_lines(log.read_text())
    assert any(x["logger"].startswith("uvicorn") for x in lines)
    access = [x for x in lines if x["logger"] == "uvicorn.access" and x.get("path") == "/api/matches"]
    assert access and access[0]["status"] == 200 and access[0]["method"] == "GET"


def test_cuehub_gateway_logs_json_lines_too(tmp_path: Path) -> None:
    require_redis()
    port, log = free_port(), tmp_path / "gateway.log"
    env = {**os.environ, "HUB_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'h.db'}"}
    env.pop("HUB_LOG_FORMAT", None)
    with open(log, "wb") as f:
        proc = subprocess.Popen([sys.executable, "-m", "hub", "gateway", "--port", str(port), "--log-level", "info",
                                 "--bus-url", f"redis://127.0.0.1:6379/0?channel=logs-{port}"],
                                cwd=tmp_path, env=env, stderr=f, stdout=subprocess.DEVNULL)
    try:
        _wait(f"http://127.0.0.1:{port}/healthz", proc, log)
    finally:
        stop_processes([proc])
    lines = _json_lines(log.read_text())
    assert any(x["logger"] == "hub.watch.server" and "watch gateway on" in x["msg"] for x in lines), lines
