"""hub/ratings/store.py and the keeper's refresh on SQLite and PostgreSQL: racks read from people's
history resolved to people (merges followed, walkovers and self-racks left out), the rows written in
the list's order, the fingerprint, a merge moving racks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from hub.people import directory
from hub.ratings import store
from hub.ratings.fit import fit
from hub.ratings.keeper import RatingsKeeper
from hub.settings import Settings
from hub.store import catalog
from hub.store.db import make_engine, migrate
from hub.store.schema import history_matches, people, people_entries


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest) -> Settings:
    return request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")


def _match(ref: str, tid: str, racks: list[list[Any]], *, walkover: bool = False) -> dict[str, Any]:
    return {"ref": ref, "tournament_id": tid, "match_id": ref, "draw_key": None, "round": None,
            "discipline": "wpa_nine", "at": 1000, "entered": False, "walkover": walkover, "version": 3,
            "winner": None, "players": [], "racks": racks}


async def scenario(settings: Settings) -> dict[str, Any]:
    engine = make_engine(settings)
    try:
        await migrate(engine)
        tid = (await catalog.create_tournament(engine, "Open"))["id"]
        a, b, c = (p["id"] for p in await directory.create(engine, [
            {"name": n, "club": None, "aliases": []} for n in ("A", "B", "C")]))
        async with engine.begin() as conn:
            await conn.execute(people_entries.insert(), [
                {"tournament_id": tid, "player_id": pid, "person_id": person, "link": "linked", "version": 1,
                 "name": pid} for pid, person in (("p1", a), ("p2", b), ("p3", c), ("p4", a))])
            await conn.execute(history_matches.insert(), [
                _match("m1", tid, [["p1", "p2", 5], ["p2", "p1", 2]]),
                _match("m2", tid, [["p3", "p1", 4], ["p1", "p3", 1], ["p1", "p4", 3]]),  # p1 v p4: both A
                _match("w1", tid, [["p2", "p3", 9]], walkover=True)])
        async with engine.connect() as conn:
            racks = sorted(store.decode(*(await store.raw_racks(conn, "wpa_nine"))))
            before = await store.fingerprints(conn)
        keeper = RatingsKeeper(engine)
        assert await keeper.refresh("wpa_nine") is True
        assert await keeper.refresh("wpa_nine") is False  # nothing changed since
        async with engine.connect() as conn:
            listed = [(r.person_id, r.value, r.rank) for r in await store.page(conn, "wpa_nine", 0, 10)]
            mine = await store.of_people(conn, [a])
        # B merged into C: B's racks are C's at the next refresh
        async with engine.begin() as conn:
            await conn.execute(people.update().where(people.c.id == b).values(merged_into=c))
        async with engine.connect() as conn:
            after = await store.fingerprints(conn)
        assert await keeper.refresh("wpa_nine") is True
        async with engine.connect() as conn:
            merged = {r.person_id for r in await conn.execute(sa.select(store.ratings.c.person_id))}
        await keeper.stop()
        return {"ids": (a, b, c), "racks": racks, "listed": listed, "mine": mine, "before": before, "after": after,
                "merged": merged}
    finally:
        await engine.dispose()


def test_racks_rows_and_merges(settings: Settings) -> None:
    got = asyncio.run(scenario(settings))
    a, b, c = got["ids"]
    assert got["racks"] == sorted([(a, b, 5), (b, a, 2), (c, a, 4), (a, c, 1)])  # no walkover, no A v A
    want = fit(got["racks"])
    order = sorted(want, key=lambda p: -want[p].exact)
    assert [p for p, _, _ in got["listed"]] == order
    assert [v for _, v, _ in got["listed"]] == [want[p].value for p in order]
    assert got["mine"] == {a: {"wpa_nine": {"value": want[a].value, "racks": 12, "provisional": True}}}
    assert got["before"] != got["after"]  # a merge moves the fingerprint
    assert got["merged"] == {a, c}
