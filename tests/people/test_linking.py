"""hub/people/linking.py: entries point at people, linked in the transaction that stores the event
(SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub import draws
from hub.people import directory
from hub.store import tournament_events
from hub.store.schema import people, people_entries
from tests.people.conftest import tournament, writer


async def add(engine: AsyncEngine, tid: str, *players: dict[str, Any], w: Any = None) -> list[dict[str, Any]]:
    _, event = await (w or writer(engine)).apply(tid, {"kind": "add_players", "players": list(players)})
    return event.data["players"]


async def links(engine: AsyncEngine, tid: str) -> dict[str, tuple[str, str]]:
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(people_entries).where(people_entries.c.tournament_id == tid))
        return {r.player_id: (r.person_id, r.link) for r in rows}


async def count_people(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int(await conn.scalar(sa.select(sa.func.count()).select_from(people)))


async def test_the_rule_one_match_none_several(engine: AsyncEngine) -> None:
    (wang,) = await directory.create(engine, [{"name": "王也", "club": "Beijing", "aliases": []}])
    twins = await directory.create(engine, [{"name": "Li Wei", "club": None, "aliases": []}] * 2)
    tid = await tournament(engine)
    one, none, several = await add(engine, tid, {"name": "王 也", "club": "ＢＥＩＪＩＮＧ"}, {"name": "Nobody Yet"},
                                   {"name": "li wei"})
    assert (one["person"], one["link"]) == (wang["id"], "linked")  # folded name and club equal: that person
    assert none["link"] == "created" and none["person"] not in {wang["id"], *(t["id"] for t in twins)}
    assert several["link"] == "created" and several["person"] not in {t["id"] for t in twins}
    assert await links(engine, tid) == {p["id"]: (p["person"], p["link"]) for p in (one, none, several)}
    # the stream carries the links: the fold knows each entry's person
    state = draws.fold(tid, await tournament_events.read(engine, tid))
    assert [p.person for p in state.players] == [one["person"], none["person"], several["person"]]
    # a club makes another person: same name, other club
    (elsewhere,) = await add(engine, tid, {"name": "王也", "club": "Shanghai"})
    assert elsewhere["link"] == "created"


async def test_next_weeks_entries_find_this_weeks_people(engine: AsyncEngine) -> None:
    week1, week2 = await tournament(engine, "Week 1"), await tournament(engine, "Week 2")
    first = await add(engine, week1, {"name": "Zheng Yubo"}, {"name": "Yang Fan", "club": "Club"})
    second = await add(engine, week2, {"name": "zheng  yubo"}, {"name": "YANG FAN", "club": "club"})
    assert [p["link"] for p in first] == ["created", "created"]
    assert [p["link"] for p in second] == ["linked", "linked"]
    assert [p["person"] for p in first] == [p["person"] for p in second]


async def test_two_same_names_in_one_event_are_two_people(engine: AsyncEngine) -> None:
    tid = await tournament(engine)
    a, b = await add(engine, tid, {"name": "Chen Wei"}, {"name": "Chen Wei"})
    assert a["person"] != b["person"] and (a["link"], b["link"]) == ("created", "created")


async def test_a_named_person_a_merged_one_an_unknown_one(engine: AsyncEngine) -> None:
    made = await directory.create(engine, [{"name": "Ko Pin-yi", "club": None, "aliases": []},
                                           {"name": "Ko Pin Yi", "club": None, "aliases": []}])
    await directory.merge(engine, made[1]["id"], made[0]["id"])
    tid = await tournament(engine)
    (p,) = await add(engine, tid, {"name": "KPY", "person": made[1]["id"]})
    assert (p["person"], p["link"]) == (made[0]["id"], "linked")  # merged: linked to who they are now
    with pytest.raises(draws.DrawReject) as unknown:
        await add(engine, tid, {"name": "X", "person": "pe-none"})
    assert (unknown.value.status, unknown.value.code) == (404, "unknown_person")
    with pytest.raises(draws.DrawReject) as twice:
        await add(engine, tid, {"name": "Again", "person": made[0]["id"]})
    assert (twice.value.status, twice.value.code) == (409, "person_entered")
    assert len(await links(engine, tid)) == 1  # nothing of the refused calls was stored


async def test_relink_an_entry(engine: AsyncEngine) -> None:
    tid = await tournament(engine)
    w = writer(engine)
    (p,) = await add(engine, tid, {"name": "Wu Jiaqing"}, w=w)
    (other,) = await directory.create(engine, [{"name": "Wu Jia-qing", "club": None, "aliases": []}])
    _, event = await w.apply(tid, {"kind": "update_player", "player": p["id"], "changes": {"person": other["id"]}})
    assert event.data["changes"]["person"] == other["id"]
    assert (await links(engine, tid))[p["id"]] == (other["id"], "linked")
    assert (await w.state(tid)).player(p["id"]).person == other["id"]
    with pytest.raises(draws.DrawReject) as bad:
        await w.apply(tid, {"kind": "update_player", "player": p["id"], "changes": {"person": None}})
    assert bad.value.status == 422


async def test_two_processes_adding_the_same_new_name_make_one_person(engine: AsyncEngine) -> None:
    """Two hub processes (two writers) on one store add the same new name to two events at once."""
    t1, t2 = await tournament(engine, "A"), await tournament(engine, "B")
    before = await count_people(engine)
    (a,), (b,) = await asyncio.gather(add(engine, t1, {"name": "Fedor Gorst"}, w=writer(engine)),
                                      add(engine, t2, {"name": "Fedor Gorst"}, w=writer(engine)))
    assert a["person"] == b["person"] and sorted([a["link"], b["link"]]) == ["created", "linked"]
    assert await count_people(engine) == before + 1


async def test_a_conflict_on_the_stream_links_again(engine: AsyncEngine) -> None:
    """Two writers on one tournament: the loser's transaction (its new person with it) is rolled
    back, and it decides and links again on the stream the winner stored."""
    tid = await tournament(engine)
    w1, w2 = writer(engine), writer(engine)
    await w1.state(tid), await w2.state(tid)
    (a,), (b,) = await asyncio.gather(add(engine, tid, {"name": "Shane"}, w=w1), add(engine, tid, {"name": "Joshua"},
                                                                                   w=w2))
    assert {a["id"], b["id"]} == {"p1", "p2"}
    assert set(await links(engine, tid)) == {"p1", "p2"} and await count_people(engine) == 2
