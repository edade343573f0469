"""Webhooks (PROTOCOL.md section 16) through the real app on SQLite and PostgreSQL, with a receiver on loopback:
registration and its checks, the signature, retries with the same delivery id, order per hook, a
restart in the middle, and a receiver that never answers not slowing the hub."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings
from tests.services import wait_until
from tests.tournaments.test_api import Event
from tests.webhooks.receiver import Receiver

ALL = ["match.called", "match.started", "match.finished", "tournament.finished", "entry.created"]


@pytest.fixture(params=["sqlite", "pg"])
def c(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    settings = request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")
    with TestClient(create_app(settings)) as client:
        client.app.state.services.webhooks.backoff_s = 0.05  # type: ignore[attr-defined]
        yield client


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver().start()
    yield r
    r.stop()


def register(c: TestClient, url: str, events: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/webhooks", json={"url": url, "events": events or ["match.called"], **extra}, headers=admin())
    assert r.status_code == 201, r.text
    return r.json()


def deliveries(c: TestClient, hook_id: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/webhooks/{hook_id}/deliveries", headers=admin())
    assert r.status_code == 200, r.text
    return r.json()["deliveries"]


def called_event(c: TestClient, players: int = 4, tables: int = 2) -> Event:
    ev = Event(c, players=players, tables=tables)
    ev.draw()
    return ev


def test_register_list_get_delete_and_bad_input(c: TestClient) -> None:
    hook = register(c, "https://example.test/in", ALL, secret="s3cret")
    assert hook["secret"] == "s3cret" and hook["events"] == ALL and hook["id"]
    made = register(c, "http://127.0.0.1:9/x")
    assert len(made["secret"]) == 64  # 256 bits made by the hub
    listed = c.get("/api/webhooks", headers=admin()).json()["webhooks"]
    assert [h["id"] for h in listed] == [hook["id"], made["id"]] and all("secret" not in h for h in listed)
    assert c.get(f"/api/webhooks/{hook['id']}", headers=admin()).json()["url"] == "https://example.test/in"
    assert c.get("/api/webhooks").status_code == 401
    assert c.post("/api/webhooks", json={"url": "http://a.test", "events": ["match.called"]}).status_code == 401
    for body, code in (({"url": "ftp://a.test/x", "events": ["match.called"]}, "bad_url"),
                       ({"url": "http:///nohost", "events": ["match.called"]}, "bad_url"),
                       ({"url": 5, "events": ["match.called"]}, "bad_url"),
                       ({"url": "http://a.test", "events": []}, "bad_events"),
                       ({"url": "http://a.test", "events": ["match.exploded"]}, "bad_events"),
                       ({"url": "http://a.test", "events": ["match.called"], "secret": ""}, "bad_secret")):
        r = c.post("/api/webhooks", json=body, headers=admin())
        assert r.status_code == 422 and r.json()["error"]["code"] == code, (body, r.text)
    assert c.delete(f"/api/webhooks/{hook['id']}", headers=admin()).status_code == 200
    assert c.get(f"/api/webhooks/{hook['id']}", headers=admin()).status_code == 404
    assert c.get(f"/api/webhooks/{hook['id']}/deliveries", headers=admin()).status_code == 404
    assert c.delete(f"/api/webhooks/{hook['id']}", headers=admin()).status_code == 404


def test_signed_delivery_of_calls_and_a_start(c: TestClient, receiver: Receiver) -> None:
    hook = register(c, receiver.url, ["match.called", "match.started"], secret="k")
    ev = called_event(c)
    bodies = receiver.wait(2)
    assert {b["event"] for b in bodies} == {"match.called"}
    for request in receiver.seen:
        h = request["headers"]
        assert h["content-type"] == "application/json" and h["x-cuehub-event"] == "match.called"
        assert h["x-cuehub-signature"] == "sha256=" + hmac.new(b"k", request["body"], hashlib.sha256).hexdigest()
        assert h["x-cuehub-delivery"] == json.loads(request["body"])["id"]
    call = bodies[0]["data"]
    assert call["tournament_id"] == ev.tid and call["match_id"] and call["table_id"] in ev.tables
    assert [p["name"] for p in call["players"]] and all(p["name"].startswith("Player") for p in call["players"])
    ev.command(call["match_id"], {"kind": "start", "breaker": call["players"][0]["id"]})
    started = receiver.wait(3)[2]
    assert started["event"] == "match.started" and started["data"]["match_id"] == call["match_id"]
    log = deliveries(c, hook["id"])
    assert [d["status"] for d in log] == ["delivered"] * 3 and all(d["attempts"] == 1 for d in log)
    assert all(isinstance(d["latency_ms"], int) for d in log)


def test_a_failure_is_retried_with_the_same_id_and_order_holds(c: TestClient) -> None:
    receiver = Receiver(fail=3).start()
    try:
        hook = register(c, receiver.url)
        called_event(c, players=8, tables=4)
        bodies = receiver.wait(4)
        ids = [r["headers"]["x-cuehub-delivery"] for r in receiver.seen]
        assert ids[:4] == [ids[0]] * 4  # the first was tried four times before anything after it
        log = deliveries(c, hook["id"])[::-1]  # oldest first
        assert [d["id"] for d in log] == [b["id"] for b in bodies]  # delivered in the order they were made
        assert log[0]["attempts"] == 4 and log[0]["last_code"] == 204
        assert [b["data"]["key"] for b in bodies] == ["W1-1", "W1-2", "W1-3", "W1-4"]
    finally:
        receiver.stop()


def test_pending_deliveries_survive_a_restart(sqlite_settings: Settings) -> None:
    receiver = Receiver()  # not listening yet: every attempt fails
    with TestClient(create_app(sqlite_settings)) as c:
        c.app.state.services.webhooks.backoff_s = 0.05  # type: ignore[attr-defined]
        hook = register(c, receiver.url)
        called_event(c)
        deadline = time.monotonic() + 10
        log = deliveries(c, hook["id"])
        while len(log) < 2 or log[-1]["attempts"] < 2:  # the oldest tried twice; the next waits behind it
            assert time.monotonic() < deadline
            time.sleep(0.05)
            log = deliveries(c, hook["id"])
        assert {d["status"] for d in log} == {"pending"} and log[0]["attempts"] == 0
    receiver.start()
    try:
        with TestClient(create_app(sqlite_settings)) as c:
            bodies = receiver.wait(2)
            assert [b["id"] for b in bodies] == [d["id"] for d in log[::-1]]
            deadline = time.monotonic() + 5
            while {d["status"] for d in deliveries(c, hook["id"])} != {"delivered"}:
                assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        receiver.stop()


def test_a_receiver_that_never_answers_does_not_slow_the_hub(c: TestClient) -> None:
    receiver = Receiver(delay=30).start()
    try:
        hook = register(c, receiver.url, ["match.called", "match.started"])
        ev = called_event(c)
        t0 = time.monotonic()
        entry = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "called")
        ev.command(entry["match_id"], {"kind": "start", "breaker": entry["players"][0]})
        assert time.monotonic() - t0 < 2.0
        # the first attempt times out at 5 s
        log = wait_until(lambda: (got := deliveries(c, hook["id"])) and any(
            d["attempts"] >= 1 and d["last_error"] for d in got) and got, 15, "the first attempt to time out")
        assert all(d["status"] == "pending" for d in log)
    finally:
        receiver.stop()


def test_a_finished_match_and_a_finished_tournament(c: TestClient, receiver: Receiver) -> None:
    register(c, receiver.url, ["match.finished", "tournament.finished"])
    ev = Event(c, players=2, tables=1)
    ev.draw()
    key = ev.get()["draw"]["matches"][0]["key"]
    winner = ev.players[0]["id"]
    mid = ev.win(key, winner)
    ev.until(lambda t: t["draw"]["status"] == "finished")
    finished, done = receiver.wait(2)
    assert finished["event"] == "match.finished" and finished["data"]["match_id"] == mid
    assert finished["data"]["winner"] == winner and finished["data"]["status"] == "finished"
    assert done["event"] == "tournament.finished"
    assert done["data"] == {"tournament_id": ev.tid, "champion": winner, "standings": None}
    time.sleep(0.3)
    assert len(receiver.seen) == 2  # each told once


def test_a_sign_up_is_told_without_its_contact(c: TestClient, receiver: Receiver) -> None:
    register(c, receiver.url, ["entry.created"])
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    r = c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True}}, headers=admin())
    assert r.status_code == 200, r.text
    r = c.post(f"/api/tournaments/{tid}/entries", json={"name": "Ann Lee", "contact": "ann@example.test"})
    assert r.status_code == 201, r.text
    (told,) = receiver.wait(1)
    assert told["event"] == "entry.created" and told["data"]["tournament_id"] == tid
    assert told["data"]["entry"] == r.json()["entry"] and told["data"]["entry"]["status"] == "accepted"
    assert b"ann@example.test" not in receiver.seen[0]["body"]
