"""The sign-up page /enter/{tid} in Chromium (PROTOCOL.md section 14), phone first, both languages:
a player signs up, keeps the link (the secret in the fragment), sees their waitlist place, moves up
when a place comes free, checks in inside the window with the countdown showing, and cancels."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .conftest import ADMIN_TOKEN, Hub, PageWatch, shot

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def open_registration(hub_process: Hub, **registration: Any) -> str:
    tid = hub_process.tournament("Spring Open 春季公开赛")
    r = httpx.patch(
        f"{hub_process.url}/api/tournaments/{tid}", json={"registration": registration}, headers=ADMIN, timeout=10
    )
    assert r.status_code == 200, r.text
    return tid


def phone(browser: Any, locale: str) -> Any:
    return browser.new_context(locale=locale, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)


def test_sign_up_waitlist_promotion_check_in_and_cancel(hub_process: Hub, browser: Any) -> None:
    now = int(time.time() * 1000)
    tid = open_registration(
        hub_process, open=True, auto_accept=True, cap=1, check_in={"opens_at": now - 1000, "closes_at": now + 3_600_000}
    )
    first = httpx.post(f"{hub_process.url}/api/tournaments/{tid}/entries", json={"name": "Ann"}, timeout=10).json()
    ctx = phone(browser, "en-US")
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        page.goto(f"{hub_process.url}/enter/{tid}")
        page.wait_for_selector("#en-form:not(.hidden)")
        assert "Spring Open" in page.inner_text("#en-heading")
        assert "1 of 1 places taken" in page.inner_text("#en-info")
        shot(page, "enter-form-en")
        page.fill("#en-name", "Bob Lee")
        page.fill("#en-contact", "+86 139 0000 1111")
        page.click("#en-submit")
        page.wait_for_selector("#en-status[data-status='waitlisted']")
        assert "place 1" in page.inner_text("#en-status")
        assert "#secret=" in page.url and len(page.url.split("#secret=", 1)[1]) >= 22
        assert "139 0000" not in page.content()  # the contact is never shown back
        shot(page, "enter-waitlisted-en")
        link = page.url
        # Ann cancels: Bob moves up by himself (the page reads the entry again)
        r = httpx.delete(
            f"{hub_process.url}/api/entries/self", headers={"Authorization": f"Bearer {first['secret']}"}, timeout=10
        )
        assert r.status_code == 200
        page.wait_for_selector("#en-status[data-status='accepted']", timeout=15_000)
        assert page.is_visible("#en-promoted") and "Check-in closes in" in page.inner_text("#en-countdown")
        shot(page, "enter-accepted-en")
        page.click("#en-check-in")
        page.wait_for_selector("#en-status[data-status='checked_in']")
        # the link alone opens the entry in another browser
        other = phone(browser, "en-US")
        try:
            p2 = other.new_page()
            p2.goto(link)
            p2.wait_for_selector("#en-status[data-status='checked_in']")
            p2.click("#en-cancel")
            p2.click("#modal-confirm")
            p2.wait_for_selector("#en-status[data-status='cancelled']")
        finally:
            other.close()
        assert guard.dialogs == [] and guard.errors == []
    finally:
        ctx.close()


def test_the_page_in_chinese_and_a_closed_registration(hub_process: Hub, browser: Any) -> None:
    tid = open_registration(hub_process, open=True)
    closed = open_registration(hub_process, open=False)
    ctx = phone(browser, "zh-CN")
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        page.goto(f"{hub_process.url}/enter/{closed}")
        page.wait_for_selector("body[data-ready='1']")
        assert page.is_hidden("#en-form") and "报名尚未开始" in page.inner_text("#en-info")
        page.goto(f"{hub_process.url}/enter/{tid}")
        page.wait_for_selector("#en-form:not(.hidden)")
        assert page.inner_text("#en-submit") == "报名"
        shot(page, "enter-form-zh")
        page.fill("#en-name", "王也")
        page.fill("#en-club", "龙门台球")
        page.click("#en-submit")
        page.wait_for_selector("#en-status[data-status='pending']")
        assert "等待主办方审核" in page.inner_text("#en-status")
        assert "null" not in page.inner_text("#en-mine")
        shot(page, "enter-pending-zh")
        secret = page.url.split("#secret=", 1)[1]
        # the same name and contact again: refused in Chinese
        page.goto(f"{hub_process.url}/enter/{tid}?lang=zh-CN")
        page.wait_for_selector("#en-status[data-status='pending']")  # kept in this browser
        assert page.url.endswith(f"#secret={secret}")
        page.evaluate("localStorage.clear()")
        page.goto(f"{hub_process.url}/enter/{tid}")
        page.wait_for_selector("#en-form:not(.hidden)")
        page.fill("#en-name", "王 也")
        page.fill("#en-club", "龙门台球")
        page.click("#en-submit")
        page.wait_for_selector("#en-message:not(.hidden)")
        assert "已用此姓名和联系方式报过名" in page.inner_text("#en-message")
        assert guard.dialogs == [] and guard.errors == []
    finally:
        ctx.close()
