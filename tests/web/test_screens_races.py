"""A handicapped race (PROTOCOL.md section 13) on every match screen in Chromium: the tablet, the
board, the spectator page, the commentator screen and the overlay each say "Race 7 – 5" (read from
the players' race_to in the projection), in English and in Chinese."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS, Hub, PageWatch

SCREENS = (("tablet", 1024, 768), ("board", 1920, 1080), ("watch", 390, 844), ("commentator", 1920, 1080),
           ("overlay", 1280, 720))


def _url(hub_process: Hub, s: dict[str, Any], screen: str) -> str:
    t = s["tables"][0]
    return {"tablet": f"/tablet/{t['table_id']}#token={t['token']}", "board": f"/board/{s['tid']}",
            "watch": f"/watch/{t['match_id']}", "commentator": f"/commentator/{t['match_id']}",
            "overlay": f"/overlay/{t['table_id']}"}[screen]


@pytest.mark.parametrize(("lang", "says"), [("en-US", "Race 7 – 5"), ("zh-CN", "抢7 – 5")])
def test_every_match_screen_shows_each_race(hub_process: Hub, browser: Any, lang: str, says: str) -> None:
    s = hub_process.setup(discipline="wpa_nine", format={"race_to": {"a": 7, "b": 5}})
    ctx = browser.new_context(locale=lang)
    try:
        for screen, width, height in SCREENS:
            guard = PageWatch()
            page = guard.attach(ctx.new_page())
            page.set_viewport_size({"width": width, "height": height})
            page.goto(hub_process.url + _url(hub_process, s, screen))
            page.get_by_text(says).first.wait_for(timeout=5000)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"race-{screen}-{lang}.png"), full_page=screen != "overlay")
            page.close()
    finally:
        ctx.close()


def test_an_ordinary_race_says_race_to(hub_process: Hub, browser: Any) -> None:
    s = hub_process.setup(discipline="wpa_nine", format={"race_to": {"a": 4, "b": 4}})
    ctx = browser.new_context(locale="en-US")
    try:
        page = PageWatch().attach(ctx.new_page())
        page.goto(hub_process.url + _url(hub_process, s, "watch"))
        page.get_by_text("Race to 4").first.wait_for(timeout=5000)
        assert page.get_by_text("Race 4 – 4").count() == 0
    finally:
        ctx.close()
