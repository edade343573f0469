"""Corrections during a live event, in a real Chromium against `cuehub serve` (PROTOCOL.md section 9):
the desk moves a called match to a table whose last match is finished and the tablets of both
tables and the board follow; a result entered at the desk reaches the table's tablet ("Match
over", entered by the desk) and the board, and a bad one is refused in plain words; a finished
match and a walkover are reopened, and a reopen is refused naming the match that has started
since; a withdrawn player is reinstated, or refused the same way; the tablet keeps a finished
match on screen with Undo and "Next match" until the referee moves on. At tablet (1280x800) and
laptop (1366x768) sizes; how long each correction takes to reach the tablet and the board is
written to test-artifacts/corrections-timing.txt."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, PageWatch, shot
from .test_desk import ADMIN, ServedHub, open_desk

SIZES = {"laptop": (1366, 768), "tablet": (1280, 800)}
TIMINGS: list[str] = []


@pytest.fixture(scope="module")
def hub_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    served = ServedHub(tmp_path_factory.mktemp("corrections")).start()
    try:
        yield served
    finally:
        served.stop()
        if TIMINGS:
            ARTIFACTS.mkdir(exist_ok=True)
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            head = f"wall time from the click (or the API call) to the screen; load {load} on {os.cpu_count()} cores"
            (ARTIFACTS / "corrections-timing.txt").write_text("\n".join([head, *TIMINGS]) + "\n")


def admin(hub_process: ServedHub, method: str, path: str, body: Any = None) -> httpx.Response:
    return httpx.request(
        method, hub_process.url + path, json=body, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10
    )


def event(hub_process: ServedHub, players: int, tables: int, *, name: str = "Corrections") -> dict[str, Any]:
    """A single elimination of `players` on `tables` tables, nine-ball race to 2 (seeded, so the
    pairings are known: seeds 1 v 4 on the first table, 2 v 3 on the second)."""
    tid = hub_process.admin_post("/api/tournaments", {"name": f"{name} {uuid.uuid4().hex[:4]}"})["id"]
    made = [hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"Table {i + 1}"}) for i in range(tables)]
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players",
        {
            "players": [
                {"name": n, "seed": i + 1}
                for i, n in enumerate(
                    [
                        "Zheng Yubo",
                        "杨帆 Yang Fan",
                        "Wu Jiaqing",
                        "Ko Pin-yi",
                        "Han Yu",
                        "Liu Haitao",
                        "Dang Jinhu",
                        "Li Hewen",
                    ][:players]
                )
            ]
        },
    )
    hub_process.admin_post(
        f"/api/tournaments/{tid}/draw",
        {
            "type": "single_elimination",
            "seeding": "seeded",
            "match": {"discipline": "wpa_nine", "format": {"race_to": 2}},
        },
    )
    return {"tid": tid, "tables": made}


def entries(hub_process: ServedHub, tid: str) -> dict[str, dict[str, Any]]:
    return {m["key"]: m for m in hub_process.get(f"/api/tournaments/{tid}")["draw"]["matches"]}


def table_command(hub_process: ServedHub, token: str, mid: str, cmd: dict[str, Any]) -> None:
    r = httpx.post(
        f"{hub_process.url}/api/matches/{mid}/commands",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
        json={"id": uuid.uuid4().hex, "match_id": mid, "command": cmd},
    )
    assert r.status_code == 200, r.text


def nine_on_the_break(hub_process: ServedHub, token: str, mid: str, player: str) -> None:
    """A rack won at once (a race to 2 takes two)."""
    shot_cmd = {"kind": "shot", "player": player, "first_contact": 1, "pocketed": [9], "break_rails": 4}
    table_command(hub_process, token, mid, shot_cmd)


def start_on_its_table(hub_process: ServedHub, ev: dict[str, Any], entry: dict[str, Any]) -> None:
    start = {"kind": "start", "breaker": entry["players"][0]}
    table_command(hub_process, token_of(ev, entry["table_id"]), entry["match_id"], start)


def names_of(hub_process: ServedHub, tid: str, pids: list[str]) -> list[str]:
    names = {p["id"]: p["name"] for p in hub_process.get(f"/api/tournaments/{tid}/players")["players"]}
    return [names[p] for p in pids]


def token_of(ev: dict[str, Any], table_id: str) -> str:
    return next(t["token"] for t in ev["tables"] if t["id"] == table_id)


def open_tablet(ctx: Any, guard: PageWatch, hub_process: ServedHub, table: dict[str, Any]) -> Any:
    page = guard.attach(ctx.new_page())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{hub_process.url}/tablet/{table['id']}#token={table['token']}")
    page.wait_for_selector("body[data-conn='live']")
    return page


def open_board(ctx: Any, guard: PageWatch, hub_process: ServedHub, tid: str) -> Any:
    page = guard.attach(ctx.new_page())
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{hub_process.url}/board/{tid}")
    page.wait_for_selector("#board .cell")
    return page


def timed(label: str, start: float, wait: Any) -> float:
    wait()
    took = time.monotonic() - start
    TIMINGS.append(f"{label}: {took * 1000:.0f} ms")
    return took


def arrivals(start: float, checks: dict[str, Any], seconds: float = 15) -> None:
    """When each screen first showed the correction: every check polled in turn (about every
    25 ms), so one slow screen does not add its time to the others'."""
    left = dict(checks)
    while left:
        for label, check in list(left.items()):
            if check():
                TIMINGS.append(f"{label}: {(time.monotonic() - start) * 1000:.0f} ms")
                del left[label]
        assert time.monotonic() - start < seconds, f"not seen within {seconds} s: {list(left)}"
        time.sleep(0.025)


@pytest.mark.parametrize("size", list(SIZES))
def test_enter_result_and_move_reach_the_tablets_and_the_board(hub_process: ServedHub, browser: Any, size: str) -> None:
    ev = event(hub_process, 4, 3)
    tid = ev["tid"]
    tour = hub_process.get(f"/api/tournaments/{tid}")
    t1, t2, t3 = tour["tables"]
    assert t1["match"]["draw"]["key"] == "W1-1" and t2["match"]["draw"]["key"] == "W1-2" and t3["match"] is None
    guard = PageWatch()
    desk_ctx, desk = open_desk(browser, hub_process, size)
    guard.attach(desk)
    screens = browser.new_context(locale="en-US")
    try:
        tab1 = open_tablet(screens, guard, hub_process, {"id": t1["id"], "token": token_of(ev, t1["id"])})
        tab2 = open_tablet(screens, guard, hub_process, {"id": t2["id"], "token": token_of(ev, t2["id"])})
        board = open_board(screens, guard, hub_process, tid)
        bracket = guard.attach(screens.new_page())
        bracket.goto(f"{hub_process.url}/bracket/{tid}")
        bracket.wait_for_selector("#m-W1-1")
        # The header names the table, never its raw id.
        assert tab1.inner_text("#table-name").startswith("Table 1") and t1["id"] not in tab1.inner_text("header")
        w11 = entries(hub_process, tid)["W1-1"]
        a, b = w11["players"]
        table_command(hub_process, token_of(ev, t1["id"]), w11["match_id"], {"kind": "start", "breaker": a})
        tab1.wait_for_selector("#stroke:not(.hidden)")

        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        card1 = f".run-table[data-table='{t1['id']}']"
        desk.wait_for_selector(f"{card1} .rt-match.ms-live")
        # Each table's own likely next match: not the same one on every card.
        nexts = desk.locator(".run-table .rt-next strong").all_inner_texts()
        assert len(nexts) == len(set(nexts)), nexts

        # A result the rules refuse (the winner does not have the best score) is said plainly.
        desk.click(f"{card1} [data-action=result]")
        form = f"{card1} form.result-form"
        desk.fill(f"{form} .res-score[data-player='{a}']", "0")
        desk.fill(f"{form} .res-score[data-player='{b}']", "2")
        desk.select_option(f"{form} .res-winner", a)
        desk.click(f"{form} [data-action=result-go]")
        desk.wait_for_selector("#run-message.err")
        said = desk.inner_text("#run-message")
        assert "the winner must have the best score" in said and "has 0 against 2" in said, said
        assert hub_process.get(f"/api/matches/{w11['match_id']}")["status"] == "live"
        shot(desk, f"corrections-result-refused-{size}")

        # The right one: 2 : 1 to a, with a reason.
        desk.fill(f"{form} .res-score[data-player='{a}']", "2")
        desk.fill(f"{form} .res-score[data-player='{b}']", "1")
        assert desk.eval_on_selector(f"{form} .res-winner", "s => s.value") == a  # follows the best score
        desk.fill(f"{form} .res-reason", "Players reported the score")
        shot(desk, f"corrections-result-form-{size}")
        t0 = time.monotonic()
        desk.click(f"{form} [data-action=result-go]")
        arrivals(
            t0,
            {
                f"[{size}] result entered at the desk -> the tablet shows Match over": lambda: (
                    tab1.locator("#over:not(.hidden) #over-entered").count() > 0
                ),
                f"[{size}] result entered at the desk -> the board shows it": lambda: (
                    board.locator(f".cell[data-table='{t1['id']}'].finished").count() > 0
                ),
            },
        )
        m = hub_process.get(f"/api/matches/{w11['match_id']}")
        assert m["status"] == "finished" and m["winner"] == a and m["result"]["entered"] is True
        assert "entered by the desk" in board.inner_text(f".cell[data-table='{t1['id']}']")
        assert "2" in tab1.inner_text("#over-score") and "1" in tab1.inner_text("#over-score")
        # the desk's result is the desk's to undo: the tablet says so instead of offering its Undo
        assert not tab1.is_enabled("#over-undo") and tab1.is_visible("#next-match")
        assert "only the desk can undo it" in tab1.inner_text("#over-desk-only")
        desk.wait_for_selector("#run-message.ok")
        # The draw's own screens say it too: the desk's list of matches and the bracket.
        desk.locator("#run-rounds .entry[data-key='W1-1'] .e-result").filter(has_text="entered by the desk").wait_for()
        bracket.locator("#m-W1-1 .bm-state").filter(has_text="entered by the desk").wait_for()
        assert bracket.inner_text("#m-W1-1 .bm-state") == "Finished · entered by the desk"  # a state, not a round
        # Corrected from the list of matches ("Correct the result", the form filled with 2 : 1):
        # the same winner, 2 : 0, reaches the tablet's "Match over" and the bracket.
        item = "#run-rounds .entry[data-key='W1-1']"
        assert desk.inner_text(f"{item} [data-action=result]") == "Correct the result"
        desk.click(f"{item} [data-action=result]")
        fixed = f"{item} form.result-form"
        assert desk.input_value(f"{fixed} .res-score[data-player='{a}']") == "2"
        assert desk.input_value(f"{fixed} .res-score[data-player='{b}']") == "1"
        desk.fill(f"{fixed} .res-score[data-player='{b}']", "0")
        desk.click(f"{fixed} [data-action=result-go]")
        desk.locator(f"{item} .e-result").filter(has_text="(2 : 0)").wait_for()
        tab1.locator(f"#over-score [data-player='{b}'] .score").filter(has_text="0").wait_for()
        bracket.locator(f"#m-W1-1 [data-player='{b}'] .sc").filter(has_text="0").wait_for()
        assert hub_process.get(f"/api/matches/{w11['match_id']}")["players"][1]["score"] == 0
        shot(tab1, f"corrections-tablet-over-entered-{size}")

        # Move W1-2 from Table 2 to Table 1, whose last match is finished: the chooser offers it.
        card2 = f".run-table[data-table='{t2['id']}']"
        desk.wait_for_selector(f"{card1}[data-status=free]")
        desk.click(f"{card2} [data-action=move]")
        options = desk.locator(f"{card2} select.table-select option").all_inner_texts()
        assert options == ["Table 1", "Table 3"], options
        desk.select_option(f"{card2} select.table-select", t1["id"])
        shot(desk, f"corrections-move-chooser-{size}")
        t0 = time.monotonic()
        desk.click(f"{card2} [data-action=move-go]")
        arrivals(
            t0,
            {
                f"[{size}] move -> the board shows it on its new table": lambda: (
                    board.locator(f".cell[data-table='{t1['id']}'] .fmt").filter(has_text="W1-2").count() > 0
                ),
                f"[{size}] move -> the new table's tablet names it as next": lambda: (
                    tab1.locator("#over-next").filter(has_text="W1-2").count() > 0
                ),
                f"[{size}] move -> the old table's tablet says where it went": lambda: (
                    tab2.locator("#left-text").filter(has_text="W1-2 moved to Table 1").count() > 0
                ),
            },
        )
        board.wait_for_selector(f".cell[data-table='{t2['id']}'].idle")
        assert "W1-2" not in board.inner_text(f".cell[data-table='{t2['id']}']")
        # The old table's tablet offers nothing for it; the new one waits for "Next match".
        assert tab2.locator("#start:not(.hidden)").count() == 0
        assert "No match on this table" in tab2.inner_text("#state")
        shot(tab2, f"corrections-tablet-match-left-{size}")
        tab1.locator("#over-next").filter(has_text="W1-2").wait_for()
        assert tab1.locator("#start:not(.hidden)").count() == 0  # no "Start the match" before "Next match"
        tab1.click("#next-match")
        tab1.wait_for_selector("#start:not(.hidden)")
        assert hub_process.get(f"/api/matches/{entries(hub_process, tid)['W1-2']['match_id']}")["table_id"] == t1["id"]
        assert guard.errors == [], guard.errors
    finally:
        desk_ctx.close()
        screens.close()


def test_reopen_and_reinstate_with_their_refusals(hub_process: ServedHub, browser: Any) -> None:
    ev = event(hub_process, 4, 2)
    tid = ev["tid"]
    ents = entries(hub_process, tid)
    w11, w12 = ents["W1-1"], ents["W1-2"]
    guard = PageWatch()
    desk_ctx, desk = open_desk(browser, hub_process, "tablet")
    guard.attach(desk)
    try:
        # W1-1 decided by a result entered at the desk, then reopened from the run view: open again.
        r = admin(
            hub_process,
            "POST",
            f"/api/matches/{w11['match_id']}/result",
            {"winner": w11["players"][0], "score": {w11["players"][0]: 2, w11["players"][1]: 0}},
        )
        assert r.status_code == 200, r.text
        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        item = "#run-rounds .entry[data-key='W1-1']"
        desk.wait_for_selector(f"{item}[data-status=finished] [data-action=reopen]")
        desk.click(f"{item} [data-action=reopen]")
        desk.click("#modal-confirm")
        desk.locator("#run-message").filter(has_text="W1-1 is open again").wait_for()
        desk.wait_for_selector(f"{item}:not([data-status=finished])")
        assert entries(hub_process, tid)["W1-1"]["status"] in ("ready", "called")

        # W1-2 decided by a withdrawal (a walkover); the player reinstated while W2-1 has not started.
        quitter = w12["players"][1]
        hub_process.admin_post(f"/api/tournaments/{tid}/players/{quitter}/withdraw")
        assert entries(hub_process, tid)["W1-2"]["status"] == "walkover"
        desk.click("[data-step=players]")
        row = f".player-row[data-player='{quitter}']"
        desk.wait_for_selector(f"{row}.status-withdrawn [data-action=reinstate]")
        shot(desk, "corrections-withdrawn-tablet")
        desk.click(f"{row} [data-action=reinstate]")
        desk.click("#modal-confirm")
        desk.wait_for_selector(f"{row}.status-active")
        assert entries(hub_process, tid)["W1-2"]["status"] in ("ready", "called")
        desk.locator("#players-message").filter(has_text="is back in the event").wait_for()
        desk.click("[data-step=run]")
        desk.wait_for_selector("#run-rounds")

        # A walkover given at the desk (on W1-1's table card, or in the queue), then reopened.
        where = (
            ".run-table:has(.rt-match[data-key='W1-1']) [data-action=walkover], "
            ".q-item[data-key='W1-1'] [data-action=walkover]"
        )
        desk.locator(where).first.click()
        desk.locator("[data-chooser=walkover] [data-action=walkover-to]").first.click()
        desk.click("#modal-confirm")
        desk.wait_for_selector(f"{item}[data-status=walkover] [data-action=reopen]")
        assert entries(hub_process, tid)["W1-1"]["status"] == "walkover"
        desk.click(f"{item} [data-action=reopen]")
        desk.click("#modal-confirm")
        desk.locator("#run-message").filter(has_text="W1-1 is open again").wait_for()
        desk.wait_for_selector(f"{item}:not([data-status=walkover])")
        assert entries(hub_process, tid)["W1-1"]["status"] in ("ready", "called")

        # Now both first-round matches are decided and the final is started: the reopen of a
        # semi-final is refused, naming the final, and so is the reinstatement of its walkover.
        ents = entries(hub_process, tid)
        for key in ("W1-1", "W1-2"):
            e = ents[key]
            if e["status"] != "called":
                hub_process.admin_post(f"/api/tournaments/{tid}/draw/{key}/call")
                e = entries(hub_process, tid)[key]
            r = admin(
                hub_process,
                "POST",
                f"/api/matches/{e['match_id']}/result",
                {"winner": e["players"][0], "score": {e["players"][0]: 2, e["players"][1]: 1}},
            )
            assert r.status_code == 200, r.text
        final = entries(hub_process, tid)["W2-1"]
        assert final["status"] == "called", final
        start_on_its_table(hub_process, ev, final)
        desk.locator("#run-rounds .entry[data-key='W1-2'] [data-action=reopen]").wait_for()
        desk.click("#run-rounds .entry[data-key='W1-2'] [data-action=reopen]")
        desk.click("#modal-confirm")
        desk.wait_for_selector("#run-message.err")
        text = desk.inner_text("#run-message")
        final_names = " – ".join(names_of(hub_process, tid, final["players"]))
        assert f"W2-1 ({final_names}) has started since" in text and "(result_used)" in text, text
        assert "The hub" not in text, text  # said once, in the page's words
        assert entries(hub_process, tid)["W1-2"]["status"] == "finished"
        shot(desk, "corrections-reopen-refused-tablet")
        assert guard.errors == [], guard.errors
    finally:
        desk_ctx.close()


def test_reinstate_refused_once_a_walkover_it_made_has_fed_a_started_match(
    hub_process: ServedHub, browser: Any
) -> None:
    ev = event(hub_process, 4, 2)
    tid = ev["tid"]
    ents = entries(hub_process, tid)
    w11, w12 = ents["W1-1"], ents["W1-2"]
    quitter = w12["players"][1]
    hub_process.admin_post(f"/api/tournaments/{tid}/players/{quitter}/withdraw")
    r = admin(
        hub_process,
        "POST",
        f"/api/matches/{w11['match_id']}/result",
        {"winner": w11["players"][0], "score": {w11["players"][0]: 2, w11["players"][1]: 0}},
    )
    assert r.status_code == 200, r.text
    final = entries(hub_process, tid)["W2-1"]
    assert final["status"] == "called", final
    start_on_its_table(hub_process, ev, final)
    guard = PageWatch()
    desk_ctx, desk = open_desk(browser, hub_process, "laptop", "zh-CN")
    guard.attach(desk)
    try:
        desk.goto(f"{hub_process.url}/desk/{tid}/players")
        row = f".player-row[data-player='{quitter}']"
        desk.click(f"{row} [data-action=reinstate]")
        desk.click("#modal-confirm")
        desk.wait_for_selector("#players-message.err")
        text = desk.inner_text("#players-message")
        assert "W2-1" in text and "已经开始" in text and "has started" not in text, text
        assert desk.locator(f"{row}.status-withdrawn").count() == 1
        shot(desk, "corrections-reinstate-refused-laptop-zh")
        # The result form in Chinese, on the live final's table card.
        desk.click("[data-step=run]")
        card = f".run-table[data-table='{final['table_id']}']"
        desk.click(f"{card} [data-action=result]")
        desk.wait_for_selector(f"{card} form.result-form")
        assert "录入结果" in desk.inner_text(f"{card} [data-action=result]")
        assert "保存结果" in desk.inner_text(f"{card} form.result-form")
        shot(desk, "corrections-result-form-laptop-zh")
        # A score short of the race is refused in Chinese before anything is sent.
        a, b = final["players"]
        desk.fill(f"{card} .res-score[data-player='{a}']", "1")
        desk.fill(f"{card} .res-score[data-player='{b}']", "0")
        desk.wait_for_selector(f"{card} form.result-form[data-race='2']")  # the form read its match's format
        desk.click(f"{card} [data-action=result-go]")
        desk.wait_for_selector("#run-message.err")
        said = desk.inner_text("#run-message")
        assert "抢2" in said and "未保存" in said, said
        assert entries(hub_process, tid)["W2-1"]["status"] == "called"
        assert guard.errors == [], guard.errors
    finally:
        desk_ctx.close()


def test_the_tablet_keeps_the_finished_match_until_next_match(hub_process: ServedHub, browser: Any) -> None:
    """Two players a table: W1-1 is played on the table, W1-2 waits in the queue; when W1-1 ends
    the hub calls W1-2 to the same table at once, and the tablet still shows the end of W1-1."""
    ev = event(hub_process, 4, 1)
    tid = ev["tid"]
    table = ev["tables"][0]
    w11 = entries(hub_process, tid)["W1-1"]
    a, b = w11["players"]
    guard = PageWatch()
    ctx = browser.new_context(locale="en-US")
    try:
        tab = open_tablet(ctx, guard, hub_process, table)
        board = open_board(ctx, guard, hub_process, tid)
        tab.click(f"#start [data-breaker='{a}']")
        tab.wait_for_selector("#stroke:not(.hidden)")
        for _ in range(2):  # a 9 on the break wins a rack; race to 2
            nine_on_the_break(hub_process, table["token"], w11["match_id"], a)
        tab.wait_for_selector("#over:not(.hidden)")
        assert tab.inner_text("#over-title") == "Match over"
        score = tab.inner_text("#over-score")
        assert "Zheng Yubo" in score and "Ko Pin-yi" in score and "2" in score and "0" in score
        tab.locator("#over-next").filter(has_text="W1-2").wait_for()  # called here at once, not shown
        assert tab.locator("#start:not(.hidden)").count() == 0 and tab.locator("#stroke:not(.hidden)").count() == 0
        assert tab.is_enabled("#over-undo")
        shot(tab, "corrections-tablet-match-over")
        # A reload keeps it: in Chinese, portrait and on a phone too, everything on the first screen.
        for w, h in ((800, 1280), (390, 844)):
            tab.set_viewport_size({"width": w, "height": h})
            tab.goto(f"{hub_process.url}/tablet/{table['id']}?lang=zh-CN")
            tab.wait_for_selector("body[data-conn='live'] #over:not(.hidden)")
            tab.locator("#over-next").filter(has_text="W1-2").wait_for()  # drawn again once the hub answered
            assert tab.inner_text("#over-title") == "比赛结束" and "下一场比赛" in tab.inner_text("#next-match")
            assert tab.locator("#start:not(.hidden)").count() == 0
            box = tab.locator("#next-match").bounding_box()
            assert box and box["y"] + box["height"] <= h, (w, h, box)
            shot(tab, f"corrections-tablet-match-over-{w}x{h}-zh")
        tab.set_viewport_size({"width": 1280, "height": 800})
        tab.goto(f"{hub_process.url}/tablet/{table['id']}")
        tab.wait_for_selector("body[data-conn='live'] #over:not(.hidden)")
        tab.wait_for_selector("#over:not(.hidden)")
        assert tab.locator("#start:not(.hidden)").count() == 0

        # Undo on "Match over" reopens W1-1 (W1-2 comes back off the table); the board follows.
        tab.bring_to_front()  # a background tab's animation frames are throttled: the click would wait
        tab.click("#over-undo")
        tab.wait_for_selector("#modal-confirm")
        t0 = time.monotonic()
        tab.click("#modal-confirm")
        timed(
            "Undo on Match over (tablet) -> the tablet plays W1-1 on",
            t0,
            lambda: tab.wait_for_selector("#stroke:not(.hidden)"),
        )
        timed(
            "Undo on Match over (tablet) -> the board shows W1-1 again",
            t0,
            lambda: board.locator(f".cell[data-table='{table['id']}'].live .fmt").filter(has_text="W1-1").wait_for(),
        )
        assert tab.locator("#over.hidden").count() == 1
        assert hub_process.get(f"/api/matches/{w11['match_id']}")["status"] == "live"
        assert "reopened" not in tab.inner_text("#left-banner")  # this tablet's own Undo
        # The last rack again; this time the desk reopens it: the tablet says so, and W1-2 (called
        # here meanwhile, never shown) leaves the log once, by its key.
        nine_on_the_break(hub_process, table["token"], w11["match_id"], a)
        tab.wait_for_selector("#over:not(.hidden)")
        tab.locator("#over-next").filter(has_text="W1-2").wait_for()
        said_left = tab.locator("#log li").filter(has_text="W1-2 is no longer on this table").count()
        t0 = time.monotonic()
        hub_process.admin_post(f"/api/tournaments/{tid}/draw/W1-1/reopen")
        timed(
            "reopen (API) on Match over -> the tablet says the desk reopened it",
            t0,
            lambda: tab.locator("#left-text").filter(has_text="W1-1 was reopened at the desk").wait_for(),
        )
        tab.wait_for_selector("#stroke:not(.hidden)")
        tab.locator("#log li").filter(has_text="W1-2 is no longer on this table").nth(said_left).wait_for()
        time.sleep(0.5)
        assert tab.locator("#log li").filter(has_text="W1-2 is no longer on this table").count() == said_left + 1
        assert tab.locator("#log li").filter(has_text="That match").count() == 0
        shot(tab, "corrections-tablet-reopened-at-the-desk")
        # The last rack again, then "Next match": W1-2's start.
        nine_on_the_break(hub_process, table["token"], w11["match_id"], a)
        tab.wait_for_selector("#over:not(.hidden)")
        tab.locator("#over-next").filter(has_text="W1-2").wait_for()
        tab.click("#next-match")
        tab.wait_for_selector("#start:not(.hidden)")
        w12 = entries(hub_process, tid)["W1-2"]
        assert w12["status"] == "called" and w12["table_id"] == table["id"]
        assert "杨帆 Yang Fan" in tab.inner_text("#start") or "Wu Jiaqing" in tab.inner_text("#start")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_requeue_is_said_on_the_tablet_in_plain_words(hub_process: ServedHub, browser: Any) -> None:
    ev = event(hub_process, 4, 1)
    tid = ev["tid"]
    table = ev["tables"][0]
    guard = PageWatch()
    ctx = browser.new_context(locale="zh-CN")
    try:
        tab = open_tablet(ctx, guard, hub_process, table)
        tab.wait_for_selector("#start:not(.hidden)")
        first = entries(hub_process, tid)["W1-1"]["match_id"]
        t0 = time.monotonic()
        hub_process.admin_post(f"/api/tournaments/{tid}/draw/W1-1/requeue")
        timed(
            "requeue (API) -> the tablet says the match left",
            t0,
            lambda: tab.locator("#left-text").filter(has_text="W1-1").wait_for(),
        )
        assert "已不在本台" in tab.inner_text("#left-text")
        # The table took the queue's next match at once; no raw id anywhere.
        tab.locator("#left-banner").filter(has_text="W1-2").wait_for()
        assert first not in tab.inner_text("#left-banner") and first not in tab.inner_text("#log")
        # match_left and the state after it are said once in the log, not twice.
        assert tab.locator("#log li").filter(has_text="W1-1 已不在本台").count() == 1
        shot(tab, "corrections-tablet-requeued-zh")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_a_chase_sit_out_names_its_players_and_shows_its_empty_slots_as_bye(
    hub_process: ServedHub, browser: Any
) -> None:
    """Five chase players: two sit out of each round. The hub lists the sit-out's third slot as
    "bye" (never a player) in round 1 and already in round 2, not yet formed; the desk names the
    two players only, and the bracket shows its empty slot as a bye, not "TBD"."""
    tid = hub_process.admin_post("/api/tournaments", {"name": f"Sit {uuid.uuid4().hex[:4]}"})["id"]
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": f"P{i}"} for i in range(1, 6)]})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/draw",
        {
            "type": "chase_groups",
            "seeding": "random",
            "seed": 1,
            "rounds": 2,
            "match": {"discipline": "chase_nine", "format": {"racks": 3}},
        },
    )
    got = entries(hub_process, tid)
    sitting = got["C1-2"]
    assert sitting["status"] == "bye" and sitting["players"][2] == "bye" and None not in sitting["players"]
    assert got["C2-2"]["status"] == "waiting" and got["C2-2"]["players"] == [None, None, "bye"]
    names = {p["id"]: p["name"] for p in hub_process.get(f"/api/tournaments/{tid}/players")["players"]}
    guard = PageWatch()
    ctx, desk = open_desk(browser, hub_process, "laptop")
    guard.attach(desk)
    try:
        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        row = "#run-rounds li.entry[data-key='C1-2']"
        desk.wait_for_selector(row)
        assert desk.inner_text(f"{row} .e-names") == " – ".join(names[p] for p in sitting["players"][:2])
        assert desk.inner_text(f"{row} .e-result") == "bye"
        assert desk.inner_text("#run-rounds li.entry[data-key='C2-2'] .e-names") == "TBD – TBD"
        shot(desk, "corrections-chase-sit-out-desk")
        desk.goto(f"{hub_process.url}/bracket/{tid}")
        card = ".bm[data-key='C1-2'] .bm-p"
        desk.wait_for_selector(card)
        slots = desk.locator(card).all_inner_texts()
        assert len(slots) == 3 and "bye" in slots[2] and "TBD" not in slots[2], slots
        assert "bye" in desk.locator(".bm[data-key='C2-2'] .bm-p").all_inner_texts()[2]
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_a_chase_result_by_hand_with_a_shared_top_has_no_winner(hub_process: ServedHub, browser: Any) -> None:
    """Three players of chase nine-ball report net points; two share the top score, so the form
    offers no winner (the hub takes winner null), and points that do not sum to zero are refused."""
    tid = hub_process.admin_post("/api/tournaments", {"name": f"Chase {uuid.uuid4().hex[:4]}"})["id"]
    hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 1"})
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": n} for n in ("Ann", "Bo", "Cy")]})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/draw",
        {
            "type": "chase_groups",
            "seeding": "random",
            "seed": 1,
            "rounds": 1,
            "match": {"discipline": "chase_nine", "format": {"racks": 3}},
        },
    )
    m = next(e for e in entries(hub_process, tid).values() if e["status"] == "called")
    x, y, z = m["players"]
    guard = PageWatch()
    desk_ctx, desk = open_desk(browser, hub_process, "tablet")
    guard.attach(desk)
    try:
        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        card = f".run-table[data-table='{m['table_id']}']"
        desk.click(f"{card} [data-action=result]")
        form = f"{card} form.result-form"
        desk.fill(f"{form} .res-score[data-player='{x}']", "3")
        desk.fill(f"{form} .res-score[data-player='{y}']", "3")
        desk.fill(f"{form} .res-score[data-player='{z}']", "-5")
        desk.click(f"{form} [data-action=result-go]")
        desk.locator("#run-message.err").filter(has_text="add up to 0").wait_for()
        desk.fill(f"{form} .res-score[data-player='{z}']", "-6")
        assert desk.eval_on_selector(f"{form} .res-winner", "s => s.value") == ""  # the top is shared
        assert "No winner" in desk.inner_text(f"{form} .res-winner")
        shot(desk, "corrections-result-form-chase-shared-top")
        desk.click(f"{form} [data-action=result-go]")
        desk.wait_for_selector("#run-message.ok")
        got = hub_process.get(f"/api/matches/{m['match_id']}")
        assert got["status"] == "finished" and got["winner"] is None and got["result"]["entered"] is True
        assert {p["id"]: p["score"] for p in got["players"]} == {x: 3, y: 3, z: -6}
        assert guard.errors == [], guard.errors
    finally:
        desk_ctx.close()
