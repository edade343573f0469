"""cuehub_client against a live hub: admin calls, table sessions, resend, watcher resume."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from cuehub_client import AdminClient, AuthError, CommandRejected, HubError, TableSession, Watcher
from cuehub_live_hub import ADMIN_TOKEN


async def _setup(url: str, discipline: str = "wpa_nine"):
    admin = AdminClient(url, ADMIN_TOKEN)
    t = await admin.create_tournament("Client open")
    tb = await admin.create_table(t["id"], "Table 1")
    m = await admin.create_match(t["id"], tb["id"], discipline,
                                 [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], {"race_to": 3})
    return admin, t, tb, m


async def test_admin_calls(hub_url: str) -> None:
    admin, t, tb, m = await _setup(hub_url)
    async with admin:
        assert tb["token"] and m["status"] == "scheduled"
        assert any(x["id"] == t["id"] for x in await admin.list_tournaments())
        assert (await admin.get_match(m["id"]))["id"] == m["id"]
        tour = await admin.get_tournament(t["id"])
        assert tour["tables"][0]["id"] == tb["id"]
        with pytest.raises(HubError) as e:
            await admin.get_match("nope")
        assert e.value.status == 404
        with pytest.raises(HubError) as e:
            await AdminClient(hub_url, "wrong").create_tournament("x")
        assert e.value.status in (401, 403)
        ack = await admin.send_command(m["id"], tb["token"], {"kind": "start", "breaker": "a"})
        assert ack["version"] == 1
        with pytest.raises(CommandRejected) as r:
            await admin.send_command(m["id"], tb["token"], {"kind": "shot", "player": "b"})
        assert r.value.code == "not_your_turn"
        assert [e["kind"] for e in await admin.get_events(m["id"])] == ["start"]


async def test_table_session_send_ack_reject_and_state(hub_url: str) -> None:
    admin, t, tb, m = await _setup(hub_url)
    states: list[int] = []
    async with admin, TableSession(hub_url, tb["id"], tb["token"], on_state=lambda s: states.append(s["version"])) as s:
        assert s.match is not None and s.match["id"] == m["id"]
        ack = await s.send({"kind": "start", "breaker": "a"}, timeout=5)
        assert ack["type"] == "ack" and ack["version"] == 1
        uuid.UUID(ack["id"])  # automatic uuid ids
        await s.wait_version(1, timeout=5)
        assert s.match["status"] == "live"
        with pytest.raises(CommandRejected) as r:
            await s.send({"kind": "shot", "player": "b"}, timeout=5)
        assert r.value.code == "not_your_turn"
        # the same id again is answered with the first answer and changes nothing
        cid = str(uuid.uuid4())
        first = await s.send({"kind": "shot", "player": "a"}, id=cid, timeout=5)
        again = await s.send({"kind": "shot", "player": "a"}, id=cid, timeout=5)
        assert first["version"] == again["version"] == 2
        assert (await admin.get_match(m["id"]))["version"] == 2
        assert s.unacked == []
        await s.wait_version(2, timeout=5)
        assert states[-1] == 2


async def test_table_session_bad_token(hub_url: str) -> None:
    _, _, tb, _ = await _setup(hub_url)
    s = TableSession(hub_url, tb["id"], "not-the-token")
    with pytest.raises(AuthError):
        await s.connect(timeout=5)
    await s.close()


async def test_unacked_commands_are_resent_with_their_ids_after_a_reconnect(hub_url: str) -> None:
    admin, t, tb, m = await _setup(hub_url)
    async with admin, TableSession(hub_url, tb["id"], tb["token"]) as s:
        await s.send({"kind": "start", "breaker": "a"}, timeout=5)
        # The hub stored this command but its ack was "lost": we only know the id.
        lost_id = str(uuid.uuid4())
        await admin.send_command(m["id"], tb["token"], {"kind": "shot", "player": "a"}, id=lost_id)
        await s.drop_connection()
        # While the socket is down, the tablet keeps working: the lost one and a new one.
        f1 = s.submit({"kind": "shot", "player": "a"}, match_id=m["id"], id=lost_id)[1]
        f2 = s.submit({"kind": "shot", "player": "b"}, match_id=m["id"])[1]
        assert len(s.unacked) == 2
        a1, a2 = await asyncio.wait_for(asyncio.gather(f1, f2), 10)
        assert a1["version"] == 2  # the first answer, not a second shot
        assert a2["version"] == 3
        assert s.reconnects >= 1 and s.unacked == []
        ev = await admin.get_events(m["id"])
        assert [e["version"] for e in ev] == [1, 2, 3]
        assert [e["command_id"] for e in ev][1] == lost_id


async def _watch_available(url: str) -> bool:
    w = Watcher(url, reconnect=False)
    try:
        await w.connect(timeout=3)
        return True
    except Exception:
        return False
    finally:
        await w.close()


async def test_watcher_resumes_without_gaps(hub_url: str) -> None:
    assert await _watch_available(hub_url), "the hub must serve /ws/watch"
    admin, t, tb, m = await _setup(hub_url)
    token, mid = tb["token"], m["id"]
    shooter = ["a", "b"]
    async with admin:
        await admin.send_command(mid, token, {"kind": "start", "breaker": "a"})
        async with Watcher(hub_url) as w:
            await w.subscribe(f"match:{mid}")
            got = [await w.next(timeout=5)]
            assert got[0].type == "snapshot" and got[0].version == 1
            for i in range(3):
                await admin.send_command(mid, token, {"kind": "shot", "player": shooter[i % 2]})
            while got[-1].version < 4:
                got.append(await w.next(timeout=5))
            await w.drop_connection()
            for i in range(3, 8):  # while the watcher is away
                await admin.send_command(mid, token, {"kind": "shot", "player": shooter[i % 2]})
            while got[-1].version < 9:
                got.append(await w.next(timeout=10))
            assert w.reconnects >= 1
            updates = [g for g in got if g.type == "update"]
            assert [g.version for g in updates] == list(range(2, 10))  # no gap, no duplicate
            assert w.gaps == 0
            assert all(g.data["version"] == g.version and g.event["version"] == g.version for g in updates)
            final = await admin.get_match(mid)
            assert w.latest[f"match:{mid}"]["players"] == final["players"]
