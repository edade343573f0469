"""The desk's entries step in Chromium (PROTOCOL.md section 14): the registration's settings, the
counts, each entry with its contact, and accept / reject / waitlist / check in; the no-shows of the
check-in's close named; both languages."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .conftest import ADMIN_TOKEN, Hub, PageWatch, shot

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def desk(browser: Any, hub_process: Hub, locale: str, width: int = 1024, height: int = 768) -> tuple[Any, Any]:
    ctx = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.goto(f"{hub_process.url}/desk")
    page.wait_for_selector("#signin-token")
    page.fill("#signin-token", ADMIN_TOKEN)
    page.click("#signin-submit")
    page.wait_for_selector("#create-tournament")
    return ctx, page


def entry_row(page: Any, name: str) -> Any:
    return page.locator(".en-row", has_text=name)


def test_the_desk_opens_registration_and_handles_entries(hub_process: Hub, browser: Any) -> None:
    tid = hub_process.tournament("Club Night")
    ctx, page = desk(browser, hub_process, "en-US")
    guard = PageWatch()
    guard.attach(page)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/entries")
        page.wait_for_selector("#en-settings-form")
        assert page.is_visible("#en-none")
        page.check("#en-open")
        page.fill("#en-cap", "2")
        page.click("#en-save")
        page.wait_for_selector("#entries-message.ok")
        reg = httpx.get(f"{hub_process.url}/api/tournaments/{tid}/registration", timeout=10).json()
        assert reg["open"] is True and reg["cap"] == 2 and reg["auto_accept"] is False
        for name, contact in (("Ann", "ann@mail"), ("Bob", "bob@mail"), ("Cat", "cat@mail"), ("Dan", "138 1234")):
            r = httpx.post(f"{hub_process.url}/api/tournaments/{tid}/entries", json={"name": name, "contact": contact},
                           timeout=10)
            assert r.status_code == 201
        page.wait_for_selector(".en-row[data-entry='e4']", timeout=10_000)
        assert "138 1234" in entry_row(page, "Dan").inner_text()
        entry_row(page, "Ann").locator("[data-action='accept']").click()
        page.wait_for_selector(".en-row[data-entry='e1'][data-status='accepted']")
        entry_row(page, "Bob").locator("[data-action='reject']").click()
        page.wait_for_selector(".en-row[data-entry='e2'][data-status='rejected']")
        entry_row(page, "Cat").locator("[data-action='waitlist']").click()
        page.wait_for_selector(".en-row[data-entry='e3'][data-status='waitlisted']")
        entry_row(page, "Ann").locator("[data-action='check_in']").click()
        page.wait_for_selector(".en-row[data-entry='e1'][data-status='checked_in']")
        counts = page.inner_text("#en-counts")
        assert "1 in" in counts and "1 checked in" in counts and "1 waitlisted" in counts and "4 entries" in counts
        shot(page, "desk-entries-en")
        players = httpx.get(f"{hub_process.url}/api/tournaments/{tid}/players", timeout=10).json()["players"]
        assert [p["name"] for p in players] == ["Ann"]
        assert guard.dialogs == [] and guard.errors == []
    finally:
        ctx.close()


def test_the_desk_names_the_no_shows_in_chinese(hub_process: Hub, browser: Any) -> None:
    tid = hub_process.tournament("周末赛")
    far = int(time.time() * 1000) + 600_000
    r = httpx.patch(f"{hub_process.url}/api/tournaments/{tid}", json={"registration": {
        "open": True, "auto_accept": True, "check_in": {"closes_at": far}}}, headers=ADMIN, timeout=10)
    assert r.status_code == 200
    for name in ("李明", "张伟"):
        httpx.post(
            f"{hub_process.url}/api/tournaments/{tid}/entries", json={"name": name, "contact": "wx-" + name}, timeout=10
        )
    ctx, page = desk(browser, hub_process, "zh-CN")
    guard = PageWatch()
    guard.attach(page)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/entries")
        page.wait_for_selector(".en-row[data-entry='e2']")
        assert "距签到截止" in page.inner_text("#en-ci")
        entry_row(page, "李明").locator("[data-action='check_in']").click()
        page.wait_for_selector(".en-row[data-entry='e1'][data-status='checked_in']")
        soon = int(time.time() * 1000) + 1_000
        httpx.patch(
            f"{hub_process.url}/api/tournaments/{tid}",
            json={"registration": {"check_in": {"closes_at": soon}}},
            headers=ADMIN,
            timeout=10,
        )
        page.wait_for_selector("#en-no-shows", timeout=15_000)
        assert "张伟" in page.inner_text("#en-no-shows") and "签到截止时未到" in page.inner_text("#en-no-shows")
        assert page.locator(".en-row[data-entry='e2'] .en-chip").inner_text() == "未到"
        shot(page, "desk-entries-zh")
        page.set_viewport_size({"width": 390, "height": 844})  # a phone at the desk: nothing wider than it
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "desk-entries-zh-phone")
        assert guard.dialogs == [] and guard.errors == []
    finally:
        ctx.close()
