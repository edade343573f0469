"""Wiring: settings -> engine (migrated) -> admin token -> match writer -> routers.

`create_app(settings=None, rules=None)` is the app factory; uvicorn uses `hub.app:create_app`
with `--factory`. While running, `app.state` holds: settings, engine, rules, writer, admin_hash, clocks.
"""

from __future__ import annotations

import importlib
import logging
from contextlib import asynccontextmanager
from types import ModuleType
from typing import AsyncIterator

from fastapi import FastAPI

from hub.api import access, commands, errors, health, setup
from hub import metrics as hub_metrics
from hub.clocks import ClockService
from hub.heap import freeze_startup_heap
from hub.realtime import table
from hub.settings import Settings
from hub.store import catalog
from hub.store.db import is_sqlite, make_engine, migrate

log = logging.getLogger(__name__)


def _optional_router(module: str) -> object | None:
    """Routers owned by other parts of the hub (pages, watch); absent ones are skipped."""
    try:
        return importlib.import_module(module).router
    except ImportError:
        return None


def create_app(settings: Settings | None = None, *, rules: ModuleType | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings)
        if settings.auto_migrate or is_sqlite(engine):
            await migrate(engine)
        admin_hash, generated = await catalog.ensure_admin_token(engine, settings.admin_token)
        if generated:
            # Printed this once; only its hash is stored.
            print(f"cuehub admin token (shown once, keep it): {generated}", flush=True)
        rules_module = rules or importlib.import_module("hub.rules")
        app.state.settings = settings
        app.state.engine = engine
        app.state.rules = rules_module
        app.state.admin_hash = admin_hash
        app.state.writer = hub_metrics.InstrumentedWriter(engine, rules_module, metrics=app.state.metrics)
        app.state.clocks = ClockService(app.state.writer, engine)
        await app.state.clocks.start()
        freeze_startup_heap()
        try:
            yield
        finally:
            await app.state.clocks.stop()
            await engine.dispose()

    app = FastAPI(title="cuehub", lifespan=lifespan)
    app.state.metrics = hub_metrics.Metrics()
    errors.install(app)
    app.include_router(health.router)
    app.include_router(hub_metrics.router)
    app.include_router(setup.router)
    app.include_router(commands.router)
    app.include_router(table.router)
    app.include_router(access.router)
    access.install_cors(app, settings)
    for module in ("hub.pages", "hub.realtime.watch"):
        router = _optional_router(module)
        if router is not None:
            app.include_router(router)  # type: ignore[arg-type]
    return app
