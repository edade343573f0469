"""memory://: one process, no broker. publish() hands the payload to the handler at once."""

from __future__ import annotations

import logging

from hub.bus import Handler

log = logging.getLogger(__name__)


class MemoryBus:
    def __init__(self) -> None:
        self._handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler

    def publish(self, payload: bytes) -> None:
        if self._handler is not None:
            try:
                self._handler(payload)
            except Exception:
                log.exception("bus handler failed")

    async def close(self) -> None:
        self._handler = None
