"""Screens that were wrong at some moment (issue 29), in a real Chromium against the real hub (or a
projection handed to the page): the TV board announcing calls that were already over, a knockout
player's page after a two-stage event, and a commentator page opened after an Undo."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .fans_helpers import PHONE, TV, FakeWatch, draw_projection, play_out, two_stage
from .tablet_helpers import command, new_match
from .test_bracket import NAMES, Event

LOCALES = {"en": "en-US", "zh": "zh-CN"}


def page_at(browser: Any, guard: PageWatch, url: str, lang: str, size: dict[str, int],
            proj: dict[str, Any] | None = None) -> Any:
    ctx = browser.new_context(locale=LOCALES[lang], viewport=size)
    page = guard.attach(ctx.new_page())
    if proj is not None:
        FakeWatch(page, proj)
    page.goto(url)
    return page


# ------------------------------------------------------------------------------ the board
SHOWN = """() => {
  window.__shown = [];
  const box = document.getElementById('call-announce');
  new MutationObserver(() => {
    const card = box.querySelector('.ca-card');
    if (card && window.__shown[window.__shown.length - 1] !== card.dataset.key) window.__shown.push(card.dataset.key);
  }).observe(box, { childList: true, subtree: true });
}"""


def test_the_board_announces_only_calls_still_current(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    """Both semi-finals are called at once (8 s each on the TV, one after the other), then the whole
    event is played out in a few seconds: the board does not go on announcing calls whose matches
    are over, and it is back on the tables (and the champion) at once."""
    hub_process = watch_gateway
    ev = Event(hub_process, [{"name": n, "seed": i + 1} for i, n in enumerate(NAMES[:4])], tables=2, name="Quick night")
    page = page_at(browser, guard, f"{hub_process.url}/board/{ev.tid}", "en", TV)
    try:
        page.wait_for_selector("body[data-conn='live'] .cell")
        page.evaluate(SHOWN)
        ev.draw("single_elimination", seeding="seeded")
        page.wait_for_selector("#call-announce.on .ca-card", timeout=5000)
        shown_at = time.monotonic()
        first = page.get_attribute("#call-announce .ca-card", "data-key")
        assert first in ("W1-1", "W1-2")
        for semi in ev.called():
            ev.win(semi, semi["players"][0])
        final = ev.next_called(lambda m: m["key"] == "W2-1")
        ev.win(final, final["players"][0])
        deadline = time.monotonic() + 10
        while ev.get()["draw"]["status"] != "finished":
            assert time.monotonic() < deadline, "the draw did not finish"
            time.sleep(0.05)
        # every call is over: nothing is announced any more, long before 3 x 8 s of a blind queue
        page.wait_for_selector("#call-announce:not(.on)", state="attached", timeout=3000)
        assert time.monotonic() - shown_at < 8, "the first call was shown its full 8 s although its match was over"
        page.wait_for_selector("#up-next .un-champion")
        time.sleep(1.0)  # what a blind queue would show next, it would show now
        assert page.locator("#call-announce.on").count() == 0
        assert "announcing" not in (page.evaluate("Object.keys(document.body.dataset)") or [])
        shown = page.evaluate("window.__shown")
        assert shown[0] == first and len(shown) == len(set(shown)), shown
        shot(page, "moments-board-after-the-champion")
    finally:
        page.context.close()
    assert not guard.errors


# ------------------------------------------------------------------------------ the player page
def finished_two_stage(hub_process: Hub) -> tuple[dict[str, Any], list[str]]:
    """A 16-player double elimination stopped at four, then its knockout played to the champion."""
    proj = two_stage(play_out(draw_projection(hub_process.url, 16, "double_elimination", name="Two stages done")))
    by_key = {m["key"]: m for m in proj["draw"]["matches"]}
    through = [by_key["W3-1"]["winner"], by_key["W3-2"]["winner"], by_key["L4-1"]["winner"], by_key["L4-2"]["winner"]]
    proj["draw"]["stages"][0].update(status="finished", advanced=through)
    a, b, c, d = through

    def played(key: str, winner: str, loser: str) -> None:
        by_key[key].update(players=[winner, loser], status="finished", winner=winner, scores={winner: 5, loser: 2})

    played("K1-1", a, d)
    played("K1-2", b, c)
    played("K2-1", a, b)
    proj["draw"]["stages"][1]["status"] = "finished"
    proj["draw"].update(status="finished", champion=a)
    for p in proj["players"]:
        p["status"] = "champion" if p["id"] == a else "eliminated"
    proj["queue"] = []
    return proj, through


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_knockout_player_page_after_the_event_is_not_waiting_for_a_draw(
    hub_process: Hub, browser: Any, guard: PageWatch, lang: str
) -> None:
    proj, (champion, runner_up, semi_loser, _) = finished_two_stage(hub_process)
    for pid in (champion, runner_up, semi_loser):
        page = page_at(browser, guard, f"{hub_process.url}/player/{proj['id']}/{pid}", lang, PHONE, proj)
        try:
            page.wait_for_selector("#pl-next[data-state]")
            page.wait_for_selector("#pl-list .pl-m[data-key='K1-1'], #pl-list .pl-m[data-key='K1-2']")
            assert page.get_attribute("#pl-next", "data-state") == "none"
            said = page.inner_text("#pl-next")
            assert "stage 2" not in said and "晋级" not in said, said
            assert page.inner_text("#next-state") == ("No match to come." if lang == "en" else "没有待赛的比赛。")
            rounds = page.locator("#pl-list .pl-m-round").all_inner_texts()
            final = "Final · K2-1" if lang == "en" else "决赛 · K2-1"
            assert (final in rounds) == (pid != semi_loser), rounds
            if pid == champion:
                shot(page, f"moments-player-champion-{lang}")
        finally:
            page.context.close()
    assert not guard.errors


# ------------------------------------------------------------------------------ the commentator
def test_a_commentator_opened_after_an_undo_strikes_out_the_undone_stroke(
    watch_gateway: Hub, browser: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "golden_nine")
    command(hub_process, t, {"kind": "start", "breaker": "a"})  # v1
    command(
        hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], "break_crossings": 4}
    )  # v2
    command(hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "rail": True})  # v3
    command(hub_process, t, {"kind": "undo"})  # v4: voids v3
    page = page_at(browser, guard, f"{hub_process.url}/commentator/{t['match_id']}", "en", TV)
    try:
        page.wait_for_selector("#strokes li[data-version='4']")
        page.wait_for_selector("#strokes li[data-version='2']")
        voided = {
            v: "voided" in (page.get_attribute(f"#strokes li[data-version='{v}']", "class") or "") for v in (1, 2, 3, 4)
        }
        assert voided == {1: False, 2: False, 3: True, 4: False}, voided
        shot(page, "moments-commentator-after-undo")
        # live from here: a second undo strikes out the break (its target), and nothing else
        command(hub_process, t, {"kind": "undo"})  # v5: voids v2
        page.wait_for_selector("#strokes li[data-version='5']")
        page.wait_for_selector("#strokes li[data-version='2'].voided")
        assert "voided" not in (page.get_attribute("#strokes li[data-version='1']", "class") or "")
    finally:
        page.context.close()
    assert not guard.errors
