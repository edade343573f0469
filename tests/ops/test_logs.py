"""hub/ops/logs.py: every process writes one JSON object per line, with no ANSI colour codes and no
uvicorn `color_message`: `cuehub serve` (uvicorn's own lines included) and `cuehub gateway`."""

from __future__ import annotations

import json
import logging
import uuid
from pathlib import Path

import httpx
import pytest
from services import require_redis

from hub.ops.logs import JsonFormatter
from tests.hubproc import HubProcess


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


def test_cuehub_serve_logs_json_lines_only(tmp_path: Path) -> None:
    """stdout and stderr together, as `docker logs` reads them: the desk's address and the
    generated admin token are JSON lines too."""
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", tmp_path, name="serve", log_level=None,
                     log_stdout=True, env={"HUB_ADMIN_TOKEN": None, "HUB_LOG_FORMAT": None})
    try:
        hub.start()
        httpx.get(f"{hub.base}/api/matches")
    finally:
        hub.stop()
    log = hub.log
    lines = _json_lines(log.read_text())
    assert any(x["logger"].startswith("uvicorn") for x in lines)
    assert [x["desk"] for x in lines if "desk" in x] == [f"{hub.base}/desk"]
    assert any("admin token (shown once" in x["msg"] for x in lines)
    access = [x for x in lines if x["logger"] == "uvicorn.access" and x.get("path") == "/api/matches"]
    assert access and access[0]["status"] == 200 and access[0]["method"] == "GET"


def test_cuehub_gateway_logs_json_lines_too(tmp_path: Path) -> None:
    require_redis()
    gateway = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", tmp_path, command="gateway", name="gateway",
                         log_level="info", env={"HUB_LOG_FORMAT": None}, log_stdout=False,
                         extra_args=["--bus-url", f"redis://127.0.0.1:6379/0?channel=logs-{uuid.uuid4().hex[:10]}"])
    try:
        gateway.start()
    finally:
        gateway.stop()
    log = gateway.log
    lines = _json_lines(log.read_text())
    assert any(x["logger"] == "hub.watch.server" and "watch gateway on" in x["msg"] for x in lines), lines
