"""The app's services, typed: what `create_app`'s lifespan makes (settings, store engine, rules,
match writer, listings, presence, clocks, tournament writer and flow, metrics), what the watch
router's lifespan adds (the watch core and its websockets front), and the few per-app caches made
on first use (rate budget, token cache, desk throttle, tournament list, open table sockets).

One `Services` object per lifespan lives on `app.state.services`; read it with `services_of(app)`
(or `hub.api.deps.services(request)` in a route). Another TestClient's start on the same app
replaces it, so each lifespan's services and caches are its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine

from hub.settings import Settings

if TYPE_CHECKING:
    from hub.guards.rate import LocalTableRate, RedisTableRate, TokenCache
    from hub.guards.throttle import Guard, Policies
    from hub.matches.clocks import ClockService
    from hub.matches.listings import Listings
    from hub.matches.presence import Presence
    from hub.matches.tablet_links import TabletLinks
    from hub.matches.writer import MatchWriter
    from hub.ops.metrics import Metrics
    from hub.people.keeper import PeopleKeeper
    from hub.ratings.keeper import RatingsKeeper
    from hub.registration.check_in_clock import CheckInClock
    from hub.registration.registrar import Registrar
    from hub.rules.interface import MatchRules
    from hub.series.keeper import SeriesKeeper
    from hub.tournaments.exports import ExportCache
    from hub.tournaments.flow import TournamentFlow
    from hub.tournaments.summary import TournamentList
    from hub.tournaments.writer import TournamentWriter
    from hub.watch.core import WatchCore
    from hub.watch.server import WatchServer
    from hub.webhooks.service import Webhooks


@dataclass(slots=True, eq=False)
class Services:
    """Everything a route, socket or front needs from the running app. The wiring fields are set
    once by the lifespans; only the caches below them change afterwards."""

    settings: Settings
    engine: AsyncEngine
    rules: MatchRules
    admin_hash: str
    metrics: Metrics
    writer: MatchWriter
    listings: Listings
    presence: Presence
    clocks: ClockService
    tournaments: TournamentWriter
    flow: TournamentFlow
    # Tests slow the desk's sign-in and pairing throttles down to fit in a test (create_app's argument).
    throttle_policies: Policies | None = None
    # People across events: the listener that keeps their read models (hub/people/keeper.py).
    people: PeopleKeeper | None = None
    # Sign-up and check-in (PROTOCOL.md section 14): the registration streams and the check-in's close.
    registration: Registrar | None = None
    check_in_clock: CheckInClock | None = None
    # Ratings (PROTOCOL.md section 13): the listener that refits them (hub/ratings/keeper.py).
    ratings: RatingsKeeper | None = None
    # Series: the listener that keeps their standings (hub/series/keeper.py).
    series: SeriesKeeper | None = None
    # Webhooks (PROTOCOL.md section 16): hub/webhooks/service.py.
    webhooks: Webhooks | None = None
    tablet_links: TabletLinks | None = None  # every tablet of every table, for the desk
    # The watch side (hub/watch/asgi_front.py's lifespan): the core, its websockets front, and that
    # front again when it also listens on HUB_WATCH_PORT.
    watch: WatchCore | None = None
    watch_front: WatchServer | None = None
    watch_server: WatchServer | None = None
    # Made on first use.
    table_rate: RedisTableRate | LocalTableRate | None = None
    token_cache: TokenCache | None = None
    desk_guard: Guard | None = None
    tournament_list: TournamentList | None = None
    exports: ExportCache | None = None  # the tournaments' exports, per version (hub/tournaments/exports.py)
    # Open table sockets by table id: closers keyed by id(closer) (hub/guards/access.py).
    table_sessions: dict[str, dict[int, Callable[[int], None]]] = field(default_factory=dict)


def services_of(app: Any) -> Services:
    """The running app's services (raises AttributeError before its lifespan has started)."""
    services: Services = app.state.services
    return services
