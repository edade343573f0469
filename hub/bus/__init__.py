"""The bus between hub processes: one tiny interface, backends chosen by URL.

    bus = make_bus("memory://" | "redis://host:port/db?channel=name")
    await bus.start(handler)   # handler(payload: bytes | None), called in publish order
    bus.publish(payload)       # never blocks: local handlers now, other processes soon
    await bus.close()

Every process's handler sees every payload published by any process (its own included, delivered
locally without a round trip), in the order each publisher published them. `handler(None)` means
"payloads may have been lost (the connection to the broker dropped and came back): resync from the
store". Payloads are opaque bytes; hub/realtime/wire.py defines their shape.
"""

from __future__ import annotations

from typing import Callable, Protocol

Handler = Callable[[bytes | None], None]


class Bus(Protocol):
    async def start(self, handler: Handler) -> None: ...

    def publish(self, payload: bytes) -> None: ...

    async def close(self) -> None: ...


def make_bus(url: str) -> Bus:
    scheme = url.split(":", 1)[0].lower()
    if scheme == "memory":
        from hub.bus.memory import MemoryBus

        return MemoryBus()
    if scheme in ("redis", "rediss", "unix"):
        from hub.bus.redis_bus import RedisBus

        return RedisBus(url)
    raise ValueError(f"unknown bus URL {url!r} (memory:// or redis://host:port/db)")
