"""A no-show of a team match's rubber in a real Chromium at tablet width (PROTOCOL.md sections 15 and
16, docs/teams.md): with a short `no_show_minutes`, the desk's table card flags each called rubber not
started (key `W1-1/2`) with the time since its call and the three choices; wait (en) or back to the
queue (zh-CN) takes one flag off, a walkover to the side there gives the other rubber to that side
and the team match's score follows; the board says "called N min ago" under a flagged rubber.
Screenshots in both languages (test-artifacts/rubber-noshow-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import shot
from .test_desk import ADMIN, ServedHub, no_sideways_scroll
from .test_teams import _event, _signed_in, _until

pytestmark = pytest.mark.browser

SINGLES3 = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {},
            "team": {"rubbers": [{"kind": "singles"}] * 3, "to_win": 2}}


@pytest.fixture(scope="module")
def rns_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("rubbernoshow")).start()
    try:
        yield hub
    finally:
        hub.stop()


def team_event(hub: ServedHub, name: str) -> tuple[str, list[str]]:
    """Two teams of three, one team match of three singles rubbers, two tables, every lineup in:
    rubbers 1 and 2 called, flagged after 0.6 s."""
    tid = _event(hub, name, 2)
    r = httpx.patch(f"{hub.url}/api/tournaments/{tid}", json={"no_show_minutes": 0.01},
                    headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200, r.text
    rosters = {"Team USA": ("Shane Van Boening", "Fedor Gorst", "Skyler Woodward"),
               "中华台北 Chinese Taipei": ("柯秉逸 Ko Pin-yi", "吴珈庆 Wu Jiaqing", "张荣麟")}
    teams = [{"name": team, "members": [{"name": n} for n in names]} for team, names in rosters.items()]
    ids = [p["id"] for p in hub.admin_post(f"/api/tournaments/{tid}/players", {"players": teams})["players"]]
    hub.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination", "match": SINGLES3})
    for i in (1, 2, 3):
        for team in ids:
            body = {"rubber": i, "team": team, "members": [f"{team}.{i}"]}
            hub.admin_post(f"/api/tournaments/{tid}/draw/W1-1/lineup", body)
    return tid, ids


def team_match(hub: ServedHub, tid: str) -> dict[str, Any]:
    return dict(next(m for m in hub.get(f"/api/tournaments/{tid}")["draw"]["matches"] if m["key"] == "W1-1"))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_desk_acts_on_a_flagged_rubber(rns_hub: ServedHub, browser: Any, locale: str) -> None:
    hub = rns_hub
    tid, (usa, taipei) = team_event(hub, f"Rubber no-show {locale}")
    ctx, page, guard = _signed_in(browser, hub, locale, "tablet")
    try:
        page.goto(f"{hub.url}/desk/{tid}/run" + ("?lang=zh-CN" if locale == "zh-CN" else ""))
        page.wait_for_selector(".run-table .noshow-flag[data-noshow='W1-1/2']", timeout=15_000)
        assert page.locator(".noshow-flag").count() == 2
        text = page.inner_text(".noshow-flag[data-noshow='W1-1/1']")
        assert ("Called 0 min ago" in text) if locale == "en-US" else ("已叫号 0 分钟" in text)
        assert "Shane Van Boening" in text and "柯秉逸 Ko Pin-yi" in text  # the walkover buttons name the members
        assert no_sideways_scroll(page)
        shot(page, f"rubber-noshow-desk-{locale}")
        # the board, on a TV: a flagged rubber says since when it was called
        board = guard.attach(ctx.new_page())
        board.set_viewport_size({"width": 1920, "height": 1080})
        board.goto(f"{hub.url}/board/{tid}")
        board.wait_for_selector(".badge.called-ago[data-noshow='W1-1/1']", timeout=10_000)
        assert ("min ago" in board.inner_text(".badge.called-ago >> nth=0")) if locale == "en-US" \
            else ("已叫号" in board.inner_text(".badge.called-ago >> nth=0"))
        shot(board, f"rubber-noshow-board-{locale}")
        board.close()
        # wait (en) or back to the queue (zh-CN): rubber 1's flag goes
        choice = "noshow-wait" if locale == "en-US" else "noshow-requeue"
        page.click(f".noshow-flag[data-noshow='W1-1/1'] [data-action={choice}]")
        page.wait_for_selector(".noshow-flag[data-noshow='W1-1/1']", state="detached")
        if locale == "zh-CN":  # requeued: its table takes rubber 3, rubber 1 waits behind it
            _until(lambda: team_match(hub, tid)["team"]["rubbers"][2]["status"] == "called")
            assert team_match(hub, tid)["team"]["rubbers"][0]["status"] == "ready"
        else:
            assert team_match(hub, tid)["team"]["rubbers"][0]["status"] == "called"
        # a walkover to the side there (Chinese Taipei's member), one click: the team score follows
        page.click(".noshow-flag[data-noshow='W1-1/2'] [data-action=noshow-walkover]:has-text('吴珈庆')")
        page.wait_for_selector(".noshow-flag[data-noshow='W1-1/2']", state="detached")
        _until(lambda: team_match(hub, tid)["team"]["rubbers"][1]["status"] == "finished")
        tm = team_match(hub, tid)
        assert tm["team"]["rubbers"][1]["winner"] == taipei and tm["team"]["score"][taipei] == 1
        flagged = {f["key"] for f in hub.get(f"/api/tournaments/{tid}/no_shows")["flagged"]}
        assert "W1-1/2" not in flagged and (locale == "zh-CN" or "W1-1/1" not in flagged)
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()
