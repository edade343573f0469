"""The desk's event, end to end in a real headless Chromium against a real `cuehub serve`
(PROTOCOL.md sections 7 and 8): from a blank hub an organiser signs in and, through the
desk alone, creates a 16-player double elimination on 4 tables (pasting the names); the first
matches appear on the tables; a table card is printed (QR + code); a second browser context pairs
as that table's tablet with the six digits; the simulator plays matches (tablets only) and the
desk's run view follows live; then the organiser corrects things: pause and resume a table, a
walkover, back to the queue, a rename and a withdrawal, and a result undone. Names that are
markup render as text. Screenshots of every new step at laptop and 1280x800 sizes in both
languages (test-artifacts/desk-flow-*.png)."""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from hub.tools import simulate

from .conftest import ARTIFACTS, XSS_NAME, PageWatch, shot
from .test_desk import ADMIN, ServedHub, new_context, no_sideways_scroll, open_desk, sign_in

XSS_CLUB = "<script>alert(2)</script> Club"
NAMES = [f"{XSS_NAME}, {XSS_CLUB}, 1", "郑宇伯 Zheng Yubo, 上海, 2", "Yang Fan, Beijing"] + [
    f"Player {i}" for i in range(4, 17)]


@pytest.fixture(scope="module")
def flow_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub_process = ServedHub(tmp_path_factory.mktemp("deskflow")).start()
    try:
        yield hub_process
    finally:
        hub_process.stop()


class Clicks:
    """Counts the organiser's clicks and key presses that make something happen."""

    def __init__(self, page: Any) -> None:
        self.page, self.n = page, 0

    def click(self, selector: str) -> None:
        self.n += 1
        self.page.click(selector)

    def enter(self, selector: str) -> None:
        self.n += 1
        self.page.press(selector, "Enter")


class DeskTablets(simulate.DrawSimulator):
    """The simulator's tablets on a tournament the desk made: each table's token comes from a
    pairing code (as a real tablet's would), so the tablets already paired keep theirs."""

    def __init__(self, url: str, tid: str, **kw: Any) -> None:
        plan = simulate.DrawPlan(type="double_elimination", players=16, tables=4, length=2)
        super().__init__(url, ADMIN, plan, speed=40, seed=7, **kw)
        self.tid = tid

    async def setup(self) -> None:
        await self.prepare()
        self.tournament = await self.admin.get_tournament(self.tid)
        async with httpx.AsyncClient(base_url=self.base_url, timeout=10) as c:
            for i, table in enumerate(self.tournament["tables"]):
                code = (await c.post(f"/api/tables/{table['id']}/pairing",
                                     headers={"Authorization": f"Bearer {ADMIN}"})).json()["code"]
                token = (await c.post("/api/pair", json={"code": code})).json()["token"]
                self.slots.append(simulate.TableSlot(i, self.specs[i], table["id"], table["name"], token,
                                                     random.Random(f"desk-flow/{i}")))


class Background:
    """Runs the simulator in a thread with its own event loop until stopped."""

    def __init__(self, sim: DeskTablets) -> None:
        self.sim = sim
        self.loop = asyncio.new_event_loop()
        self.stop_event: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.started = threading.Event()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def main() -> None:
            self.stop_event = asyncio.Event()
            await self.sim.setup()
            self.started.set()
            await self.sim.run(self.stop_event)

        self.loop.run_until_complete(main())

    def start(self) -> Background:
        self.thread.start()
        assert self.started.wait(30), "the simulated tablets did not start"
        return self

    def stop(self) -> None:
        if self.stop_event is not None:
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(30)


def until(check: Any, seconds: float) -> None:
    """Poll `check` (the page's CSP forbids Playwright's string predicates)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def entries(hub_process: ServedHub, tid: str) -> dict[str, dict[str, Any]]:
    return {m["key"]: m for m in hub_process.get(f"/api/tournaments/{tid}")["draw"]["matches"]}


def test_an_event_from_a_blank_hub_through_the_desk(flow_hub: ServedHub, browser: Any) -> None:
    hub_process = flow_hub
    assert hub_process.get("/api/tournaments")["tournaments"] == []  # a blank hub
    desk_ctx, tablet_ctx = new_context(browser, "laptop"), new_context(browser, "tablet")
    guard = PageWatch()
    try:
        desk = guard.attach(desk_ctx.new_page())
        clicks = Clicks(desk)
        t0 = time.monotonic()
        desk.goto(f"{hub_process.url}/desk")
        desk.fill("#signin-token", ADMIN)
        clicks.click("#signin-submit")
        desk.wait_for_selector("#tournament-name")

        # 1. the name; Enter creates it and opens the first step, the format.
        desk.fill("#tournament-name", "Club night 16")
        clicks.enter("#tournament-name")
        desk.wait_for_selector("#step-format")
        tid = desk.url.rstrip("/").split("/")[-2]
        assert desk.url.endswith(f"/desk/{tid}/format")
        # 2. the format: the default discipline (Chinese nine-ball), 2 racks so the simulator is quick.
        desk.fill("#fmt-racks", "2")
        assert "2 racks" in desk.inner_text("#format-summary")
        clicks.click("#next-step")
        # 3. the players: the list pasted; what was understood is shown (markup as text).
        desk.wait_for_selector("#players-text")
        desk.fill("#players-text", "\n".join(NAMES))
        desk.wait_for_selector("#players-parsed")
        assert "16 players" in desk.inner_text("#players-parsed")
        preview = desk.locator("#players-preview")
        assert preview.locator("img, script").count() == 0
        assert XSS_NAME in preview.inner_text() and XSS_CLUB in preview.inner_text()
        shot(desk, "desk-flow-players-preview")
        clicks.click("#add-players")
        desk.wait_for_selector("#player-list li >> nth=15")
        players = hub_process.get(f"/api/tournaments/{tid}/players")["players"]
        assert len(players) == 16 and players[0]["name"] == XSS_NAME and players[0]["club"] == XSS_CLUB
        assert players[0]["seed"] == 1 and players[1]["seed"] == 2 and players[1]["club"] == "上海"
        clicks.click("#next-step")
        # 4. the tables: four at once (the default count).
        desk.wait_for_selector("#add-tables")
        clicks.click("#add-tables")
        desk.wait_for_selector(".table-row >> nth=3")
        clicks.click("#next-step")
        # 5. the draw: double elimination is the default; random seeding; start.
        desk.wait_for_selector("#start-draw")
        assert desk.is_checked("#draw-type-double_elimination")
        assert "16 players" in desk.inner_text("#draw-summary") and "4 tables" in desk.inner_text("#draw-summary")
        clicks.click("#start-draw")
        # The first matches are on the tables.
        desk.wait_for_selector("#step-run .run-table .rt-match >> nth=3")
        elapsed = time.monotonic() - t0
        (ARTIFACTS / "desk-flow-timing.txt").write_text(
            f"16 players on 4 tables, blank hub to first matches on tables: {clicks.n} clicks/Enter, "
            f"{elapsed:.1f} s of page time (typing done by the test)\n")
        assert clicks.n <= 8, clicks.n
        tour = hub_process.get(f"/api/tournaments/{tid}")
        assert tour["draw"]["type"] == "double_elimination" and tour["draw"]["match"]["format"] == {"racks": 2}
        assert all(t["match"] and t["match"]["draw"] for t in tour["tables"])
        assert desk.locator(".run-table .rt-match").count() == 4
        assert desk.locator("#queue .q-item").count() == 4  # W1-5..W1-8 wait
        assert desk.locator("#step-run img, #step-run script").count() == 0
        assert XSS_NAME in desk.inner_text("#step-run")
        shot(desk, "desk-flow-run-start")

        # A called match that has not started goes back to the queue (its end); the table takes the
        # queue's first match at once.
        first = tour["tables"][0]
        key = first["match"]["draw"]["key"]
        desk.click(f".run-table[data-table='{first['id']}'] [data-action=requeue]")
        until(lambda: "back in the queue" in desk.inner_text("#run-message"), 10)
        after = hub_process.get(f"/api/tournaments/{tid}")
        assert after["queue"][-1] == key and entries(hub_process, tid)[key]["status"] == "ready"
        assert after["tables"][0]["match"]["draw"]["key"] not in (key, None)
        given_key = after["tables"][0]["match"]["draw"]["key"]
        desk.locator(f".run-table[data-table='{first['id']}'] .rt-key").filter(has_text=given_key).wait_for()
        tour = after

        # A table card: the page renders the QR and the 6-digit code; printing shows the card only.
        table1 = tour["tables"][0]
        desk.click("[data-step=cards]")
        desk.click("#make-codes")
        card = desk.locator(f".tcard[data-table='{table1['id']}']")
        card.locator(".tc-code").wait_for()
        assert card.locator("img.tc-qr").evaluate("img => img.complete && img.naturalWidth > 0")
        code = card.locator(".tc-code").get_attribute("data-code")
        assert re.fullmatch(r"\d{6}", code)
        desk.emulate_media(media="print")
        assert desk.locator("#desk-nav").is_hidden() and card.is_visible()
        shot(desk, "desk-flow-card-print")
        desk.emulate_media(media="screen")

        # A second browser context opens /pair, types the digits and becomes Table 1's tablet.
        tablet = guard.attach(tablet_ctx.new_page())
        tablet.goto(f"{hub_process.url}/pair")
        tablet.fill("#pair-code", code)
        tablet.click("#pair-submit")
        tablet.wait_for_selector("#paired-name")
        assert tablet.inner_text("#paired-name") == table1["name"]
        tablet.wait_for_url(f"{hub_process.url}/tablet/{table1['id']}", timeout=10_000)
        tablet.wait_for_selector("body[data-conn='live']")
        shot(tablet, "desk-flow-tablet-paired")

        # The simulator's tablets play; the run view follows live (no reload).
        desk.click("[data-step=run]")
        desk.wait_for_selector("#run-progress")
        desk.evaluate("window.__sameDesk = true")
        sim = Background(DeskTablets(hub_process.url, tid)).start()
        tb = tour["tables"][3]
        row = f".run-table[data-table='{tb['id']}']"
        try:
            until(lambda: int(desk.get_attribute("#run-progress", "data-decided") or 0) >= 6, 90)
            desk.locator("#run-rounds .entry.es-finished").first.wait_for()
            assert desk.evaluate("window.__sameDesk === true")  # the same page: updated, not reloaded
            shot(desk, "desk-flow-run-live")
            # Pause a table from the desk (the others through the API): the matches on them are
            # played out and no new one is given, so the corrections below have a still draw.
            desk.click(f"{row} [data-action=pause]")
            desk.wait_for_selector(f"{row}[data-status=paused]")
            for t in tour["tables"][:3]:
                hub_process.admin_post(f"/api/tables/{t['id']}/pause")
            until(lambda: all(t["status"] == "paused" and (not t["match"] or t["match"]["status"] != "live")
                              for t in hub_process.get(f"/api/tournaments/{tid}")["tables"]), 90)
        finally:
            sim.stop()
        assert not sim.sim.stats.errors, sim.sim.stats.errors
        desk.wait_for_selector("body[data-conn='live']")
        paused = next(t for t in hub_process.get(f"/api/tournaments/{tid}")["tables"] if t["id"] == tb["id"])
        assert paused["status"] == "paused"

        # A walkover from the queue (the first ready match), with the winner chosen and confirmed.
        queue = hub_process.get(f"/api/tournaments/{tid}")["queue"]
        assert queue
        key = queue[0]
        winner = entries(hub_process, tid)[key]["players"][0]
        item = f"#queue .q-item[data-key='{key}']"
        desk.click(f"{item} [data-action=walkover]")
        desk.click(f"{item} [data-action=walkover-to] >> nth=0")
        desk.click("#modal-confirm")
        until(lambda: "walkover to" in desk.inner_text("#run-message"), 10)
        entry = entries(hub_process, tid)[key]
        assert entry["status"] == "walkover" and entry["winner"] == winner

        # Undo a result: a finished match whose winner and loser have not played on yet; the match
        # is open again on its table.
        ents = entries(hub_process, tid)
        played = {k for k, m in ents.items() if m["status"] in ("finished", "walkover")}
        fixable = [
            k
            for k, m in ents.items()
            if m["status"] == "finished" and m["match_id"] and not ({m["winner_to"], m["loser_to"]} & played)
        ]
        assert fixable, ents
        key = fixable[0]
        desk.click(f"#run-rounds .entry[data-key='{key}'] [data-action=reopen]")
        desk.click("#modal-confirm")
        until(
            lambda: (
                "open again" in desk.inner_text("#run-message")
                or "err" in (desk.get_attribute("#run-message", "class") or "")
            ),
            15,
        )
        assert "open again" in desk.inner_text("#run-message"), (desk.inner_text("#run-message"), ents[key])
        desk.wait_for_selector(f"#run-rounds .entry[data-key='{key}'][data-status=called]", timeout=15_000)
        assert hub_process.get(f"/api/matches/{ents[key]['match_id']}")["status"] == "live"

        # Resume the paused table from the desk: the queue gives it a match at once; that match
        # (not started) can go back to the queue.
        desk.click(f"{row} [data-action=resume]")
        desk.wait_for_selector(f"{row}:not([data-status=paused])")
        given = next(t for t in hub_process.get(f"/api/tournaments/{tid}")["tables"] if t["id"] == tb["id"])["match"]
        if given and given["status"] == "scheduled" and given.get("draw"):  # the queue had a match it could take
            desk.wait_for_selector(f"{row} [data-action=requeue]")
            desk.click(f"{row} [data-action=requeue]")
            until(lambda: "back in the queue" in desk.inner_text("#run-message"), 10)
        shot(desk, "desk-flow-run-corrected")

        # Rename and withdraw on the players step: the run view shows the new name.
        pid = players[2]["id"]
        desk.click("[data-step=players]")
        prow = f".player-row[data-player='{pid}']"
        desk.click(f"{prow} [data-action=edit]")
        desk.fill(f"{prow} .p-name-input", "Yang Fan (renamed)")
        desk.click(f"{prow} button[type=submit]")
        desk.locator(f"{prow} .p-name").filter(has_text="Yang Fan (renamed)").wait_for()
        assert hub_process.get(f"/api/tournaments/{tid}/players")["players"][2]["name"] == "Yang Fan (renamed)"
        victim = next(
            p
            for p in hub_process.get(f"/api/tournaments/{tid}")["players"]
            if p["status"] == "active" and p["id"] != pid
        )
        vrow = f".player-row[data-player='{victim['id']}']"
        desk.click(f"{vrow} [data-action=withdraw]")
        desk.click("#modal-confirm")
        desk.wait_for_selector(f"{vrow}.status-withdrawn")
        shot(desk, "desk-flow-players-after")
        desk.click("[data-step=run]")
        desk.wait_for_selector("#run-rounds")
        assert "Yang Fan (renamed)" in desk.inner_text("#run-rounds")

        # An error from the hub is said plainly: a walkover to someone who is not in the match.
        status = desk.evaluate(
            """async (tid) => {
            const r = await fetch(`/api/tournaments/${tid}/draw/GF/walkover`, {method: 'POST',
              headers: {'Content-Type': 'application/json', 'X-Requested-With': 'cuehub'},
              body: JSON.stringify({winner: 'nobody'})});
            return r.status; }""",
            tid,
        )
        assert status in (404, 409, 422)

        assert desk.locator("img:not(.tc-qr), script:not([src])").count() == 0
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        desk_ctx.close()
        tablet_ctx.close()


def test_a_write_with_the_cookie_but_without_the_header_is_refused(flow_hub: ServedHub) -> None:
    """The desk's session cookie alone cannot write (the draw calls too): X-Requested-With is needed."""
    r = httpx.post(f"{flow_hub.url}/api/session", json={"token": ADMIN})
    jar = {"cuehub_session": r.cookies["cuehub_session"]}
    tid = flow_hub.admin_post("/api/tournaments", {"name": "csrf"})["id"]
    draw = {"type": "single_elimination", "match": {"discipline": "wpa_nine", "format": {"race_to": 3}}}
    for path, body in ((f"/api/tournaments/{tid}/players", {"name": "x"}), (f"/api/tournaments/{tid}/draw", draw)):
        r = httpx.post(flow_hub.url + path, json=body, cookies=jar)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_header_required", r.text
    r = httpx.post(
        f"{flow_hub.url}/api/tournaments/{tid}/players",
        json={"name": "x"},
        cookies=jar,
        headers={"X-Requested-With": "cuehub"},
    )
    assert r.status_code == 201


def test_desk_steps_screenshots(flow_hub: ServedHub, browser: Any) -> None:
    """Format, players, draw and run at laptop and 1280x800 sizes, in English and Chinese: no
    sideways scrolling, touch-sized controls."""
    hub_process = flow_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "春季公开赛 Spring Open"})["id"]
    for i in range(4):
        hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"{i + 1}号台 Table {i + 1}"})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players",
        {
            "players": [
                {"name": n, "club": c}
                for n, c in [(XSS_NAME, XSS_CLUB), ("郑宇伯", "上海"), ("杨帆", "北京"), ("吴珈庆", "台北")]
                + [(f"Player {i}", "Club") for i in range(5, 17)]
            ]
        },
    )
    tid2 = hub_process.admin_post("/api/tournaments", {"name": "Before the draw"})["id"]
    guard = PageWatch()
    for locale, lang in (("en-US", "en"), ("zh-CN", "zh")):
        for size in ("laptop", "tablet"):
            ctx = new_context(browser, size, locale)
            try:
                page = guard.attach(ctx.new_page())
                sign_in(page, hub_process)
                page.goto(f"{hub_process.url}/desk/{tid2}/format")
                page.wait_for_selector("#step-format")
                page.check("#fmt-shot-clock")
                page.wait_for_selector("#fmt-shot-s")
                shot(page, f"desk-flow-format-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "format")
                page.click("[data-step=players]")
                page.fill("#players-text", "Wang Can, Shanghai, 1\n\nBad Seed, X, zero\n吴珈庆，台北")
                page.wait_for_selector("#players-problems")
                shot(page, f"desk-flow-players-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "players")
                page.goto(f"{hub_process.url}/desk/{tid}/draw")
                page.wait_for_selector("#start-draw")
                shot(page, f"desk-flow-draw-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "draw")
                if lang == "en" and size == "laptop":
                    page.click("#start-draw")
                else:
                    page.goto(f"{hub_process.url}/desk/{tid}/run")
                page.wait_for_selector("#step-run .run-table .rt-match >> nth=3")
                shot(page, f"desk-flow-run-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "run")
                for selector in ("[data-action=walkover] >> nth=0", "[data-action=pause] >> nth=0", "[data-step=run]"):
                    box = page.locator(selector).bounding_box()
                    assert box and box["height"] >= 36, (selector, box, size)
                assert page.locator("#step-run img").count() == 0
                if lang == "zh":
                    assert "双败淘汰" in page.inner_text("#run-head")
                    assert "待赛队列" in page.inner_text("#run-queue")
            finally:
                ctx.close()
    assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)


def test_parsing_of_pasted_lists_in_the_page(flow_hub: ServedHub, browser: Any) -> None:
    """The players step's parser: names alone, CSV with quotes and a header, tabs (a spreadsheet's
    copy), Chinese commas, bad and taken seeds said per line; a CSV file loaded the same way."""
    hub_process = flow_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "Parsing"})["id"]
    ctx, page = open_desk(browser, hub_process)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.wait_for_selector("#players-text")
        text = 'name,club,seed\n"Li, Hewen","Club ""A""",3\nZhao\tBeijing\t4\n钱，上海\nNoSeed,,x\nTwo,,3\n'
        page.fill("#players-text", text)
        page.wait_for_selector("#players-parsed")
        rows = page.locator("#players-preview tbody tr")
        assert rows.count() == 5  # a bad or taken seed: the player is added without one
        assert rows.nth(0).inner_text().split("\t")[1:] == ["Li, Hewen", 'Club "A"', "3"]
        assert rows.nth(1).inner_text().split("\t")[1:] == ["Zhao", "Beijing", "4"]
        assert rows.nth(2).inner_text().split("\t")[1:3] == ["钱", "上海"]
        assert [rows.nth(i).inner_text().split("\t")[1] for i in (3, 4)] == ["NoSeed", "Two"]
        assert [rows.nth(i).inner_text().split("\t")[3].strip() for i in (3, 4)] == ["", ""]
        problems = page.inner_text("#players-problems")
        assert "Line 5" in problems and "Line 6" in problems and "seed 3" in problems
        assert "added without a seed" in problems
        page.fill("#players-text", "")
        csv = "\ufeffname,club,seed\nA One,X,1\nB Two,Y,\n".encode()
        page.set_input_files("#players-file", files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": csv}])
        page.wait_for_selector("#players-parsed")
        assert page.locator("#players-preview tbody tr").count() == 2
        page.click("#add-players")
        page.wait_for_selector("#player-list li >> nth=1")
        got = hub_process.get(f"/api/tournaments/{tid}/players")["players"]
        assert [(p["name"], p["club"], p["seed"]) for p in got] == [("A One", "X", 1), ("B Two", "Y", None)]
        # Edit: a club, a seed and golden_nine's "8 wins" handicap.
        row = f".player-row[data-player='{got[1]['id']}']"
        page.click(f"{row} [data-action=edit]")
        page.fill(f"{row} .p-club-input", "Z")
        page.fill(f"{row} .p-seed-input", "2")
        page.check(f"{row} .p-eight-input")
        page.click(f"{row} button[type=submit]")
        page.locator(f"{row} .p-club").filter(has_text="Z").wait_for()
        b = hub_process.get(f"/api/tournaments/{tid}/players")["players"][1]
        assert (b["club"], b["seed"], b["handicap"]) == ("Z", 2, "eight")
        # A seed already taken is the hub's plain refusal.
        page.click(f"{row} [data-action=edit]")
        page.fill(f"{row} .p-seed-input", "1")
        page.click(f"{row} button[type=submit]")
        page.wait_for_selector("#players-message.err")
        assert "seed_taken" in page.inner_text("#players-message")
    finally:
        ctx.close()


def test_hand_made_match_cancelled_and_round_robin_groups(flow_hub: ServedHub, browser: Any) -> None:
    """A match made by hand (POST /api/matches) is cancelled from the run view; a round robin in two
    groups, nine-ball race to 2, set up through the desk, shows its groups and standings."""
    hub_process = flow_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "Groups"})["id"]
    tables = [hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"T{i}"}) for i in (1, 2)]
    m = hub_process.admin_post(
        "/api/matches",
        {
            "tournament_id": tid,
            "table_id": tables[0]["id"],
            "discipline": "wpa_nine",
            "players": [{"name": XSS_NAME}, {"name": "Yang Fan"}],
            "format": {"race_to": 3},
        },
    )
    ctx = new_context(browser, "tablet")
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub_process)
        page.goto(f"{hub_process.url}/desk/{tid}/run")
        card = f".run-table[data-table='{tables[0]['id']}']"
        page.wait_for_selector(f"{card} .rt-match")
        assert XSS_NAME in page.inner_text(card) and page.locator(f"{card} img").count() == 0
        # Move it to the free table T2, and back.
        page.click(f"{card} [data-action=move]")
        page.select_option(f"{card} select.table-select", tables[1]["id"])
        page.click(f"{card} [data-action=move-go]")
        card2 = f".run-table[data-table='{tables[1]['id']}']"
        page.wait_for_selector(f"{card2} .rt-match")
        assert hub_process.get(f"/api/matches/{m['id']}")["table_id"] == tables[1]["id"]
        page.click(f"{card2} [data-action=move]")
        page.click(f"{card2} [data-action=move-go]")  # the only free table: T1
        page.wait_for_selector(f"{card} .rt-match")
        page.click(f"{card} [data-action=cancel]")
        page.click("#modal-confirm")
        page.wait_for_selector(f"{card} .rt-empty")
        assert httpx.get(f"{hub_process.url}/api/matches/{m['id']}").status_code == 404  # cancelled: gone from reads

        hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": f"P{i}"} for i in range(1, 7)]})
        page.goto(f"{hub_process.url}/desk/{tid}")
        page.wait_for_selector("#step-draw")  # players but no draw: the event opens at the draw
        page.click("[data-step=format]")
        page.click("label[for=discipline-wpa_nine]")
        page.fill("#fmt-race-to", "2")
        assert "Race to 2" in page.inner_text("#format-summary")
        page.click("[data-step=draw]")
        page.click("label[for=draw-type-round_robin]")
        page.fill("#draw-groups", "2")
        page.click("#start-draw")
        page.wait_for_selector("#run-standings")
        draw = hub_process.get(f"/api/tournaments/{tid}")["draw"]
        assert draw["type"] == "round_robin" and draw["match"]["format"] == {"race_to": 2}
        assert {e.get("group") for e in draw["matches"]} == {"A", "B"}
        assert "Group A, round 1" in page.inner_text("#run-rounds")
        assert page.locator(".run-table .rt-match").count() == 2
        # The last of the queue put first.
        queue = hub_process.get(f"/api/tournaments/{tid}")["queue"]
        last = queue[-1]
        page.click(f"#queue .q-item[data-key='{last}'] [data-action=first]")
        page.wait_for_selector(f"#queue .q-item:first-child[data-key='{last}']")
        assert hub_process.get(f"/api/tournaments/{tid}")["queue"][0] == last
        shot(page, "desk-flow-round-robin-tablet-en")
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()


def test_a_refused_draw_is_said_plainly(flow_hub: ServedHub, browser: Any) -> None:
    """A format the rules refuse (race to 0) is the hub's error on the draw step, code and message;
    nothing is drawn. Without tables the start button waits and says why."""
    hub_process = flow_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "Refused"})["id"]
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": "A"}, {"name": "B"}]})
    ctx = new_context(browser)
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub_process)
        page.goto(f"{hub_process.url}/desk/{tid}/format")
        page.click("label[for=discipline-wpa_nine]")
        page.fill("#fmt-race-to", "0")
        page.click("[data-step=draw]")
        page.wait_for_selector("#start-draw")
        assert page.is_disabled("#start-draw") and "Add the tables first" in page.inner_text("#draw-summary")
        hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": "T1"})
        page.wait_for_selector("#start-draw:not([disabled])")  # the channel brought the table
        page.click("#start-draw")
        page.wait_for_selector("#draw-message.err")
        text = page.inner_text("#draw-message")
        assert "race_to" in text and "bad_setup" in text, text
        assert hub_process.get(f"/api/tournaments/{tid}")["draw"] is None
        assert guard.errors == []
    finally:
        ctx.close()


def test_a_draw_played_to_its_champion_is_said_on_the_desk(flow_hub: ServedHub, browser: Any) -> None:
    """A 4-player single elimination on 2 tables, played to its end by the simulator's tablets
    while the desk watches: the run view ends with the champion, live."""
    hub_process = flow_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "Final night"})["id"]
    for i in (1, 2):
        hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"T{i}"})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players", {"players": [{"name": n} for n in (XSS_NAME, "B", "C", "D")]}
    )
    hub_process.admin_post(
        f"/api/tournaments/{tid}/draw",
        {"type": "single_elimination", "seed": 3, "match": {"discipline": "wpa_nine", "format": {"race_to": 2}}},
    )
    ctx = new_context(browser, "tablet", "zh-CN")
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub_process)
        page.goto(f"{hub_process.url}/desk/{tid}")
        page.wait_for_selector("#step-run #run-progress")  # a tournament with a draw opens at run
        sim = Background(DeskTablets(hub_process.url, tid)).start()
        try:
            page.wait_for_selector("#run-champion", timeout=120_000)
        finally:
            sim.stop()
        tour = hub_process.get(f"/api/tournaments/{tid}")
        champion = next(p["name"] for p in tour["players"] if p["id"] == tour["draw"]["champion"])
        assert champion in page.inner_text("#run-champion") and "冠军" in page.inner_text("#run-champion")
        assert page.locator("[data-badge=run]").inner_text() == "★"
        assert "决赛" in page.inner_text("#run-rounds")
        shot(page, "desk-flow-champion-tablet-zh")
        assert page.locator("#step-run img").count() == 0
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()


def test_one_match_count_on_the_desk_the_bracket_and_the_list(flow_hub: ServedHub, browser: Any) -> None:
    """A 17-player double elimination is 32 matches (2N-2, the reset aside) from the draw on, on
    every screen: its losers-bracket entries fed by a round-1 bye are never counted."""
    hub_process = flow_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "Seventeen"})["id"]
    hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 1"})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players", {"players": [{"name": f"Player {i}"} for i in range(1, 18)]}
    )
    draw = {
        "type": "double_elimination",
        "seeding": "seeded",
        "match": {"discipline": "wpa_nine", "format": {"race_to": 3}, "options": {}},
    }
    hub_process.admin_post(f"/api/tournaments/{tid}/draw", draw)
    assert hub_process.get(f"/api/tournaments/{tid}")["draw"]["counts"]["matches"] == 32
    listed = next(x for x in hub_process.get("/api/tournaments")["tournaments"] if x["id"] == tid)
    assert listed["counts"]["matches"] == 32
    ctx, page = open_desk(browser, hub_process)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/run")
        page.wait_for_selector("#run-progress")
        assert page.get_attribute("#run-progress", "data-total") == "32"
        page.goto(f"{hub_process.url}/bracket/{tid}")
        page.wait_for_selector("#br-progress")
        assert "0 of 32 matches" in page.inner_text("#br-progress")
    finally:
        ctx.close()
