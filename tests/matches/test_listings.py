"""hub/matches/listings.py: GET /api/matches and GET /api/tournaments/{tid} in a constant number of
statements (counted with a SQLAlchemy event listener), the same answers as the per-match reads,
a cached listing that a change in this process drops at once and another process's change
reaches within LISTING_TTL_S, and 304 for a client that has it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from spine_helpers import ADMIN, admin, bearer, envelope

from hub.app import create_app
from hub.matches.listings import LISTING_TTL_S
from hub.settings import Settings


@contextmanager
def statements(app: Any) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:  # noqa: ANN001
        if not statement.lstrip().upper().startswith(("PRAGMA", "BEGIN", "COMMIT", "ROLLBACK")):
            seen.append(statement)

    engine = app.state.services.engine.sync_engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def populate(c: TestClient, n: int) -> str:
    """A tournament with n tables and a match on each (every third one started, one finished)."""
    tid = c.post("/api/tournaments", json={"name": f"T{n}"}, headers=admin()).json()["id"]
    for i in range(n):
        tb = c.post(f"/api/tournaments/{tid}/tables", json={"name": f"Table {i}"}, headers=admin()).json()
        m = c.post("/api/matches", headers=admin(), json={
            "tournament_id": tid, "table_id": tb["id"], "discipline": "wpa_nine",
            "players": [{"id": "a", "name": f"A{i}"}, {"id": "b", "name": f"B{i}"}], "format": {"race_to": 3}}).json()
        if i % 3 == 0:
            post = c.post(f"/api/matches/{m['id']}/commands", headers=bearer(tb["token"]),
                          json=envelope(m["id"], {"kind": "start", "breaker": "a"}))
            assert post.status_code == 200, post.text
        if i == 3:  # started above: forfeiting finishes it
            post = c.post(f"/api/matches/{m['id']}/commands", headers=bearer(tb["token"]),
                          json=envelope(m["id"], {"kind": "penalty", "player": "b", "type": "forfeit_match"}))
            assert post.status_code == 200, post.text
    return tid


def per_match_reads(c: TestClient, status: str | None) -> list[dict[str, Any]]:
    """What the listing answered before hub/matches/listings.py: the writer's short form of every row."""
    from hub.store import catalog

    async def run() -> list[dict[str, Any]]:
        rows = await catalog.list_matches(c.app.state.services.engine, status=status)
        return [await c.app.state.services.writer.short_projection(r.id) for r in rows]

    return c.portal.call(run)  # type: ignore[union-attr]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "hub.db"


def app_on(db: Path) -> TestClient:
    # The statements counted are the listings' own: no people keeper refreshing in the background.
    return TestClient(create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", admin_token=ADMIN,
                                          people_keeper=False)))


@pytest.mark.parametrize("n", [5, 40])
def test_a_cold_listing_is_three_statements_whatever_the_number_of_matches(db: Path, n: int) -> None:
    with app_on(db) as c:
        tid = populate(c, n)
    with app_on(db) as c:  # a fresh process: nothing in memory, every match is folded from the store
        with statements(c.app) as seen:
            r = c.get("/api/matches")
        assert r.status_code == 200 and len(r.json()["matches"]) == n
        assert len(seen) == 3, "\n---\n".join(seen)  # the heads, the setups of the unknown ones, their events
        assert r.json()["matches"] == per_match_reads(c, None)
        with statements(c.app) as seen:
            t = c.get(f"/api/tournaments/{tid}")
        assert t.status_code == 200 and len(t.json()["tables"]) == n
        assert len(seen) <= 4, seen  # the short forms are known now: tournament, tables, matches, its stream
        assert all(tb["match"] is not None for tb in t.json()["tables"])


@pytest.mark.parametrize("n", [5, 40])
def test_the_tournament_projection_is_at_most_six_statements(db: Path, n: int) -> None:
    """Five for the tables and their matches, one for the tournament's own stream (the draw)."""
    with app_on(db) as c:
        tid = populate(c, n)
    with app_on(db) as c:
        with statements(c.app) as seen:
            t = c.get(f"/api/tournaments/{tid}")
        assert t.status_code == 200 and len(seen) <= 6, seen
        # The same projection as the per-table reads.
        assert t.json() == c.portal.call(per_table_reads, c.app, tid)  # type: ignore[union-attr]


async def per_table_reads(app: Any, tid: str) -> dict[str, Any]:
    """The tournament projection read table by table (what the listing replaced)."""
    from hub import draws
    from hub.store import catalog
    from hub.tournaments.projection import compose

    engine, writer = app.state.services.engine, app.state.services.writer
    tables = []
    for t in await catalog.list_tables(engine, tid):
        mid = await catalog.current_match_id(engine, t.id)
        tables.append((t.id, t.name, None if mid is None else await writer.short_projection(mid)))
    pure = draws.projection(await app.state.services.tournaments.state(tid))
    info = await catalog.get_tournament(engine, tid)
    return compose(info, await catalog.tournament_version(engine, tid), pure, tables)


def test_the_listing_matches_the_per_match_reads_for_every_status(db: Path) -> None:
    with app_on(db) as c:
        populate(c, 9)
        for status in (None, "scheduled", "live", "finished"):
            url = "/api/matches" + (f"?status={status}" if status else "")
            assert c.get(url).json()["matches"] == per_match_reads(c, status), status
        assert {m["status"] for m in c.get("/api/matches").json()["matches"]} == {"scheduled", "live", "finished"}


def test_a_repeated_listing_is_cached_until_this_process_changes_something(db: Path) -> None:
    with app_on(db) as c:
        tid = populate(c, 4)
        first = c.get("/api/matches?status=live")
        with statements(c.app) as seen:
            again = c.get("/api/matches?status=live")
        assert again.content == first.content and seen == []  # no statement at all
        # A change here drops it at once: the next listing shows it.
        table = c.post(f"/api/tournaments/{tid}/tables", json={"name": "New"}, headers=admin()).json()
        m = c.post("/api/matches", headers=admin(), json={
            "tournament_id": tid, "table_id": table["id"], "discipline": "wpa_nine",
            "players": [{"name": "X"}, {"name": "Y"}], "format": {"race_to": 2}}).json()
        c.post(f"/api/matches/{m['id']}/commands", headers=bearer(table["token"]),
               json=envelope(m["id"], {"kind": "start", "breaker": "p1"}))
        live = c.get("/api/matches?status=live").json()["matches"]
        assert live[0]["id"] == m["id"] and live[0]["version"] == 1


def test_another_processs_change_shows_within_the_ttl(db: Path) -> None:
    with app_on(db) as a, app_on(db) as b:
        tid = populate(a, 2)
        now = [1000.0]
        b.app.state.services.listings._clock = lambda: now[0]
        before = b.get("/api/matches").json()["matches"]
        table = a.post(f"/api/tournaments/{tid}/tables", json={"name": "Late"}, headers=admin()).json()
        a.post("/api/matches", headers=admin(), json={
            "tournament_id": tid, "table_id": table["id"], "discipline": "wpa_nine",
            "players": [{"name": "X"}, {"name": "Y"}], "format": {"race_to": 2}})
        assert b.get("/api/matches").json()["matches"] == before  # b has not heard of it yet...
        now[0] += LISTING_TTL_S + 0.01
        assert len(b.get("/api/matches").json()["matches"]) == len(before) + 1  # ...and has after the TTL


def test_etag_and_304(db: Path) -> None:
    with app_on(db) as c:
        populate(c, 3)
        r = c.get("/api/matches")
        etag = r.headers["etag"]
        assert r.headers["cache-control"] == "no-cache" and r.headers["content-type"].startswith("application/json")
        again = c.get("/api/matches", headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        assert c.get("/api/matches?status=live", headers={"If-None-Match": etag}).status_code == 200


def test_a_fold_racing_a_new_event_never_drops_the_match(db: Path) -> None:
    """The heads are read before the events: a match that moved on in between is shown at its
    newer version, not left out."""
    with app_on(db) as c:
        populate(c, 3)
    with app_on(db) as c:
        listings = c.app.state.services.listings
        heads = [(m["id"], m["version"]) for m in per_match_reads(c, None)]
        stale = [(mid, max(0, v - 1)) for mid, v in heads]  # as if read one version ago
        fragments = c.portal.call(listings._fragments, stale)  # type: ignore[union-attr]
        assert all(f is not None for f in fragments)


def test_a_local_move_patches_the_cached_listing_without_a_query(db: Path) -> None:
    with app_on(db) as c:
        tid = populate(c, 3)
        table = c.post(f"/api/tournaments/{tid}/tables", json={"name": "P"}, headers=admin()).json()
        m = c.post("/api/matches", headers=admin(), json={
            "tournament_id": tid, "table_id": table["id"], "discipline": "wpa_nine",
            "players": [{"id": "a", "name": "X"}, {"id": "b", "name": "Y"}], "format": {"race_to": 2}}).json()
        auth = bearer(table["token"])
        c.post(
            f"/api/matches/{m['id']}/commands", headers=auth, json=envelope(m["id"], {"kind": "start", "breaker": "a"})
        )
        before = c.get("/api/matches?status=live")
        assert before.json()["matches"][0]["version"] == 1
        r = c.post(f"/api/matches/{m['id']}/commands", headers=auth, json=envelope(m["id"], {"kind": "pause"}))
        assert r.status_code == 200
        with statements(c.app) as seen:
            after = c.get("/api/matches?status=live", headers={"If-None-Match": before.headers["etag"]})
        assert seen == [] and after.status_code == 200  # patched from the writer's memory: a new ETag
        assert after.json()["matches"][0]["version"] == 2
        assert after.json()["matches"] == per_match_reads(c, "live")
