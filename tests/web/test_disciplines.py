"""The other three disciplines (chase_nine, wpa_nine, chinese_eight) and the shot clock, driven
through the tablet page in a real headless Chromium against the real hub (see conftest.py).

Each test checks that the tablet, the spectator page and the commentator show what the rules
decided (RULES.md), and saves a screenshot of every page per discipline in test-artifacts/."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from tests.services import wait_until

from .conftest import ARTIFACTS, XSS_NAME, Hub, PageWatch, shot

FAST = 1000  # ms


# ------------------------------------------------------------------ setup helpers
def new_match(hub_process: Hub, discipline: str, players: list[tuple[str, str]], fmt: dict[str, Any],
              options: dict[str, Any] | None = None, tables: int = 1) -> dict[str, Any]:
    """A tournament with one table holding a scheduled match of `discipline`."""
    tid = hub_process.tournament(f"{discipline} {uuid.uuid4().hex[:4]}")
    tb = hub_process.table(tid, "Table 1")
    body: dict[str, Any] = {
        "tournament_id": tid, "table_id": tb["id"], "discipline": discipline,
        "players": [{"id": pid, "name": name} for pid, name in players], "format": fmt,
    }
    if options is not None:
        body["options"] = options
    m = hub_process.post("/api/matches", body)
    return {"tid": tid, "table_id": tb["id"], "token": tb["token"], "match_id": m["id"]}


class Pages:
    """Tablet, board, spectator, commentator and overlay for one match."""

    def __init__(self, context: Any, guard: PageWatch, hub_process: Hub, t: dict[str, Any]) -> None:
        self.hub, self.t = hub_process, t
        self.tablet = guard.attach(context.new_page())
        self.tablet.set_viewport_size({"width": 1280, "height": 800})  # a 10-inch tablet
        self.tablet.goto(f"{hub_process.url}/tablet/{t['table_id']}#token={t['token']}")
        self.tablet.wait_for_selector("body[data-conn='live']")
        self.watch = guard.attach(context.new_page())
        self.watch.set_viewport_size({"width": 390, "height": 844})
        self.watch.goto(f"{hub_process.url}/watch/{t['match_id']}")
        self.watch.wait_for_selector("#match .scoreline")
        self.com = guard.attach(context.new_page())
        self.com.set_viewport_size({"width": 1440, "height": 900})
        self.com.goto(f"{hub_process.url}/commentator/{t['match_id']}")
        self.com.wait_for_selector("#match .scoreline")
        self.board = guard.attach(context.new_page())
        self.board.set_viewport_size({"width": 1920, "height": 1080})
        self.board.goto(f"{hub_process.url}/board/{t['tid']}")
        self.cell = f".cell[data-table='{t['table_id']}']"
        self.board.wait_for_selector(f"{self.cell} .pl-row")
        self.overlay = guard.attach(context.new_page())
        self.overlay.set_viewport_size({"width": 1280, "height": 720})
        self.overlay.goto(f"{hub_process.url}/overlay/{t['table_id']}")
        self.overlay.wait_for_selector("#bug .row")

    def version(self, v: int) -> None:
        """Every page has drawn version v (the board has no version mark: checked by callers)."""
        self.tablet.wait_for_selector(f"body[data-version='{v}']")
        self.watch.wait_for_selector(f"body[data-version='{v}']", timeout=FAST)
        self.com.wait_for_selector(f"body[data-version='{v}']", timeout=FAST)
        self.overlay.wait_for_selector(f"body[data-version='{v}']", timeout=FAST)

    def projection(self) -> dict[str, Any]:
        return self.hub.get(f"/api/matches/{self.t['match_id']}")

    def screenshots(self, prefix: str) -> None:
        for name in ("tablet", "watch", "commentator", "board"):
            shot(getattr(self, "com" if name == "commentator" else name), f"{prefix}-{name}")
        self.overlay.screenshot(path=str(ARTIFACTS / f"{prefix}-overlay.png"), omit_background=True)
        # The tablet on a phone too, then back to the 10-inch size.
        self.tablet.set_viewport_size({"width": 390, "height": 844})
        wide = self.tablet.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], wide  # no sideways scrolling on a phone
        shot(self.tablet, f"{prefix}-tablet-phone")
        self.tablet.set_viewport_size({"width": 1280, "height": 800})


def stroke(page: Any, *, first: int | None | str = "keep", pocketed: tuple[int, ...] = (), off: tuple[int, ...] = (),
           cue: str = "table", rail: bool = False, breaks: int = 0, flags: tuple[str, ...] = (),
           called: tuple[str, ...] = ()) -> None:
    """Enter one stroke on the tablet. first="keep" leaves the preselected ball-on."""
    page.wait_for_selector("#stroke:not(.hidden)")
    if first is None:
        page.click("#fc-grid [data-ball='none']")
    elif first != "keep":
        page.click(f"#fc-grid [data-ball='{first}']")
    for n in pocketed:
        page.click(f"#pk-grid [data-ball='{n}']")
    for n in off:
        page.click(f"#off-grid [data-ball='{n}']")
    if cue != "table":
        page.click(f"#cue-ball [data-cue='{cue}']")
    if rail:
        page.click("#flag-rail")
    for _ in range(breaks):
        page.click("#break-plus")
    for f in flags:
        page.click(f"#flag-{f}")
    for c in called:
        page.click(f"#called-fouls [data-foul='{c}']")
    page.click("#enter-stroke")


def scores(page: Any, row: str) -> dict[str, int]:
    return {pid: int(v) for pid, v in page.locator(row).evaluate_all(
        "els => els.map(e => [e.dataset.player, e.querySelector('.score').textContent])")}


def text(page: Any, sel: str) -> str:
    return page.locator(sel).inner_text()


# ------------------------------------------------------------------ chase_nine
def test_chase_nine_three_players_foul_pays_upper_and_snooker_pass(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    players = [("a", "Zheng Yubo"), ("b", "杨帆 Yang Fan"), ("c", XSS_NAME)]
    t = new_match(hub_process, "chase_nine", players, {"racks": 5})
    p = Pages(context, guard, hub_process, t)

    # Six orders are offered for three players; the referee picks b → c → a (b breaks).
    p.tablet.wait_for_selector("#start:not(.hidden)")
    assert p.tablet.locator("#start [data-order]").count() == 6
    p.tablet.click("#start [data-order='b,c,a']")
    p.version(1)
    assert p.projection()["rack"]["order"] == ["b", "c", "a"]
    assert "杨帆 Yang Fan" in text(p.tablet, "#stroke-title")

    # A legal break: 1 first (preselected), the 3 down, 4 balls to a rail. b shoots on.
    stroke(p.tablet, pocketed=(3,), breaks=4)
    p.version(2)
    assert p.projection()["rack"]["shooter"] == "b"

    # b fouls (a called double hit): b's 上家 in the cycle b → c → a is a; a gains 1, b pays 1.
    stroke(p.tablet, rail=True, called=("double_hit",))
    p.version(3)
    want = {"a": 1, "b": -1, "c": 0}
    assert scores(p.tablet, "#state .pl") == want
    assert scores(p.watch, ".pl") == want
    assert scores(p.com, "#match .pl") == want
    p.board.locator(f"{p.cell} .pl-row[data-player='a'] .score:text-is('1')").wait_for(timeout=FAST)
    assert scores(p.board, f"{p.cell} .pl-row") == want
    assert scores(p.overlay, "#bug .row") == want
    assert sum(want.values()) == 0
    m = p.projection()
    assert {x["id"]: x["score"] for x in m["players"]} == want
    assert m["rack"]["shooter"] == "c" and m["rack"]["ball_in_hand"] == "anywhere"
    assert p.tablet.locator("#state .pl").count() == 3 and p.watch.locator(".pl").count() == 3
    p.tablet.wait_for_selector("#bih")
    p.watch.wait_for_selector("#bih")
    assert "double hit" in text(p.com, "#strokes li[data-version='3'] .fouls")
    # The rules' own note says who was paid, with names (hub/rules: "foul: b pays 1 to a").
    assert "Foul: 杨帆 Yang Fan pays 1 to Zheng Yubo" in text(p.com, "#strokes li[data-version='3'] .verdict")
    assert XSS_NAME in text(p.tablet, "#stroke-title")  # c is at the table, its name as text

    # c plays a legal safety on the 1 that leaves a snookered: a chooses play or pass, on the tablet.
    stroke(p.tablet, rail=True, flags=("snooker",))
    p.version(4)
    p.tablet.wait_for_selector("#pending:not(.hidden)")
    choices = p.tablet.locator("#pending [data-choice]").evaluate_all("els => els.map(e => e.dataset.choice)")
    assert sorted(choices) == ["pass", "play"]
    assert "Zheng Yubo" in text(p.tablet, "#pending-title")
    assert text(p.tablet, "#pending [data-choice='pass']") == f"Pass ({XSS_NAME} shoots)"  # who shoots then
    assert p.tablet.locator("#stroke.hidden").count() == 1
    assert "snooker" in text(p.com, "#strokes li[data-version='4']").lower()
    assert "Zheng Yubo" in text(p.com, "#match .badges")  # the decision is shown to the commentator
    p.watch.locator(".pl[data-player='a'] .badge.at").wait_for(timeout=FAST)
    p.screenshots("chase_nine-decision")

    # a passes: c shoots again, and for that inning a foul pays its 下家 a (the one who passed).
    p.tablet.click("#pending [data-choice='pass']")
    p.version(5)
    assert p.projection()["rack"]["shooter"] == "c"
    assert XSS_NAME in text(p.tablet, "#stroke-title")
    stroke(p.tablet, first=None)  # no contact: a foul
    p.version(6)
    want = {"a": 2, "b": -1, "c": -1}
    assert scores(p.tablet, "#state .pl") == want
    assert scores(p.watch, ".pl") == want
    p.board.locator(f"{p.cell} .pl-row[data-player='a'] .score:text-is('2')").wait_for(timeout=FAST)
    assert {x["id"]: x["score"] for x in p.projection()["players"]} == want
    assert "no contact" in text(p.com, "#strokes li[data-version='6'] .fouls")
    assert f"Foul: {XSS_NAME} pays 1 to Zheng Yubo" in text(p.com, "#strokes li[data-version='6'] .verdict")
    assert "Zheng Yubo passes" in text(p.com, "#strokes li[data-version='5'] .verdict")
    p.screenshots("chase_nine")
    assert guard.dialogs == [] and guard.errors == []


# ------------------------------------------------------------------ wpa_nine
def test_wpa_nine_push_out_pass_then_scratch(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    t = new_match(
        hub_process,
        "wpa_nine",
        [("a", "Shane Van Boening"), ("b", "Ko Pin-yi")],
        {"race_to": 9},
        {"shot_clock": {"shot_s": 45, "extension_s": 30}},
    )
    p = Pages(context, guard, hub_process, t)
    p.tablet.click("#start [data-breaker='a']")
    p.version(1)

    # A legal dry break (4 balls to a rail): b comes to the table and may push out.
    stroke(p.tablet, breaks=4)
    p.version(2)
    assert p.projection()["rack"]["push_out_allowed"] is True
    assert "Ko Pin-yi" in text(p.tablet, "#stroke-title")
    p.tablet.wait_for_selector("#flag-push-out")

    # b pushes out without touching a ball: legal, a chooses play or pass on the tablet.
    stroke(p.tablet, first=None, flags=("push-out",))
    p.version(3)
    p.tablet.wait_for_selector("#pending:not(.hidden)")
    choices = p.tablet.locator("#pending [data-choice]").evaluate_all("els => els.map(e => e.dataset.choice)")
    assert sorted(choices) == ["pass", "play"]
    assert "Shane Van Boening" in text(p.tablet, "#pending-title")
    assert text(p.tablet, "#pending [data-choice='pass']") == "Pass (Ko Pin-yi shoots)"
    assert p.watch.locator(".badge.foul").count() == 0
    verdict = text(p.com, "#strokes li[data-version='3']")
    assert "Push-out: the opponent chooses to play or pass" in verdict
    p.screenshots("wpa_nine-push-out")

    # a passes: the pusher b shoots again, no push-out any more.
    p.tablet.click("#pending [data-choice='pass']")
    p.version(4)
    m = p.projection()
    assert m["rack"]["shooter"] == "b" and m["rack"]["push_out_allowed"] is False
    assert "Ko Pin-yi" in text(p.tablet, "#stroke-title")
    assert p.tablet.locator("#flag-push-out").count() == 0

    # b hits the 1 and scratches: a foul, a has ball in hand anywhere (a scratch asks no rail question).
    stroke(p.tablet, cue="pocketed")
    p.version(5)
    m = p.projection()
    assert m["rack"]["shooter"] == "a" and m["rack"]["ball_in_hand"] == "anywhere"
    for page in (p.tablet, p.watch, p.com, p.overlay):
        page.wait_for_selector("#bih", timeout=FAST)
        assert "Ball in hand" in text(page, "#bih")
    p.board.locator(f"{p.cell} .badge.bih").wait_for(timeout=FAST)
    assert "scratch" in text(p.com, "#strokes li[data-version='5'] .fouls")
    assert "Foul" in text(p.watch, "#last")
    assert scores(p.watch, ".pl") == {"a": 0, "b": 0}
    p.screenshots("wpa_nine")
    assert guard.dialogs == [] and guard.errors == []


# ------------------------------------------------------------------ chinese_eight
def test_chinese_eight_timeout_then_break_and_groups(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    t = new_match(
        hub_process,
        "chinese_eight",
        [("a", "Zheng Yubo"), ("b", "Wang Can")],
        {"race_to": 6},
        {"shot_clock": {"shot_s": 40, "break_s": 40}},
    )
    p = Pages(context, guard, hub_process, t)
    p.tablet.click("#start [data-breaker='a']")
    p.version(1)

    # Fifteen balls on the table, shown on every page.
    assert p.tablet.locator("#state .ontable .ball").count() == 15
    assert p.watch.locator(".ontable .ball").count() == 15
    assert p.com.locator("#on-table .ball").count() == 15
    assert p.tablet.locator("#pk-grid .ballbtn").count() == 15
    assert p.tablet.locator("#fc-grid .ballbtn").count() == 16  # "none" and 1-15

    # a takes its timeout before the break (race to 6): every clock stops until resume.
    p.tablet.select_option("#act-player", "a")
    p.tablet.click("#act-timeout")
    p.version(2)
    p.tablet.wait_for_selector("#paused")
    p.tablet.wait_for_selector("#act-resume")
    clock = p.projection()["clock"]["shot"]
    assert clock["running"] is False
    p.tablet.wait_for_selector("#shot-clock.paused")
    frozen = text(p.tablet, "#shot-clock")
    time.sleep(1.3)
    assert text(p.tablet, "#shot-clock") == frozen
    assert text(p.watch, "#shot-clock") == frozen
    assert "Timeout" in text(p.com, "#strokes li[data-version='2']")
    shot(p.tablet, "chinese_eight-timeout-tablet")

    # A second timeout by the same player is refused in plain words.
    p.tablet.click("#act-resume")
    p.version(3)
    assert p.tablet.locator("#paused").count() == 0
    p.tablet.select_option("#act-player", "a")
    p.tablet.click("#act-timeout")
    p.tablet.wait_for_selector("#reject:not(.hidden)")
    assert "The rules do not allow that now." in text(p.tablet, "#reject")
    running = int(text(p.tablet, "#shot-clock"))
    wait_until(lambda: int(text(p.tablet, "#shot-clock")) < running, 5, "the resumed clock counting down")

    # The break: any ball first; the 2 and the 10 go down: legal, the table stays open, a shoots on.
    stroke(p.tablet, first=1, pocketed=(2, 10), breaks=4)
    p.version(4)
    m = p.projection()
    assert m["rack"]["table_open"] is True and m["rack"]["shooter"] == "a"
    assert "Table open" in text(p.tablet, "#state .info")
    assert p.tablet.locator("#state .ontable .ball").count() == 13

    # a hits the 3 first and pockets it: a takes solids, b stripes; shown on every page.
    stroke(p.tablet, first=3, pocketed=(3,))
    p.version(5)
    m = p.projection()
    assert {x["id"]: x["group"] for x in m["players"]} == {"a": "solids", "b": "stripes"}
    for page, row in ((p.tablet, "#state .pl"), (p.watch, ".pl"), (p.com, "#match .pl")):
        assert "Solids" in text(page, f"{row}[data-player='a'] .sub"), page.url
        assert "Stripes" in text(page, f"{row}[data-player='b'] .sub"), page.url
    p.board.locator(f"{p.cell} .pl-row[data-player='a'] .grp:text-is('Solids')").wait_for(timeout=FAST)
    assert text(p.board, f"{p.cell} .pl-row[data-player='b'] .grp") == "Stripes"
    assert p.tablet.locator("#state .ontable .ball").count() == 12
    assert p.tablet.locator("text=Table open").count() == 0
    notes = text(p.com, "#strokes li[data-version='5'] .verdict")
    assert "Zheng Yubo takes Solids" in notes  # the note names the player, not its id
    p.screenshots("chinese_eight")
    assert guard.dialogs == [] and guard.errors == []


# ------------------------------------------------------------------ shot clock
def test_shot_clock_counts_down_with_warning_on_tablet_and_board(
    watch_gateway: Hub, context: Any, guard: PageWatch
) -> None:
    hub_process = watch_gateway
    t = new_match(
        hub_process,
        "golden_nine",
        [("a", "Zheng Yubo"), ("b", "Yang Fan")],
        {"racks": 9},
        {"shot_clock": {"shot_s": 12, "break_s": 12, "extension_s": 30}},
    )
    p = Pages(context, guard, hub_process, t)
    tablet, board = p.tablet, p.board
    clock = f"{p.cell} .shotclock"
    assert text(tablet, "#shot-clock") == "" and text(board, clock) == ""  # no clock before the start

    tablet.click("#start [data-breaker='a']")
    tablet.wait_for_selector("body[data-version='1']")
    board.locator(f"{p.cell}.live").wait_for(timeout=FAST)
    first_t, first_b = int(text(tablet, "#shot-clock")), int(text(board, clock))
    assert 10 < first_t <= 12 and 10 < first_b <= 12, (first_t, first_b)
    assert tablet.locator("#shot-clock.warn").count() == 0
    assert board.locator(f"{clock}.warn").count() == 0

    # It counts down, and turns to the warning style at 10 s.
    tablet.wait_for_selector("#shot-clock.warn", timeout=4000)
    board.locator(f"{clock}.warn").wait_for(timeout=1000)
    assert int(text(tablet, "#shot-clock")) <= 10 and int(text(board, clock)) <= 10
    color = tablet.locator("#shot-clock").evaluate("e => getComputedStyle(e).color")
    assert color != board.locator(f"{p.cell} .pl-row .score").first.evaluate("e => getComputedStyle(e).color")
    a = int(text(tablet, "#shot-clock"))
    wait_until(lambda: int(text(tablet, "#shot-clock")) < a, 5, "the clock counting down past the warning")
    shot(tablet, "shotclock-tablet-warn")
    shot(board, "shotclock-board-warn")

    # The break resets the clock to its full limit for the next stroke (out of the warning).
    stroke(tablet, pocketed=(3,), breaks=3)
    tablet.wait_for_selector("body[data-version='2']")
    tablet.wait_for_selector("#shot-clock:not(.warn)")
    assert int(text(tablet, "#shot-clock")) > 10
    # Pause: the clock stops on the tablet and the board.
    tablet.click("#act-pause")
    tablet.wait_for_selector("body[data-version='3']")
    tablet.wait_for_selector("#shot-clock.paused")
    board.locator(f"{clock}.paused").wait_for(timeout=FAST)
    held = text(board, clock)
    time.sleep(1.2)
    assert text(board, clock) == held and text(tablet, "#shot-clock") == held
    tablet.click("#act-resume")
    tablet.wait_for_selector("body[data-version='4']")

    # Left to run out, the hub stores the time foul itself: b has ball in hand.
    tablet.wait_for_selector("body[data-version='5']", timeout=20000)
    m = p.projection()
    assert m["last"]["kind"] == "clock_expired" and m["rack"]["ball_in_hand"] == "anywhere"
    tablet.wait_for_selector("#bih")
    assert re.search(r"time foul", text(tablet, "#last"))
    assert guard.dialogs == [] and guard.errors == []


# ------------------------------------------------------------------ a mixed hall
def test_board_sixteen_tables_of_every_discipline(watch_gateway: Hub, context: Any, guard: PageWatch) -> None:
    """16 tables, the four disciplines mixed (chase_nine with three players), some live:
    everything fits 1920x1080 without scrolling, and every score is shown."""
    import httpx

    hub_process = watch_gateway
    tid = hub_process.tournament(f"Hall {uuid.uuid4().hex[:4]}")
    kinds = [
        (
            "golden_nine",
            [("a", "郑宇伯 Zheng Yubo"), ("b", "Yang Fan")],
            {"racks": 9},
            {"kind": "start", "breaker": "a"},
        ),
        (
            "chase_nine",
            [("a", "Wu Jiaqing"), ("b", "Ko Pin-yi"), ("c", "韩雨 Han Yu")],
            {"racks": 12},
            {"kind": "start", "order": ["c", "a", "b"]},
        ),
        (
            "wpa_nine",
            [("a", "Shane Van Boening"), ("b", "Fedor Gorst")],
            {"race_to": 9},
            {"kind": "start", "breaker": "b"},
        ),
        (
            "chinese_eight",
            [("a", "Zheng Xiaoli"), ("b", "Wang Can")],
            {"race_to": 6},
            {"kind": "start", "breaker": "a"},
        ),
    ]
    tables = []
    for i in range(16):
        disc, players, fmt, start = kinds[i % 4]
        tb = hub_process.table(tid, f"Table {i + 1}")
        m = hub_process.post(
            "/api/matches",
            {
                "tournament_id": tid,
                "table_id": tb["id"],
                "discipline": disc,
                "players": [{"id": a, "name": n} for a, n in players],
                "format": fmt,
                "options": {"shot_clock": {"shot_s": 45, "break_s": 45}},
            },
        )
        tables.append((tb, m, disc))
        if i < 12:
            env = {"id": uuid.uuid4().hex, "match_id": m["id"], "command": start}
            r = httpx.post(
                f"{hub_process.url}/api/matches/{m['id']}/commands",
                json=env,
                headers={"Authorization": f"Bearer {tb['token']}"},
                timeout=10,
            )
            assert r.status_code == 200, r.text
    board = guard.attach(context.new_page())
    board.set_viewport_size({"width": 1920, "height": 1080})
    board.goto(f"{hub_process.url}/board/{tid}")
    for tb, _, disc in tables:
        board.wait_for_selector(f".cell[data-table='{tb['id']}'] .pl-row .score")
        n = board.locator(f".cell[data-table='{tb['id']}'] .pl-row").count()
        assert n == (3 if disc == "chase_nine" else 2), (disc, n)
    board.locator(".cell.live").nth(11).wait_for(timeout=5000)
    dims = board.evaluate(
        "[document.documentElement.scrollHeight, innerHeight, document.documentElement.scrollWidth, innerWidth]"
    )
    assert dims[0] <= dims[1] and dims[2] <= dims[3], dims
    # No row is cut off inside its cell: the three-player rows fit too.
    clipped = board.locator(".cell").evaluate_all("""els => els.filter(c => {
        const b = c.getBoundingClientRect();
        return [...c.querySelectorAll('.pl-row, .cell-foot')]
          .some(r => r.getBoundingClientRect().bottom > b.bottom + 1);
    }).map(c => c.dataset.table)""")
    assert clipped == [], clipped
    shot(board, "board-16-mixed")
    assert guard.dialogs == [] and guard.errors == []
