"""The exports cached per tournament version (hub/tournaments/exports.py): an ETag, 304 on
If-None-Match without building anything, a new ETag for every new version (and language, and a
table renamed), built once per version and off the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.services import services_of
from hub.settings import Settings
from hub.tournaments import results
from hub.tournaments.exports import ExportCache, etag_of
from tests.tournaments.test_api import Event

EXPORTS = ("results.json", "results.csv", "placings.csv")


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def builds(c: TestClient) -> int:
    cache = services_of(c.app).exports
    return 0 if cache is None else cache.builds


def test_etag_304_and_a_new_version_changes_it(c: TestClient) -> None:
    ev = Event(c, players=4, tables=2)
    ev.draw()
    first = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "called")
    for name in EXPORTS:
        url = f"/api/tournaments/{ev.tid}/{name}"
        r = c.get(url)
        etag = r.headers["etag"]
        assert r.status_code == 200 and etag and r.headers["cache-control"] == "no-cache"
        assert r.headers["content-disposition"].startswith("attachment;")
        built = builds(c)
        again = c.get(url)  # kept: the same bytes, nothing built
        assert again.status_code == 200 and again.content == r.content and again.headers["etag"] == etag
        not_modified = c.get(url, headers={"If-None-Match": etag})
        assert not_modified.status_code == 304 and not_modified.content == b""
        assert not_modified.headers["etag"] == etag and builds(c) == built
    before = {name: c.get(f"/api/tournaments/{ev.tid}/{name}").headers["etag"] for name in EXPORTS}
    a, b = first["players"]
    r = c.post(f"/api/matches/{first['match_id']}/result", json={"winner": a, "score": {a: 2, b: 1}}, headers=admin())
    assert r.status_code == 200, r.text
    ev.settled(first["key"])
    for name in EXPORTS:
        url = f"/api/tournaments/{ev.tid}/{name}"
        fresh = c.get(url, headers={"If-None-Match": before[name]})  # the old version's ETag
        assert fresh.status_code == 200 and fresh.headers["etag"] != before[name]
        assert c.get(url, headers={"If-None-Match": fresh.headers["etag"]}).status_code == 304
    winner = next(p["name"] for p in ev.players if p["id"] == a)
    assert winner in c.get(f"/api/tournaments/{ev.tid}/results.csv").content.decode("utf-8-sig")


def test_the_language_and_a_table_renamed_have_etags_of_their_own(c: TestClient) -> None:
    ev = Event(c, players=2, tables=1)
    ev.draw()
    url = f"/api/tournaments/{ev.tid}/results.csv"
    english, chinese = c.get(url), c.get(url + "?lang=zh-CN")
    assert english.headers["etag"] != chinese.headers["etag"] and english.content != chinese.content
    assert c.get(url + "?lang=zh-CN", headers={"If-None-Match": english.headers["etag"]}).status_code == 200
    r = c.patch(f"/api/tables/{ev.table_ids[0]}", json={"name": "Centre table"}, headers=admin())
    assert r.status_code == 200, r.text
    renamed = c.get(url, headers={"If-None-Match": english.headers["etag"]})  # no version changed, a name did
    assert renamed.status_code == 200 and "Centre table" in renamed.content.decode("utf-8-sig")


def test_an_export_is_built_off_the_event_loop(c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = Event(c, players=4, tables=2)
    ev.draw()
    where: list[tuple[str, bool]] = []
    real = results.results_json

    def recording(proj: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        where.append((threading.current_thread().name, on_loop))
        return real(proj, lang)

    monkeypatch.setattr(results, "results_json", recording)
    assert c.get(f"/api/tournaments/{ev.tid}/results.json").status_code == 200
    assert len(where) == 1 and where[0][1] is False  # a worker thread: no event loop runs there


def test_one_build_for_requests_at_once_and_the_cache_is_bounded() -> None:
    async def run() -> None:
        cache = ExportCache(max_bytes=100)
        started = threading.Event()
        release = threading.Event()

        def slow() -> bytes:
            started.set()
            release.wait(5)
            return b"x" * 40

        proj = {"id": "t1", "name": "Open", "version": 7, "tables": []}
        first = asyncio.ensure_future(cache.get(proj, "results.csv", None, slow))
        second = asyncio.ensure_future(cache.get(proj, "results.csv", None, slow))
        await asyncio.to_thread(started.wait, 5)
        release.set()
        one, two = await asyncio.gather(first, second)
        assert cache.builds == 1 and one.body == two.body and one.etag == etag_of(proj, "results.csv", None)
        for n in range(2, 5):  # three more tournaments: 40 bytes each, 100 at most in all
            await cache.get({**proj, "id": f"t{n}"}, "results.csv", None, lambda: b"y" * 40)
        assert len(cache) == 2
        # An older version built after a newer one does not replace it.
        newer = await cache.get({**proj, "id": "t9", "version": 9}, "results.csv", None, lambda: b"new")
        older = await cache.get({**proj, "id": "t9", "version": 8}, "results.csv", None, lambda: b"old")
        assert older.body == b"old"
        again = await cache.get({**proj, "id": "t9", "version": 9}, "results.csv", None, lambda: b"rebuilt")
        assert again == newer

    asyncio.run(run())
