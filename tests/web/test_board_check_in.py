"""The board's check-in countdown (clients/web/js/board-check-in.js, PROTOCOL.md section 14): shown
while the window is open, on a TV and a phone, in both languages; gone once the window has closed."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .conftest import ADMIN_TOKEN, Hub, PageWatch, shot

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def test_the_board_counts_down_the_check_in(hub_process: Hub, browser: Any) -> None:
    tid = hub_process.tournament("Check-in Open")
    hub_process.table(tid, "Table 1")
    # 59:30 from now: the countdown rounds up, so a window of a whole hour read within its first
    # second shows 1:00:00; half a minute less reads 59:xx however soon or late the page comes.
    closes = int(time.time() * 1000) + 3_570_000
    r = httpx.patch(f"{hub_process.url}/api/tournaments/{tid}", json={"registration": {
        "open": True, "auto_accept": True, "check_in": {"closes_at": closes}}}, headers=ADMIN, timeout=10)
    assert r.status_code == 200
    for name in ("Ann", "Bob"):
        httpx.post(f"{hub_process.url}/api/tournaments/{tid}/entries", json={"name": name, "contact": "x"}, timeout=10)
    looks = (("en-US", (1920, 1080), "Check-in closes in 59:"), ("zh-CN", (390, 844), "距签到截止 59:"))
    for locale, size, expect in looks:
        ctx = browser.new_context(locale=locale, viewport={"width": size[0], "height": size[1]})
        guard = PageWatch()
        try:
            page = guard.attach(ctx.new_page())
            page.goto(f"{hub_process.url}/board/{tid}")
            page.wait_for_selector("#check-in-countdown:not(.hidden)")
            text = page.inner_text("#check-in-countdown")
            assert expect in text and ("0 of 2" in text or "0/2" in text), text
            shot(page, f"board-check-in-{locale}")
            assert guard.errors == [] and guard.dialogs == []
        finally:
            ctx.close()
    soon = int(time.time() * 1000) + 1_000
    httpx.patch(f"{hub_process.url}/api/tournaments/{tid}", json={"registration": {"check_in": {"closes_at": soon}}},
                headers=ADMIN, timeout=10)
    time.sleep(1.5)
    ctx = browser.new_context(locale="en-US", viewport={"width": 1920, "height": 1080})
    try:
        page = ctx.new_page()
        page.goto(f"{hub_process.url}/board/{tid}")
        page.wait_for_selector("#board")
        page.wait_for_timeout(1500)
        assert page.is_hidden("#check-in-countdown")
    finally:
        ctx.close()
