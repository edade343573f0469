"""migrations/versions/0006_people.py on a store made by the version before it (SQLite and
PostgreSQL): tournaments with players and a finished match, written at revision 0005 by the
writers as they wrote then (no people), upgraded; then the hub's first start makes their history,
and `cuehub people rebuild` makes the same again."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from services import wait_until
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

import hub.rules as rules
from hub import draws
from hub.app import create_app
from hub.matches.writer import Ack, MatchWriter
from hub.people.rebuild import rebuild
from hub.settings import Settings
from hub.store import catalog, tournament_events
from hub.store.db import alembic_config, make_engine
from hub.store.schema import people, people_entries
from hub.tournaments.writer import TournamentWriter

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture(params=["sqlite", "postgresql"])
def old_settings(request: pytest.FixtureRequest, tmp_path: Any) -> Settings:
    if request.param == "sqlite":
        return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'old.db'}", admin_token="adm")
    return request.getfixturevalue("pg_settings")


async def upgrade(engine: AsyncEngine, revision: str) -> None:
    def run(conn: Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)

    async with engine.begin() as conn:
        await conn.run_sync(run)


async def play_final(engine: AsyncEngine, tw: TournamentWriter, tid: str, table_id: str) -> str:
    """Call W1-1 to the table and play it: the first player breaks and wins 2-0 on golden breaks."""
    mw = MatchWriter(engine, rules)
    state = await tw.state(tid)
    body, mid = draws.match_body(state, "W1-1"), catalog.new_id("m")

    async def store_with(append: catalog.InTransaction) -> Any:
        return await mw.create_match(body, tournament_id=tid, table_id=table_id, match_id=mid, draw_key="W1-1",
                                     also=append)

    await tw.apply(tid, {"kind": "call", "key": "W1-1", "match_id": mid, "table_id": table_id},
                   store_with=store_with)
    first, second = (p["id"] for p in body["players"])
    for i, cmd in enumerate([{"kind": "start", "breaker": first}] + [
            {"kind": "shot", "player": first, "first_contact": 1, "pocketed": [9], "break_rails": 4}] * 2):
        assert isinstance(await mw.submit(mid, f"c{i}", cmd), Ack)
    proj = await mw.projection(mid)
    assert proj is not None and proj["status"] == "finished"
    await tw.apply(tid, {"kind": "take_result", "key": "W1-1", "match_id": mid, "winner": first,
                         "scores": {p["id"]: p["score"] for p in proj["players"]}})
    return mid


async def old_store(settings: Settings) -> dict[str, Any]:
    engine = make_engine(settings)
    try:
        await upgrade(engine, "0005")
        tw = TournamentWriter(engine, draws)  # no completer: as the hub wrote before people
        week1 = (await catalog.create_tournament(engine, "Week 1"))["id"]
        table = (await catalog.create_table(engine, week1, "T1"))["id"]
        await tw.apply(week1, {"kind": "add_players", "players": [{"name": "王也", "club": "Beijing"},
                                                                    {"name": "Zheng Yubo"}]})
        await tw.apply(week1, {"kind": "update_player", "player": "p2", "changes": {"club": "Shanghai"}})
        await tw.apply(week1, {"kind": "make_draw", "type": "single_elimination", "seed": 1, "match": WPA})
        mid = await play_final(engine, tw, week1, table)
        week2 = (await catalog.create_tournament(engine, "Week 2"))["id"]
        await tw.apply(week2, {"kind": "add_players", "players": [
            {"name": "王 也", "club": "ＢＥＩＪＩＮＧ"}, {"name": "zheng yubo", "club": "shanghai"},
            {"name": "Li Wei"}, {"name": "Li Wei"}]})
        winner = (await tw.state(week1)).draw.entrants[0]  # type: ignore[union-attr]
        return {"week1": week1, "week2": week2, "mid": mid, "winner": winner}
    finally:
        await engine.dispose()


async def upgraded(settings: Settings) -> dict[str, Any]:
    engine = make_engine(settings)
    try:
        await upgrade(engine, "head")
        async with engine.connect() as conn:
            names = [r.name for r in await conn.execute(sa.select(people.c.name).order_by(people.c.n))]
            entries = {(r.tournament_id, r.player_id): (r.person_id, r.link, r.name)
                       for r in await conn.execute(sa.select(people_entries))}
        streams = {}
        for (tid,) in {(t,) for t, _ in entries}:
            streams[tid] = await tournament_events.read(engine, tid)
        return {"names": names, "entries": entries, "streams": streams}
    finally:
        await engine.dispose()


def test_upgrade_links_every_stored_entry_and_history_follows(old_settings: Settings) -> None:
    made = asyncio.run(old_store(old_settings))
    got = asyncio.run(upgraded(old_settings))
    w1, w2 = made["week1"], made["week2"]
    assert sorted(got["names"]) == sorted(["王也", "Zheng Yubo", "Li Wei", "Li Wei"])
    e = got["entries"]
    assert e[(w1, "p1")][1] == e[(w1, "p2")][1] == "created"
    assert e[(w2, "p1")][:2] == (e[(w1, "p1")][0], "linked")  # folded name and club equal: the same person
    assert e[(w2, "p2")][:2] == (e[(w1, "p2")][0], "linked")  # the club as changed after the entry
    assert e[(w2, "p3")][1] == e[(w2, "p4")][1] == "created" and e[(w2, "p3")][0] != e[(w2, "p4")][0]
    for tid, stream in got["streams"].items():  # each stream carries its links
        last = stream[-1]
        assert last.kind == "players_linked"
        assert last.data["links"] == {pid: e[(t, pid)][0] for t, pid in e if t == tid}
        assert [p.person for p in draws.fold(tid, stream).players] == list(last.data["links"].values())

    person = e[(w1, made["winner"])][0]
    with TestClient(create_app(old_settings)) as c:  # the first start makes the read models
        prof = wait_until(lambda: (p := c.get(f"/api/people/{person}").json())["stats"]["total"]["matches"]["played"]
                          and p, what="history from the old store")
        assert [ev["tournament_id"] for ev in prof["events"]] == [w2, w1]  # newest first
        assert prof["events"][1]["place"] == 1 and prof["events"][1]["status"] == "champion"
        total = prof["stats"]["total"]
        assert total["matches"] == {"played": 1, "won": 1, "entered": 0} and total["golden_breaks"] == 2
        (m,) = c.get(f"/api/people/{person}/matches").json()["matches"]
        assert m["match_id"] == made["mid"] and m["round_name"] == "Final"
        other = e[(w1, "p2" if made["winner"] == "p1" else "p1")][0]
        assert c.get(f"/api/people/{person}/versus/{other}").json()["total"]["a_wins"] == 1
        answers = [c.get(f"/api/people/{p}").json() for p in (person, other)]
        week_stats = c.get(f"/api/tournaments/{w1}/stats").json()

    async def again() -> dict[str, Any]:
        engine = make_engine(old_settings)
        try:
            return await rebuild(engine, rules, progress=False)
        finally:
            await engine.dispose()

    report = asyncio.run(again())
    assert report["entries relinked"] == 0 and report["finished matches"] == 1
    with TestClient(create_app(old_settings)) as c:  # rebuilt: the same answers
        assert [c.get(f"/api/people/{p}").json() for p in (person, other)] == answers
        assert c.get(f"/api/tournaments/{w1}/stats").json() == week_stats
