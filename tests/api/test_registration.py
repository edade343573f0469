"""PROTOCOL.md section 14 over REST on a real SQLite file: the organiser opens registration, players
sign up without an account and keep a secret link, the desk accepts, rejects, waitlists and checks
in, accepted entries are the tournament's players, the waitlist is promoted, duplicates and closed
registration are refused, and a flood of sign-ups from one address is slowed down."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer

from hub.app import create_app
from hub.guards.throttle import Backoff, Budget, Policies
from hub.settings import Settings
from tests.api.peers import Peers

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def tournament(c: TestClient, **registration: Any) -> str:
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    if registration:
        r = c.patch(f"/api/tournaments/{tid}", json={"registration": registration}, headers=admin())
        assert r.status_code == 200, r.text
    return tid


def sign_up(c: TestClient, tid: str, name: str, expect: int = 201, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/tournaments/{tid}/entries", json={"name": name, **body})
    assert r.status_code == expect, r.text
    return r.json()


def players(c: TestClient, tid: str) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in c.get(f"/api/tournaments/{tid}/players").json()["players"]}


def own(c: TestClient, secret: str) -> dict[str, Any]:
    r = c.get("/api/entries/self", headers=bearer(secret))
    assert r.status_code == 200, r.text
    return r.json()


def test_registration_is_closed_until_opened(c: TestClient) -> None:
    tid = tournament(c)
    assert c.get(f"/api/tournaments/{tid}/registration").json()["accepting"] is False
    assert sign_up(c, tid, "Ann", 409)["error"]["code"] == "registration_closed"
    tournament_patch = c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True}}, headers=admin())
    assert tournament_patch.json()["registration"]["accepting"] is True  # the settings' answer carries it
    assert sign_up(c, tid, "Ann")["entry"]["status"] == "pending"
    c.patch(f"/api/tournaments/{tid}", json={"registration": {"closes_at": int(time.time() * 1000) - 1}},
            headers=admin())
    assert sign_up(c, tid, "Bob", 409)["error"]["code"] == "registration_closed"


def test_sign_up_answers_a_secret_once_and_the_link_sees_the_entry(c: TestClient) -> None:
    tid = tournament(c, open=True)
    made = sign_up(c, tid, "  Ann Lee ", club="Cue Club", contact="+86 138 0000 0000")
    secret = made["secret"]
    assert len(secret) >= 22 and made["link"].endswith(f"/enter/{tid}#secret={secret}")
    assert made["entry"] == {**made["entry"], "name": "Ann Lee", "club": "Cue Club", "status": "pending"}
    assert "contact" not in made["entry"]
    mine = own(c, secret)
    assert mine["id"] == made["entry"]["id"] and mine["tournament_id"] == tid and "contact" not in mine
    assert c.get("/api/entries/self", headers=bearer("x" * 32)).status_code == 404
    assert c.get("/api/entries/self").status_code == 401


def test_duplicates_fold_name_and_contact(c: TestClient) -> None:
    tid = tournament(c, open=True)
    sign_up(c, tid, "Ann Lee", contact="ann@example.com")
    dup = sign_up(c, tid, "ＡＮＮ  lee", 409, contact="ANN@example.com")
    assert dup["error"]["code"] == "already_entered"
    sign_up(c, tid, "Ann Lee", contact="other@example.com")  # another contact: another person


@pytest.mark.parametrize("name", ["", "a" * 101, "bad\u202ename", "two\u2028lines", 7])
def test_names_follow_the_rules_of_section_7(c: TestClient, name: Any) -> None:
    tid = tournament(c, open=True)
    r = c.post(f"/api/tournaments/{tid}/entries", json={"name": name})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"


def test_auto_accept_up_to_the_cap_then_waitlist_and_promotion(c: TestClient) -> None:
    tid = tournament(c, open=True, auto_accept=True, cap=2)
    a, b, w1, w2 = (sign_up(c, tid, n) for n in ("Ann", "Bob", "Cat", "Dan"))
    assert [e["entry"]["status"] for e in (a, b, w1, w2)] == ["accepted", "accepted", "waitlisted", "waitlisted"]
    assert set(players(c, tid)) == {"Ann", "Bob"}
    assert own(c, w1["secret"])["place"] == 1 and own(c, w2["secret"])["place"] == 2
    r = c.delete("/api/entries/self", headers=bearer(b["secret"]))
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    promoted = own(c, w1["secret"])
    assert promoted["status"] == "accepted" and promoted["promoted"] is True and promoted["place"] is None
    assert own(c, w2["secret"])["place"] == 1
    assert set(players(c, tid)) == {"Ann", "Cat"}  # Bob is gone (no draw yet), Cat plays


def test_accepted_players_are_linked_to_people(c: TestClient) -> None:
    tid = tournament(c, open=True, auto_accept=True)
    sign_up(c, tid, "王也", club="龙")
    player = players(c, tid)["王也"]
    assert player["person"]
    person = c.get(f"/api/people/{player['person']}").json()
    assert person["name"] == "王也"


def test_the_desk_lists_accepts_rejects_waitlists_and_checks_in(c: TestClient) -> None:
    tid = tournament(c, open=True)
    ids = [sign_up(c, tid, n, contact=f"{n}@x")["entry"]["id"] for n in ("Ann", "Bob", "Cat", "Dan")]
    listed = c.get(f"/api/tournaments/{tid}/entries", headers=admin()).json()
    assert [e["contact"] for e in listed["entries"]] == ["Ann@x", "Bob@x", "Cat@x", "Dan@x"]
    assert listed["counts"]["pending"] == 4 and listed["counts"]["total"] == 4
    url = f"/api/tournaments/{tid}/entries"
    assert c.post(f"{url}/{ids[0]}/accept", headers=admin()).json()["status"] == "accepted"
    assert c.post(f"{url}/{ids[1]}/reject", headers=admin()).json()["status"] == "rejected"
    assert c.post(f"{url}/{ids[2]}/waitlist", headers=admin()).json()["status"] == "waitlisted"
    checked = c.post(f"{url}/{ids[0]}/check_in", headers=admin()).json()
    assert checked["status"] == "checked_in" and checked["in_play"] is True
    again = c.post(f"{url}/{ids[0]}/check_in", headers=admin())
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_checked_in"
    assert c.post(f"{url}/{ids[3]}/check_in", headers=admin()).json()["error"]["code"] == "wrong_status"
    assert c.post(f"{url}/e99/accept", headers=admin()).status_code == 404
    assert c.post(f"{url}/{ids[3]}/accept").status_code == 401
    counts = c.get(url, headers=admin()).json()["counts"]
    assert counts == {**counts, "checked_in": 1, "rejected": 1, "waitlisted": 1, "pending": 1}
    assert set(players(c, tid)) == {"Ann"}


def test_a_desk_withdrawal_before_the_draw_promotes_the_first_waitlisted(c: TestClient) -> None:
    tid = tournament(c, open=True, auto_accept=True, cap=1)
    sign_up(c, tid, "Ann")
    wait = sign_up(c, tid, "Bob")
    pid = players(c, tid)["Ann"]["id"]
    assert c.delete(f"/api/tournaments/{tid}/players/{pid}", headers=admin()).status_code == 200
    for _ in range(50):  # the registration follows the tournament's event by itself
        if own(c, wait["secret"])["status"] == "accepted":
            break
        time.sleep(0.05)
    assert own(c, wait["secret"])["status"] == "accepted"
    assert set(players(c, tid)) == {"Bob"}


def test_self_check_in_inside_the_window_only(c: TestClient) -> None:
    now = int(time.time() * 1000)
    tid = tournament(c, open=True, auto_accept=True, check_in={"opens_at": now + 60_000, "closes_at": now + 120_000})
    made = sign_up(c, tid, "Ann")
    early = c.post("/api/entries/self/check_in", headers=bearer(made["secret"]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "check_in_not_open"
    c.patch(f"/api/tournaments/{tid}", json={"registration": {"check_in": {"closes_at": now + 120_000}}},
            headers=admin())
    r = c.post("/api/entries/self/check_in", headers=bearer(made["secret"]))
    assert r.status_code == 200 and r.json()["status"] == "checked_in"


def close_soon(c: TestClient, tid: str) -> None:
    """The check-in window closes a second from now (set after the setup: a slow machine's setup
    must not outlast the window)."""
    closes = int(time.time() * 1000) + 1_000
    r = c.patch(f"/api/tournaments/{tid}", json={"registration": {"check_in": {"closes_at": closes}}}, headers=admin())
    assert r.status_code == 200


def _wait_for(c: TestClient, url: str, done: Any, seconds: float = 8.0) -> dict[str, Any]:
    deadline = time.time() + seconds
    while True:
        body = c.get(url, headers=admin()).json()
        if done(body) or time.time() > deadline:
            return body
        time.sleep(0.1)


def test_the_close_makes_no_shows_and_leaves_them_out_of_a_draw_not_made(c: TestClient) -> None:
    now = int(time.time() * 1000)
    tid = tournament(c, open=True, auto_accept=True, check_in={"closes_at": now + 600_000})
    made = [sign_up(c, tid, n) for n in ("Ann", "Bob", "Cat")]
    c.post("/api/entries/self/check_in", headers=bearer(made[0]["secret"]))
    c.post(f"/api/tournaments/{tid}/entries/{made[1]['entry']['id']}/check_in", headers=admin())
    close_soon(c, tid)
    listed = _wait_for(c, f"/api/tournaments/{tid}/entries", lambda b: b["registration"]["check_in_closed"])
    assert listed["no_shows"] == [made[2]["entry"]["id"]]
    assert [e["status"] for e in listed["entries"]] == ["checked_in", "checked_in", "no_show"]
    assert set(players(c, tid)) == {"Ann", "Bob"}
    late = c.post("/api/entries/self/check_in", headers=bearer(made[2]["secret"]))
    assert late.status_code == 409 and late.json()["error"]["code"] == "check_in_closed"


def test_no_shows_are_withdrawn_from_a_draw_already_made(c: TestClient) -> None:
    now = int(time.time() * 1000)
    tid = tournament(c, open=True, auto_accept=True, check_in={"closes_at": now + 600_000})
    made = [sign_up(c, tid, n) for n in ("Ann", "Bob", "Cat", "Dan")]
    for m in made[:3]:
        c.post("/api/entries/self/check_in", headers=bearer(m["secret"]))
    r = c.post(f"/api/tournaments/{tid}/draw", json={"type": "round_robin", "match": WPA}, headers=admin())
    assert r.status_code == 201, r.text
    close_soon(c, tid)
    _wait_for(c, f"/api/tournaments/{tid}/entries", lambda b: b["registration"]["check_in_closed"])
    proj = c.get(f"/api/tournaments/{tid}").json()
    dan = next(p for p in proj["players"] if p["name"] == "Dan")
    assert dan["status"] == "withdrawn"
    assert any(m["status"] == "walkover" and dan["id"] in m["players"] for m in proj["draw"]["matches"])
    assert sign_up(c, tid, "Eve", 409)["error"]["code"] == "registration_closed"  # the draw is made


def test_registration_patch_refuses_bad_settings(c: TestClient) -> None:
    tid = tournament(c)
    for body in ({"registration": {"cap": 0}}, {"registration": {"open": "yes"}}, {"name": "x"},
                 {"registration": {"check_in": {"opens_at": 5, "closes_at": 4}}}, {"registration": []}):
        r = c.patch(f"/api/tournaments/{tid}", json=body, headers=admin())
        assert r.status_code == 422, (body, r.text)
    assert c.patch("/api/tournaments/nope", json={"registration": {"open": True}}, headers=admin()).status_code == 404


def test_a_flood_from_one_address_is_refused_and_the_desk_is_not(sqlite_settings: Settings) -> None:
    # 3 free, then one slot a minute: the 4th takes the next slot at once, the 5th is too far away.
    policies = Policies(sign_up=Backoff(free=3, first_ms=60_000, hold_ms=10, refuse_pause_ms=0))
    with TestClient(create_app(sqlite_settings, throttle_policies=policies)) as c:
        tid = tournament(c, open=True)
        for i in range(4):
            sign_up(c, tid, f"P{i}")
        r = c.post(f"/api/tournaments/{tid}/entries", json={"name": "P9"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 20
        assert r.json()["error"]["code"] == "too_many_attempts" and "address" in r.json()["error"]["message"]
        assert c.post(f"/api/tournaments/{tid}/entries", json={"name": "Desk"}, headers=admin()).status_code == 201


def test_sign_ups_are_budgeted_hub_wide(sqlite_settings: Settings) -> None:
    policies = Policies(sign_up=Backoff(free=1000), sign_up_hub=Budget(limit=2, window_ms=60_000))
    with TestClient(create_app(sqlite_settings, throttle_policies=policies)) as c:
        tid = tournament(c, open=True)
        sign_up(c, tid, "A")
        sign_up(c, tid, "B")
        r = c.post(f"/api/tournaments/{tid}/entries", json={"name": "C"})
        assert r.status_code == 429 and "on this hub" in r.json()["error"]["message"]


def test_honest_sign_ups_from_other_addresses_go_on_during_a_flood(sqlite_settings: Settings) -> None:
    policies = Policies(sign_up=Backoff(free=3, first_ms=60_000, hold_ms=10, refuse_pause_ms=0))
    with Peers(create_app(sqlite_settings, throttle_policies=policies)) as at:
        desk, flood = at("10.1.0.1"), at("10.1.0.2")
        tid = desk.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
        desk.request("PATCH", f"/api/tournaments/{tid}", json={"registration": {"open": True}}, headers=admin())
        answers = [flood.post(f"/api/tournaments/{tid}/entries", json={"name": f"Bot {i}"}).status_code
                   for i in range(12)]
        assert answers[:4] == [201] * 4 and set(answers[4:]) == {429}
        for i in range(5):  # five players, each from their own phone
            r = at(f"10.2.0.{i + 1}").post(f"/api/tournaments/{tid}/entries", json={"name": f"Player {i}"})
            assert r.status_code == 201


def test_deleting_a_tournament_deletes_its_entries(c: TestClient) -> None:
    tid = tournament(c, open=True, auto_accept=True)
    made = sign_up(c, tid, "Ann", contact="ann@x")
    assert c.delete(f"/api/tournaments/{tid}", headers=admin()).status_code == 200
    assert c.get("/api/entries/self", headers=bearer(made["secret"])).status_code == 404
    assert c.get(f"/api/tournaments/{tid}/registration").status_code == 404
    assert c.post(f"/api/tournaments/{tid}/entries", json={"name": "Bob"}).status_code == 404
