"""`GET /api/config`: where the pages should watch (the watch socket itself: hub/watch/asgi_front.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from hub.api import models
from hub.services import services_of

router = APIRouter()


@router.get("/api/config", tags=["setup and reads"], response_model=None,
            responses=models.ok(models.WatchConfig, "Where the pages should watch."))
async def config(request: Request) -> dict[str, Any]:
    """Where the pages should watch: `watch_url` (a path on this host or a ws(s):// URL) or
    `watch_port` (the in-process gateway's port on this host); both null: /ws/watch here."""
    services = services_of(request.app)
    settings = services.settings
    server = services.watch_server
    return {"watch_url": settings.watch_url, "watch_port": server.port if server is not None else None}
