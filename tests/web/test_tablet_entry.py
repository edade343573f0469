"""One entry, one stroke, in a real headless Chromium against the real hub:
a double tap stores one stroke; a fact left at its default is asked, not assumed; a foul is shown
loudly with Undo at hand; the log, Undo and rejects speak in names; one tap for a break count."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Hub, PageWatch, shot
from .tablet_helpers import command, events, new_match, no_reject, open_tablet, start, tap_center, version

CLOCK = {"shot_clock": {"shot_s": 60, "break_s": 60, "extension_s": 30}}


@pytest.mark.parametrize("gap_ms", [50, 150, 400])
def test_a_double_tap_stores_one_stroke(hub_process: Hub, context: Any, guard: PageWatch, gap_ms: int) -> None:
    t = new_match(hub_process, options=CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    version(page, 1)
    # The break: one tap for the count, one for a ball down, then a double tap on "Enter stroke".
    page.click("#break-counts [data-count='4']")
    page.click("#pk-grid [data-ball='3']")
    tap_center(page, "#enter-stroke")
    page.wait_for_timeout(gap_ms)
    tap_center(page, "#enter-stroke")
    version(page, 2)
    # A pot that keeps the turn, double tapped the same way.
    page.click("#pk-grid [data-ball='1']")
    tap_center(page, "#enter-stroke")
    page.wait_for_timeout(gap_ms)
    tap_center(page, "#enter-stroke")
    version(page, 3)
    # whatever a second tap would have sent has been answered once the tablet's queue is empty
    page.wait_for_selector("#queue-count.hidden", state="attached")
    evs = events(hub_process, t["match_id"])
    assert [e["kind"] for e in evs] == ["start", "shot", "shot"], evs
    assert evs[1]["data"]["break_crossings"] == 4 and evs[1]["data"]["pocketed"] == [3]
    assert evs[2]["data"]["pocketed"] == [1]
    # The second tap found a fresh form: nothing of the stroke just stored is on it.
    assert page.locator("#pk-grid .ballbtn.on").count() == 0
    assert page.locator("#log li").count() == 3  # start and two strokes
    assert guard.dialogs == [] and guard.errors == []


def test_playwright_style_double_click_stores_one_stroke(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    """A second click that waits for the button (as a test driver does) finds a fresh form that
    ignores it: still one stroke."""
    t = new_match(hub_process, options=CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    page.click("#break-counts [data-count='5']")
    page.click("#enter-stroke")
    page.click("#enter-stroke", timeout=5000)
    version(page, 2)
    page.wait_for_selector("#queue-count.hidden", state="attached")  # a second click's stroke: answered
    assert [e["kind"] for e in events(hub_process, t["match_id"])] == ["start", "shot"]


def test_rail_is_asked_and_a_foul_is_loud_with_undo_at_hand(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, options=CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    page.click("#break-counts [data-count='4']")
    page.click("#pk-grid [data-ball='2']")
    page.click("#enter-stroke")
    version(page, 2)
    # Nothing pocketed after a contact: "Enter stroke" asks whether a ball reached a rail.
    page.click("#enter-stroke")
    page.wait_for_selector("#stroke-ask.ask")
    assert "rail" in page.locator("#stroke-ask").inner_text()
    assert page.locator("#rail-question.ask").count() == 1
    page.wait_for_timeout(400)
    assert [e["kind"] for e in events(hub_process, t["match_id"])] == ["start", "shot"]  # nothing stored
    shot(page, "screens-tablet-rail-question")
    # The answer enters the stroke at once: no rail, a foul.
    page.click("#flag-no-rail")
    version(page, 3)
    ev = events(hub_process, t["match_id"])[-1]
    assert ev["kind"] == "shot" and ev["data"]["rail"] is False and ev["data"]["player"] == "a"
    banner = page.locator("#verdict.foul")
    banner.wait_for()
    assert "FOUL" in banner.inner_text() and "no rail after contact" in banner.inner_text()
    assert "Wang Can to play" in banner.inner_text() and "Ball in hand" in banner.inner_text()
    color = banner.evaluate("e => getComputedStyle(e).backgroundColor")
    assert color not in ("rgba(0, 0, 0, 0)", "transparent")
    log = page.locator("#log li").first.inner_text()
    assert "Zheng Yubo" in log and "no rail" in log and "FOUL" in log, log
    shot(page, "screens-tablet-foul-banner")

    # Undo, from the banner: the question names the entry it removes.
    page.click("#verdict-undo")
    page.wait_for_selector("#modal-text")
    text = page.locator("#modal-text").inner_text()
    assert "#3" in text and "Zheng Yubo" in text and "rail: no" in text, text
    page.click("#modal-confirm")
    version(page, 4)
    assert hub_process.get(f"/api/matches/{t['match_id']}")["rack"]["shooter"] == "a"
    # ... and the stroke is back on the form, as entered, for correction.
    page.wait_for_selector("#flag-no-rail.on")
    assert page.locator("#fc-grid .ballbtn.on").get_attribute("data-ball") == "1"
    # Acceptance tests drive the page by these words: each names one thing on the page, the log
    # and the banner notwithstanding.
    assert page.get_by_text("A ball reached a rail").count() == 1
    assert page.get_by_role("button", name="Enter stroke").count() == 1
    page.get_by_role("button", name="A ball reached a rail").click()  # it was a safety after all
    page.get_by_role("button", name="Enter stroke").click()
    version(page, 5)
    last = events(hub_process, t["match_id"])[-1]
    assert last["kind"] == "shot" and last["data"]["rail"] is True
    page.locator("#verdict.ok").wait_for()
    assert "Legal stroke" in page.locator("#verdict").inner_text()
    no_reject(page)
    assert guard.dialogs == [] and guard.errors == []


def test_a_reject_names_players_not_ids(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, players=[("p1", "Zheng Yubo"), ("p2", "Wang Can")], options=CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page, "p1")
    version(page, 1)
    # A called foul for the player who is not at the table: refused, and said with names.
    page.select_option("#act-player", "p2")
    page.click("#act-foul-btn")
    page.wait_for_selector("#reject:not(.hidden)")
    text = page.locator("#reject").inner_text()
    assert "Zheng Yubo is at the table" in text, text
    assert "p1" not in text and "p2" not in text, text
    assert "Wang Can" in text  # what was entered, by whom
    assert "p1" not in page.locator("#log").inner_text()


def test_the_table_name_and_chinese_eight_preselection(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, "chinese_eight", fmt={"race_to": 5}, options=CLOCK, table_name="Arena 3")
    page = open_tablet(context, guard, hub_process, t)
    assert "Arena 3" in page.locator("#table-name").inner_text()
    start(page)
    # On the break any ball may be struck first: one is preselected.
    assert page.locator("#fc-grid .ballbtn.on").get_attribute("data-ball") == "1"
    page.click("#break-counts [data-count='4']")
    page.click("#pk-grid [data-ball='2']")
    page.click("#enter-stroke")
    version(page, 2)
    # An open table: the first ball's group decides, so the referee chooses it.
    assert page.locator("#fc-grid .ballbtn.on").count() == 0
    page.click("#fc-grid [data-ball='3']")
    page.click("#pk-grid [data-ball='3']")
    page.click("#enter-stroke")
    version(page, 3)
    # Solids for a: a ball of the group is preselected (which one changes no verdict).
    assert page.locator("#fc-grid .ballbtn.on").get_attribute("data-ball") == "1"
    page.click("#pk-grid [data-ball='4']")
    page.click("#enter-stroke")
    version(page, 4)
    assert events(hub_process, t["match_id"])[-1]["data"]["first_contact"] == 1
    no_reject(page)


def test_a_golden_nine_break_count_is_one_tap(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, options=CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    page.click("#break-counts [data-count='7']")
    assert page.locator("#break-value").inner_text() == "7"
    page.click("#enter-stroke")
    version(page, 2)
    assert events(hub_process, t["match_id"])[-1]["data"]["break_crossings"] == 7


def test_a_server_time_foul_is_loud_too(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, options={"shot_clock": {"shot_s": 30, "break_s": 1}})
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    page.wait_for_selector("#verdict.foul", timeout=8000)
    assert "time foul" in page.locator("#verdict").inner_text()
    assert "Shot clock expired" in page.locator("#log li").first.inner_text()
    command(hub_process, t, {"kind": "pause"})
