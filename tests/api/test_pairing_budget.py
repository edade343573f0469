"""Pairing that cannot be jammed or overshot (PROTOCOL.md section 8, last point): every guessed
code is counted before it is checked, in one statement, so guesses sent in parallel count one each
on SQLite and on PostgreSQL; the card's QR secret pairs whatever the budget says; so does the
organiser, with the admin bearer token or the desk's cookie."""

from __future__ import annotations

import asyncio

import fake_rules
import pytest
from spine_helpers import ADMIN, admin, make_table

from hub.app import create_app
from hub.guards.throttle import Backoff, Budget, Guard, Policies, TooManyAttempts
from hub.store import throttle as store
from hub.store.db import make_engine, migrate
from tests.api.peers import Peers


@pytest.fixture(params=["sqlite", "postgresql"])
def store_settings(request, sqlite_settings):
    return sqlite_settings if request.param == "sqlite" else request.getfixturevalue("pg_settings")


@pytest.fixture
async def engine(store_settings):
    eng = make_engine(store_settings)
    await migrate(eng)
    yield eng
    await eng.dispose()


@pytest.mark.parametrize("guesses", [64, 256])
async def test_parallel_guesses_count_one_each(engine, guesses):
    """The budget is 60: of N guesses sent at once exactly 60 are let through to be checked, and
    the stored count is N (none lost to a race)."""
    budget = Budget(limit=60, window_ms=600_000)
    guard = Guard(engine, Policies(pairing_hub=budget))
    results = await asyncio.gather(*(guard.spend_budget("pair:*", budget) for _ in range(guesses)),
                                   return_exceptions=True)
    assert sum(r is None for r in results) == 60
    assert all(isinstance(r, TooManyAttempts) and r.hub_wide for r in results if r is not None)
    assert (await store.load(engine, "pair:*")).attempts == guesses


def _budgeted_app(settings, limit: int = 3):
    # A roomy per-address backoff: these tests are about the hub-wide budget.
    policies = Policies(pairing=Backoff(free=1000), pairing_hub=Budget(limit=limit, window_ms=600_000))
    return create_app(settings, rules=fake_rules, throttle_policies=policies)


def _card(c, table_id: str) -> dict:
    r = c.post(f"/api/tables/{table_id}/pairing", headers=admin())
    assert r.status_code == 201, r.text
    card = r.json()
    card["secret"] = card["link"].split("#secret=", 1)[1]
    return card


def _jam(at, n: int = 4) -> None:
    """Wrong codes from many addresses until the hub-wide budget is spent."""
    for i in range(n):
        at(f"10.9.0.{i}").post("/api/pair", json={"code": f"{i:06d}"})
    r = at("10.9.1.1").post("/api/pair", json={"code": "123456"})
    assert r.status_code == 429 and "on this hub" in r.json()["error"]["message"], r.text


def test_the_cards_secret_pairs_while_the_budget_is_spent(sqlite_settings):
    with Peers(_budgeted_app(sqlite_settings)) as at:
        desk, tablet = at("10.9.2.1"), at("10.9.2.2")
        table = make_table(desk)
        card = _card(desk, table["table_id"])
        _jam(at)
        # The code of a live card is refused unchecked, its secret is not.
        assert tablet.post("/api/pair", json={"code": card["code"]}).status_code == 429
        r = tablet.post("/api/pair", json={"secret": card["secret"]})
        assert r.status_code == 200 and r.json()["table_id"] == table["table_id"]
        # One card pairs one tablet: its secret and its code are spent together.
        assert tablet.post("/api/pair", json={"secret": card["secret"]}).status_code == 404
        assert desk.post("/api/pair", json={"code": card["code"]}, headers=admin()).status_code == 404
        # A wrong secret is a 404, a malformed one a 422; neither is limited.
        assert tablet.post("/api/pair", json={"secret": "A" * 24}).status_code == 404
        for bad in ("short", "x" * 200, 12, None, "has space in it here!!"):
            assert tablet.post("/api/pair", json={"secret": bad}).status_code == 422, bad


def test_the_desk_pairs_while_the_budget_is_spent(sqlite_settings):
    """With the admin bearer token, or the desk's cookie and its X-Requested-With header, a code
    is checked whatever the budget; the cookie without that header counts as anyone."""
    with Peers(_budgeted_app(sqlite_settings)) as at:
        desk = at("10.9.3.1")
        table = make_table(desk)
        _jam(at)
        code = _card(desk, table["table_id"])["code"]
        assert desk.post("/api/pair", json={"code": code}, headers=admin()).status_code == 200
        # A wrong code with the admin token is a plain 404, and spends nothing.
        assert desk.post("/api/pair", json={"code": "000000"}, headers=admin()).status_code == 404
        assert desk.post("/api/session", json={"token": ADMIN}).status_code == 204
        code = _card(desk, table["table_id"])["code"]
        assert desk.post("/api/pair", json={"code": code}).status_code == 429  # no CSRF header
        r = desk.post("/api/pair", json={"code": code}, headers={"X-Requested-With": "cuehub"})
        assert r.status_code == 200 and r.json()["table_id"] == table["table_id"]
        # A bearer that is not the admin's is no credential: budgeted like anyone.
        code = _card(desk, table["table_id"])["code"]
        other = at("10.9.3.2")
        assert other.post("/api/pair", json={"code": code}, headers={"Authorization": "Bearer nope"}).status_code == 429


def test_a_right_code_gives_its_count_back(sqlite_settings):
    with Peers(_budgeted_app(sqlite_settings, limit=2)) as at:
        desk = at("10.9.4.1")
        table = make_table(desk)
        for i in range(3):  # three pairings in a row with a budget of two
            code = _card(desk, table["table_id"])["code"]
            assert at(f"10.9.4.{10 + i}").post("/api/pair", json={"code": code}).status_code == 200
        assert at("10.9.4.20").post("/api/pair", json={"code": "000001"}).status_code == 404
        assert at("10.9.4.21").post("/api/pair", json={"code": "000002"}).status_code == 404
        assert at("10.9.4.22").post("/api/pair", json={"code": "000003"}).status_code == 429
