"""The screens in a real headless Chromium against the real hub (see conftest.py)."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import httpx

from .conftest import ARTIFACTS, XSS_NAME, Hub, PageWatch, shot

FAST = 1000  # ms: how fast a stroke must reach the big screen and the spectators


def open_tablet(context: Any, guard: PageWatch, hub_process: Hub, t: dict[str, Any]) -> Any:
    page = guard.attach(context.new_page())
    page.goto(f"{hub_process.url}/tablet/{t['table_id']}#token={t['token']}")
    page.wait_for_selector("body[data-conn='live']")
    return page


def enter_break(page: Any, *, pocket: int = 3, crossings: int = 3) -> None:
    page.wait_for_selector("#stroke:not(.hidden)")
    page.click(f"#pk-grid [data-ball='{pocket}']")
    for _ in range(crossings):
        page.click("#break-plus")
    page.click("#enter-stroke")


def score(page: Any, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def test_routes_and_static(hub_process: Hub) -> None:
    for path in ("/", "/tablet/x", "/board/x", "/commentator/x", "/watch/x", "/overlay/x"):
        r = httpx.get(hub_process.url + path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
        assert "script-src 'self'" in r.headers["content-security-policy"]
    r = httpx.get(hub_process.url + "/static/js/live.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert httpx.get(hub_process.url + "/static/css/base.css").headers["content-type"].startswith("text/css")
    for bad in (
        "/static/../hub/app.py",
        "/static/%2e%2e/hub/app.py",
        "/static/nope.js",
        "/static/js/../../../pyproject.toml",
    ):
        assert httpx.get(hub_process.url + bad).status_code == 404, bad


def test_break_and_foul_reach_board_and_spectator(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    s = hub_process.setup(tables=2)
    t = s["tables"][0]
    tablet = open_tablet(context, guard, hub_process, t)
    board = guard.attach(context.new_page())
    board.set_viewport_size({"width": 1920, "height": 1080})
    board.goto(f"{hub_process.url}/board/{s['tid']}")
    watch = guard.attach(context.new_page())
    watch.set_viewport_size({"width": 390, "height": 844})
    watch.goto(f"{hub_process.url}/watch/{t['match_id']}")
    cell = f".cell[data-table='{t['table_id']}']"
    board.wait_for_selector(f"{cell} .pl-row[data-player='a']")
    watch.wait_for_selector(".pl[data-player='a']")

    # The referee starts the match: a breaks.
    tablet.wait_for_selector("#start:not(.hidden)")
    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")
    board.wait_for_selector(f"{cell}.live", timeout=FAST)

    # The break: 1 first (the ball-on is preselected), 3 pocketed, 3 crossings: legal, a shoots on.
    enter_break(tablet)
    tablet.wait_for_selector("body[data-version='2']")
    assert "Accepted" in tablet.locator("#log li").first.inner_text()
    tablet.wait_for_selector("#stroke-title")
    assert XSS_NAME in tablet.locator("#stroke-title").inner_text()

    # A foul: the referee calls a double hit. b scores 1 and has ball in hand.
    tablet.click("#called-fouls [data-foul='double_hit']")
    tablet.click("#flag-rail")
    started = time.monotonic()
    tablet.click("#enter-stroke")
    tablet.wait_for_selector("body[data-version='3']")
    tablet.wait_for_selector("#bih")

    board.locator(f"{cell} .pl-row[data-player='b'] .score:text-is('1')").wait_for(timeout=FAST)
    board.locator(f"{cell} .badge.bih").wait_for(timeout=FAST)
    watch.locator(".pl[data-player='b'] .score:text-is('1')").wait_for(timeout=FAST)
    watch.locator("#bih").wait_for(timeout=FAST)
    assert time.monotonic() - started < 3 * FAST / 1000  # the click-to-ack part included

    assert score(board, f"{cell} .pl-row[data-player='a'] .score") == "0"
    assert board.locator(f"{cell} .pl-row[data-player='b']").get_attribute("class").find("at-table") >= 0
    assert board.locator(f"{cell} .shotclock").inner_text().strip().isdigit()
    assert "Foul" in watch.locator("#last").inner_text()

    # The projection over REST agrees with the screens.
    m = hub_process.get(f"/api/matches/{t['match_id']}")
    assert [p["score"] for p in m["players"]] == [0, 1]
    assert m["rack"]["ball_in_hand"] == "anywhere"

    # The commentator sees the stroke log with the verdict's reason.
    com = guard.attach(context.new_page())
    com.goto(f"{hub_process.url}/commentator/{t['match_id']}")
    com.wait_for_selector("#strokes li[data-version='3'] .fouls")
    assert "double hit" in com.locator("#strokes li[data-version='3'] .fouls").inner_text()
    assert com.locator("#strokes li").count() == 3

    overlay = guard.attach(context.new_page())
    overlay.set_viewport_size({"width": 1280, "height": 720})
    overlay.goto(f"{hub_process.url}/overlay/{t['table_id']}")
    overlay.locator(".row[data-player='b'] .score:text-is('1')").wait_for(timeout=5000)
    overlay.locator("#bih").wait_for(timeout=FAST)

    index = guard.attach(context.new_page())
    index.goto(f"{hub_process.url}/")
    index.wait_for_selector(f"#matches li[data-match='{t['match_id']}']")

    for name, page in (("tablet", tablet), ("board", board), ("watch", watch), ("commentator", com), ("index", index)):
        shot(page, name)
    overlay.screenshot(path=str(ARTIFACTS / "overlay.png"), omit_background=True)
    assert guard.dialogs == [] and guard.errors == []


def test_xss_name_renders_as_text(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    tablet = open_tablet(context, guard, hub_process, t)
    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")
    pages = {
        "tablet": tablet,
        "board": f"/board/{s['tid']}",
        "watch": f"/watch/{t['match_id']}",
        "commentator": f"/commentator/{t['match_id']}",
        "overlay": f"/overlay/{t['table_id']}",
        "index": "/",
    }
    for name, target in pages.items():
        page = target if not isinstance(target, str) else guard.attach(context.new_page())
        if isinstance(target, str):
            page.goto(hub_process.url + target)
        page.get_by_text(XSS_NAME, exact=True).filter(visible=True).first.wait_for(timeout=5000)
        assert page.locator("img").count() == 0, name  # the name never became an element
        assert XSS_NAME in page.locator("body").inner_text(), name
    time.sleep(0.3)
    assert guard.dialogs == [], guard.dialogs
    assert guard.errors == [], guard.errors


def test_tablet_keeps_a_queued_stroke_across_a_restart(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    tablet = open_tablet(context, guard, hub_process, t)
    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")
    tablet.wait_for_selector("#stroke:not(.hidden)")

    hub_process.stop()
    try:
        tablet.wait_for_selector("body[data-conn='offline']", timeout=10000)
        enter_break(tablet)
        tablet.wait_for_selector("#queue-count:not(.hidden)")
        assert "1" in tablet.locator("#queue-count").inner_text()
        queued = json.loads(tablet.evaluate(f"localStorage.getItem('cuehub.queue.{t['table_id']}')"))
        assert len(queued) == 1 and queued[0]["command"]["kind"] == "shot"
        shot(tablet, "tablet-offline")
    finally:
        hub_process.start()

    # The tablet reconnects by itself and sends the stroke again, with the same id.
    tablet.wait_for_selector("body[data-version='2']", timeout=15000)
    tablet.wait_for_selector("#queue-count.hidden", state="attached")
    assert tablet.evaluate(f"localStorage.getItem('cuehub.queue.{t['table_id']}')") == "[]"
    events = hub_process.get(f"/api/matches/{t['match_id']}/events?since=0")["events"]
    assert [e["kind"] for e in events] == ["start", "shot"]
    assert events[1]["command_id"] == queued[0]["id"]

    # An ack that was lost: the same envelope still queued after a reload is sent again,
    # answered with the first answer, and changes nothing.
    tablet.evaluate(f"localStorage.setItem('cuehub.queue.{t['table_id']}', {json.dumps(json.dumps(queued))})")
    tablet.reload()
    tablet.wait_for_selector("body[data-conn='live']")
    tablet.wait_for_selector("#queue-count.hidden", state="attached")
    assert tablet.evaluate(f"localStorage.getItem('cuehub.queue.{t['table_id']}')") == "[]"
    events = hub_process.get(f"/api/matches/{t['match_id']}/events?since=0")["events"]
    assert [e["kind"] for e in events] == ["start", "shot"]
    assert guard.dialogs == []


def test_reject_in_plain_words_and_undo_with_confirmation(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    tablet = open_tablet(context, guard, hub_process, t)
    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")

    # A confirmation that is cancelled sends nothing.
    tablet.select_option("#act-player", "a")
    tablet.click("#act-concede-match")
    tablet.wait_for_selector("#modal-text")
    assert XSS_NAME in tablet.locator("#modal-text").inner_text()
    tablet.click("#modal-cancel")
    assert tablet.locator("#modal").count() == 0

    # Undo, confirmed: the start is voided, the match is scheduled again.
    tablet.click("#act-undo")
    tablet.wait_for_selector("#modal-text")
    tablet.click("#modal-confirm")
    tablet.wait_for_selector("body[data-version='2']")
    assert hub_process.get(f"/api/matches/{t['match_id']}")["status"] == "scheduled"
    stored = hub_process.get(f"/api/matches/{t['match_id']}/events?since=0")["events"]
    assert [e["kind"] for e in stored] == ["start", "undo"]

    # Nothing is left to undo: the hub rejects, and the tablet says so in plain words.
    tablet.wait_for_selector("#start:not(.hidden)")
    tablet.click("#act-undo")
    tablet.click("#modal-confirm")
    tablet.wait_for_selector("#reject:not(.hidden)")
    text = tablet.locator("#reject").inner_text()
    assert "Rejected" in text and "Nothing to undo." in text
    shot(tablet, "tablet-reject")
    assert guard.dialogs == [] and guard.errors == []


def test_language_switch_and_chinese_terms(watch_gateway: Hub, browser: Any) -> None:
    hub_process = watch_gateway
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(f"{hub_process.url}/watch/{t['match_id']}")
        page.wait_for_selector(".pl[data-player='a']")
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        assert "中式九球" in page.locator(".meta").inner_text()
        page.click("#lang-switch")
        assert "Chinese nine-ball" in page.locator(".meta").inner_text()
        page.reload()
        page.wait_for_selector(".pl[data-player='a']")
        assert "Chinese nine-ball" in page.locator(".meta").inner_text()  # kept in localStorage
        page.click("#lang-switch")
        shot(page, "watch-zh")
    finally:
        ctx.close()


def test_token_prompt_bad_token_then_query_token(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    page = guard.attach(context.new_page())
    page.goto(f"{hub_process.url}/tablet/{t['table_id']}")
    page.wait_for_selector("#token-panel:not(.hidden)")
    page.fill("#token-input", "not-the-token")
    page.click("#token-save")
    page.wait_for_selector("#token-error:not(.hidden)")  # the hub closed with 4401
    page.fill("#token-input", t["token"])
    page.click("#token-save")
    page.wait_for_selector("body[data-conn='live']")
    page.wait_for_selector("#start:not(.hidden)")
    assert page.evaluate(f"localStorage.getItem('cuehub.token.{t['table_id']}')") == t["token"]

    # ?token= is taken, stored and removed from the address bar.
    page2 = guard.attach(context.new_page())
    page2.goto(f"{hub_process.url}/tablet/{t['table_id']}?token={t['token']}")
    page2.wait_for_selector("body[data-conn='live']")
    assert "token" not in page2.url
    assert guard.dialogs == [] and guard.errors == []


def test_decision_pending_answered_on_the_tablet(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    tablet = open_tablet(context, guard, hub_process, t)
    tablet.set_viewport_size({"width": 390, "height": 844})  # a phone works too
    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")
    # A break that pockets nothing and crosses the head string twice: loss of chance (开球失机).
    tablet.wait_for_selector("#stroke:not(.hidden)")
    tablet.click("#break-plus")
    tablet.click("#break-plus")
    tablet.click("#enter-stroke")
    tablet.wait_for_selector("body[data-version='2']")
    tablet.wait_for_selector("#pending:not(.hidden)")
    choices = tablet.locator("#pending [data-choice]").evaluate_all("els => els.map(e => e.dataset.choice)")
    assert set(choices) == {"play", "pass", "rerack_self", "rerack_other"}
    assert "杨帆 Yang Fan" in tablet.locator("#pending").inner_text()
    assert tablet.locator("#stroke.hidden").count() == 1  # no stroke while a decision waits
    shot(tablet, "tablet-phone-decision")
    tablet.click("#pending [data-choice='play']")
    tablet.wait_for_selector("body[data-version='3']")
    tablet.wait_for_selector("#pending.hidden", state="attached")
    m = hub_process.get(f"/api/matches/{t['match_id']}")
    assert m["rack"]["shooter"] == "b" and m["rack"]["pending"] is None
    assert "杨帆 Yang Fan" in tablet.locator("#stroke-title").inner_text()
    assert guard.dialogs == [] and guard.errors == []


def command(hub_process: Hub, t: dict[str, Any], cmd: dict[str, Any]) -> dict[str, Any]:
    env = {"id": uuid.uuid4().hex, "match_id": t["match_id"], "command": cmd}
    r = httpx.post(
        f"{hub_process.url}/api/matches/{t['match_id']}/commands",
        json=env,
        headers={"Authorization": f"Bearer {t['token']}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_board_sixteen_tables_without_scrolling_and_clock_warning(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    s = hub_process.setup(tables=15)
    # The 16th table's match has a short break clock, so the 10 s warning shows at once.
    tb = hub_process.table(s["tid"], "Table 16")
    m = hub_process.match(
        s["tid"], tb["id"], names=("Wu Jiaqing", "Ko Pin-yi"), options={"shot_clock": {"shot_s": 45, "break_s": 11}}
    )
    short = {"table_id": tb["id"], "token": tb["token"], "match_id": m["id"]}
    for i, t in enumerate(s["tables"][:6]):
        command(hub_process, t, {"kind": "start", "breaker": "a" if i % 2 else "b"})
    board = guard.attach(context.new_page())
    board.set_viewport_size({"width": 1920, "height": 1080})
    board.goto(f"{hub_process.url}/board/{s['tid']}")
    board.wait_for_selector(f".cell[data-table='{tb['id']}'] .pl-row[data-player='a']")
    assert board.locator(".cell").count() == 16
    command(hub_process, short, {"kind": "start", "breaker": "a"})
    cell = f".cell[data-table='{tb['id']}']"
    board.locator(f"{cell} .shotclock.warn").wait_for(timeout=4000)
    assert int(board.locator(f"{cell} .shotclock").inner_text()) <= 10
    dims = board.evaluate(
        "[document.documentElement.scrollHeight, innerHeight, document.documentElement.scrollWidth, innerWidth]"
    )
    assert dims[0] <= dims[1] and dims[2] <= dims[3], dims
    boxes = board.locator(".cell").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)")
    assert max(boxes) <= 1080
    # Readable from across the hall: scores at least 40 px tall on a 1080p screen with 16 tables.
    size = board.locator(f"{cell} .pl-row .score").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 40, size
    shot(board, "board-16")
    assert guard.dialogs == [] and guard.errors == []


def test_rejected_stroke_comes_back_for_correction(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    s = hub_process.setup(tables=1)
    t = s["tables"][0]
    tablet = open_tablet(context, guard, hub_process, t)
    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")
    tablet.click("#act-pause")
    tablet.wait_for_selector("body[data-version='2']")
    tablet.wait_for_selector("#paused")
    enter_break(tablet)  # while paused: not_allowed
    tablet.wait_for_selector("#reject:not(.hidden)")
    assert "The rules do not allow that now." in tablet.locator("#reject").inner_text()
    # The stroke as entered is back on the form: resume and send it again.
    assert tablet.locator("#pk-grid [data-ball='3'].on").count() == 1
    assert tablet.locator("#break-value").inner_text() == "3"
    tablet.click("#act-resume")
    tablet.wait_for_selector("body[data-version='3']")
    tablet.click("#enter-stroke")
    tablet.wait_for_selector("body[data-version='4']")
    m = hub_process.get(f"/api/matches/{t['match_id']}")
    assert 3 not in m["rack"]["on_table"] and m["rack"]["shooter"] == "a"
    assert guard.dialogs == [] and guard.errors == []
