"""No-shows in a real Chromium (PROTOCOL.md section 16): with a short `no_show_minutes` the desk's
table card flags a called match not started, with the time since its call and one-click choices
(wait, back to the queue, walkover to the player who is there); the board shows "called N min ago".
Screenshots in both languages (test-artifacts/noshow-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import PageWatch, shot
from .test_desk import ADMIN, ServedHub, new_context, sign_in


@pytest.fixture(scope="module")
def ns_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("noshow")).start()
    try:
        yield hub
    finally:
        hub.stop()


def event(hub: ServedHub, minutes: float = 0.01) -> tuple[str, list[dict[str, Any]]]:
    tid = hub.admin_post("/api/tournaments", {"name": "No-show Open"})["id"]
    tables = [hub.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"Table {i}"}) for i in (1, 2)]
    names = ("Zheng Yubo", "杨帆 Yang Fan", "Ko Pin-yi", "Wu Jiaqing")
    hub.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": n} for n in names]})
    r = httpx.patch(f"{hub.url}/api/tournaments/{tid}", json={"no_show_minutes": minutes},
                    headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200, r.text
    hub.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination",
                                                    "match": {"discipline": "wpa_nine", "format": {"race_to": 2}}})
    return tid, tables


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_desk_flags_a_no_show_and_the_board_says_since_when(ns_hub: ServedHub, browser: Any, locale: str) -> None:
    hub = ns_hub
    tid, tables = event(hub)
    ctx = new_context(browser, "tablet", locale)
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub)
        page.goto(f"{hub.url}/desk/{tid}/run")
        page.wait_for_selector(".run-table .noshow-flag", timeout=10_000)
        assert page.locator(".noshow-flag").count() == 2
        text = page.inner_text(".noshow-flag >> nth=0")
        assert ("Called 0 min ago" in text) if locale == "en-US" else ("已叫号 0 分钟" in text)
        shot(page, f"noshow-desk-{locale}")
        # The board, on a TV: a flagged match says since when it was called.
        board = guard.attach(ctx.new_page())
        board.set_viewport_size({"width": 1920, "height": 1080})
        board.goto(f"{hub.url}/board/{tid}")
        board.wait_for_selector(".badge.called-ago", timeout=10_000)
        ago = board.inner_text(".badge.called-ago >> nth=0")
        assert ("min ago" in ago) if locale == "en-US" else ("已叫号" in ago)
        shot(board, f"noshow-board-{locale}")
        # Wait: the flag goes (it comes back in 5 minutes if nobody has started).
        first = page.get_attribute(".noshow-flag >> nth=0", "data-noshow")
        page.click(f".noshow-flag[data-noshow='{first}'] [data-action=noshow-wait]")
        page.wait_for_selector(f".noshow-flag[data-noshow='{first}']", state="detached")
        # Walkover to the player who is there, one click.
        other = page.get_attribute(".noshow-flag", "data-noshow")
        page.click(f".noshow-flag[data-noshow='{other}'] [data-action=noshow-walkover] >> nth=1")
        page.wait_for_selector(f".noshow-flag[data-noshow='{other}']", state="detached")
        entry = next(m for m in hub.get(f"/api/tournaments/{tid}")["draw"]["matches"] if m["key"] == other)
        assert entry["status"] == "walkover" and entry["winner"] == entry["players"][1]
        flagged = hub.get(f"/api/tournaments/{tid}/no_shows")["flagged"]
        assert first not in {f["key"] for f in flagged}
        assert not guard.errors, guard.errors
    finally:
        ctx.close()
