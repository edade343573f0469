"""Wiring: settings -> engine (migrated) -> admin token -> match writer -> routers.

`create_app(settings=None, rules=None, throttle_policies=None)` is the app factory; uvicorn uses
`hub.app:create_app` with `--factory`. While running, `app.state.services` holds the typed
`hub.services.Services`: settings, engine, rules, writer, admin_hash, metrics, presence (tablet
links), clocks, listings, tournaments (the tournament writer) and flow (the draw's dispatcher), and
watch (from the watch router's lifespan).

A missing piece fails here, loudly, before anything listens: every router is imported directly
(an import error is an error, not a hub without /ws/watch), and the pages, migrations and API
documentation assets must be installed (hub.ops.resources.MissingPiece). A bad HUB_* setting, when the
settings come from the environment, is one line on stderr and exit status 2.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncEngine

import hub
from hub import around, draws
from hub.api import (
    commands,
    corrections,
    disciplines,
    docs,
    draw_formats,
    errors,
    health,
    models,
    no_shows,
    pairing,
    people,
    ratings,
    registration,
    series,
    session,
    setup,
    table_tokens,
    tables,
    tablet_links,
    teams,
    tournament_exports,
    tournament_settings,
    tournaments,
    watch_config,
    webhooks,
)
from hub.api import table_socket as table
from hub.guards import access, peer, rate
from hub.guards.throttle import Policies
from hub.matches.clocks import ClockService
from hub.matches.instrumented import InstrumentedWriter
from hub.matches.listings import Listings
from hub.matches.presence import Presence
from hub.ops import metrics as hub_metrics
from hub.ops import pages
from hub.ops.heap import freeze_startup_heap
from hub.ops.logs import announce
from hub.people.history import History
from hub.people.keeper import PeopleKeeper
from hub.people.linking import complete_event
from hub.ratings.keeper import RatingsKeeper
from hub.rules.interface import MatchRules
from hub.services import Services
from hub.settings import Settings, SettingsError, exit_on_bad_settings
from hub.store import catalog
from hub.store.db import check_migrations, is_sqlite, make_engine, migrate
from hub.tournaments.flow import TournamentFlow
from hub.tournaments.writer import TournamentWriter
from hub.watch import asgi_front as watch

log = logging.getLogger(__name__)

DESCRIPTION = """The real-time scoring hub for billiards competitions (PROTOCOL.md).

Writes take `Authorization: Bearer <token>`: the admin token for setup, the table token for a
table's commands. Every error is `{"error": {"code", "message"}}`. The WebSockets
(`/ws/tables/{table_id}`, `/ws/watch`) are described in PROTOCOL.md section 2."""


def check_install() -> None:
    """Everything the hub serves from files is installed; MissingPiece (naming it) otherwise."""
    pages.check_files()
    check_migrations()
    docs.check_files()


def include_routers(app: FastAPI) -> None:
    """Every router of the hub, in the order their paths are matched."""
    for module in (health, hub_metrics, setup, disciplines, commands, tournaments, tournament_exports, draw_formats,
                   corrections, people, series, table, table_tokens,
                   teams,  # team matches' lineups: PROTOCOL.md section 15
                   registration,  # sign-up and check-in: PROTOCOL.md section 14
                   ratings,  # PROTOCOL.md section 13
                   session, pairing, tables,  # the desk: PROTOCOL.md section 8
                   tournament_settings, no_shows, webhooks, tablet_links,  # PROTOCOL.md section 16
                   docs, pages, watch_config, watch):
        app.include_router(module.router)


async def _admin_hash(engine: AsyncEngine, settings: Settings) -> str:
    admin_hash, generated = await catalog.ensure_admin_token(engine, settings.admin_token)
    if generated:
        # Printed this once; only its hash is stored.
        announce(f"cuehub admin token (shown once, keep it): {generated}",
                 json_format=settings.log_format == "json", logger="hub.app")
    return admin_hash


def create_app(settings: Settings | None = None, *, rules: MatchRules | None = None,
               throttle_policies: Policies | None = None) -> FastAPI:
    if settings is None:
        try:
            settings = Settings.from_env()
        except SettingsError as exc:  # e.g. `uvicorn --factory hub.app:create_app` with HUB_PORT=abc
            exit_on_bad_settings(exc)
    check_install()
    # One per app, not per lifespan: counts survive a second TestClient on the same app.
    metrics = hub_metrics.Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings)
        if settings.auto_migrate or is_sqlite(engine):
            await migrate(engine)
        admin_hash = await _admin_hash(engine, settings)
        rules_module = rules or importlib.import_module("hub.rules")
        # Locals, not app.state, in the finally: several TestClients may share one app, and each
        # lifespan must stop what it started (not the next one's services on a closed loop).
        writer = InstrumentedWriter(engine, rules_module, metrics=metrics)
        # Refusals remembered within bounds: HUB_REFUSALS_PER_MATCH, HUB_REFUSAL_TTL_S.
        writer.cache.refusals_per_match = settings.refusals_per_match
        writer.cache.refusal_ttl_ms = int(settings.refusal_ttl_s * 1000)
        # Matches in memory, finished ones among them: HUB_MATCH_CACHE, HUB_FINISHED_MATCH_CACHE.
        writer.cache.max_live, writer.cache.max_finished = settings.match_cache, settings.finished_match_cache
        listings = Listings(engine, rules_module, writer)
        # Tablet presence first: the clocks ask it before any time foul (hub/matches/presence.py).
        presence = Presence(engine, writer)
        await presence.start()
        clocks = ClockService(writer, engine, presence=presence, grace_s=settings.tablet_grace_s)
        await clocks.start()
        # Entries are linked to people in the transaction that stores them (hub/people/linking.py).
        tournament_writer = TournamentWriter(engine, draws, completer=complete_event)
        flow = TournamentFlow(engine, writer, tournament_writer, draws)
        keeper = PeopleKeeper(engine, History(engine, rules_module, tournament_writer))
        ratings_keeper = RatingsKeeper(engine, keeper)  # refits off the loop (hub/ratings/keeper.py)
        services = app.state.services = Services(
            settings=settings, engine=engine, rules=rules_module, admin_hash=admin_hash, metrics=metrics,
            writer=writer, listings=listings, presence=presence, clocks=clocks, tournaments=tournament_writer,
            flow=flow, throttle_policies=throttle_policies, people=keeper,
        )
        services.ratings = ratings_keeper
        await flow.start()
        try:
            async with AsyncExitStack() as around_stack:
                await around.start(around_stack, services)  # sign-up, webhooks, tablets, read models
                freeze_startup_heap()
                yield
        finally:
            await flow.stop()
            await clocks.stop()
            listings.close()
            await presence.stop()
            await rate.close_rate(services)
            await engine.dispose()

    app = FastAPI(
        title="cuehub", version=hub.__version__, description=DESCRIPTION, lifespan=lifespan,
        docs_url=None, redoc_url=None,  # hub/api/docs.py serves both from the package's own files
        separate_input_output_schemas=False,
    )
    errors.install(app)
    models.install(app)
    include_routers(app)
    access.install_cors(app, settings)
    # Outermost: every route, CORS included, sees the client a trusted proxy forwarded for.
    app.add_middleware(peer.ForwardedHeaders, trusted=settings.trusted_proxies)
    return app
