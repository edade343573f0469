"""Prometheus metrics on `prometheus_client`: the hub's metrics and `/metrics`.

One `Metrics` object per app (`services_of(app).metrics`; `create_app` makes it) with its own
`CollectorRegistry`, so two apps in one test process do not share counts. Besides the hub's own
metrics (docs/operations.md, "Production", documents each one) the registry carries prometheus_client's
standard process (`process_*`: CPU, memory, open file descriptors), garbage-collector
(`python_gc_*`) and platform (`python_info`) collectors.

Other parts of the hub reach the metrics with `metrics_of(x)`, where `x` is the app, a request or
websocket, or the writer; when none is wired it answers a no-op object, so a hook can never break
the caller:

    from hub.ops.metrics import metrics_of
    m = metrics_of(ws)                        # watch gateway
    m.watcher_connected(); ... m.watcher_disconnected()
    m.fanout_observed(seconds)                # stored event -> bytes handed to a watcher socket
    m.slow_watcher("snapshot" | "closed")     # a watcher that could not keep up
    m.clock_fired(kind, stored: bool)         # clocks; the writer already counts server commands

Each metric attribute (`m.watchers`, `m.watch_writes`, ...) keeps the small interface the rest
of the hub uses: `inc(amount=1, **labels)`, `dec`, `set`, `observe`, and for tests `value(**labels)`
and `count(**labels)`.

Command counts, ack latency and clock firings are measured by `InstrumentedWriter`
(hub/matches/instrumented.py), a `MatchWriter` whose `submit` is timed.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

import prometheus_client
from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CollectorRegistry, GCCollector, PlatformCollector, ProcessCollector

# The text exposition format generate_latest() writes (what promtool and Prometheus read).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# No `*_created` series beside every counter and histogram: they double the exposition and no
# query of ours uses them (process_start_time_seconds says when the counters started).
prometheus_client.disable_created_metrics()

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


class _Metric:
    """One prometheus_client metric behind the hub's small interface."""

    def __init__(self, name: str, metric: Any, registry: CollectorRegistry, sample: str) -> None:
        self.name = name
        self._metric = metric
        self._registry = registry
        self._sample = sample  # the sample name value()/count() read back

    def _child(self, labels: Mapping[str, str]) -> Any:
        return self._metric.labels(**labels) if labels else self._metric

    def value(self, **labels: str) -> float:
        """The current value of one series (0 when it has none yet)."""
        return self._registry.get_sample_value(self._sample, dict(labels)) or 0.0


class Counter(_Metric):
    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = (), *, registry: CollectorRegistry,
                 initial: Iterable[Mapping[str, str]] = ()) -> None:
        metric = prometheus_client.Counter(name, help_, tuple(labelnames), registry=registry)
        base = name.removesuffix("_total")
        super().__init__(base, metric, registry, base + "_total")
        for labels in initial:  # series that should read 0 before anything happened
            metric.labels(**labels)

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        self._child(labels).inc(amount)


class Gauge(_Metric):
    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = (), *, registry: CollectorRegistry) -> None:
        metric = prometheus_client.Gauge(name, help_, tuple(labelnames), registry=registry)
        super().__init__(name, metric, registry, name)

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        self._child(labels).inc(amount)

    def dec(self, amount: float = 1.0, **labels: str) -> None:
        self._child(labels).dec(amount)

    def set(self, value: float, **labels: str) -> None:
        self._child(labels).set(value)

    def set_function(self, fn: Any) -> None:
        """The value is `fn()` at each scrape."""
        self._metric.set_function(fn)


class Histogram(_Metric):
    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = (), *, registry: CollectorRegistry,
                 buckets: Iterable[float] = LATENCY_BUCKETS) -> None:
        metric = prometheus_client.Histogram(name, help_, tuple(labelnames), registry=registry, buckets=tuple(buckets))
        super().__init__(name, metric, registry, name + "_count")

    def observe(self, value: float, **labels: str) -> None:
        self._child(labels).observe(value)

    def count(self, **labels: str) -> int:
        return int(self.value(**labels))


class Metrics:
    """Every metric the hub exposes (docs/operations.md, "Production", documents each one)."""

    def __init__(self, *, standard: bool = True) -> None:
        self.registry = reg = CollectorRegistry(auto_describe=True)
        if standard:
            ProcessCollector(registry=reg)
            GCCollector(registry=reg)
            PlatformCollector(registry=reg)
        self.commands_accepted = Counter(
            "cuehub_commands_accepted_total",
            "Commands acknowledged (event stored), by command kind and source (table or server).",
            ("kind", "source"), registry=reg,
        )
        self.commands_rejected = Counter(
            "cuehub_commands_rejected_total",
            "Commands rejected, by reject code and source (table or server).",
            ("code", "source"), registry=reg,
        )
        self.ack_seconds = Histogram(
            "cuehub_command_ack_seconds",
            "Time from a command reaching the match writer to its ack or reject (lock wait, rules, commit).",
            ("source",), registry=reg,
        )
        self.command_errors = Counter(
            "cuehub_command_errors_total",
            "Commands that failed with a database error (answered 503 or socket close 1011).", registry=reg,
        )
        self.watchers = Gauge("cuehub_watchers_connected", "Open /ws/watch sockets on this process.", registry=reg)
        self.table_sockets = Gauge("cuehub_table_sockets_connected",
                                   "Open, authenticated /ws/tables sockets on this process.", registry=reg)
        self.fanout_seconds = Histogram(
            "cuehub_fanout_seconds",
            "Time from an event being stored to its update being handed to a watcher socket.", registry=reg,
        )
        self.watch_writes = Counter(
            "cuehub_watch_writes_total",
            "Socket writes by the watch gateway's websockets server; each carries one or more messages.", registry=reg,
        )
        self.watch_frames = Counter(
            "cuehub_watch_messages_total",
            "Messages written to watchers by the watch gateway's websockets server"
            " (over writes: how many share a write).",
            registry=reg,
        )
        self.watch_held_rounds = Counter(
            "cuehub_watch_held_rounds_total",
            "Rounds of writes the watch gateway's websockets server held back so that more messages share"
            " them, because the event loop was behind (hub/watch/lag.py).",
            registry=reg,
        )
        self.slow_watchers = Counter(
            "cuehub_watchers_dropped_total",
            "Watchers that could not keep up: sent a fresh snapshot instead of updates, or closed (4408).",
            ("action",), registry=reg, initial=({"action": "snapshot"}, {"action": "closed"}),
        )
        self.clock_firings = Counter(
            "cuehub_clock_firings_total",
            "Server-made clock events submitted by this process: stored, or superseded (a stroke or "
            "another process got there first).",
            ("kind", "outcome"), registry=reg,
            initial=[{"kind": k, "outcome": o} for k in ("clock_expired", "match_time_expired")
                     for o in ("stored", "superseded")],
        )
        self.bus_resyncs = Counter(
            "cuehub_bus_resyncs_total",
            "Rereads from the store because bus messages may have been lost: cause silence (the "
            "subscription's heartbeat went unanswered), reconnect (a new subscription after a lost "
            "one), gap (one match's versions skipped; counted per match).",
            ("cause",), registry=reg, initial=({"cause": "silence"}, {"cause": "reconnect"}, {"cause": "gap"}),
        )
        self.bus_up = Gauge(
            "cuehub_bus_subscription_up",
            "1 while this process's bus subscription is up and heard from within 3 heartbeats, else 0 "
            "(memory:// is always 1).", registry=reg,
        )
        self.bus_up.set(1)
        self.started = time.time()
        self.start_time = Gauge(
            "cuehub_process_start_time_seconds", "Unix time this hub process started.", registry=reg
        )
        self.start_time.set(self.started)

    def render(self) -> str:
        """The registry in the text exposition format (CONTENT_TYPE)."""
        return prometheus_client.generate_latest(self.registry).decode("utf-8")

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


# What `metrics_of` answers when no metrics are wired: a registry of its own that nothing exposes,
# so every call works and nothing it counts is ever seen.
NULL = Metrics(standard=False)


def metrics_of(holder: Any) -> Metrics:
    """The Metrics of an app, request, websocket, app.state, services or writer; a no-op one when none."""
    for path in (("metrics",), ("services", "metrics"), ("state", "services", "metrics"),
                 ("app", "state", "services", "metrics")):
        obj = holder
        try:
            for name in path:
                obj = getattr(obj, name)
        except AttributeError:
            continue
        if isinstance(obj, Metrics):
            return obj
    return NULL


# --- the endpoint ---------------------------------------------------------------------------------

router = APIRouter()


@router.get("/metrics", tags=["operations"], response_class=PlainTextResponse, responses={
    200: {"description": "This process's metrics, Prometheus text format 0.0.4 (docs/operations.md, \"Production\")."}})
async def metrics_endpoint(request: Request) -> Response:
    return Response(metrics_of(request).render(), media_type=CONTENT_TYPE)
