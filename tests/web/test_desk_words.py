"""The desk's and the tablet's words in Chinese, in a real Chromium: a refusal of the hub the desk
knows (a result by hand with a score out of range) said in Chinese, not in the hub's English; one
link to the scoreboard on the run step; the exports linked in the page's language (a bye is 轮空);
details in full-width brackets on a Chinese tablet."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx

from .conftest import ADMIN_TOKEN, Hub, PageWatch, shot
from .tablet_helpers import TABLET, open_tablet, start
from .test_desk import open_desk

# The refusal of the hub as the desk says it: the desk's own call (its session cookie, its header)
# to POST /api/matches/{mid}/result, its error put in words by the desk's errorText.
REFUSAL = """async ([mid, body]) => {
  const { api } = await import("/static/js/desk-api.js");
  const { errorText } = await import("/static/js/desk-ui.js");
  try { await api("POST", `/api/matches/${encodeURIComponent(mid)}/result`, body); return null; }
  catch (e) { return [e.code, errorText(e)]; }
}"""


def event(hub_process: Hub, players: int) -> dict[str, Any]:
    """A single elimination of `players` (golden nine-ball, scored in points) on one table."""
    tid = hub_process.admin_post("/api/tournaments", {"name": f"Words {uuid.uuid4().hex[:4]}"})["id"]
    table = hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 1"})
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [
        {"name": n, "seed": i + 1} for i, n in enumerate(["Zheng Yubo", "杨帆 Yang Fan", "Wu Jiaqing"][:players])]})
    hub_process.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination", "seeding": "seeded",
                                                   "match": {"discipline": "golden_nine", "format": {"racks": 3}}})
    called = next(m for m in hub_process.get(f"/api/tournaments/{tid}")["draw"]["matches"] if m["status"] == "called")
    return {"tid": tid, "table": table, "called": called}


def test_a_refusal_the_desk_knows_is_said_in_the_pages_language(
    hub_process: Hub, browser: Any, guard: PageWatch
) -> None:
    ev = event(hub_process, 3)
    m = ev["called"]
    a, b = m["players"]
    out_of_range = {"winner": a, "score": {a: 5, b: -1}}
    for locale in ("zh-CN", "en-US"):
        ctx, page = open_desk(browser, hub_process, "tablet", locale, ADMIN_TOKEN)
        try:
            guard.attach(page)
            page.goto(f"{hub_process.url}/desk/{ev['tid']}/run")
            page.wait_for_selector(f".run-table[data-table='{ev['table']['id']}'] .rt-match")
            code, said = page.evaluate(REFUSAL, [m["match_id"], out_of_range])
            assert code == "bad_result"
            if locale == "zh-CN":
                assert said == "服务器拒绝了此结果：比分超出范围，或与胜者不符。（bad_result）", said
                assert not re.search(r"out of range|score\.", said)  # none of the hub's English
            else:  # the desk's sentence, then the hub's own words (they name the score)
                assert said.startswith("The hub refused this result: a score is out of range"), said
                assert "out of range" in said.split("(The hub:")[1] and "(bad_result)" in said, said
            # the scoreboard is linked once on the run step (the frame's header), the exports in
            # the page's language
            assert page.locator(f"a[href='/board/{ev['tid']}']").count() == 1
            csv_href = page.get_attribute("#run-csv", "href")
            lang = "zh-CN" if locale == "zh-CN" else "en"
            assert csv_href.endswith(f"results.csv?lang={lang}"), csv_href
            csv = httpx.get(hub_process.url + csv_href, timeout=10).text
            if lang == "zh-CN":
                assert "轮空" in csv and "(bye)" not in csv and "半决赛" in csv, csv
            else:
                assert "(bye)" in csv and "Semi-finals" in csv, csv
            shot(page, f"desk-words-run-{lang}")
        finally:
            ctx.close()
    assert not guard.errors and not guard.dialogs


def test_a_chinese_tablet_puts_details_in_full_width_brackets(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    ev = event(hub_process, 2)
    ctx = browser.new_context(locale="zh-CN", viewport=TABLET)
    try:
        tab = open_tablet(ctx, guard, hub_process, {"table_id": ev["table"]["id"], "token": ev["table"]["token"]})
        start(tab, ev["called"]["players"][0])
        tab.wait_for_selector("#log li .status")
        status = tab.inner_text("#log li .status")
        assert "已确认（#1）" in status and "(" not in status, status
        shot(tab, "tablet-words-zh")
    finally:
        ctx.close()
    assert not guard.errors and not guard.dialogs
