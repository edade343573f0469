"""Prometheus metrics (text exposition 0.0.4), `/metrics` and `/readyz`, and the writer's
instrumentation. No dependency: the three metric types the hub needs are a few lines each.

One `Metrics` object per app (`app.state.metrics`; `create_app` makes it), so two apps in one
test process do not share counts. Other parts of the hub reach it with `metrics_of(x)`, where `x`
is the app, a request or websocket, or the writer; when none is wired it answers a no-op object,
so a hook can never break the caller:

    from hub.metrics import metrics_of
    m = metrics_of(ws)                        # watch gateway
    m.watcher_connected(); ... m.watcher_disconnected()
    m.fanout_observed(seconds)                # stored event -> bytes handed to a watcher socket
    m.slow_watcher("snapshot" | "closed")     # a watcher that could not keep up
    m.clock_fired(kind, stored: bool)         # clocks; the writer already counts server commands

Command counts, ack latency and clock firings are measured by `InstrumentedWriter`, a
`MatchWriter` whose `submit` is timed (server-made commands are the clock firings).
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from typing import Any, Iterable, Mapping

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from hub.logs import bind
from hub.writer import Ack, Answer, MatchWriter

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# Seconds. Ack latency is a database commit (SQLite fsync or a PostgreSQL round trip): ~1-50 ms.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

COMMAND_KINDS = frozenset({
    "start", "lag", "shot", "decision", "extension", "foul", "penalty", "concede", "stalemate",
    "timeout", "pause", "resume", "undo", "clock_expired", "match_time_expired",
})
REJECT_CODES = frozenset({
    "bad_command", "not_your_turn", "decision_pending", "no_decision_pending", "bad_choice",
    "not_allowed", "match_over", "not_started", "already_started", "version_conflict",
    "unknown_match", "nothing_to_undo",
})


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _fmt(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def _labels(names: tuple[str, ...], values: tuple[str, ...], extra: tuple[tuple[str, str], ...] = ()) -> str:
    pairs = [*zip(names, values), *extra]
    if not pairs:
        return ""
    return "{" + ",".join(f'{k}="{_escape(v)}"' for k, v in pairs) + "}"


class _Metric:
    kind = "untyped"

    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = ()) -> None:
        self.name, self.help, self.labelnames = name, help_, tuple(labelnames)
        self._lock = threading.Lock()

    def _key(self, labels: Mapping[str, str]) -> tuple[str, ...]:
        if set(labels) != set(self.labelnames):
            raise ValueError(f"{self.name} takes labels {self.labelnames}, got {tuple(labels)}")
        return tuple(str(labels[n]) for n in self.labelnames)

    def header(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]


class Counter(_Metric):
    kind = "counter"

    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = (), *, initial: Iterable[Mapping[str, str]] = ()) -> None:
        super().__init__(name, help_, labelnames)
        self._values: dict[tuple[str, ...], float] = {}
        for labels in initial:  # series that should read 0 before anything happened
            self._values[self._key(labels)] = 0.0
        if not self.labelnames:
            self._values[()] = 0.0

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(self._key(labels), 0.0)

    def render(self) -> list[str]:
        out = self.header()
        for key, v in sorted(self._values.items()):
            out.append(f"{self.name}{_labels(self.labelnames, key)} {_fmt(v)}")
        return out


class Gauge(Counter):
    kind = "gauge"

    def dec(self, amount: float = 1.0, **labels: str) -> None:
        self.inc(-amount, **labels)

    def set(self, value: float, **labels: str) -> None:
        key = self._key(labels)
        with self._lock:
            self._values[key] = value


class Histogram(_Metric):
    kind = "histogram"

    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = (), buckets: Iterable[float] = LATENCY_BUCKETS) -> None:
        super().__init__(name, help_, labelnames)
        self.buckets = tuple(sorted(buckets)) + (math.inf,)
        # key -> [count per bucket (not cumulative)..., sum, count]
        self._series: dict[tuple[str, ...], list[float]] = {}
        if not self.labelnames:
            self._series[()] = [0.0] * (len(self.buckets) + 2)

    def observe(self, value: float, **labels: str) -> None:
        key = self._key(labels)
        i = 0
        while value > self.buckets[i]:
            i += 1
        with self._lock:
            series = self._series.setdefault(key, [0.0] * (len(self.buckets) + 2))
            series[i] += 1
            series[-2] += value
            series[-1] += 1

    def count(self, **labels: str) -> int:
        series = self._series.get(self._key(labels))
        return int(series[-1]) if series else 0

    def render(self) -> list[str]:
        out = self.header()
        for key, series in sorted(self._series.items()):
            running = 0.0
            for bound, n in zip(self.buckets, series):
                running += n
                out.append(f"{self.name}_bucket{_labels(self.labelnames, key, (('le', _fmt(bound)),))} {_fmt(running)}")
            out.append(f"{self.name}_sum{_labels(self.labelnames, key)} {_fmt(series[-2])}")
            out.append(f"{self.name}_count{_labels(self.labelnames, key)} {_fmt(series[-1])}")
        return out


class Metrics:
    """Every metric the hub exposes (README.md, "Metrics", documents each one)."""

    def __init__(self) -> None:
        self.commands_accepted = Counter(
            "cuehub_commands_accepted_total",
            "Commands acknowledged (event stored), by command kind and source (table or server).",
            ("kind", "source"),
        )
        self.commands_rejected = Counter(
            "cuehub_commands_rejected_total",
            "Commands rejected, by reject code and source (table or server).",
            ("code", "source"),
        )
        self.ack_seconds = Histogram(
            "cuehub_command_ack_seconds",
            "Time from a command reaching the match writer to its ack or reject (lock wait, rules, commit).",
            ("source",),
        )
        self.command_errors = Counter(
            "cuehub_command_errors_total",
            "Commands that failed with a database error (answered 503 or socket close 1011).",
        )
        self.watchers = Gauge("cuehub_watchers_connected", "Open /ws/watch sockets on this process.")
        self.table_sockets = Gauge("cuehub_table_sockets_connected", "Open, authenticated /ws/tables sockets on this process.")
        self.fanout_seconds = Histogram(
            "cuehub_fanout_seconds",
            "Time from an event being stored to its update being handed to a watcher socket.",
        )
        self.watch_writes = Counter(
            "cuehub_watch_writes_total",
            "Socket writes by the watch gateway's websockets server; each carries one or more messages.",
        )
        self.watch_frames = Counter(
            "cuehub_watch_messages_total",
            "Messages written to watchers by the watch gateway's websockets server (over writes: how many share a write).",
        )
        self.slow_watchers = Counter(
            "cuehub_watchers_dropped_total",
            "Watchers that could not keep up: sent a fresh snapshot instead of updates, or closed (4408).",
            ("action",),
            initial=({"action": "snapshot"}, {"action": "closed"}),
        )
        self.clock_firings = Counter(
            "cuehub_clock_firings_total",
            "Server-made clock events submitted by this process: stored, or superseded (a stroke or "
            "another process got there first).",
            ("kind", "outcome"),
            initial=(
                {"kind": "clock_expired", "outcome": "stored"},
                {"kind": "clock_expired", "outcome": "superseded"},
                {"kind": "match_time_expired", "outcome": "stored"},
                {"kind": "match_time_expired", "outcome": "superseded"},
            ),
        )
        self.started = time.time()
        self.start_time = Gauge("cuehub_process_start_time_seconds", "Unix time this hub process started.")
        self.start_time.set(self.started)

    def all(self) -> list[_Metric]:
        return [v for v in vars(self).values() if isinstance(v, _Metric)]

    def render(self) -> str:
        lines: list[str] = []
        for metric in self.all():
            lines.extend(metric.render())
        return "\n".join(lines) + "\n"

    # --- hooks for the watch gateway and the clocks ----------------------------------------------

    def watcher_connected(self) -> None:
        self.watchers.inc()

    def watcher_disconnected(self) -> None:
        self.watchers.dec()

    def fanout_observed(self, seconds: float) -> None:
        self.fanout_seconds.observe(max(0.0, seconds))

    def fanout_since(self, stored_at_ms: int) -> None:
        """Convenience: the event's `at` (ms, server time) to now."""
        self.fanout_observed(time.time() - stored_at_ms / 1000.0)

    def slow_watcher(self, action: str = "closed") -> None:
        self.slow_watchers.inc(action="snapshot" if action == "snapshot" else "closed")

    def clock_fired(self, kind: str, stored: bool) -> None:
        kind = kind if kind in ("clock_expired", "match_time_expired") else "other"
        self.clock_firings.inc(kind=kind, outcome="stored" if stored else "superseded")

    def table_socket_opened(self) -> None:
        self.table_sockets.inc()

    def table_socket_closed(self) -> None:
        self.table_sockets.dec()


class _NullMetrics(Metrics):
    """What `metrics_of` answers when no metrics are wired: accepts every call, keeps nothing."""

    def __getattribute__(self, name: str) -> Any:
        attr = object.__getattribute__(self, name)
        if callable(attr) and not name.startswith("_") and name not in ("all", "render"):
            return lambda *a, **k: None
        return attr


NULL = _NullMetrics()


def metrics_of(holder: Any) -> Metrics:
    """The Metrics of an app, request, websocket, app.state or writer; a no-op one when none."""
    for path in (("metrics",), ("state", "metrics"), ("app", "state", "metrics")):
        obj = holder
        try:
            for name in path:
                obj = getattr(obj, name)
        except AttributeError:
            continue
        if isinstance(obj, Metrics):
            return obj
    return NULL


# --- the writer, timed ---------------------------------------------------------------------------


class InstrumentedWriter(MatchWriter):
    """A MatchWriter that counts and times every command, and binds match/table ids to the logs
    written while it runs."""

    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def submit(
        self, match_id: str, command_id: str | None, command: Mapping[str, Any], expected_version: int | None = None,
        *, server: bool = False,
    ) -> Answer:
        m = self.metrics
        source = "server" if server else "table"
        raw_kind = command.get("kind") if isinstance(command, Mapping) else None
        kind = raw_kind if isinstance(raw_kind, str) and raw_kind in COMMAND_KINDS else "other"
        t0 = time.perf_counter()
        with bind(match_id=match_id):
            try:
                row = await self.match_row(match_id)
                with bind(table_id=row.table_id if row else None, tournament_id=row.tournament_id if row else None):
                    answer = await super().submit(match_id, command_id, command, expected_version, server=server)
                    elapsed = time.perf_counter() - t0
                    m.ack_seconds.observe(elapsed, source=source)
                    if isinstance(answer, Ack):
                        m.commands_accepted.inc(kind=kind, source=source)
                        log.info("command %s stored as v%s", kind, answer.version,
                                 extra={"command_id": command_id, "kind": kind, "version": answer.version,
                                        "outcome": "ack", "ms": round(elapsed * 1000, 2)})
                    else:
                        code = answer.code if answer.code in REJECT_CODES else "other"
                        m.commands_rejected.inc(code=code, source=source)
                        log.info("command %s rejected: %s", kind, answer.code,
                                 extra={"command_id": command_id, "kind": kind, "code": answer.code,
                                        "outcome": "reject", "ms": round(elapsed * 1000, 2)})
                    if server:
                        m.clock_fired(kind, isinstance(answer, Ack))
                    return answer
            except Exception:
                m.command_errors.inc()
                raise


# --- endpoints ------------------------------------------------------------------------------------

router = APIRouter()

READY_TIMEOUT_S = 2.0


@router.get("/metrics")
async def metrics_endpoint(request: Request) -> PlainTextResponse:
    return PlainTextResponse(metrics_of(request).render(), media_type=CONTENT_TYPE)


async def _check_store(request: Request) -> None:
    async with request.app.state.engine.connect() as conn:
        await conn.execute(sa.text("SELECT 1"))


async def _check_bus(request: Request) -> str:
    """The app's bus if it offers a check (`ping` / `ready` / `healthy`), else the URL itself."""
    bus = getattr(request.app.state, "bus", None)
    for name in ("ping", "ready", "healthy", "check"):
        probe = getattr(bus, name, None)
        if callable(probe):
            result = probe()
            if asyncio.iscoroutine(result):
                result = await result
            if result is False:
                raise ConnectionError("bus check answered false")
            return "ok"
    url: str = request.app.state.settings.bus_url
    if url.startswith(("redis://", "rediss://", "unix://")):
        import redis.asyncio as aioredis

        client = aioredis.from_url(url, socket_connect_timeout=READY_TIMEOUT_S, socket_timeout=READY_TIMEOUT_S)
        try:
            await client.ping()
        finally:
            await client.aclose()
        return "ok"
    return "ok"  # memory:// lives in this process


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready to take traffic: the store and the bus both answer. 503 (with which failed) otherwise."""
    checks: dict[str, str] = {}
    for name, check in (("store", _check_store), ("bus", _check_bus)):
        try:
            await asyncio.wait_for(check(request), READY_TIMEOUT_S)
            checks[name] = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
            checks[name] = f"unreachable: {type(exc).__name__}"
            log.warning("readiness check %s failed: %r", name, exc)
    ok = all(v == "ok" for v in checks.values())
    return JSONResponse({"status": "ready" if ok else "unavailable", "checks": checks}, status_code=200 if ok else 503)
