"""The bound on what a long event day keeps in memory (HUB_MATCH_CACHE, HUB_FINISHED_MATCH_CACHE):
the writer's cache keeps at most that many finished matches (hub/matches/cache.py) and the watch
history the recent updates of as many (hub/watch/feeds.py); what was dropped is read from the store
again, the same. Counted in matches and events held, not in RSS (bench/event_memory_bench.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, make_match, make_table

from hub import rules
from hub.app import create_app
from hub.matches.writer import Ack, MatchWriter
from hub.services import services_of
from hub.settings import Settings
from hub.store import catalog
from hub.store.db import make_engine
from tests.watch.watch_helpers import Play, recv, sub

KEPT = 3
RENAMES = 30  # events of each match besides its start and its result


def held_events(writer: MatchWriter) -> int:
    """Events the writer's cache holds for its matches (each stored command id is one)."""
    return sum(len(live.commands) for live in writer.cache._live.values())


async def test_the_writer_keeps_at_most_the_bound_of_finished_matches(sqlite_settings: Settings) -> None:
    engine = make_engine(sqlite_settings)
    try:
        writer = MatchWriter(engine, rules)
        writer.cache.max_finished = KEPT
        tid = (await catalog.create_tournament(engine, "Day"))["id"]
        body = {"discipline": "wpa_nine", "format": {"race_to": 2},
                "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
        live_ids, finished_ids = [], []
        for i in range(12):
            table = (await catalog.create_table(engine, tid, f"T{i}"))["id"]
            mid = (await writer.create_match(body, tournament_id=tid, table_id=table))["id"]
            assert await writer.submit(mid, f"start-{i}", {"kind": "start", "breaker": "a"}) == Ack(1)
            for n in range(RENAMES):
                answer = await writer.submit(mid, f"rename-{i}-{n}",
                                             {"kind": "player_renamed", "player": "a", "name": f"A{n}"}, server=True)
                assert isinstance(answer, Ack)
            if i % 3 == 2:
                live_ids.append(mid)  # every third match is still being played
                continue
            result = {"kind": "result_entered", "winner": "a", "score": {"a": 2, "b": 0}}
            assert isinstance(await writer.submit(mid, f"result-{i}", result, server=True), Ack)
            finished_ids.append(mid)
            assert writer.cache.finished_count() <= KEPT
        assert writer.cache.finished_count() == KEPT
        assert all(mid in writer.cache for mid in live_ids)  # the matches being played stay
        assert [mid for mid in finished_ids if mid in writer.cache] == finished_ids[-KEPT:]
        per_match = RENAMES + 2
        assert held_events(writer) <= len(live_ids) * (RENAMES + 1) + KEPT * per_match
        # A finished match that was dropped is the same when read again, and knows its command ids.
        first = finished_ids[0]
        proj = await writer.projection(first)
        assert proj is not None and proj["status"] == "finished" and proj["version"] == per_match
        resent = await writer.submit(first, f"rename-0-{RENAMES - 1}",
                                     {"kind": "player_renamed", "player": "a", "name": "x"}, server=True)
        assert resent == Ack(RENAMES + 1)  # its first answer
        assert writer.cache.finished_count() <= KEPT
    finally:
        await engine.dispose()


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings.with_(finished_match_cache=2))) as client:
        yield client


def play_to_the_end(c: TestClient, shots: int) -> tuple[str, int]:
    table = make_table(c)
    mid = make_match(c, table)["id"]
    play = Play(c, table, mid)
    play.start()
    for _ in range(shots):
        play.shot()
    return mid, play.concede()


def test_the_watch_history_keeps_the_updates_of_the_last_finished_matches_only(c: TestClient) -> None:
    core = services_of(c.app).watch
    assert core is not None
    feeds = core.match_feeds
    played = [play_to_the_end(c, 12) for _ in range(6)]
    events = sum(version for _, version in played)
    assert all(feeds.get(mid) is not None for mid, _ in played)  # every match is known to the watch side
    kept = [mid for mid, _ in played if feeds.get(mid).ring]  # type: ignore[union-attr]
    assert kept == [mid for mid, _ in played[-2:]]
    assert feeds.ring_steps() <= 2 * max(v for _, v in played) < events
    assert services_of(c.app).writer.cache.finished_count() <= 2
    # A `since` on a match whose updates were dropped is served from the store, every one of them.
    mid, version = played[0]
    with c.websocket_connect("/ws/watch") as ws:
        sub(ws, f"match:{mid}", since=1)
        got = [recv(ws) for _ in range(version - 1)]
    assert [m["version"] for m in got] == list(range(2, version + 1))
    assert got[-1]["data"]["status"] == "finished" and json.dumps(got[-1]["event"])


def test_a_correction_of_a_dropped_finished_match(c: TestClient) -> None:
    played = [play_to_the_end(c, 2) for _ in range(4)]
    mid, version = played[0]
    assert mid not in services_of(c.app).writer.cache
    proj: dict[str, Any] = c.get(f"/api/matches/{mid}").json()
    winner = proj["winner"]
    loser = next(p["id"] for p in proj["players"] if p["id"] != winner)
    r = c.post(f"/api/matches/{mid}/result", json={"winner": loser, "score": {loser: 5, winner: 1}}, headers=admin())
    assert r.status_code == 200 and r.json()["version"] == version + 1 and r.json()["winner"] == loser, r.text
