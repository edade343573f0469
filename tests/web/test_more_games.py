"""Issue 35 on the pages (PROTOCOL.md section 17), driven in Chromium against the real hub:

- the call in WPA eight-ball and ten-ball is one tap on the tablet (the pocketed ball itself when
  one went in; a tap on the called one among several; "No call" for a ball made another way), and
  the command stored carries `called`; groups and the open table, the ten-ball push-out and the
  choice after a wrongfully pocketed ball, as for any pending decision;
- the board, overlay and commentator show the groups and the called ball (`last.called`);
- a match scored rack by rack: the table's tablet and a player's phone paired to the table show
  "who won the rack" buttons (win types and who pays where the discipline has them), with undo,
  played to the end;
- a rack-scored double elimination made at the desk (a game the hub does not judge) and played on
  the tablets' rack buttons to its champion.
Both languages where text appears; screenshots at phone, tablet and TV sizes in test-artifacts/.
"""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import ADMIN_TOKEN, ARTIFACTS, Hub, PageWatch, shot
from .tablet_helpers import TABLET, events, new_match, no_reject, open_tablet, start, version

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def _last_shot(hub_process: Hub, mid: str) -> dict[str, Any]:
    return [e for e in events(hub_process, mid) if e["kind"] == "shot"][-1]["data"]


def _pocket(page: Any, *balls: int, first: int | None = None) -> None:
    page.wait_for_selector("#stroke:not(.hidden)")
    if first is not None:
        page.click(f"#fc-grid [data-ball='{first}']")
    for n in balls:
        page.click(f"#pk-grid [data-ball='{n}']")


def _enter(page: Any, v: int) -> None:
    page.click("#enter-stroke")
    version(page, v)
    no_reject(page)


def _screens(context: Any, guard: PageWatch, hub_process: Hub, t: dict[str, Any]) -> dict[str, Any]:
    board = guard.attach(context.new_page())
    board.set_viewport_size(TV)
    board.goto(f"{hub_process.url}/board/{t['tid']}")
    overlay = guard.attach(context.new_page())
    overlay.set_viewport_size({"width": 1280, "height": 720})
    overlay.goto(f"{hub_process.url}/overlay/{t['table_id']}")
    com = guard.attach(context.new_page())
    com.set_viewport_size({"width": 1440, "height": 900})
    com.goto(f"{hub_process.url}/commentator/{t['match_id']}")
    com.wait_for_selector("#match .scoreline")
    return {"board": board, "overlay": overlay, "com": com}


def test_eight_ball_call_is_one_tap_and_every_screen_shows_groups_and_the_call(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "wpa_eight", fmt={"race_to": 3})
    tablet = open_tablet(context, guard, hub_process, t)
    screens = _screens(context, guard, hub_process, t)
    start(tablet)  # v1
    # The break: no call is asked (a break is never called); four rails, nothing down.
    assert tablet.locator("#call-row").count() == 0
    tablet.click("#break-counts [data-count='4']")
    _enter(tablet, 2)
    # b at the table, the table open: any ball but the 8 first; b pockets the 3 alone: that tap is the call.
    assert tablet.locator("#state .badge", has_text="Table open").count() == 1
    _pocket(tablet, 3, first=3)
    assert tablet.locator("#call-row [data-call='3'].on").count() == 1  # marked by the pocket tap itself
    _enter(tablet, 3)
    assert _last_shot(hub_process, t["match_id"])["called"] == 3
    proj = hub_process.get(f"/api/matches/{t['match_id']}")
    assert proj["last"]["called"] == 3
    assert [p["group"] for p in proj["players"]] == ["stripes", "solids"]
    # Two balls in: the referee taps the called one (one tap), the 1; the other stays down.
    _pocket(tablet, 1, 2, first=1)
    assert tablet.locator("#call-row [data-call].on").count() == 0  # two in: which one was called is asked
    tablet.click("#enter-stroke")
    tablet.wait_for_selector("#call-row.ask")  # "Enter stroke" raised the question instead of guessing
    tablet.click("#call-row [data-call='1']")  # the answer enters the stroke
    version(tablet, 4)
    assert _last_shot(hub_process, t["match_id"])["called"] == 1
    # Every screen shows the call and the groups.
    board, overlay, com = screens["board"], screens["overlay"], screens["com"]
    com.wait_for_selector("body[data-version='4']")
    overlay.wait_for_selector("body[data-version='4']")
    cell = f".cell[data-table='{t['table_id']}']"
    board.wait_for_selector(f"{cell} .called")
    assert "1" in board.inner_text(f"{cell} .called") and board.locator(f"{cell} .grp").count() == 2
    assert "Called: 1" in overlay.inner_text("#bug") and "Solids" in overlay.inner_text("#bug")
    assert "Called: 1" in com.inner_text("#match") and "called 1" in com.inner_text("#strokes")
    assert "Stripes" in tablet.inner_text("#state")
    for name, page in (("tablet", tablet), ("commentator", com), ("board-tv", board)):
        shot(page, f"eight-ball-{name}")
    overlay.screenshot(path=str(ARTIFACTS / "eight-ball-overlay.png"), omit_background=True)
    tablet.set_viewport_size(PHONE)
    shot(tablet, "eight-ball-tablet-phone")
    # Chinese: the call row and the screens' words.
    for page in (com, overlay):
        page.goto(page.url.split("?")[0] + "?lang=zh-CN")
    com.wait_for_selector("#match .scoreline")
    assert "叫1号球" in com.inner_text("#match")
    overlay.wait_for_selector("#bug .row")
    assert "叫1号球" in overlay.inner_text("#bug") and "全色" in overlay.inner_text("#bug")
    tablet.goto(tablet.url.split("#")[0] + "?lang=zh-CN")
    tablet.wait_for_selector("body[data-conn='live']")
    # The 5 in, but not as called: "No call" (不按叫球): the turn passes.
    _pocket(tablet, 5, first=5)
    assert "按叫球进袋" in tablet.inner_text("#call-row")
    shot(tablet, "eight-ball-tablet-phone-zh")
    tablet.click("#call-row [data-call='none']")
    _enter(tablet, 5)
    assert _last_shot(hub_process, t["match_id"])["called"] is None
    proj = hub_process.get(f"/api/matches/{t['match_id']}")
    assert proj["rack"]["shooter"] == "a" and proj["last"]["called"] is None
    overlay.wait_for_selector("body[data-version='5']")
    assert "叫" not in overlay.inner_text("#bug .side")
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)


def test_ten_ball_push_out_call_and_the_choice_after_a_ball_made_without_a_call(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "wpa_ten", fmt={"race_to": 2})
    tablet = open_tablet(context, guard, hub_process, t)
    start(tablet)  # v1
    tablet.click("#break-counts [data-count='5']")
    _enter(tablet, 2)  # b to play, the push-out offered as in nine-ball
    tablet.wait_for_selector("#flag-push-out")
    tablet.click("#flag-push-out")
    assert tablet.locator("#call-row").count() == 0  # a push-out is never called
    tablet.click("#fc-grid [data-ball='4']")
    tablet.click("#flag-rail")
    _enter(tablet, 3)
    assert _last_shot(hub_process, t["match_id"])["push_out"] is True
    tablet.wait_for_selector("#pending [data-choice='pass']")
    tablet.click("#pending [data-choice='play']")  # a plays
    version(tablet, 4)
    # a pots the 2 off the 1 into another pocket: "No call": wrongfully pocketed, b chooses
    _pocket(tablet, 2)
    assert tablet.locator("#call-row [data-call='2'].on").count() == 1
    tablet.click("#call-row [data-call='none']")
    _enter(tablet, 5)
    assert _last_shot(hub_process, t["match_id"])["called"] is None
    tablet.wait_for_selector("#pending [data-choice='pass']")
    assert "Wang Can" in tablet.inner_text("#pending-title")  # b decides
    tablet.click("#pending [data-choice='pass']")  # a shoots again
    version(tablet, 6)
    # a runs the 1 then calls the 10 on a combination: the 10 is spotted (not the last ball), a stays
    _pocket(tablet, 10)
    _enter(tablet, 7)
    data = _last_shot(hub_process, t["match_id"])
    assert data["called"] == 10 and data["pocketed"] == [10]
    proj = hub_process.get(f"/api/matches/{t['match_id']}")
    assert 10 in proj["rack"]["on_table"] and proj["rack"]["shooter"] == "a"
    shot(tablet, "ten-ball-tablet")
    tablet.set_viewport_size(PHONE)
    shot(tablet, "ten-ball-tablet-phone")
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)


def _pair_phone(context: Any, guard: PageWatch, hub_process: Hub, table_id: str) -> Any:
    """A player's phone (its own browser, in `context`) paired to the table through /pair with the
    desk's 6-digit code."""
    code = httpx.post(
        f"{hub_process.url}/api/tables/{table_id}/pairing",
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        timeout=10,
    ).json()["code"]
    phone = guard.attach(context.new_page())
    phone.goto(f"{hub_process.url}/pair")
    phone.fill("#pair-code", code)
    phone.click("#pair-submit")
    phone.wait_for_url(f"**/tablet/{table_id}", timeout=10000)
    phone.wait_for_selector("body[data-conn='live']")
    return phone


def test_a_match_scored_rack_by_rack_on_the_tablet_and_a_paired_phone(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "golden_nine", fmt={"racks": 3}, options={"scoring": "racks"})
    tablet = open_tablet(context, guard, hub_process, t)
    phone_ctx = context.browser.new_context(locale="zh-CN", viewport=PHONE, is_mobile=True, has_touch=True)
    phone = _pair_phone(phone_ctx, guard, hub_process, t["table_id"])
    tablet.wait_for_selector("#start:not(.hidden)")
    tablet.click("#start [data-breaker='a']")  # v1
    version(tablet, 1)
    # No stroke form: "who won the rack" buttons, with the discipline's win types.
    for page in (tablet, phone):
        page.wait_for_selector("#racks:not(.hidden) [data-winner='a']")
        assert page.locator("#stroke:not(.hidden)").count() == 0
        assert page.locator("#racks [data-win-type]").count() == 3
    assert "Who won rack 1?" in tablet.inner_text("#racks") and "第1局谁赢" in phone.inner_text("#racks")
    shot(phone, "racks-phone-zh")
    shot(tablet, "racks-tablet")
    wide = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide  # no sideways scrolling on a phone
    # The tablet: a plain win for b (one tap).
    tablet.click("#racks [data-winner='b']")
    version(tablet, 2)
    # The phone: a big gold is the breaker's only (b breaks rack 2: winner breaks): a's button is off.
    version(phone, 2)
    phone.click("#racks [data-win-type='big_gold']")
    assert phone.locator("#racks [data-winner='a'][disabled]").count() == 1
    phone.click("#racks [data-winner='b']")
    version(phone, 3)
    racks = hub_process.get(f"/api/matches/{t['match_id']}")["racks"]
    assert [(r["winner"], r["win_type"]) for r in racks] == [("b", "normal"), ("b", "big_gold")]
    # Undo on the tablet takes the big gold back.
    tablet.click("#act-undo")
    tablet.click("#modal-confirm")
    version(tablet, 4)
    assert len(hub_process.get(f"/api/matches/{t['match_id']}")["racks"]) == 1
    # Played to its end from the phone: b, then a with a small gold, then b.
    version(phone, 4)
    for winner, kind, v in (("b", "small_gold", 5), ("a", None, 6)):
        if kind:
            phone.click(f"#racks [data-win-type='{kind}']")
        phone.click(f"#racks [data-winner='{winner}']")
        version(phone, v)
    proj = hub_process.get(f"/api/matches/{t['match_id']}")
    assert proj["status"] == "finished" and proj["winner"] == "b", proj
    assert [p["score"] for p in proj["players"]] == [4, 11]
    tablet.wait_for_selector("#over:not(.hidden)")
    assert "Match over" in tablet.inner_text("#over")
    assert phone.locator("#racks:not(.hidden)").count() == 0
    shot(phone, "racks-phone-over-zh")
    phone_ctx.close()
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)


def test_three_player_rack_scoring_names_who_pays(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    t = new_match(hub_process, "chase_nine", fmt={"racks": 2}, options={"scoring": "racks"})
    tablet = open_tablet(context, guard, hub_process, t, size=PHONE)
    tablet.wait_for_selector("#start:not(.hidden)")
    tablet.click("#start [data-order='a,b,c']")
    version(tablet, 1)
    tablet.click("#racks [data-winner='b']")
    tablet.wait_for_selector("#racks [data-paid-by='a']")  # who pays: one of the other two
    assert tablet.locator("#racks [data-paid-by]").count() == 2
    shot(tablet, "racks-chase-phone")
    tablet.click("#racks [data-paid-by='a']")
    version(tablet, 2)
    assert hub_process.get(f"/api/matches/{t['match_id']}")["racks"][0]["points"] == {"a": -3, "b": 3, "c": 0}
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)


def _rack_tablet(context: Any, guard: PageWatch, hub_process: Hub, table: dict[str, Any]) -> Any:
    code = httpx.post(
        f"{hub_process.url}/api/tables/{table['id']}/pairing",
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        timeout=10,
    ).json()["code"]
    token = httpx.post(f"{hub_process.url}/api/pair", json={"code": code}, timeout=10).json()["token"]
    return open_tablet(context, guard, hub_process, {"table_id": table["id"], "token": token}, size=TABLET)


def _play_what_is_on(page: Any) -> bool:
    """Start the match on this tablet and give its rack to the first player; False when nothing is to play."""
    if page.locator("#next-match:visible").count():
        page.click("#next-match")
    if page.locator("#start:not(.hidden) [data-breaker]").count():
        page.locator("#start [data-breaker]").first.click()
        page.wait_for_selector("#racks:not(.hidden) [data-winner]")
        return True
    if page.locator("#racks:not(.hidden) [data-winner]").count():
        page.locator("#racks [data-winner]").first.click()
        page.wait_for_timeout(300)
        return True
    return False


def test_a_rack_scored_double_elimination_from_the_desk_to_its_champion(
    watch_gateway: Hub, browser: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    desk_ctx = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 900})
    tablets_ctx = browser.new_context(locale="en-US", viewport=TABLET)
    try:
        desk = guard.attach(desk_ctx.new_page())
        desk.goto(f"{hub_process.url}/desk")
        desk.fill("#signin-token", ADMIN_TOKEN)
        desk.click("#signin-submit")
        desk.wait_for_selector("#tournament-name")
        desk.fill("#tournament-name", "Snooker night")
        desk.press("#tournament-name", "Enter")
        desk.wait_for_selector("#step-format")
        tid = desk.url.rstrip("/").split("/")[-2]
        # A game the hub does not judge: its name, a race to 1 frame, scored rack by rack (its only way).
        desk.click("#discipline-other")
        desk.fill("#fmt-game", "snooker")
        desk.fill("#fmt-race-to", "1")
        assert desk.locator("#scoring-strokes").count() == 0  # nothing to choose: frames won only
        summary = desk.inner_text("#format-summary")
        assert "Other game · snooker · Race to 1" in summary and "rack by rack" in summary, summary
        shot(desk, "desk-format-snooker")
        # A judged discipline offers the choice: rack by rack is said in the summary.
        desk.click("#discipline-wpa_nine")
        desk.click("#scoring-racks")
        assert "rack by rack" in desk.inner_text("#format-summary")
        desk.click("#discipline-other")
        desk.fill("#fmt-game", "snooker")
        desk.fill("#fmt-race-to", "1")
        desk.click("#next-step")
        desk.wait_for_selector("#players-text")
        desk.fill("#players-text", "Ronnie\nJudd\nMark\nNeil")
        desk.click("#add-players")
        desk.wait_for_selector("#player-list li >> nth=3")
        desk.click("#next-step")
        desk.wait_for_selector("#add-tables")
        desk.fill("#table-count", "2")
        desk.click("#add-tables")
        desk.wait_for_selector(".table-row >> nth=1")
        desk.click("#next-step")
        desk.wait_for_selector("#start-draw")
        desk.click("#draw-type-double_elimination")
        desk.click("#start-draw")
        desk.wait_for_selector("#step-run .run-table .rt-match >> nth=1")
        tour = hub_process.get(f"/api/tournaments/{tid}")
        assert tour["draw"]["match"] == {
            "discipline": "other",
            "format": {"race_to": 1, "game": "snooker"},
            "options": {},
        }
        tablets = [_rack_tablet(tablets_ctx, guard, hub_process, tb) for tb in tour["tables"]]
        for _ in range(120):
            tour = hub_process.get(f"/api/tournaments/{tid}")
            if tour["draw"]["status"] == "finished":
                break
            for page in tablets:
                _play_what_is_on(page)
        assert tour["draw"]["status"] == "finished", tour["draw"]
        champion = tour["draw"]["champion"]
        assert champion in {p["id"] for p in tour["players"]}
        finished = [m for m in tour["draw"]["matches"] if m["status"] == "finished"]
        assert len(finished) >= 6  # W1 x2, W2, L1, L2, GF (and its reset when the losers' side wins it)
        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        desk.wait_for_selector("#step-run")
        shot(desk, "desk-snooker-champion")
        shot(tablets[0], "racks-snooker-tablet-over")
    finally:
        desk_ctx.close()
        tablets_ctx.close()
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)
