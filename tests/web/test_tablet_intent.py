"""The tablet's optional intent (PROTOCOL.md section 12): after the break one tap says what a stroke
was (pot, safety or kick), stored with the stroke; a second tap takes it back; never asked (a stroke
without it is entered as before), never offered on the break, and the next stroke starts without it."""

from __future__ import annotations

from typing import Any

from .conftest import Hub, PageWatch, shot
from .tablet_helpers import events, new_match, open_tablet, start, version


def test_intent_is_one_optional_tap(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    version(page, 1)
    assert page.locator("#intent-row").count() == 0  # not on the break
    page.click("#break-counts [data-count='4']")
    page.click("#pk-grid [data-ball='3']")
    page.click("#enter-stroke")
    version(page, 2)
    # a safety: tapped once, stored with the stroke
    page.click("#intent-row [data-intent='safety']")
    assert page.get_attribute("#intent-row [data-intent='safety']", "aria-pressed") == "true"
    page.click("#flag-rail")
    shot(page, "people-tablet-intent")
    page.click("#enter-stroke")
    version(page, 3)
    # the next form starts without it; a tap and a second tap leave nothing
    assert page.locator("#intent-row [aria-pressed='true']").count() == 0
    page.click("#intent-row [data-intent='pot']")
    page.click("#intent-row [data-intent='pot']")
    page.click("#pk-grid [data-ball='1']")
    page.click("#enter-stroke")
    version(page, 4)
    shots = [e["data"] for e in events(hub_process, t["match_id"]) if e["kind"] == "shot"]
    assert [s.get("intent") for s in shots] == [None, "safety", None]
    assert guard.errors == [] and guard.dialogs == []
