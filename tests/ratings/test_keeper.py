"""hub/ratings/keeper.py, store.py and rebuild.py: ratings follow finished matches within seconds,
merges at the sweep, and `cuehub ratings rebuild` makes the same rows again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from services import wait_until
from spine_helpers import admin

from hub.app import create_app
from hub.ratings import keeper as keeper_module
from hub.ratings.fit import Rating
from hub.ratings.keeper import RatingsKeeper
from hub.ratings.rebuild import rebuild
from hub.ratings.store import ranked
from hub.settings import Settings
from hub.store.schema import ratings, ratings_heads
from tests.people.test_api import Event


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def rating(c: TestClient, person: str) -> dict[str, Any] | None:
    return c.get(f"/api/people/{person}").json()["ratings"].get("wpa_nine")  # type: ignore[no-any-return]


def rows(c: TestClient) -> list[Any]:
    async def run() -> list[Any]:
        async with c.app.state.services.engine.connect() as conn:  # type: ignore[attr-defined]
            return list(await conn.execute(ratings.select().order_by(ratings.c.position)))

    return c.portal.call(run)


def store(c: TestClient, *statements: Any) -> None:
    async def run() -> None:
        async with c.app.state.services.engine.begin() as conn:  # type: ignore[attr-defined]
            for s in statements:
                await conn.execute(s)

    c.portal.call(run)


def test_a_finished_match_rates_its_players_and_merges_follow(c: TestClient) -> None:
    ev = Event(c, ["Alpha", "Beta"], tables=1)
    ev.draw()
    winner = wait_until(lambda: ev.entry("W1-1")["status"] == "called" and ev.entry("W1-1"))["players"][0]
    ev.play("W1-1", winner)
    won = next(p["person"] for p in ev.players.values() if p["id"] == winner)
    lost = next(p["person"] for p in ev.players.values() if p["id"] != winner)
    got = wait_until(lambda: rating(c, won), what="the winner's rating")
    assert got["racks"] == 2 and got["provisional"] is True and got["value"] > 500
    assert rating(c, lost)["value"] == 1000 - got["value"]  # type: ignore[index]
    # the winner merged into someone new: the rating is theirs at the next sweep
    (other,) = c.post("/api/people", json={"name": "Alpha Again"}, headers=admin()).json()["people"]
    assert c.post(f"/api/people/{won}/merge", json={"into": other["id"]}, headers=admin()).status_code == 200
    keeper = c.app.state.services.ratings  # type: ignore[attr-defined]
    assert c.portal.call(keeper.sweep) == 1
    assert wait_until(lambda: rating(c, other["id"]), what="the merged rating") == got
    assert c.portal.call(keeper.sweep) == 0  # nothing stale any more


def test_rebuild_makes_the_same_rows(c: TestClient) -> None:
    ev = Event(c, ["Alpha", "Beta", "Gamma", "Delta"], tables=2)
    ev.draw()
    for key in ("W1-1", "W1-2"):
        e = wait_until(lambda key=key: ev.entry(key)["status"] == "called" and ev.entry(key), what=key)
        ev.play(key, e["players"][0])
    keeper = c.app.state.services.ratings  # type: ignore[attr-defined]
    wait_until(lambda: len(rows(c)) == 4, what="four rated")
    c.portal.call(keeper.idle)
    before = [tuple(r) for r in rows(c)]
    store(c, ratings.delete(), ratings_heads.delete())
    assert rows(c) == []
    report = c.portal.call(rebuild, c.app.state.services.engine)  # type: ignore[attr-defined]
    assert report["disciplines"] == 1
    assert [tuple(r) for r in rows(c)] == before


def test_a_big_stores_refit_decodes_and_fits_in_the_worker_process(c: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Past IN_PROCESS_ROWS matches the decoding and the tally go with the fit to the worker process
    (in a thread they would hold the interpreter's lock against the tables): the same rows."""
    from hub.ratings import keeper as keeper_module

    ev = Event(c, ["Alpha", "Beta", "Gamma", "Delta"], tables=2)
    ev.draw()
    for key in ("W1-1", "W1-2"):
        e = wait_until(lambda key=key: ev.entry(key)["status"] == "called" and ev.entry(key), what=key)
        ev.play(key, e["players"][0])
    keeper = c.app.state.services.ratings  # type: ignore[attr-defined]
    wait_until(lambda: len(rows(c)) == 4, what="four rated")
    c.portal.call(keeper.idle)
    before = [tuple(r) for r in rows(c)]
    assert keeper._pool is None  # two matches: decoded and fitted in a thread
    monkeypatch.setattr(keeper_module, "IN_PROCESS_ROWS", 1)
    assert c.portal.call(lambda: keeper.refresh("wpa_nine", force=True)) is True
    assert keeper._pool is not None
    assert [tuple(r) for r in rows(c)] == before


def test_ranked_puts_provisional_after_and_shares_ranks() -> None:
    fitted = {"a": Rating(600, 200, False, 600.2), "b": Rating(700, 50, True, 700.0),
              "c": Rating(600, 300, False, 599.9), "d": Rating(550, 120, False, 550.0)}
    order = ranked(fitted)
    assert [(p, rank) for p, _, rank in order] == [("a", 1), ("c", 1), ("d", 3), ("b", 4)]


def test_a_discipline_due_again_during_a_refit_waits_for_the_people_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match finished while a refit runs is due again; its history may not be written yet, so the
    next refit waits for the people keeper again (else it saw nothing new and slept until the sweep)."""

    monkeypatch.setattr(keeper_module, "SETTLE_S", 0.0)
    steps: list[str] = []

    class People:
        async def idle(self) -> None:
            steps.append("people idle")

    async def run() -> None:
        keeper = RatingsKeeper(engine=None, people=People())  # type: ignore[arg-type]

        async def refresh(discipline: str, *, force: bool = False) -> bool:
            steps.append(f"refit {discipline}")
            if steps.count(f"refit {discipline}") == 1:
                keeper.due(discipline)  # the second match finished meanwhile
            return True

        keeper.refresh = refresh  # type: ignore[method-assign]
        keeper.due("wpa_nine")
        await keeper._drain()

    asyncio.run(run())
    assert steps == ["people idle", "refit wpa_nine", "people idle", "refit wpa_nine"]
