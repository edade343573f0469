"""The screens that follow a table or a match, in a real headless Chromium against the real hub: "not found" for an
unknown id on every page, a connection light apart from the match's status that goes amber when
no data comes, watch and commentator pages that follow a table to its next match with its names,
an overlay that lays out every discipline and takes options in the URL, and rack numbers in the
commentator's log; screenshots at phone, tablet and TV sizes in both languages."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, Hub, PageWatch, shot
from .tablet_helpers import command, new_match, start, version

SIZES = {"phone": (390, 844), "tablet": (1280, 800), "tv": (1920, 1080)}


@pytest.mark.parametrize("path,key", [
    ("/tablet/tb_nope", "table"), ("/board/t_nope", "tournament"), ("/watch/m_nope", "match"),
    ("/watch/table/tb_nope", "table"), ("/commentator/m_nope", "match"), ("/commentator/table/tb_nope", "table"),
    ("/bracket/t_nope", "tournament"),
])
def test_an_unknown_id_says_not_found(watch_gateway: Hub, context: Any, guard: PageWatch, path: str, key: str) -> None:
    page = guard.attach(context.new_page())
    page.goto(watch_gateway.url + path)
    page.wait_for_selector("#not-found", timeout=8000)
    text = page.locator("#not-found").inner_text()
    assert "Not found" in text and "_nope" in text and key in text.lower(), text
    assert page.locator("body[data-conn='not-found']").count() == 1
    assert "Connected" not in page.locator("#conn").inner_text() and "Live" not in page.locator("body").inner_text()
    assert guard.errors == []


def test_the_overlay_of_an_unknown_table_says_not_found(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    page = guard.attach(context.new_page())
    page.goto(watch_gateway.url + "/overlay/tb_nope")
    page.wait_for_selector("#not-found", timeout=8000)
    assert "Not found" in page.locator("#not-found").inner_text()


def test_the_api_answers_a_table_by_id(hub_process: Hub) -> None:
    t = new_match(hub_process, table_name="Arena 1", tournament="Spring Open")
    info = hub_process.get(f"/api/tables/{t['table_id']}")
    assert info == {"id": t["table_id"], "name": "Arena 1", "tournament_id": t["tid"], "tournament_name": "Spring Open",
                    "match_id": t["match_id"], "tablets": 0}
    r = httpx.get(f"{hub_process.url}/api/tables/tb_nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_watch_and_commentator_follow_the_table_to_its_next_match(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "wpa_nine", fmt={"race_to": 1}, table_name="Arena 2", tournament="Autumn Cup")
    watch = guard.attach(context.new_page())
    watch.set_viewport_size({"width": 390, "height": 844})
    watch.goto(f"{hub_process.url}/watch/table/{t['table_id']}")
    watch.wait_for_selector(f"body[data-match='{t['match_id']}']")
    com = guard.attach(context.new_page())
    com.goto(f"{hub_process.url}/commentator/table/{t['table_id']}")
    com.wait_for_selector(f"body[data-match='{t['match_id']}']")
    watch.locator("#meta:text('Arena 2')").wait_for()
    assert "Autumn Cup" in watch.locator("#meta").inner_text()
    # The table's name comes with its own answer (GET /api/tables/{id}), after the match's state.
    com.locator("#meta", has_text="Arena 2").wait_for()  # the name sits in a <bdi> inside #meta

    # The first match is played out: a 9 on the break wins the race to 1.
    command(hub_process, t, {"kind": "start", "breaker": "a"})
    command(hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [9], "break_rails": 4})
    watch.wait_for_selector("#result")
    com.wait_for_selector("#strokes li[data-version='2']")
    assert "Connected" in watch.locator("#conn").inner_text()  # the light is the link, not the match
    assert "Finished" in watch.locator("#phase").inner_text()
    # The rack-winning stroke is logged with its own rack's number, not the next one's.
    assert com.locator("#strokes li[data-version='2']").get_attribute("data-rack") == "1"

    # The next match on the table: both pages move to it by themselves.
    m2 = hub_process.post(
        "/api/matches",
        {
            "tournament_id": t["tid"],
            "table_id": t["table_id"],
            "discipline": "golden_nine",
            "players": [{"id": "x", "name": "Fu Xiaofang"}, {"id": "y", "name": "Chen Siming"}],
            "format": {"racks": 5},
        },
    )
    watch.wait_for_selector(f"body[data-match='{m2['id']}']", timeout=8000)
    com.wait_for_selector(f"body[data-match='{m2['id']}']", timeout=8000)
    command(hub_process, t, {"kind": "start", "breaker": "x"}, match_id=m2["id"])
    watch.wait_for_selector(".pl[data-player='x'] .badge.at")
    com.wait_for_selector("#strokes li[data-version='1']")
    assert com.locator("#strokes li").count() == 1  # the log started afresh
    assert "Fu Xiaofang" in watch.locator("#match").inner_text()
    assert "Arena 2" in watch.locator("#meta").inner_text()
    shot(watch, "screens-watch-follow-table")
    shot(com, "screens-commentator-follow-table")
    assert guard.errors == []


def test_a_finished_match_page_offers_to_follow_its_table(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "wpa_nine", fmt={"race_to": 1}, table_name="Arena 4")
    command(hub_process, t, {"kind": "start", "breaker": "a"})
    command(hub_process, t, {"kind": "concede", "player": "a", "scope": "match"})
    page = guard.attach(context.new_page())
    page.goto(f"{hub_process.url}/watch/{t['match_id']}")
    page.wait_for_selector("#follow-table")
    assert page.locator("#follow-table").get_attribute("href") == f"/watch/table/{t['table_id']}"
    page.locator("#follow-table:has-text('Arena 4')").wait_for()  # the name, once the tournament is read
    assert page.inner_text("#follow-table bdi") == "Arena 4"  # a table's name isolated in the sentence


def test_the_light_goes_amber_when_no_data_comes(watch_gateway: Hub, browser: Any) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process)
    command(hub_process, t, {"kind": "start", "breaker": "a"})
    ctx = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.goto(f"{hub_process.url}/watch/{t['match_id']}")
        page.wait_for_selector("body[data-conn='live']")
        assert page.locator("#conn").inner_text() == "Connected"
        ctx.set_offline(True)  # a half-dead link: the socket stays "open", nothing comes through
        page.wait_for_selector("body[data-conn='stale'], body[data-conn='offline']", timeout=20000)
        assert "reconnecting" in page.locator("#conn").inner_text()
        assert page.locator("#phase").inner_text() == "Break"  # the match's status is apart from the light
        ctx.set_offline(False)
        page.wait_for_selector("body[data-conn='live']", timeout=20000)
    finally:
        ctx.close()


def test_the_hub_answers_a_watch_ping(watch_gateway: Hub) -> None:
    import json

    from websockets.sync.client import connect

    with connect(watch_gateway.url.replace("http", "ws", 1) + "/ws/watch", open_timeout=5) as ws:
        ws.send(json.dumps({"type": "ping"}))
        msg = json.loads(ws.recv(timeout=5))
    assert msg["type"] == "pong" and isinstance(msg["server_time"], int)


@pytest.mark.parametrize("discipline", ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine"])
def test_the_overlay_lays_out_every_discipline(
    watch_gateway: Hub, context: Any, guard: PageWatch, discipline: str
) -> None:
    hub_process = watch_gateway
    t = new_match(
        hub_process,
        discipline,
        players=[("a", "Ko Pin-yi"), ("b", "Fedor Gorst")]
        + ([("c", "韩雨 Han Yu")] if discipline == "chase_nine" else []),
        table_name="TV Table",
        tournament="World Open",
    )
    start_cmd = (
        {"kind": "start", "order": ["a", "b", "c"]} if discipline == "chase_nine" else {"kind": "start", "breaker": "a"}
    )
    command(hub_process, t, start_cmd)
    page = guard.attach(context.new_page())
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{hub_process.url}/overlay/{t['table_id']}?title=auto")
    page.wait_for_selector("#bug .row .score")
    page.locator("#bug-title", has_text="TV Table").wait_for()  # the names are each in a <bdi> inside it
    assert "World Open" in page.locator("#bug-title").inner_text()
    # Every score has room for two digits and a sign: never squeezed below its text.
    sizes = page.locator("#bug .row .score").evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.scrollWidth,"
        " parseFloat(getComputedStyle(e).fontSize)])"
    )
    for width, needed, font in sizes:
        assert width >= needed and width >= 1.8 * font * 0.95, sizes
    rows = page.locator("#bug .row").count()
    assert rows == (3 if discipline == "chase_nine" else 2)
    page.screenshot(path=str(ARTIFACTS / f"screens-overlay-{discipline}.png"), omit_background=True)

    # Options: position, scale, a title of its own.
    page.goto(f"{hub_process.url}/overlay/{t['table_id']}?position=top-right&scale=2&title=Final")
    page.wait_for_selector("#bug .row .score")
    box = page.locator("#bug").bounding_box()
    assert box["x"] + box["width"] / 2 > 960 and box["y"] + box["height"] / 2 < 540, box
    assert page.locator("#bug-title").inner_text() == "Final"
    font = page.locator("#bug").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert font == pytest.approx(2 * min(40, max(14, 1920 * 0.022)), rel=0.02)
    page.screenshot(path=str(ARTIFACTS / f"screens-overlay-{discipline}-top-right.png"), omit_background=True)


def test_screens_at_every_size_in_both_languages(watch_gateway: Hub, browser: Any) -> None:
    """Screenshots for a person to look at (test-artifacts/screens-*.png), and no page scrolls
    sideways at any size."""
    hub_process = watch_gateway
    t = new_match(
        hub_process,
        players=[("a", "郑宇伯 Zheng Yubo"), ("b", "Wang Can")],
        table_name="Table 5",
        tournament="National Open",
        options={"shot_clock": {"shot_s": 60, "break_s": 60}},
    )
    for lang in ("en", "zh-CN"):
        ctx = browser.new_context(locale=lang, viewport={"width": 1280, "height": 800})
        try:
            tablet = ctx.new_page()
            tablet.goto(f"{hub_process.url}/tablet/{t['table_id']}?lang={lang}#token={t['token']}")
            tablet.wait_for_selector("body[data-conn='live']")
            if lang == "en":
                start(tablet)
                tablet.click("#break-counts [data-count='4']")
                tablet.click("#pk-grid [data-ball='2']")
                tablet.click("#enter-stroke")
                version(tablet, 2)
                tablet.click("#cue-ball [data-cue='pocketed']")  # a scratch: no rail question
                tablet.click("#enter-stroke")
                version(tablet, 3)
            tablet.wait_for_selector("#verdict.foul")
            pages = {
                "tablet": tablet,
                "watch": f"/watch/table/{t['table_id']}",
                "commentator": f"/commentator/{t['match_id']}",
                "board": f"/board/{t['tid']}",
            }
            for name, target in pages.items():
                page = target if not isinstance(target, str) else ctx.new_page()
                if isinstance(target, str):
                    page.goto(f"{hub_process.url}{target}?lang={lang}")
                    page.wait_for_selector("body[data-conn='live']")
                    page.wait_for_timeout(400)
                for size, (w, h) in SIZES.items():
                    page.set_viewport_size({"width": w, "height": h})
                    page.wait_for_timeout(150)
                    wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
                    assert wide[0] <= wide[1], (name, size, lang, wide)
                    shot(page, f"screens-{name}-{lang}-{size}")
            overlay = ctx.new_page()
            overlay.set_viewport_size({"width": 1920, "height": 1080})
            overlay.goto(f"{hub_process.url}/overlay/{t['table_id']}?lang={lang}&title=auto")
            overlay.wait_for_selector("#bug .row .score")
            overlay.wait_for_timeout(300)
            overlay.screenshot(path=str(ARTIFACTS / f"screens-overlay-{lang}-tv.png"), omit_background=True)
        finally:
            ctx.close()
