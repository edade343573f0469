"""Every player's name on the bracket, the board, the player page and the commentator screen leads to
their profile (PROTOCOL.md section 12), in a real Chromium against the real hub; the bracket's match
card still opens the match (its link lies under the names, never around them); the commentator shows
head-to-head and both players' statistics for this match, this event and their career, read from
the hub's stats API. History: people_helpers.py (week 2's final is being played)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .fans_helpers import PHONE, TV
from .people_helpers import History, call, make_history


@pytest.fixture(scope="module")
def history(hub_process: Hub) -> History:
    return make_history(hub_process.url)


def open_page(browser: Any, guard: PageWatch, url: str, size: dict[str, int] = PHONE, locale: str = "en-US") -> Any:
    ctx = browser.new_context(locale=locale, viewport=size)
    page = guard.attach(ctx.new_page())
    page.goto(url)
    return page


def test_the_bracket_names_lead_to_profiles_and_the_card_to_the_match(hub_process: Hub, browser: Any, guard: PageWatch,
                                                                      history: History) -> None:
    w2, wang = history.week2, history.person("王也")
    page = open_page(browser, guard, f"{hub_process.url}/bracket/{w2.tid}", size=TV)
    page.wait_for_selector("body[data-conn='live'][data-rendered] .bm[data-key='W2-1']")
    card = page.locator(".bm[data-key='W2-1']")
    assert card.locator(f"a.person-link[data-person='{wang}']").get_attribute("href") == f"/people/{wang}"
    assert card.locator("a.bm-watch").get_attribute("href") == f"/watch/{history.live_match}"
    assert card.locator("a a").count() == 0 and page.locator("a.bm-watch a").count() == 0  # no link inside a link
    # every entry's name on the page is a link, the withdrawn player's too
    for name in ("王也", "Zheng Yubo", "Ko Pin-yi", "Fedor Gorst"):
        assert page.locator(f"a.person-link[data-person='{w2.person(name)}']").count() >= 1, name
    card.click(position={"x": 6, "y": 6})  # the card, away from the names: the match
    page.wait_for_url(f"**/watch/{history.live_match}")
    page.go_back()
    page.wait_for_selector("body[data-rendered] .bm[data-key='W2-1']")
    page.locator(f".bm[data-key='W2-1'] a.person-link[data-person='{wang}']").click()
    page.wait_for_url(f"**/people/{wang}")
    page.wait_for_selector(f"body[data-person='{wang}']")
    assert not guard.errors


def test_the_board_and_the_player_page_link_names(hub_process: Hub, browser: Any, guard: PageWatch,
                                                  history: History) -> None:
    w2 = history.week2
    board = open_page(browser, guard, f"{hub_process.url}/board/{w2.tid}", size=TV, locale="zh-CN")
    board.wait_for_selector(f".cell .pl-row a.person-link[data-person='{w2.person('Zheng Yubo')}']")
    wang = board.locator(f".cell .pl-row a.person-link[data-person='{w2.person('王也')}']").first
    assert wang.get_attribute("href") == f"/people/{w2.person('王也')}"
    shot(board, "people-links-board-tv-zh")
    player = open_page(browser, guard, f"{hub_process.url}/player/{w2.tid}/{w2.pid('王也')}")
    player.wait_for_selector("#pl-name")
    assert player.locator("a.person-link:has(#pl-name)").get_attribute("href") == f"/people/{w2.person('王也')}"
    player.wait_for_selector("#pl-next a.person-link:has(#next-opponent)")
    opponent = player.locator("#pl-next a.person-link:has(#next-opponent)")
    assert opponent.get_attribute("href") == f"/people/{w2.person('Zheng Yubo')}"
    rows = player.locator("#pl-list .pl-m a.person-link")
    assert rows.count() >= 1 and rows.first.get_attribute("href") == f"/people/{w2.person('Fedor Gorst')}"
    assert not guard.errors


@pytest.mark.parametrize(("size", "lang"), [(TV, "en"), (PHONE, "zh")])
def test_the_commentator_shows_head_to_head_and_both_players_statistics(
        hub_process: Hub, browser: Any, guard: PageWatch, history: History, size: dict[str, int], lang: str) -> None:
    w2 = history.week2
    wang, zheng = w2.person("王也"), w2.person("Zheng Yubo")
    page = open_page(browser, guard, f"{hub_process.url}/commentator/{history.live_match}", size=size,
                     locale="en-US" if lang == "en" else "zh-CN")
    page.wait_for_selector("#cm-h2h .cm-h2h-score")
    # week 1's final, entered by hand: 王也 2-1
    assert page.locator("#cm-h2h .cm-h2h-score").inner_text().strip() == "1 – 0"
    # the scoreline's names lead to the profiles
    page.wait_for_selector(f"#match .scoreline a.person-link[data-person='{wang}']")
    assert page.locator(f"#match .scoreline a.person-link[data-person='{zheng}']").count() == 1
    grid = page.locator("#people-stats")
    # this match: 王也 broke once, dry; Zheng Yubo has not broken yet
    assert grid.locator("tr[data-scope='match'][data-stat='breaks'] td").all_inner_texts() == ["1", "–"]
    assert grid.locator("tr[data-scope='match'][data-stat='dry'] td").first.inner_text() == "1 · 100%"
    # career: Zheng Yubo's two semi-finals, each won 2-0 with a golden break
    assert grid.locator("tr[data-scope='career'][data-stat='golden_breaks'] td").all_inner_texts() == ["1", "2"]
    assert grid.locator("tr[data-scope='event'][data-stat='matches'] td").all_inner_texts()[1] \
        == ("1 of 1 · 100%" if lang == "en" else "1 / 1 · 100%")
    # a stroke moves this match's statistics on, live (whoever is at the table misses: always a stroke)
    m = call(hub_process.url, "GET", f"/api/matches/{history.live_match}")
    low = min(b for b in m["rack"]["on_table"] if b)
    miss = {"kind": "shot", "player": m["rack"]["shooter"], "first_contact": low, "rail": True}
    w2.send(history.live_match, miss)
    page.wait_for_selector(f"body[data-people-stats='{m['version'] + 1}']")
    strokes = call(hub_process.url, "GET", f"/api/matches/{history.live_match}/stats")["players"]
    # every event but the start is a stroke
    assert sum(p["stats"]["total"]["strokes"]["count"] for p in strokes) == m["version"]
    shot(page, f"people-commentator-{'tv' if size == TV else 'phone'}-{lang}")
    assert not guard.errors
