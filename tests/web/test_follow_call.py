"""The call reaches followers (PROTOCOL.md section 16): a phone following a player on the player page
is told within 3 s of the call, over the page's own socket: a system notification where the browser
allows it (granted), the in-page banner, a sound and a vibration; with notifications denied the
banner, sound and vibration still come. Screenshots in both languages."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .fans_helpers import PHONE
from .test_bracket import Event

NAMES = ["Zheng Yubo", "杨帆 Yang Fan", "Wu Jiaqing", "Ko Pin-yi"]


@pytest.mark.parametrize(("granted", "locale"), [(True, "en-US"), (False, "zh-CN")])
def test_a_followed_players_call_reaches_the_phone_within_3_s(hub_process: Hub, browser: Any, guard: PageWatch,
                                                             granted: bool, locale: str) -> None:
    ev = Event(hub_process, [{"name": n, "seed": i + 1} for i, n in enumerate(NAMES)], tables=1, name="Call me")
    ev.draw("single_elimination", seeding="seeded")
    (on_table,) = ev.called()
    waiting = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "ready")
    me = waiting["players"][1]
    ctx = browser.new_context(locale=locale, viewport=PHONE, has_touch=True,
                              permissions=["notifications"] if granted else [])
    ctx.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
    try:
        page = guard.attach(ctx.new_page())
        page.goto(f"{hub_process.url}/player/{ev.tid}/{me}")
        page.wait_for_selector("body[data-conn='live'] #pl-next[data-state='ready']")
        page.click("#follow")
        assert (page.evaluate("Notification.permission") == "granted") == granted
        t0 = time.monotonic()
        ev.win(on_table, on_table["players"][0])  # the table is free: the hub calls the followed player's match
        page.wait_for_selector("#call-banner:not(.hidden)", timeout=3000)
        assert time.monotonic() - t0 < 3.0
        page.wait_for_function("document.body.dataset.notified !== 'pending'", timeout=3000)
        assert page.evaluate("document.body.dataset.notified") == ("shown" if granted else "denied")
        assert page.evaluate("document.body.dataset.sound") == "played"
        assert page.evaluate("window.__buzz.length") == 1
        banner = page.inner_text("#call-banner")
        assert next(p["name"] for p in ev.players if p["id"] == me) in banner and "Table 1" in banner
        shot(page, f"follow-call-{'granted' if granted else 'denied'}-{locale}")
        assert not guard.errors, guard.errors
    finally:
        ctx.close()
