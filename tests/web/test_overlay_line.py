"""The overlay's statistics line (`?line=1`, PROTOCOL.md section 12) in a real Chromium against the
real hub: between racks each player's line in this match (breaks, dry breaks, runs, fouls) shows
under the score, read from the match's stats; during a rack it is gone; without `line` never."""

from __future__ import annotations

from typing import Any

from .conftest import Hub, PageWatch, shot
from .tablet_helpers import command, new_match


def test_the_line_shows_between_racks_only(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, "wpa_nine", fmt={"race_to": 3})
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = guard.attach(ctx.new_page())
    page.goto(f"{hub_process.url}/overlay/{t['table_id']}?line=1&lang=en")
    plain = guard.attach(ctx.new_page())
    plain.goto(f"{hub_process.url}/overlay/{t['table_id']}?lang=en")
    command(hub_process, t, {"kind": "start", "breaker": "a"})
    page.wait_for_selector("body[data-version='1']")
    assert page.locator("#stat-lines").count() == 0  # the first rack is not over
    # a golden break: the rack is won on the break, the next one not broken yet
    command(hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [9], "break_rails": 4})
    page.wait_for_selector("#stat-lines")
    line = page.locator("#stat-lines .pline[data-player='a'] .pl-text").inner_text()
    assert line == "Breaks 1 · dry 0 · runs 0 · fouls 0"
    other = page.locator("#stat-lines .pline[data-player='b'] .pl-text").inner_text()
    assert other == "Breaks 0 · dry 0 · runs 0 · fouls 0"
    shot(page, "people-overlay-line")
    plain.wait_for_selector("body[data-version='2']")
    assert plain.locator("#stat-lines").count() == 0
    # the next rack is broken (dry): the line goes until that rack is over
    command(hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "break_rails": 4})
    page.wait_for_selector("body[data-version='3']")
    assert page.locator("#stat-lines").count() == 0
    assert guard.errors == []
