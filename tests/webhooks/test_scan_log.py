"""The webhooks' scan loop logs a failure through the shared bounded line (hub/store/outage.py
`log_failure`): the store away gives a short warning a few times a minute, never a traceback a scan."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from hub.webhooks import service


class _Hook:
    id = "wh1"
    events = ("match.called",)


def test_a_store_outage_in_the_scan_is_a_bounded_short_line(monkeypatch: pytest.MonkeyPatch,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    scans = 0

    async def every(engine: Any) -> list[Any]:
        return [_Hook()]

    async def with_pending(engine: Any) -> list[str]:
        nonlocal scans
        scans += 1
        raise OperationalError("SELECT hook_id FROM webhook_deliveries", {}, ConnectionRefusedError("refused"))

    monkeypatch.setattr(service.store, "every", every)
    monkeypatch.setattr(service.store, "with_pending", with_pending)
    monkeypatch.setattr(service, "SCAN_S", 0.001)
    monkeypatch.setattr(service, "_LOG_BUDGET", service.LogBudget(lines=3, window_s=60.0))

    async def run() -> None:
        hooks = service.Webhooks(engine=None)  # type: ignore[arg-type]  # the store is the patched functions
        hooks._hooks = [_Hook()]
        task = asyncio.create_task(hooks._scan_loop())
        deadline = asyncio.get_running_loop().time() + 10
        while scans < 20:
            assert asyncio.get_running_loop().time() < deadline, scans
            await asyncio.sleep(0.005)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await hooks._client.aclose()

    with caplog.at_level(logging.WARNING, logger=service.__name__):
        asyncio.run(run())
    lines = [r for r in caplog.records if r.name == service.__name__]
    assert len(lines) == 3  # the budget: not one a scan
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in lines)
    assert lines[0].getMessage().startswith("webhooks: scan failed: OperationalError: ")
