"""The board names a draw match by its round, as the bracket heads its column ("Semi-finals",
"Final"; 半决赛, 决赛), with the match's key small beside it: on a table's card, in the "Up next"
strip and in the call announcement; a knockout stage after a double elimination too (K2-1 is its
final). In a real Chromium against the real hub (and a projection handed to the page for the
two-stage event)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .fans_helpers import TABLET, TV, FakeWatch, draw_projection, play_out, two_stage
from .test_bracket import Event

WORDS = {"en": {"semi": "Semi-finals", "final": "Final"}, "zh": {"semi": "半决赛", "final": "决赛"}}
LOCALES = {"en": "en-US", "zh": "zh-CN"}


def board(browser: Any, guard: PageWatch, url: str, lang: str, size: dict[str, int],
          proj: dict[str, Any] | None = None) -> Any:
    ctx = browser.new_context(locale=LOCALES[lang], viewport=size)
    page = guard.attach(ctx.new_page())
    if proj is not None:
        FakeWatch(page, proj)
    page.goto(url)
    return page


def label(page: Any, sel: str) -> tuple[str, str]:
    """(round name, key) of a round label on the board."""
    return (page.locator(f"{sel} .rnd").inner_text(), page.locator(f"{sel} .key").inner_text())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_board_names_the_round_of_each_match(watch_gateway: Hub, browser: Any, guard: PageWatch, lang: str) -> None:
    hub_process = watch_gateway
    words = WORDS[lang]
    names = ["Zheng Yubo", "杨帆 Yang Fan", "Wu Jiaqing", "Ko Pin-yi"]
    ev = Event(hub_process, [{"name": n, "seed": i + 1} for i, n in enumerate(names)], tables=1, name="Rounds")
    ev.draw("single_elimination", seeding="seeded")
    (first,) = ev.called()
    page = board(browser, guard, f"{hub_process.url}/board/{ev.tid}", lang, TV)
    try:
        cell = f".cell[data-table='{first['table_id']}']"
        page.wait_for_selector(f"body[data-conn='live'] {cell} .fmt .rnd")
        assert label(page, f"{cell} .fmt") == (words["semi"], first["key"])
        waiting = ev.get()["queue"][0]
        assert label(page, f"#up-next .un-item[data-key='{waiting}'] .un-key") == (words["semi"], waiting)
        # the key is beside the name, smaller
        sizes = page.locator(f"{cell} .fmt").evaluate(
            "n => [n.querySelector('.rnd'), n.querySelector('.key')]"
            ".map(x => parseFloat(getComputedStyle(x).fontSize))")
        assert sizes[1] < sizes[0], sizes
        ev.win(first, first["players"][0])  # the other semi-final is called to the table: announced
        page.wait_for_selector("#call-announce.on .ca-key .rnd")
        assert label(page, "#call-announce .ca-key") == (words["semi"], waiting)
        shot(page, f"board-rounds-call-{lang}")
        semi2 = ev.next_called(lambda m: m["key"] == waiting)
        ev.win(semi2, semi2["players"][0])  # the final is called
        final = ev.next_called(lambda m: m["key"] != semi2["key"])
        page.locator(f"{cell} .fmt .key").filter(has_text=final["key"]).wait_for(timeout=5000)
        assert label(page, f"{cell} .fmt") == (words["final"], final["key"])
        shot(page, f"board-rounds-final-{lang}")
    finally:
        page.context.close()
    assert not guard.errors


def test_a_knockout_stage_is_named_like_the_bracket_names_it(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    """After a double elimination stopped at four players, the knockout's K1 is the semi-finals and
    K2-1 the final (not "Round 2"), while the first stage's rounds keep their plain names."""
    de16 = draw_projection(hub_process.url, 16, "double_elimination", name="Two stages")
    proj = two_stage(play_out(de16, upto=8))
    proj["queue"] = ["K1-1", "K2-1"]  # (the strip shows two of the queue on a board without tables)
    for size, lang in ((TABLET, "en"), (TV, "zh")):
        ctx = browser.new_context(locale=LOCALES[lang], viewport=size)
        page = guard.attach(ctx.new_page())
        fake = FakeWatch(page, proj)
        page.goto(f"{hub_process.url}/board/{proj['id']}")
        try:
            page.wait_for_selector("#up-next .un-item[data-key='K2-1'] .rnd")
            words = WORDS[lang]
            assert label(page, "#up-next .un-item[data-key='K1-1'] .un-key") == (words["semi"], "K1-1")
            assert label(page, "#up-next .un-item[data-key='K2-1'] .un-key") == (words["final"], "K2-1")
            fake.push({**proj, "queue": ["W2-1", "L2-1"]})
            page.wait_for_selector("#up-next .un-item[data-key='W2-1'] .rnd")
            stage1 = page.locator("#up-next .un-item[data-key='W2-1'] .rnd").inner_text()
            assert stage1 == ("Winners round 2" if lang == "en" else "胜者组第2轮"), stage1
        finally:
            page.context.close()
    assert not guard.errors
