"""What runs around the matches and the draws, started after the tournament flow and stopped
before it: sign-up with its check-in clock (PROTOCOL.md section 14), webhooks and the tablets'
links (section 16), and the read models across events kept by listeners (people, ratings and
series: sections 12 and 13; `HUB_PEOPLE_KEEPER` turns the listeners off, e.g. for a bench).

Each part is started in order and its stop pushed on the caller's exit stack, so whatever started
is stopped (in reverse order) however the lifespan ends.
"""

from __future__ import annotations

from contextlib import AsyncExitStack

from hub.matches.tablet_links import TabletLinks
from hub.registration.check_in_clock import CheckInClock
from hub.registration.registrar import Registrar
from hub.series.keeper import SeriesKeeper
from hub.services import Services
from hub.webhooks.service import Webhooks
from hub.webhooks.sources import Sources


async def start(stack: AsyncExitStack, services: Services) -> None:
    engine, flow, tournaments = services.engine, services.flow, services.tournaments
    registrar = services.registration = Registrar(engine, tournaments)
    registrar.start()
    stack.push_async_callback(registrar.stop)
    check_in = services.check_in_clock = CheckInClock(registrar, closed=flow.kick)
    await check_in.start()
    stack.push_async_callback(check_in.stop)
    hooks = services.webhooks = Webhooks(engine)
    links = services.tablet_links = TabletLinks(engine, services.presence)
    await links.start()
    stack.push_async_callback(links.stop)
    sources = Sources(hooks)
    sources.attach(services.writer, tournaments)
    await hooks.start()
    stack.push_async_callback(hooks.stop)
    stack.callback(sources.detach)
    series = services.series = SeriesKeeper(engine, tournaments)
    stack.push_async_callback(series.stop)
    if services.people is not None:
        stack.push_async_callback(services.people.stop)
    if services.ratings is not None:
        stack.push_async_callback(services.ratings.stop)
    if services.settings.people_keeper:
        if services.people is not None:
            services.people.start(services.writer, tournaments)
        if services.ratings is not None:
            services.ratings.start(services.writer)
        series.start()
