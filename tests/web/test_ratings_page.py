"""The ratings page (/ratings) in a real headless Chromium against the real hub (conftest.py), at
phone, tablet and TV sizes in English and Chinese: the list best first, the provisional ones after,
"Show more" for the next page, another discipline. The ratings are written into the hub's read
model directly (a fit from played matches is tests/ratings/'s), for 55 people made over REST.
Screenshots: test-artifacts/ratings-*.png."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .fans_helpers import PHONE, TABLET, TV

SIZES = {"phone": PHONE, "tablet": TABLET, "tv": TV}
LANGS = {"en": "en-US", "zh": "zh-CN"}
TITLE = {"en": "Ratings", "zh": "等级分"}
PROVISIONAL = {"en": "Provisional (fewer than 100 racks)", "zh": "暂定（少于100局）"}


@pytest.fixture(scope="module")
def rated(hub_process: Hub) -> list[dict[str, Any]]:
    names = ["王也 Wang Ye", "Zheng Yubo", "محمد Ali", *(f"Player {i:02d}" for i in range(52))]
    people = hub_process.post("/api/people", {"people": [{"name": n} for n in names]})["people"]
    rows = []
    for i, p in enumerate(people):
        provisional = i >= 48  # the last 7 are provisional
        rows.append({"person": p["id"], "name": p["name"], "value": 800 - 5 * i,
                     "racks": 40 if provisional else 150 + i, "provisional": provisional,
                     "position": i + 1, "rank": i + 1})
    db = sqlite3.connect(str(hub_process.workdir / "hub.db"))
    with db:
        db.executemany("INSERT INTO ratings (discipline, person_id, value, exact, racks, provisional, rank, position) "
                       "VALUES ('wpa_nine', ?, ?, ?, ?, ?, ?, ?)",
                       [(r["person"], r["value"], float(r["value"]), r["racks"], r["provisional"], r["rank"],
                         r["position"]) for r in rows])
    db.close()
    return rows


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "tablet", "tv"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_list_best_first_provisional_after_and_more(browser: Any, guard: PageWatch, hub_process: Hub,
                                                        rated: list[dict[str, Any]], size: str, lang: str) -> None:
    ctx = browser.new_context(locale=LANGS[lang], viewport=SIZES[size], has_touch=size != "tv")
    page = guard.attach(ctx.new_page())
    page.goto(f"{hub_process.url}/ratings?discipline=wpa_nine")
    page.wait_for_selector("#rt-firm .rt-row[data-person]")
    assert TITLE[lang] in page.locator("#ratings h2").inner_text()
    first = page.locator("#rt-firm .rt-row[data-person]")
    assert first.count() == 48  # a page is 50 rows: 48 firm, 2 provisional
    assert first.nth(0).get_attribute("data-person") == rated[0]["person"]
    assert first.nth(0).locator(".rt-value").inner_text() == "800"
    assert page.locator(".rt-prov-head").inner_text() == PROVISIONAL[lang]
    assert page.locator("#rt-provisional .rt-row[data-person]").count() == 2
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], "nothing wider than the screen"
    shot(page, f"ratings-{size}-{lang}")
    page.locator("#rt-more").click()
    page.wait_for_selector("#rt-provisional .rt-row[data-person]:nth-child(7)")
    assert page.locator("#rt-more").count() == 0
    assert page.locator("#rt-provisional .rt-row[data-person]").last.get_attribute("data-person") == rated[-1]["person"]
    page.select_option("#rt-discipline", "wpa_ten")
    page.wait_for_selector("#rt-none")
    assert "discipline=wpa_ten" in page.url
    assert guard.errors == [] and guard.dialogs == []
    ctx.close()


@pytest.mark.browser
def test_the_commentator_shows_ratings_and_chances_rack_by_rack(watch_gateway: Hub, context: Any,
                                                                guard: PageWatch) -> None:
    from .tablet_helpers import command, new_match

    hub_process = watch_gateway
    t = new_match(hub_process, "wpa_nine", fmt={"race_to": 3}, table_name="Arena 9")  # players a and b: no person
    com = guard.attach(context.new_page())
    com.goto(f"{hub_process.url}/commentator/{t['match_id']}")
    com.wait_for_selector("#odds .odds-chance")
    assert com.locator("#odds .odds-rating").all_inner_texts() == ["Unrated", "Unrated"]  # both play at 500
    assert com.locator("#odds .odds-chance").all_inner_texts() == ["50% to win", "50% to win"]
    command(hub_process, t, {"kind": "start", "breaker": "a"})
    command(hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [9], "break_rails": 4})
    # 1-0 in a race to 3 at even odds: a needs 2 before b takes 3 = 11/16
    com.locator("#odds .odds-chance", has_text="69% to win").wait_for()
    assert com.locator("#odds .odds-chance").all_inner_texts() == ["69% to win", "31% to win"]
    shot(com, "ratings-commentator-odds")
    assert guard.errors == []
