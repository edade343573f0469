"""/metrics, /readyz, the writer's instrumentation, JSON logs and `cuehub replay` (in process)."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from spine_helpers import bearer, envelope, make_match, make_table

from hub.app import create_app
from hub.ops.logs import JsonFormatter, bind
from hub.ops.metrics import NULL, Metrics, metrics_of
from hub.settings import Settings


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in a text exposition (0 when absent), read with prometheus_client's
    own parser (so the exposition must parse)."""
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and s.labels == labels:
                return float(s.value)
    return 0.0



def test_metrics_count_commands_and_ack_latency(real_rules_client: TestClient) -> None:
    table = make_table(real_rules_client)
    match = make_match(real_rules_client, table)
    mid, auth = match["id"], bearer(table["token"])
    assert (
        real_rules_client.post(
            f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}), headers=auth
        ).status_code
        == 200
    )
    r = real_rules_client.post(
        f"/api/matches/{mid}/commands", json=envelope(mid, {"kind": "start", "breaker": "a"}), headers=auth
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_started"
    r = real_rules_client.post(
        f"/api/matches/{mid}/commands",
        json=envelope(mid, {"kind": "shot", "player": "b", "first_contact": 1}),
        headers=auth,
    )
    assert r.status_code == 409

    m = real_rules_client.get("/metrics")
    assert m.status_code == 200
    assert m.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = m.text
    assert sample(text, "cuehub_commands_accepted_total", kind="start", source="table") == 1
    assert sample(text, "cuehub_commands_rejected_total", code="already_started", source="table") == 1
    assert sample(text, "cuehub_commands_rejected_total", code="not_your_turn", source="table") == 1
    assert sample(text, "cuehub_command_ack_seconds_count", source="table") == 3
    assert sample(text, "cuehub_command_ack_seconds_bucket", source="table", le="+Inf") == 3
    # Every documented metric is exposed, with HELP and TYPE.
    for name in (
        "cuehub_commands_accepted_total",
        "cuehub_commands_rejected_total",
        "cuehub_command_ack_seconds",
        "cuehub_watchers_connected",
        "cuehub_fanout_seconds",
        "cuehub_watchers_dropped_total",
        "cuehub_clock_firings_total",
        "cuehub_command_errors_total",
        "cuehub_table_sockets_connected",
        "cuehub_process_start_time_seconds",
    ):
        assert f"# TYPE {name} " in text, name
        assert f"# HELP {name} " in text, name
    reference = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            assert f"`{line.split()[2]}`" in reference, f"{line.split()[2]} is not documented in docs/operations.md"


def test_histogram_buckets_are_cumulative_and_labels_escaped() -> None:
    m = Metrics()
    for v in (0.0005, 0.003, 0.003, 7.0):
        m.fanout_observed(v)
    text = m.render()
    assert sample(text, "cuehub_fanout_seconds_bucket", le="0.001") == 1
    assert sample(text, "cuehub_fanout_seconds_bucket", le="0.005") == 3
    assert sample(text, "cuehub_fanout_seconds_bucket", le="5.0") == 3
    assert sample(text, "cuehub_fanout_seconds_bucket", le="+Inf") == 4
    assert sample(text, "cuehub_fanout_seconds_count") == 4
    m.commands_rejected.inc(code='we"ird\\', source="table")
    assert 'code="we\\"ird\\\\"' in m.render()


def test_hooks_for_watch_and_clocks() -> None:
    m = Metrics()
    m.watcher_connected()
    m.watcher_connected()
    m.watcher_disconnected()
    m.slow_watcher("snapshot")
    m.slow_watcher("closed")
    m.clock_fired("clock_expired", True)
    m.clock_fired("clock_expired", False)
    text = m.render()
    assert sample(text, "cuehub_watchers_connected") == 1
    assert sample(text, "cuehub_watchers_dropped_total", action="snapshot") == 1
    assert sample(text, "cuehub_watchers_dropped_total", action="closed") == 1
    assert sample(text, "cuehub_clock_firings_total", kind="clock_expired", outcome="stored") == 1
    assert sample(text, "cuehub_clock_firings_total", kind="clock_expired", outcome="superseded") == 1
    # Not wired: a no-op that never raises.
    assert metrics_of(object()) is NULL
    NULL.watcher_connected()
    NULL.fanout_since(0)
    NULL.slow_watcher()


def test_metrics_of_finds_the_apps_metrics(real_rules_client: TestClient) -> None:
    app = real_rules_client.app
    assert metrics_of(app) is app.state.services.metrics
    assert metrics_of(app.state.services.writer) is app.state.services.metrics


def test_readyz_ok_with_memory_bus(real_rules_client: TestClient) -> None:
    r = real_rules_client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ready", "checks": {"store": "ok", "bus": "ok"}}
    assert real_rules_client.get("/healthz").status_code == 200


def test_readyz_503_when_the_bus_is_unreachable(sqlite_settings: Settings) -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    settings = sqlite_settings.with_(bus_url="redis://127.0.0.1:1/0")
    app = create_app(settings)
    try:
        c = TestClient(app)
        c.__enter__()
    except Exception as exc:  # the store is the truth: a dead bus must not stop the hub
        pytest.fail(f"the hub does not start with an unreachable bus ({type(exc).__name__}: {exc})")
    try:
        r = c.get("/readyz")
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["status"] == "unavailable"
        assert body["checks"]["store"] == "ok"
        assert body["checks"]["bus"].startswith("unreachable")
        assert c.get("/healthz").status_code == 200  # alive, just not ready
    finally:
        c.__exit__(None, None, None)


def test_readyz_503_when_the_store_is_gone(real_rules_client: TestClient) -> None:
    async def broken() -> None:
        raise OSError("store down")

    class Broken:
        def connect(self):  # noqa: ANN201
            raise OSError("store down")

    real = real_rules_client.app.state.services.engine
    real_rules_client.app.state.services.engine = Broken()
    try:
        r = real_rules_client.get("/readyz")
    finally:
        real_rules_client.app.state.services.engine = real
    assert r.status_code == 503
    assert r.json()["checks"]["store"].startswith("unreachable")


def test_json_logs_carry_match_and_table_ids(real_rules_client: TestClient) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("hub")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        table = make_table(real_rules_client)
        match = make_match(real_rules_client, table)
        mid = match["id"]
        real_rules_client.post(
            f"/api/matches/{mid}/commands",
            json=envelope(mid, {"kind": "start", "breaker": "a"}, cid="c-1"),
            headers=bearer(table["token"]),
        )
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    stored = [x for x in lines if x.get("outcome") == "ack"]
    assert stored, lines
    line = stored[0]
    assert line["match_id"] == mid and line["table_id"] == table["table_id"] and line["tournament_id"] == table["tid"]
    assert line["kind"] == "start" and line["version"] == 1 and line["command_id"] == "c-1"
    assert line["level"] == "info" and line["logger"] == "hub.matches.instrumented" and line["ts"].endswith("Z")


def test_bind_nests_and_formats_exceptions() -> None:
    rec = logging.LogRecord("hub.x", logging.ERROR, __file__, 1, "boom %s", ("now",), None)
    with bind(match_id="m1"):
        with bind(table_id="tb1"):
            out = json.loads(JsonFormatter().format(rec))
        assert "table_id" not in json.loads(JsonFormatter().format(rec))
    assert out["match_id"] == "m1" and out["table_id"] == "tb1" and out["msg"] == "boom now"
    try:
        raise ValueError("x")
    except ValueError:
        import sys

        rec.exc_info = sys.exc_info()
    assert "ValueError" in json.loads(JsonFormatter().format(rec))["exc"]


def test_serve_log_config_opt_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from hub.ops.logs import json_enabled, log_config

    monkeypatch.delenv("HUB_LOG_FORMAT", raising=False)
    assert json_enabled()
    monkeypatch.setenv("HUB_LOG_FORMAT", "text")
    assert not json_enabled()
    assert log_config("info", json_format=True)["formatters"]["default"]["()"] == "hub.ops.logs.JsonFormatter"
    assert "format" in log_config("info", json_format=False)["formatters"]["default"]


STANDARD = (
    "process_cpu_seconds_total",
    "process_open_fds",
    "process_max_fds",
    "process_resident_memory_bytes",
    "process_start_time_seconds",
    "python_gc_collections_total",
    "python_gc_objects_collected_total",
    "python_info",
)


def test_the_exposition_is_valid_and_carries_the_standard_metrics(real_rules_client: TestClient) -> None:
    """promtool (Debian's `prometheus` package; .ci/run installs it) checks the exposition when it
    is on PATH; prometheus_client's own parser reads it in any case, and every family has HELP and TYPE."""
    import shutil
    import subprocess

    table = make_table(real_rules_client)
    match = make_match(real_rules_client, table)
    real_rules_client.post(
        f"/api/matches/{match['id']}/commands",
        headers=bearer(table["token"]),
        json=envelope(match["id"], {"kind": "start", "breaker": "a"}),
    )
    text = real_rules_client.get("/metrics").text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name in STANDARD:
        base = name.removesuffix("_total")
        assert base in families or name in families, name
    assert sample(text, "process_open_fds") > 0 and sample(text, "process_resident_memory_bytes") > 1e6
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            assert f"# HELP {line.split()[2]} " in text
    assert "_created" not in text  # no *_created series (prometheus_client.disable_created_metrics)
    promtool = shutil.which("promtool")
    if promtool:
        r = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True, timeout=30)
        assert r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip(), (r.stdout, r.stderr)
