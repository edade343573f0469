"""The bus between hub processes: one tiny interface, backends chosen by URL.

    bus = make_bus("memory://" | "redis://host:port/db?channel=name", deployment=None, heartbeat_s=1.0)
    bus = bus_for(settings)      # the same, from HUB_BUS_URL, HUB_DEPLOYMENT, HUB_BUS_HEARTBEAT_S
    await bus.start(handler)   # handler(payload: bytes | None), called in publish order
    bus.publish(payload)       # never blocks: local handlers now, other processes soon
    await bus.close()

Every process's handler sees every payload published by any process (its own included, delivered
locally without a round trip), in the order each publisher published them. `handler(None)` means
"payloads may have been lost (the connection to the broker dropped and came back): resync from the
store". Payloads are opaque bytes; hub/wire/bus.py defines their shape.

A bus may also offer `health() -> str | None` (None: its live subscription is healthy; else why
not), which `/readyz` reports; redis_bus.py documents its heartbeat and channel naming.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Handler = Callable[[bytes | None], None]


class Bus(Protocol):
    async def start(self, handler: Handler) -> None: ...

    def publish(self, payload: bytes) -> None: ...

    async def close(self) -> None: ...


def bus_for(settings: Any) -> Bus:
    """The bus the settings name (HUB_BUS_URL, HUB_DEPLOYMENT, HUB_BUS_HEARTBEAT_S)."""
    return make_bus(settings.bus_url, deployment=settings.deployment, heartbeat_s=settings.bus_heartbeat_s)


def make_bus(url: str, *, deployment: str | None = None, heartbeat_s: float = 1.0) -> Bus:
    scheme = url.split(":", 1)[0].lower()
    if scheme == "memory":
        from hub.bus.memory import MemoryBus

        return MemoryBus()
    if scheme in ("redis", "rediss", "unix"):
        from hub.bus.redis_bus import RedisBus

        return RedisBus(url, deployment=deployment, heartbeat_s=heartbeat_s)
    raise ValueError(f"unknown bus URL {url!r} (memory:// or redis://host:port/db)")
