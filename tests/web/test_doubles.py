"""Scotch doubles on the pages (PROTOCOL.md section 15), in Chromium against the real hub: the tablet
names the member due on the stroke form and marks them in the scoreline, lets the referee say which
member of each side plays first (sent with `start`), offers `out_of_turn` as a called foul on the
stroke form and as a foul call; the board, overlay and commentator show both members of each side
with the one due marked, and the commentator's stroke log names the member of each stroke. Both
languages; screenshots at phone, tablet and TV sizes."""

from __future__ import annotations

import uuid
from typing import Any

from .conftest import ARTIFACTS, Hub, PageWatch, shot
from .tablet_helpers import events, no_reject, open_tablet, version

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
SIDES = [
    {"id": "a", "name": "China", "members": [{"person": "wy", "name": "王也"}, {"person": "zy", "name": "Zheng Yubo"}]},
    {"id": "b", "name": "Europe",
     "members": [{"person": "fg", "name": "Fedor Gorst"}, {"person": "jf", "name": "Joshua Filler"}]},
]


def _doubles_match(hub: Hub) -> dict[str, Any]:
    tid = hub.tournament(f"Doubles {uuid.uuid4().hex[:4]}")
    tb = hub.table(tid, "Table 1")
    m = hub.post("/api/matches", {"tournament_id": tid, "table_id": tb["id"], "discipline": "wpa_nine",
                                  "players": SIDES, "format": {"race_to": 3}, "doubles": True})
    return {"tid": tid, "table_id": tb["id"], "token": tb["token"], "match_id": m["id"]}


def _due(page: Any, scope: str = "") -> str:
    return page.locator(f"{scope} .members .member.due").first.get_attribute("data-person")


def test_the_tablet_names_the_member_due_and_takes_out_of_turn(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub = watch_gateway
    t = _doubles_match(hub)
    tablet = open_tablet(context, guard, hub, t)
    tablet.wait_for_selector("#start:not(.hidden) #member-order")
    # who plays first for China: Zheng Yubo (the setup's order has 王也 first)
    assert tablet.locator("#member-order [data-side='a'] [data-first='wy'].on").count() == 1
    tablet.click("#member-order [data-side='a'] [data-first='zy']")
    assert tablet.locator("#member-order [data-side='a'] [data-first='zy'].on").count() == 1
    shot(tablet, "doubles-tablet-start")
    tablet.click("#start [data-breaker='a']")
    version(tablet, 1)
    start = events(hub, t["match_id"])[0]["data"]
    assert start["members"] == {"a": ["zy", "wy"]}
    tablet.wait_for_selector("#stroke:not(.hidden)")
    assert "Zheng Yubo" in tablet.inner_text("#stroke-title") and "China" in tablet.inner_text("#stroke-title")
    assert _due(tablet, "#state") == "zy"
    # the break: four rails, nothing down; Europe's first member is due
    tablet.click("#break-counts [data-count='4']")
    tablet.click("#enter-stroke")
    version(tablet, 2)
    no_reject(tablet)
    assert "Fedor Gorst" in tablet.inner_text("#stroke-title") and _due(tablet, "#state") == "fg"
    # Joshua Filler plays Fedor Gorst's stroke: the referee calls out of turn
    tablet.wait_for_selector("#called-fouls [data-foul='out_of_turn']")
    assert tablet.locator("#act-foul option[value='out_of_turn']").count() == 1
    shot(tablet, "doubles-tablet")
    tablet.click("#fc-grid [data-ball='1']")
    tablet.click("#flag-rail")
    tablet.click("#called-fouls [data-foul='out_of_turn']")
    tablet.click("#enter-stroke")
    version(tablet, 3)
    no_reject(tablet)
    stored = [e for e in events(hub, t["match_id"]) if e["kind"] == "shot"][-1]["data"]
    assert stored["player"] == "b" and stored["called_fouls"] == ["out_of_turn"]
    proj = hub.get(f"/api/matches/{t['match_id']}")
    assert proj["last"]["fouls"] == ["out_of_turn"] and proj["rack"]["member"] == "wy"
    assert "王也" in tablet.inner_text("#stroke-title") and _due(tablet, "#state") == "wy"
    assert "out of turn" in tablet.inner_text("#verdict").lower()

    # every screen shows both members of each side, the one due marked
    board = guard.attach(context.new_page())
    board.set_viewport_size(TV)
    board.goto(f"{hub.url}/board/{t['tid']}")
    cell = f".cell[data-table='{t['table_id']}']"
    board.wait_for_selector(f"{cell} .members .member.due")
    assert board.locator(f"{cell} .members .member").count() == 4 and _due(board, cell) == "wy"
    overlay = guard.attach(context.new_page())
    overlay.set_viewport_size({"width": 1280, "height": 720})
    overlay.goto(f"{hub.url}/overlay/{t['table_id']}")
    overlay.wait_for_selector("#bug .members .member.due")
    assert "Joshua Filler" in overlay.inner_text("#bug") and _due(overlay, "#bug") == "wy"
    com = guard.attach(context.new_page())
    com.set_viewport_size({"width": 1440, "height": 900})
    com.goto(f"{hub.url}/commentator/{t['match_id']}")
    com.wait_for_selector("#match .scoreline .members .member.due")
    assert _due(com, "#match") == "wy" and "Zheng Yubo" in com.inner_text("#match")
    # the stroke log names the member who played each stroke: the out-of-turn one is the partner's
    com.wait_for_selector("#strokes li[data-version='3'] .member")
    assert com.inner_text("#strokes li[data-version='2'] .member") == "Zheng Yubo"
    assert com.inner_text("#strokes li[data-version='3'] .member") == "Joshua Filler"
    for name, page in (("commentator", com), ("board-tv", board)):
        shot(page, f"doubles-{name}")
    overlay.screenshot(path=str(ARTIFACTS / "doubles-overlay.png"), omit_background=True)
    tablet.set_viewport_size(PHONE)
    shot(tablet, "doubles-tablet-phone")

    # Chinese: the stroke form's title names the member due, the foul is in Chinese
    tablet.goto(tablet.url.split("#")[0] + "?lang=zh-CN")
    tablet.wait_for_selector("body[data-conn='live']")
    tablet.wait_for_selector("#stroke:not(.hidden)")
    assert "王也（China）击球" in tablet.inner_text("#stroke-title")
    assert "击球顺序错误" in tablet.inner_text("#called-fouls")
    shot(tablet, "doubles-tablet-phone-zh")
    board.goto(board.url.split("?")[0] + "?lang=zh-CN")
    board.wait_for_selector(f"{cell} .members .member.due")
    shot(board, "doubles-board-tv-zh")
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)
