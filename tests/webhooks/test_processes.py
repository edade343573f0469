"""Webhooks and tablets across two real hub processes on one PostgreSQL and the Redis bus (PROTOCOL.md
section 16), with the production fixtures of tests/production/test_multiprocess.py:

- sign-ups made through both processes, one hook: every delivery reaches the receiver exactly once
  (the hook's lease: one process at a time sends it), in the order the deliveries were stored, and
  both processes' logs say delivered after one attempt;
- a tablet on a table socket of process B shows online on process A's desk list (the tablets of
  every process are in the store), and offline within 5 s once it drops off.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from spine_helpers import ADMIN

from tests.frames import auth_frame
from tests.production.test_multiprocess import hub_env, start_hub  # noqa: F401 - the fixtures
from tests.webhooks.receiver import Receiver

AUTH = {"Authorization": f"Bearer {ADMIN}"}
SIGN_UPS = 30


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver(delay=0.02).start()  # a little slow: both processes hold deliveries waiting at once
    yield r
    r.stop()


def open_registration(base: str) -> str:
    with httpx.Client(base_url=base, headers=AUTH, timeout=10) as c:
        tid = c.post("/api/tournaments", json={"name": "Open"}).json()["id"]
        r = c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True}})
        assert r.status_code == 200, r.text
        return str(tid)


def test_a_delivery_goes_out_exactly_once_from_two_processes(start_hub: Any,  # noqa: F811
                                                             receiver: Receiver) -> None:
    a = start_hub("a")
    hook = httpx.post(f"{a.url}/api/webhooks", json={"url": receiver.url, "events": ["entry.created"]},
                      headers=AUTH, timeout=10).json()
    b = start_hub("b")  # reads the hooks as it starts
    tid = open_registration(a.url)
    made = []
    for i in range(SIGN_UPS):  # the organiser's credential: never slowed down
        hub = (a, b)[i % 2]
        r = httpx.post(f"{hub.url}/api/tournaments/{tid}/entries", json={"name": f"Player {i:02d}"},
                       headers=AUTH, timeout=10)
        assert r.status_code == 201, r.text
        made.append(r.json()["entry"]["id"])
    bodies = receiver.wait(SIGN_UPS, timeout=60)
    ids = Counter(r["headers"]["x-cuehub-delivery"] for r in receiver.seen)
    assert len(ids) == SIGN_UPS and set(ids.values()) == {1}, ids  # none sent twice
    assert sorted(b["data"]["entry"]["id"] for b in bodies) == sorted(made)
    deadline = time.monotonic() + 10
    while True:
        logs = [httpx.get(f"{hub.url}/api/webhooks/{hook['id']}/deliveries", headers=AUTH, timeout=10).json()
                ["deliveries"] for hub in (a, b)]
        if all(d["status"] == "delivered" for d in logs[0]):
            break
        assert time.monotonic() < deadline, logs[0]
        time.sleep(0.1)
    assert logs[0] == logs[1]  # one log, in the store, whichever process answers
    assert [d["id"] for d in logs[0][::-1]] == [b["id"] for b in bodies]  # sent in the order stored
    assert all(d["attempts"] == 1 for d in logs[0])
    time.sleep(0.5)
    assert len(receiver.seen) == SIGN_UPS  # and nothing more came after


def tablets_on(hub: Any, tid: str, table_id: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{hub.url}/api/tournaments/{tid}/tablets", headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    table = next(t for t in r.json()["tables"] if t["id"] == table_id)
    return list(table["tablets"])


def wait_for(pred: Any, what: str, timeout: float) -> float:
    t0 = time.monotonic()
    while not pred():
        assert time.monotonic() - t0 < timeout, what
        time.sleep(0.1)
    return time.monotonic() - t0


def test_a_tablet_on_process_b_shows_on_process_a_desk(start_hub: Any) -> None:  # noqa: F811
    import websockets

    a, b = start_hub("a"), start_hub("b")
    tid = a.admin_post("/api/tournaments", {"name": "Hall"})["id"]
    table = a.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 1"})
    assert tablets_on(a, tid, table["id"]) == []

    async def run() -> None:
        async with websockets.connect(f"{b.ws_base}/ws/tables/{table['id']}") as ws:
            await ws.send(json.dumps(auth_frame(table["token"], "tablet-on-b-01")))
            ready = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert ready["type"] == "ready", ready
            await asyncio.to_thread(wait_for, lambda: [t["online"] for t in tablets_on(a, tid, table["id"])] == [True],
                                    "the tablet on B online on A", 10)
        took = await asyncio.to_thread(wait_for, lambda: [t["online"] for t in tablets_on(a, tid, table["id"])]
                                       == [False], "the tablet on B offline on A", 10)
        assert took < 5.0, took

    asyncio.run(run())
    r = httpx.get(f"{a.url}/api/tournaments/{tid}/tablets", headers=AUTH, timeout=10).json()
    assert r["tables"][0]["dropped"] is True
