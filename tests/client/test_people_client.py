"""cuehub_client's people calls (PROTOCOL.md section 12) and the shot's `intent`, against a live hub
on the real rules."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from cuehub_client import AdminClient, CommandRejected, HubError, TableSession
from cuehub_live_hub import ADMIN_TOKEN, serve

from hub.app import create_app
from hub.settings import Settings


@pytest.fixture
def real_hub(tmp_path: Path) -> Iterator[str]:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'people.db'}", admin_token=ADMIN_TOKEN)
    with serve(create_app(settings)) as url:
        yield url


async def test_people_calls_and_intent(real_hub: str) -> None:
    async with AdminClient(real_hub, ADMIN_TOKEN) as admin:
        wang, zheng = await admin.create_people([{"name": "王也", "club": "Beijing"}, "Zheng Yubo"])
        page = await admin.search_people("wang ye")
        assert [p["id"] for p in page["people"]] == [wang["id"]] and page["next"] is None
        t = await admin.create_tournament("Client open")
        tb = await admin.create_table(t["id"], "Table 1")
        added = await admin.add_players(t["id"], [{"person": wang["id"]}, {"name": "zheng yubo"}])
        assert [(p["person"], p["link"]) for p in added] == [(wang["id"], "linked"), (zheng["id"], "linked")]
        assert (await admin.update_person(zheng["id"], aliases=["ZYB"]))["aliases"] == ["ZYB"]
        m = await admin.create_match(t["id"], tb["id"], "wpa_nine",
                                     [{"id": "p1", "name": "王也"}, {"id": "p2", "name": "Zheng Yubo"}], {"race_to": 1})
        async with TableSession(real_hub, tb["id"], tb["token"]) as tablet:
            await tablet.send({"kind": "start", "breaker": "p1"}, timeout=5)
            with pytest.raises(CommandRejected) as bad:
                await tablet.send({"kind": "shot", "player": "p1", "first_contact": 1, "intent": "smash"}, timeout=5)
            assert bad.value.code == "bad_command"
            await tablet.send({"kind": "shot", "player": "p1", "first_contact": 1, "break_rails": 4}, timeout=5)
            await tablet.send({"kind": "shot", "player": "p2", "first_contact": 1, "pocketed": [1, 9],
                               "intent": "pot"}, timeout=5)
        assert (await admin.get_events(m["id"]))[-1]["data"]["intent"] == "pot"
        stats = await admin.match_stats(m["id"])
        zheng_stats = next(p for p in stats["players"] if p["player_id"] == "p2")
        assert zheng_stats["person"] == zheng["id"]
        assert zheng_stats["stats"]["total"]["intent"]["pot"] == {"strokes": 1, "success": 1}
        for _ in range(200):  # the keeper writes history after the ack
            if (await admin.get_person(zheng["id"]))["stats"]["total"]["matches"]["won"] == 1:
                break
            await asyncio.sleep(0.05)
        assert (await admin.person_matches(zheng["id"]))["matches"][0]["won"] is True
        assert (await admin.versus(zheng["id"], wang["id"]))["total"]["a_wins"] == 1
        assert (await admin.tournament_stats(t["id"]))["players"][1]["person"] == zheng["id"]
        other = (await admin.create_people(["Spare"]))[0]
        assert (await admin.merge_person(other["id"], zheng["id"]))["merged_into"] == zheng["id"]
        assert (await admin.get_person(other["id"])) == {"merged_into": zheng["id"]}
        await admin.unmerge_person(other["id"])
        assert (await admin.delete_person(other["id"]))["deleted"] is True
        with pytest.raises(HubError) as gone:
            await admin.get_person(other["id"])
        assert gone.value.status == 404
