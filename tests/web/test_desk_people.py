"""The desk's players step with people (PROTOCOL.md section 12), in a real Chromium against the real
hub: someone known is found as the organiser types (the hub's pinyin search) and added as that
person; a pasted list says how many entries it linked to people already known and how many it made
new, each row marked; any row is linked to another person from its own finder (the hub's PATCH)."""

from __future__ import annotations

from typing import Any

from .conftest import ADMIN_TOKEN, Hub, PageWatch, shot
from .fans_helpers import PHONE
from .people_helpers import call


def desk_page(browser: Any, guard: PageWatch, hub_process: Hub, path: str, locale: str = "en-US",
              size: dict[str, int] | None = None) -> Any:
    ctx = browser.new_context(locale=locale, viewport=size or {"width": 1280, "height": 900})
    page = guard.attach(ctx.new_page())
    page.goto(f"{hub_process.url}/desk")
    page.fill("#signin-token", ADMIN_TOKEN)
    page.click("#signin-submit")
    page.wait_for_selector("#create-tournament")
    page.goto(f"{hub_process.url}{path}")
    return page


def entry(hub_process: Hub, tid: str, name: str) -> dict[str, Any]:
    return next(p for p in call(hub_process.url, "GET", f"/api/tournaments/{tid}")["players"] if p["name"] == name)


def test_find_add_report_and_relink(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    people = [{"name": "王也", "club": "Beijing"}, {"name": "Zheng Yubo"}, {"name": "Nick Newman", "club": "Leeds"}]
    known = call(hub_process.url, "POST", "/api/people", {"people": people})["people"]
    wang, zheng, nick = (p["id"] for p in known)
    tid = call(hub_process.url, "POST", "/api/tournaments", {"name": "Thursday"})["id"]
    page = desk_page(browser, guard, hub_process, f"/desk/{tid}/players")
    page.wait_for_selector("#people-find")
    # found as the organiser types, by pinyin; added as that person
    page.locator("#people-find").press_sequentially("wang ye", delay=30)
    page.locator(f"#people-find-results button[data-person='{wang}']").click()
    page.wait_for_selector("#player-list .player-row .badge[data-link='linked']")
    row = page.locator("#player-list .player-row").first
    assert row.locator(".p-person").get_attribute("href") == f"/people/{wang}"
    assert entry(hub_process, tid, "王也")["person"] == wang and entry(hub_process, tid, "王也")["club"] == "Beijing"
    # someone already entered is not offered again
    page.locator("#people-find").press_sequentially("wang", delay=30)
    page.wait_for_selector("#people-find-results[data-query='wang']")
    assert page.locator(f"#people-find-results [data-person='{wang}']").count() == 0
    page.locator("#people-find").fill("")
    # a pasted list: one linked by the rule, one new person
    page.fill("#players-text", "Zheng Yubo\nBrand New Player\n")
    page.click("#add-players")
    page.wait_for_selector("#players-message.ok:has-text('linked to people already known')")
    assert "1 linked to people already known, 1 new." in page.inner_text("#players-message")
    new_row = page.locator("#player-list .player-row", has_text="Brand New Player")
    assert new_row.locator(".badge").last.get_attribute("data-link") == "created"
    zheng_row = page.locator("#player-list .player-row", has_text="Zheng Yubo")
    assert zheng_row.locator("[data-link]").get_attribute("data-link") == "linked"
    assert entry(hub_process, tid, "Zheng Yubo")["person"] == zheng
    # the new one was really Nick Newman: fixed from its row
    new_row.locator("button[data-action='relink']").click()
    page.locator("#relink-find").press_sequentially("newman", delay=30)
    page.locator(f"#relink-find-results button[data-person='{nick}']").click()
    page.wait_for_selector("#players-message.ok:has-text('is now linked to')")
    assert entry(hub_process, tid, "Brand New Player")["person"] == nick
    assert not guard.errors and not guard.dialogs


def test_the_finder_on_a_phone_in_chinese(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    call(hub_process.url, "POST", "/api/people", {"people": [{"name": "杨帆", "club": "上海"}]})
    tid = call(hub_process.url, "POST", "/api/tournaments", {"name": "周四"})["id"]
    page = desk_page(browser, guard, hub_process, f"/desk/{tid}/players", locale="zh-CN", size=PHONE)
    page.wait_for_selector("#people-find")
    assert page.locator("label[for='people-find'] .field-label").inner_text() == "添加曾在这里参赛的球员"
    page.locator("#people-find").press_sequentially("yang fan", delay=30)
    page.wait_for_selector("#people-find-results button.people-pick")
    assert "杨帆" in page.locator("#people-find-results").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
    shot(page, "people-desk-finder-phone-zh")
    assert not guard.errors
