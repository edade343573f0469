"""The people pages (PROTOCOL.md section 12) in a real headless Chromium against the real hub, at
phone size first and in both languages: /people searched as the reader types (the hub's folded and
pinyin search, paged), /people/{id} with its live match, statistics, events with places, matches
newest first (hand result and walkover marked), head-to-head picked by name, a merged person's page
sending the reader on, an unknown id. History is made on the hub over REST (people_helpers.py).
Screenshots: test-artifacts/people-*.png at phone, tablet and TV sizes in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .fans_helpers import PHONE, TV
from .people_helpers import History, call, make_history

TABLET = {"width": 1024, "height": 768}
SIZES = {"phone": PHONE, "tablet": TABLET, "tv": TV}
LANGS = {"en": "en-US", "zh": "zh-CN"}


@pytest.fixture(scope="module")
def history(hub_process: Hub) -> History:
    return make_history(hub_process.url)


def open_page(browser: Any, guard: PageWatch, url: str, size: str = "phone", lang: str = "en") -> Any:
    ctx = browser.new_context(locale=LANGS[lang], viewport=SIZES[size], has_touch=size != "tv")
    page = guard.attach(ctx.new_page())
    page.goto(url)
    return page


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")


def names_listed(page: Any) -> list[str]:
    return [n.strip() for n in page.locator("#people-list .pp-name").all_inner_texts()]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_directory_finds_as_you_type(hub_process: Hub, browser: Any, guard: PageWatch, history: History,
                                        lang: str) -> None:
    page = open_page(browser, guard, f"{hub_process.url}/people", lang=lang)
    page.wait_for_selector("body[data-loading='false']")
    assert page.locator("label[for='people-q']").text_content() == ("Find a player" if lang == "en" else "查找球员")
    box = page.locator("#people-q")
    box.press_sequentially("wang ye", delay=30)  # toneless pinyin finds the Chinese name
    page.wait_for_selector("body[data-query='wang ye'][data-loading='false']")
    assert names_listed(page) == ["王也"]
    assert "q=wang+ye" in page.url or "q=wang%20ye" in page.url
    box.fill("")
    box.press_sequentially("ＺＨＥＮＧ", delay=30)  # full-width, upper case
    page.wait_for_selector("body[data-query='ＺＨＥＮＧ'][data-loading='false']")
    assert names_listed(page) == ["Zheng Yubo"]
    assert page.locator("#people-list .pp-events").inner_text() == ("2 events" if lang == "en" else "2 项赛事")
    box.fill("nobody-here")
    page.wait_for_selector("body[data-query='nobody-here'][data-results='0']")
    assert "nobody-here" in page.locator("#people-status").inner_text()
    no_sideways_scroll(page)
    box.fill("王")
    page.wait_for_selector("body[data-query='王'][data-results='1']")
    shot(page, f"people-directory-phone-{lang}")
    page.locator("#people-list a").first.click()
    page.wait_for_url(f"**/people/{history.person('王也')}")
    assert not guard.errors and not guard.dialogs


def test_the_directory_pages_with_more(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    pagers = [{"name": f"Pager {i:02d}", "club": "Paging club"} for i in range(25)]
    call(hub_process.url, "POST", "/api/people", {"people": pagers})
    page = open_page(browser, guard, f"{hub_process.url}/people?q=pager")
    page.wait_for_selector("body[data-query='pager'][data-results='20']")
    assert page.locator("#people-more").is_visible()
    page.locator("#people-more").click()
    page.wait_for_selector("body[data-results='25']")
    assert page.locator("#people-more").is_hidden()
    listed = names_listed(page)
    assert listed == sorted(listed) and len(set(listed)) == 25  # the directory's order, nothing twice
    assert not guard.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_profile_on_a_phone(hub_process: Hub, browser: Any, guard: PageWatch, history: History, lang: str) -> None:
    wang, zheng = history.person("王也"), history.person("Zheng Yubo")
    page = open_page(browser, guard, f"{hub_process.url}/people/{wang}", lang=lang)
    page.wait_for_selector("body[data-person][data-matches='3']")
    assert page.locator("#pp-name").inner_text() == "王也"
    # the live match: the week 2 final
    assert page.locator("#pp-watch").get_attribute("href") == f"/watch/{history.live_match}"
    page.wait_for_selector("#pp-live-score")
    assert "Zheng Yubo" in page.inner_text("#pp-live-score")  # who they play and the score
    # events, newest first, with the place of the finished one
    events = page.locator("#pp-event-list .pp-e")
    assert [events.nth(i).get_attribute("data-tournament") for i in range(2)] == [history.week2.tid, history.week1.tid]
    assert events.nth(1).get_attribute("data-place") == "1"
    assert events.nth(1).locator(".pp-e-place").inner_text() == ("Place 1" if lang == "en" else "第 1 名")
    # matches newest first: the walkover, the final entered by hand, the semi-final played
    rows = page.locator("#pp-match-list .pp-m")
    assert [rows.nth(i).get_attribute("data-walkover") for i in range(3)] == ["true", "false", "false"]
    assert [rows.nth(i).get_attribute("data-entered") for i in range(3)] == ["false", "true", "false"]
    assert rows.nth(0).locator(".pp-wo").inner_text() == ("Walkover" if lang == "en" else "不战而胜")
    assert rows.nth(1).locator(".pp-m-score").inner_text() == "2–1"
    assert rows.nth(1).locator(".pp-m-where").inner_text().count("Final" if lang == "en" else "决赛") == 1
    # an opponent's name leads to their profile
    assert rows.nth(1).locator("a.person-link").get_attribute("href") == f"/people/{zheng}"
    # statistics: two matches played (one by hand), a golden break, a table run
    stat = page.locator("#pp-stats")
    won = "2 of 2 · 100%" if lang == "en" else "2 / 2 · 100%"
    assert stat.locator("[data-stat='matches'] dd").inner_text() == won
    assert stat.locator("[data-stat='golden_breaks'] dd").inner_text() == "1"
    assert stat.locator("[data-stat='table_runs'] dd").inner_text() == "1"
    assert stat.locator(".pp-entered-note").count() == 1
    no_sideways_scroll(page)
    shot(page, f"people-profile-phone-{lang}")
    assert not guard.errors and not guard.dialogs


def test_head_to_head_against_anyone_picked_by_name(hub_process: Hub, browser: Any, guard: PageWatch,
                                                   history: History) -> None:
    wang, zheng = history.person("王也"), history.person("Zheng Yubo")
    page = open_page(browser, guard, f"{hub_process.url}/people/{wang}")
    page.wait_for_selector("body[data-person]")
    page.locator("#h2h-q").press_sequentially("zheng", delay=30)
    page.locator(f"#h2h-options [data-person='{zheng}']").click()
    page.wait_for_selector(f"body[data-vs='{zheng}']")
    assert page.locator("#h2h-score").inner_text() == "1 – 0"
    assert page.locator("#h2h-racks").inner_text() == "Matches 1 · Racks 2 – 1"
    assert page.locator("#h2h-matches .pp-m").count() == 1
    assert f"vs={zheng}" in page.url
    # the shared link opens on it, from the other side
    other = open_page(browser, guard, f"{hub_process.url}/people/{zheng}?vs={wang}", lang="zh")
    other.wait_for_selector(f"body[data-vs='{wang}']")
    assert other.locator("#h2h-score").inner_text() == "0 – 1"
    other.locator("#h2h-clear").click()
    other.wait_for_selector("body[data-vs='']")
    assert "vs=" not in other.url
    # someone never met
    ko = history.person("Ko Pin-yi")
    third = open_page(browser, guard, f"{hub_process.url}/people/{ko}?vs={history.person('Fedor Gorst')}")
    third.wait_for_selector("body[data-vs]:not([data-vs=''])")
    assert third.locator("#h2h-none").inner_text() == "They have not met."
    assert not guard.errors


def test_a_merged_person_sends_the_reader_on_and_an_unknown_id_is_not_found(hub_process: Hub, browser: Any,
                                                                           guard: PageWatch) -> None:
    made = call(hub_process.url, "POST", "/api/people",
                {"people": [{"name": "Old Name"}, {"name": "New Name"}]})["people"]
    old, new = made[0]["id"], made[1]["id"]
    call(hub_process.url, "POST", f"/api/people/{old}/merge", {"into": new})
    page = open_page(browser, guard, f"{hub_process.url}/people/{old}")
    page.wait_for_url(f"**/people/{new}")
    page.wait_for_selector(f"body[data-person='{new}']")
    assert page.locator("#pp-name").inner_text() == "New Name"
    assert page.locator("#pp-aliases").count() == 0
    gone = open_page(browser, guard, f"{hub_process.url}/people/penothing000")
    gone.wait_for_selector("body[data-conn='not-found'] #not-found")
    assert not guard.errors


@pytest.mark.parametrize(("size", "lang"), [("tablet", "en"), ("tablet", "zh"), ("tv", "en"), ("tv", "zh")])
def test_the_pages_at_tablet_and_tv_sizes(
    hub_process: Hub, browser: Any, guard: PageWatch, history: History, size: str, lang: str
) -> None:
    wang, zheng = history.person("王也"), history.person("Zheng Yubo")
    page = open_page(browser, guard, f"{hub_process.url}/people/{wang}?vs={zheng}", size=size, lang=lang)
    page.wait_for_selector(f"body[data-matches='3'][data-vs='{zheng}']")
    no_sideways_scroll(page)
    # the statistics and head-to-head side by side
    stats, h2h = page.locator("#pp-stats").bounding_box(), page.locator("#pp-h2h").bounding_box()
    assert abs(stats["y"] - h2h["y"]) < 2 and h2h["x"] > stats["x"] + stats["width"] - 1
    shot(page, f"people-profile-{size}-{lang}")
    directory = open_page(browser, guard, f"{hub_process.url}/people?q=wang", size=size, lang=lang)
    directory.wait_for_selector("body[data-query='wang'][data-loading='false']")
    no_sideways_scroll(directory)
    shot(directory, f"people-directory-{size}-{lang}")
    assert not guard.errors
