"""A team match in the desk's queue (PROTOCOL.md section 15, docs/teams.md): the hub never calls it as
one match (its rubbers are called), its draw entry says so (`callable: false`) and the desk's run
step offers no "Call now" on it, while a plain match keeps it; a rubber is no draw entry to call; a
decided team match refused a reopen (409 `team_match`) is told in words that fit a reopen. Real
`cuehub serve`, headless Chromium at tablet width."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.strings_data import load

from .conftest import shot
from .test_desk import ADMIN, ServedHub, no_sideways_scroll
from .test_team_run import _rubbers, _team_event
from .test_teams import _event, _signed_in, _until

PLAIN = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture(scope="module")
def queue_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("teamqueue")).start()
    try:
        yield hub
    finally:
        hub.stop()


def _post(hub: ServedHub, path: str) -> httpx.Response:
    """An admin POST with an empty body, its refusal kept (admin_post asserts success)."""
    return httpx.post(hub.base + path, json={}, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10)


def _entry(hub: ServedHub, tid: str, key: str) -> dict[str, Any]:
    return next(m for m in hub.get(f"/api/tournaments/{tid}")["draw"]["matches"] if m["key"] == key)


def _plain_event(hub: ServedHub) -> str:
    """Four players, one table: W1-1 is called, W1-2 waits in the queue."""
    tid = _event(hub, "Plain queue", 1)
    hub.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": n} for n in ("Ko", "Wu", "Yu", "Ng")]})
    hub.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination", "match": PLAIN})
    _until(lambda: len(hub.get(f"/api/tournaments/{tid}")["queue"]) == 1)
    return tid


def test_a_team_match_is_not_called_as_one_and_its_entry_says_so(queue_hub: ServedHub) -> None:
    hub = queue_hub
    tid, _teams = _team_event(hub, "Team call")
    assert hub.get(f"/api/tournaments/{tid}")["queue"] == ["W1-1"]
    assert _entry(hub, tid, "W1-1")["callable"] is False
    r = _post(hub, f"/api/tournaments/{tid}/draw/W1-1/call")
    assert r.status_code == 409 and r.json()["error"]["code"] == "team_match", r.text
    # a rubber is called by the flow once its lineups are in, never by key from the queue
    r = _post(hub, f"/api/tournaments/{tid}/draw/W1-1%2F1/call")
    assert r.status_code == 404 and r.json()["error"]["code"] in ("unknown_key", "not_found"), r.text
    plain = _plain_event(hub)
    assert "callable" not in _entry(hub, plain, "W1-2")  # only a team match carries the flag


def test_the_queue_offers_call_now_on_a_plain_match_only(queue_hub: ServedHub, browser: Any) -> None:
    hub = queue_hub
    team_tid, _teams = _team_event(hub, "Team queue")
    plain_tid = _plain_event(hub)
    ctx, page, guard = _signed_in(browser, hub, "en-US", "tablet")
    try:
        page.goto(f"{hub.url}/desk/{team_tid}/run")
        item = page.locator("#run-queue .q-item[data-key='W1-1']")
        item.wait_for()
        assert item.locator("[data-action='walkover']").count() == 1  # the item's other actions stay
        assert item.locator("[data-action='call']").count() == 0
        assert "Likely next here" not in page.inner_text("#run-tables")  # no table is promised to it
        shot(page, "desk-queue-team-match-en")
        assert no_sideways_scroll(page)
        page.goto(f"{hub.url}/desk/{plain_tid}/run")
        item = page.locator("#run-queue .q-item[data-key='W1-2']")
        item.wait_for()
        assert item.locator("[data-action='call']").count() == 1
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()


def test_a_decided_team_match_refused_a_reopen_says_why_in_both_languages(queue_hub: ServedHub, browser: Any) -> None:
    hub = queue_hub
    tid, (usa, europe) = _team_event(hub, "Team reopen")
    # rubbers 1 and 2 have no member in common: both go to the two tables at once
    lineups = {1: ["1"], 2: ["2", "3"], 3: ["1"]}
    for i, members in lineups.items():
        for team in (usa, europe):
            body = {"rubber": i, "team": team, "members": [f"{team}.{n}" for n in members]}
            hub.admin_post(f"/api/tournaments/{tid}/draw/W1-1/lineup", body)
    _until(lambda: [r["status"] for r in _rubbers(hub, tid)][:2] == ["called", "called"])
    first, second = _rubbers(hub, tid)[:2]
    hub.admin_post(f"/api/matches/{first['match_id']}/result",
                   {"winner": f"{usa}.1", "score": {f"{usa}.1": 2, f"{europe}.1": 0}})
    hub.admin_post(f"/api/matches/{second['match_id']}/result", {"winner": usa, "score": {usa: 2, europe: 0}})
    _until(lambda: _entry(hub, tid, "W1-1")["status"] == "finished")
    r = _post(hub, f"/api/tournaments/{tid}/draw/W1-1/reopen")
    assert r.status_code == 409 and r.json()["error"]["code"] == "team_match", r.text
    # the desk's reopen says this sentence for that code (desk-run.js), not the calling one
    en, zh = load("en", "teams"), load("zh-CN", "teams")
    assert "correct a rubber" in en["desk_err_team_match_reopen"]
    assert "分场" in zh["desk_err_team_match_reopen"]
    assert en["desk_err_team_match_reopen"] != en["desk_err_team_match"]
    for locale, lang, said in (("en-US", "en", en), ("zh-CN", "zh-CN", zh)):
        ctx, page, guard = _signed_in(browser, hub, locale, "tablet")
        try:
            page.goto(f"{hub.url}/desk/{tid}/run?lang={lang}")
            item = "#run-rounds .entry[data-key='W1-1']"
            page.wait_for_selector(f"{item}[data-status=finished] [data-action=reopen]")
            page.click(f"{item} [data-action=reopen]")
            page.click("#modal-confirm")
            page.wait_for_selector("#run-message.err")
            text = page.inner_text("#run-message")
            assert said["desk_err_team_match_reopen"] in text and said["desk_err_team_match"] not in text, text
            shot(page, f"desk-team-reopen-refused-{lang}")
            assert _entry(hub, tid, "W1-1")["status"] == "finished"
            assert guard.errors == [], guard.errors
        finally:
            ctx.close()
