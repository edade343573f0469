"""The fans' pages in a real headless Chromium against the real hub (see conftest.py): the live
bracket (/bracket/{tid}) of a double elimination, a round robin with groups and a chase night,
followed over /ws/watch as results come in; the home page's tournaments; the board's "next" and
its labels; names with markup shown as text; screenshots at phone and TV sizes in both languages
(test-artifacts/bracket-*.png)."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from .conftest import ADMIN_TOKEN, XSS_NAME, Hub, PageWatch, shot

FAST = 1.0  # s: how soon a result must show on the bracket
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
XSS_CLUB = '"><script>window.__pwned=1</script>'
XSS_TOURNAMENT = "<b onmouseover=alert(2)>Spring</b> Open"
WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}
NAMES = ["Zheng Yubo", "杨帆 Yang Fan", "Wu Jiaqing", "Ko Pin-yi", "Liu Haitao", "Dang Jinhu", "Shi Hantang",
         "王也 Wang Ye", "Chang Jung-lin", "Li Hewen", "Fu Jianbo", "Han Yu", "Chu Bingjie", "Xu Xiaotong",
         "Zhou Lei", "Bai Yanhui"]


def admin(method: str, hub_process: Hub, path: str, body: Any = None, expect: int | None = None) -> Any:
    r = httpx.request(method, f"{hub_process.url}{path}", json=body, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                      timeout=10)
    if expect is not None:
        assert r.status_code == expect, r.text
    else:
        assert r.status_code < 300, r.text
    return r.json()


class Event:
    """A tournament made over REST, its matches won from its tables' tokens (start, concede)."""

    def __init__(self, hub_process: Hub, players: list[dict[str, Any]], tables: int, name: str = "Open") -> None:
        self.hub = hub_process
        self.tid = hub_process.tournament(name)
        self.tokens: dict[str, str] = {}
        for i in range(tables):
            tb = hub_process.table(self.tid, f"Table {i + 1}")
            self.tokens[tb["id"]] = tb["token"]
        self.players = admin("POST", hub_process, f"/api/tournaments/{self.tid}/players", {"players": players})[
            "players"
        ]

    def draw(self, type_: str, match: dict[str, Any] = WPA, **body: Any) -> dict[str, Any]:
        return admin("POST", self.hub, f"/api/tournaments/{self.tid}/draw", {"type": type_, "match": match, **body})

    def get(self) -> dict[str, Any]:
        return self.hub.get(f"/api/tournaments/{self.tid}")

    def command(self, mid: str, table_id: str, command: dict[str, Any]) -> None:
        r = httpx.post(
            f"{self.hub.url}/api/matches/{mid}/commands",
            json={"id": str(uuid.uuid4()), "match_id": mid, "command": command},
            headers={"Authorization": f"Bearer {self.tokens[table_id]}"},
            timeout=10,
        )
        assert r.status_code == 200, r.text

    def start(self, entry: dict[str, Any], breaker: str) -> None:
        self.command(entry["match_id"], entry["table_id"], {"kind": "start", "breaker": breaker})

    def win(self, entry: dict[str, Any], winner: str) -> None:
        """The called match of `entry` is won by `winner`: the loser concedes it."""
        loser = next(p for p in entry["players"] if p != winner)
        mid, table = entry["match_id"], entry["table_id"]
        match = self.hub.get(f"/api/matches/{mid}")
        if match["status"] == "scheduled":
            self.command(mid, table, {"kind": "start", "breaker": loser})
        self.command(mid, table, {"kind": "concede", "player": loser, "scope": "match"})

    def called(self) -> list[dict[str, Any]]:
        return [m for m in self.get()["draw"]["matches"] if m["status"] == "called"]

    def next_called(self, where: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
        """The called match that `where` picks, waited for: a result reaches the tournament after
        its match's command is acknowledged, so the next call follows a moment later."""
        deadline = time.monotonic() + timeout
        while True:
            found = [m for m in self.called() if where(m)]
            if found:
                return found[0]
            assert time.monotonic() < deadline, f"no such match called within {timeout} s"
            time.sleep(0.05)


def phone_page(browser: Any, guard: PageWatch, url: str, lang: str = "en-US", viewport: dict[str, int] = PHONE) -> Any:
    ctx = browser.new_context(locale=lang, viewport=viewport)
    page = guard.attach(ctx.new_page())
    page.goto(url)
    return page


def wait_live(page: Any) -> None:
    page.wait_for_selector("body[data-conn='live'][data-draw]")


def both_languages(page: Any, name: str) -> None:
    """Screenshots of the page as it is, in English and in Chinese (the language switch)."""
    lang = page.evaluate("document.documentElement.lang")
    shot(page, f"{name}-{'zh' if lang.startswith('zh') else 'en'}")
    page.click("#lang-switch")
    shot(page, f"{name}-{'en' if lang.startswith('zh') else 'zh'}")
    page.click("#lang-switch")


def assert_no_markup_ran(page: Any, guard: PageWatch) -> None:
    assert not guard.dialogs, guard.dialogs
    assert not guard.errors, guard.errors
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src='x']").count() == 0 and page.locator("main script").count() == 0


# ------------------------------------------------------------------------------------ tests
def test_unknown_tournament_says_not_found(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    page = phone_page(browser, guard, f"{hub_process.url}/bracket/t-nope")
    page.wait_for_selector("#not-found", timeout=5000)
    assert "t-nope" in page.inner_text("#not-found")
    assert page.get_attribute("#conn", "class") == "conn conn-not-found"
    assert not guard.errors
    page.context.close()


def test_double_elimination_follows_every_result_live(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    """16 players, 4 tables: every match is won from its table while the bracket is open on a phone
    and on a TV; each result shows on both within a second; the reset is played; the champion
    and the exports show at the end."""
    hub_process = watch_gateway
    entries = [{"name": n, "club": "Shanghai" if i % 3 else None, "seed": i + 1} for i, n in enumerate(NAMES)]
    entries[5] = {"name": XSS_NAME, "club": XSS_CLUB, "seed": 6}
    ev = Event(hub_process, entries, tables=4, name=XSS_TOURNAMENT)
    ev.draw("double_elimination", seeding="seeded")
    url = f"{hub_process.url}/bracket/{ev.tid}"
    phone = phone_page(browser, guard, url)
    tv = phone_page(browser, guard, url, viewport=TV)
    for page in (phone, tv):
        wait_live(page)
        page.wait_for_selector("#br-winners .bm[data-key='W1-1'][data-status='called']")
    assert phone.locator(".bm").count() == 8 + 4 + 2 + 1 + 4 + 4 + 2 + 2 + 1 + 1 + 1  # W, L, GF
    assert phone.inner_text("#br-name") == XSS_TOURNAMENT
    # A called match links to its watch page and says where it is.
    first = next(m for m in ev.get()["draw"]["matches"] if m["key"] == "W1-1")
    assert phone.get_attribute(".bm[data-key='W1-1'] a.bm-watch", "href") == f"/watch/{first['match_id']}"
    assert "Table" in phone.inner_text(".bm[data-key='W1-1'] .bm-state")
    # Waiting matches say where their players come from.
    assert "Winner of W1-1" in phone.inner_text(".bm[data-key='W2-1']")
    assert "Loser of W1-1" in phone.inner_text("#br-losers")
    # The names with markup are text.
    assert XSS_NAME in phone.inner_text("#br-winners") and XSS_CLUB in phone.inner_text("#br-winners")
    assert_no_markup_ran(phone, guard)

    # One match live: its score shows as it is played.
    ev.start(first, first["players"][1])  # the player who will concede it breaks
    for page in (phone, tv):
        page.wait_for_selector(".bm[data-key='W1-1'].st-live", timeout=FAST * 1000)
    shot(phone, "bracket-de-start-phone-en")

    played: list[float] = []
    reset_seen = False
    shots_done = False
    while True:
        t = ev.get()
        draw = t["draw"]
        if draw["status"] == "finished":
            break
        called = [m for m in draw["matches"] if m["status"] == "called"]
        assert called, draw["matches"]
        for entry in called:
            # The top slot wins, except in the grand final: the losers-bracket player takes it to the reset.
            winner = entry["players"][1] if entry["key"] == "GF" else entry["players"][0]
            t0 = time.monotonic()
            ev.win(entry, winner)
            sel = f".bm[data-key='{entry['key']}'][data-status='finished'][data-winner='{winner}']"
            for page in (phone, tv):
                page.wait_for_selector(sel, timeout=5000)
            played.append(time.monotonic() - t0)
            reset_seen = reset_seen or entry["key"] == "GF"
        if not shots_done and sum(1 for m in draw["matches"] if m["status"] == "finished") >= 14:
            shots_done = True
            both_languages(phone, "bracket-de-midway-phone")
            both_languages(tv, "bracket-de-midway-tv")
    assert reset_seen and any(m["key"] == "GF2" for m in ev.get()["draw"]["matches"])
    assert len(played) == 31  # 15 + 14 + GF + GF2
    print(f"\nresult to bracket (phone and TV): max {max(played):.3f} s, mean {sum(played) / len(played):.3f} s")
    slow = [round(s, 2) for s in played if s > FAST]
    assert not slow, f"results took {slow} s to reach the bracket"

    champion = next(p for p in ev.get()["players"] if p["status"] == "champion")
    for page in (phone, tv):
        page.wait_for_selector("body[data-draw='finished'] #champion-name")
        assert page.inner_text("#champion-name") == champion["name"]
        assert page.locator(".bm[data-key='GF2'] .bm-p.winner").inner_text().startswith(
            str(champion["seed"])
        ) or champion["name"] in page.inner_text(".bm[data-key='GF2'] .bm-p.winner")
    both_languages(phone, "bracket-de-final-phone")
    both_languages(tv, "bracket-de-final-tv")
    # Walk the bracket: every card agrees with the hub's draw.
    for m in ev.get()["draw"]["matches"]:
        card = phone.locator(f".bm[data-key='{m['key']}']")
        assert card.get_attribute("data-status") == m["status"], m
    # The exports are linked once the draw is finished and answer as downloads.
    for sel, name in (
        ("#export-json", "results.json"),
        ("#export-csv", "matches.csv"),
        ("#export-placings", "placings.csv"),
    ):
        href = phone.get_attribute(sel, "href")
        assert phone.get_attribute(sel, "download") is not None
        r = httpx.get(hub_process.url + href, timeout=10)
        assert r.status_code == 200
        disposition = r.headers["content-disposition"]
        assert disposition.startswith("attachment; filename=") and f'-{name}"; filename*=UTF-8' in disposition
        assert disposition.endswith(f"-{name}"), disposition
    assert "Grand final" in httpx.get(hub_process.url + phone.get_attribute("#export-csv", "href"), timeout=10).text
    # In Chinese the matches file names its rounds in Chinese too.
    phone.click("#lang-switch")
    phone.wait_for_selector("#export-csv[href*='lang=zh']")
    assert "总决赛" in httpx.get(hub_process.url + phone.get_attribute("#export-csv", "href"), timeout=10).text
    phone.click("#lang-switch")
    assert_no_markup_ran(phone, guard)
    # A phone opening the finished bracket starts at its last rounds (they do not fit side by side).
    late = phone_page(browser, guard, url)
    late.wait_for_selector("body[data-draw='finished'] #champion-name")
    for bracket in ("winners", "losers"):
        assert late.eval_on_selector(f"#br-{bracket} .rounds", "n => n.scrollLeft") > 0, bracket
    assert not guard.errors
    late.context.close()
    phone.context.close()
    tv.context.close()


def test_round_robin_groups_render_standings(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    """Six players in two groups: the group tables and standings follow every result; the winner
    of each group on top; the exports at the end."""
    hub_process = watch_gateway
    entries = [{"name": n, "club": XSS_CLUB if i == 2 else "Beijing", "seed": i + 1} for i, n in enumerate(NAMES[:6])]
    entries[4]["name"] = XSS_NAME
    ev = Event(hub_process, entries, tables=2, name="Round robin night")
    ev.draw("round_robin", groups=2, seeding="seeded")
    url = f"{hub_process.url}/bracket/{ev.tid}"
    phone = phone_page(browser, guard, url, lang="zh-CN")
    wait_live(phone)
    phone.wait_for_selector("#group-A table.standings tr[data-player]")
    assert phone.locator("#group-A table.standings tbody tr").count() == 3
    assert phone.locator("#group-B table.standings tbody tr").count() == 3
    assert phone.locator("#group-A .bm").count() == 3 and phone.locator("#group-B .bm").count() == 3
    seed = {p["id"]: p["seed"] for p in ev.players}
    while ev.get()["draw"]["status"] != "finished":
        for entry in ev.called():
            winner = min(entry["players"], key=lambda p: seed[p])  # the better seed wins
            t0 = time.monotonic()
            ev.win(entry, winner)
            phone.wait_for_selector(f".bm[data-key='{entry['key']}'][data-status='finished']", timeout=5000)
            assert time.monotonic() - t0 < FAST
    t = ev.get()
    for s in t["standings"]:
        row = phone.locator(f"#group-{s['group']} tr[data-player='{s['player']}']")
        assert row.locator("td.rank").inner_text() == str(s["rank"])
        assert row.locator("td.pts").inner_text() == str(s["points"])
    # Rank 1 of each group is the top seed there, and the rows are in rank order.
    for g in ("A", "B"):
        ranks = phone.locator(f"#group-{g} td.rank").all_inner_texts()
        assert ranks == ["1", "2", "3"]
    phone.wait_for_selector("body[data-draw='finished'] #exports")
    assert XSS_NAME in phone.inner_text("#bracket") and XSS_CLUB in phone.inner_text("#bracket")
    # The home page names each group's winner.
    home = phone_page(browser, guard, f"{hub_process.url}/")
    winners = home.locator(f"li.tour[data-tournament='{ev.tid}'] .t-winners")
    winners.wait_for(timeout=5000)
    names = {p["id"]: p["name"] for p in ev.players}
    for s in t["standings"]:
        if s["rank"] == 1:
            assert f"Group {s['group']} {names[s['player']]}" in winners.inner_text()
    home.context.close()
    both_languages(phone, "bracket-rr-phone")
    tv = phone_page(browser, guard, url, viewport=TV)
    wait_live(tv)
    tv.wait_for_selector("#group-B table.standings")
    both_languages(tv, "bracket-rr-tv")
    assert_no_markup_ran(phone, guard)
    phone.context.close()
    tv.context.close()


def _simulate(hub_process: Hub, plan: Any, seed: int = 3) -> tuple[Any, threading.Thread, list[BaseException]]:
    """The simulator (hub/tools/simulate.py) setting a draw up and playing it in a thread of its own."""
    from hub.tools.simulate import DrawSimulator

    sim = DrawSimulator(hub_process.url, ADMIN_TOKEN, plan, speed=100.0, seed=seed)
    ready = threading.Event()
    failed: list[BaseException] = []

    def run() -> None:
        async def go() -> None:
            await sim.setup()
            ready.set()
            await asyncio.wait_for(sim.run(), 300)

        try:
            asyncio.run(go())
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failed.append(exc)
        finally:
            ready.set()

    th = threading.Thread(target=run, daemon=True)
    th.start()
    assert ready.wait(60) and not failed, failed
    return sim, th, failed


def test_chase_groups_played_by_the_simulator(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    from hub.tools.simulate import DrawPlan

    hub_process = watch_gateway
    sim, th, failed = _simulate(
        hub_process,
        DrawPlan("chase_groups", players=6, tables=2, discipline="chase_nine", length=1, rounds=2, name="Chase night"),
    )
    tid = sim.tournament["id"]
    tv = phone_page(browser, guard, f"{hub_process.url}/bracket/{tid}", viewport=TV)
    wait_live(tv)
    tv.wait_for_selector("#group-all table.standings tbody tr")
    assert tv.locator("#br-rounds .bm").count() == 4  # 2 rounds of two matches of three
    th.join(300)
    assert not failed and sim.finished, failed
    t = hub_process.get(f"/api/tournaments/{tid}")
    tv.wait_for_selector("body[data-draw='finished'] #champion-name", timeout=5000)
    champion = next(p for p in t["players"] if p["status"] == "champion")
    assert tv.inner_text("#champion-name") == champion["name"]
    rows = tv.locator("#group-all tbody tr")
    assert rows.count() == 6
    for s in t["standings"]:
        row = tv.locator(f"#group-all tr[data-player='{s['player']}']")
        assert row.locator("td.rank").inner_text() == str(s["rank"])
        assert row.locator("td.pts").inner_text() == str(s["points"])
    assert tv.locator(".bm[data-key='C1-1'] .bm-p").count() == 3
    both_languages(tv, "bracket-chase-tv")
    phone = phone_page(browser, guard, f"{hub_process.url}/bracket/{tid}")
    wait_live(phone)
    phone.wait_for_selector("#champion-name")
    both_languages(phone, "bracket-chase-phone")
    assert not guard.errors
    tv.context.close()
    phone.context.close()


def test_double_elimination_played_by_the_simulator(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    """The simulated tablets play a 16-player double elimination on 4 tables to its champion while
    the bracket is open on a TV: it never falls behind the hub by more than a second."""
    from hub.tools.simulate import DrawPlan

    hub_process = watch_gateway
    sim, th, failed = _simulate(
        hub_process,
        DrawPlan(
            "double_elimination", players=16, tables=4, discipline="wpa_nine", length=2, seed=7, name="Simulated open"
        ),
    )
    tid = sim.tournament["id"]
    tv = phone_page(browser, guard, f"{hub_process.url}/bracket/{tid}", viewport=TV)
    wait_live(tv)
    lags: list[float] = []
    seen: set[str] = set()
    deadline = time.monotonic() + 300
    while th.is_alive() or len(seen) < 30:
        assert time.monotonic() < deadline and not failed, failed
        t = hub_process.get(f"/api/tournaments/{tid}")
        done = {m["key"] for m in t["draw"]["matches"] if m["status"] == "finished"} - seen
        for key in done:
            t0 = time.monotonic()
            tv.wait_for_selector(f".bm[data-key='{key}'][data-status='finished']", timeout=5000)
            lags.append(time.monotonic() - t0)
        seen |= done
        if not th.is_alive() and t["draw"]["status"] == "finished":
            break
        time.sleep(0.1)
    th.join(10)
    assert not failed and sim.finished, failed
    print(f"\nsimulated draw, REST to bracket: max {max(lags or [0]):.3f} s over {len(lags)} results")
    assert lags and max(lags) < FAST, lags
    tv.wait_for_selector("body[data-draw='finished'] #champion-name", timeout=5000)
    champion = next(p for p in hub_process.get(f"/api/tournaments/{tid}")["players"] if p["status"] == "champion")
    assert champion["id"] == sim.champion and tv.inner_text("#champion-name") == champion["name"]
    shot(tv, "bracket-sim-de-tv-en")
    assert not guard.errors
    tv.context.close()


def test_home_lists_tournaments_live_next_and_finished(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    running = Event(
        hub_process,
        [
            {"name": XSS_NAME, "club": XSS_CLUB},
            {"name": "Yang Fan"},
            {"name": "Wu Jiaqing"},
            {"name": "Ko Pin-yi"},
            {"name": "Liu Haitao"},
            {"name": "Dang Jinhu"},
        ],
        tables=1,
        name=XSS_TOURNAMENT,
    )
    running.draw("single_elimination", seeding="random", seed=4)
    (on_table,) = running.called()
    running.start(on_table, on_table["players"][0])
    done = Event(hub_process, [{"name": "Zheng Yubo"}, {"name": "Shi Hantang"}], tables=1, name="Finished cup")
    done.draw("single_elimination")
    (final,) = done.called()
    done.win(final, final["players"][0])
    for _ in range(100):
        if done.get()["draw"]["status"] == "finished":
            break
        time.sleep(0.05)
    fresh = Event(
        hub_process,
        [{"name": "Han Yu", "club": XSS_CLUB, "seed": 2}, {"name": XSS_NAME}],
        tables=0,
        name="Next week <i>open</i>",
    )
    page = phone_page(browser, guard, f"{hub_process.url}/")
    for ev, status in ((running, "running"), (done, "finished"), (fresh, "setup")):
        item = page.locator(f"li.tour[data-tournament='{ev.tid}']")
        item.wait_for(timeout=5000)
        assert item.get_attribute("data-status") == status
        assert item.locator("a.tname").get_attribute("href") == f"/bracket/{ev.tid}"
        assert item.locator("a.t-board").get_attribute("href") == f"/board/{ev.tid}"
    item = page.locator(f"li.tour[data-tournament='{running.tid}']")
    assert item.locator("a.tname").inner_text() == XSS_TOURNAMENT
    live = item.locator(f".t-live li[data-match='{on_table['match_id']}'] a")
    assert live.get_attribute("href") == f"/watch/{on_table['match_id']}"
    names = {p["id"]: p["name"] for p in running.players}
    assert " – ".join(names[p] for p in on_table["players"]) in live.inner_text()
    # each name isolated on its own: a right-to-left name never reorders the other
    assert live.locator(".names bdi").all_inner_texts() == [names[p] for p in on_table["players"]]
    queue = running.get()["queue"]
    assert queue and item.locator(".t-next li").count() == min(len(queue), 4)
    champion = next(p for p in done.get()["players"] if p["status"] == "champion")
    assert champion["name"] in page.locator(f"li.tour[data-tournament='{done.tid}'] .t-champion").inner_text()
    assert page.locator(f"li.tour[data-tournament='{done.tid}'] .t-champion bdi").inner_text() == champion["name"]
    assert page.locator(f"li.tour[data-tournament='{fresh.tid}'] a.tname").inner_text() == "Next week <i>open</i>"
    # In progress first, finished last.
    order = page.locator("li.tour").evaluate_all("els => els.map(e => e.dataset.status)")
    assert order == sorted(order, key=["running", "setup", "finished"].index)
    both_languages(page, "home-phone")
    assert_no_markup_ran(page, guard)
    # Before its draw, a tournament's bracket lists who has entered.
    page.click(f"li.tour[data-tournament='{fresh.tid}'] a.tname")
    page.wait_for_selector("body[data-draw='none'] #entrants")
    assert "not been made" in page.inner_text("#no-draw")
    assert page.locator("#entrants li").all_inner_texts()[0].startswith("2")  # the seeded first
    assert XSS_NAME in page.inner_text("#entrants") and XSS_CLUB in page.inner_text("#entrants")
    assert_no_markup_ran(page, guard)
    page.context.close()


def test_board_shows_next_and_what_its_numbers_mean(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    golden = {"discipline": "golden_nine", "format": {"racks": 5}, "options": {}}
    ev = Event(
        hub_process,
        [{"name": XSS_NAME, "club": XSS_CLUB}] + [{"name": n} for n in NAMES[:7]],
        tables=2,
        name=XSS_TOURNAMENT,
    )
    ev.draw("double_elimination", match=golden, seeding="random", seed=2)
    board = phone_page(browser, guard, f"{hub_process.url}/board/{ev.tid}", viewport=TV)
    board.wait_for_selector("body[data-conn='live'] .cell .pl-row")
    called = ev.called()
    assert len(called) == 2
    # A match called to a table and not started is what is next there.
    for entry in called:
        cell = board.locator(f".cell[data-table='{entry['table_id']}']")
        cell.locator(".next-tag").wait_for(timeout=5000)
        assert entry["key"] in cell.locator(".fmt").inner_text()
    # The numbers are labelled: points, and the racks won in brackets, for Chinese nine-ball.
    labels = board.locator(".cell .pl-labels").first.text_content()
    assert "Points" in labels and "(Racks won)" in labels
    # The draw's queue, in call order, under the tables.
    queue = ev.get()["queue"]
    assert queue
    board.wait_for_selector(f"#up-next .un-item[data-key='{queue[0]}']")
    ev.start(called[0], called[0]["players"][1])
    board.wait_for_selector(f".cell[data-table='{called[0]['table_id']}'].live", timeout=FAST * 1000)
    assert board.locator(f".cell[data-table='{called[0]['table_id']}'] .next-tag").count() == 0
    assert XSS_NAME in board.inner_text("#board") + board.inner_text("#up-next")
    both_languages(board, "board-next-tv")
    assert_no_markup_ran(board, guard)
    # A wpa_nine table's score is the racks won.
    ev2 = Event(hub_process, [{"name": "A"}, {"name": "B"}], tables=1, name="Nine-ball")
    ev2.draw("single_elimination")
    board2 = phone_page(browser, guard, f"{hub_process.url}/board/{ev2.tid}", viewport=PHONE)
    board2.wait_for_selector(".cell .pl-labels")
    assert board2.locator(".cell .pl-labels").text_content() == "Racks won"
    shot(board2, "board-wpa-phone-en")
    # Once the draw is finished, the board names the champion.
    (final,) = ev2.called()
    ev2.win(final, final["players"][0])
    board2.wait_for_selector(f"#up-next .un-champion[data-player='{final['players'][0]}']", timeout=5000)
    champion = next(p["name"] for p in ev2.players if p["id"] == final["players"][0])
    assert board2.inner_text("#up-next .un-champion") == f"★ {champion}"
    board.context.close()
    board2.context.close()


def test_byes_and_walkovers_shown_as_such(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    """Five players in a single elimination: three byes in round 1; a walkover given from the desk;
    a withdrawn player's match going to the opponent."""
    hub_process = watch_gateway
    ev = Event(hub_process, [{"name": n, "seed": i + 1} for i, n in enumerate(NAMES[:5])], tables=1, name="Byes")
    t = ev.draw("single_elimination", seeding="seeded")
    page = phone_page(browser, guard, f"{hub_process.url}/bracket/{ev.tid}")
    wait_live(page)
    byes = [m for m in t["draw"]["matches"] if m["status"] == "bye"]
    assert len(byes) == 3
    for m in byes:
        card = page.locator(f".bm[data-key='{m['key']}']")
        assert card.get_attribute("data-status") == "bye"
        assert "Bye" in card.inner_text() and "— bye —" in card.inner_text()
        assert card.locator(".bm-p.winner").count() == 1
    ready = [m for m in ev.get()["draw"]["matches"] if m["status"] == "ready"]
    (target,) = [m for m in t["draw"]["matches"] if m["status"] == "called"] or ready[:1]
    winner = target["players"][0]
    # The called match leaves its table for the end of the queue, then is walked over.
    admin("POST", hub_process, f"/api/tournaments/{ev.tid}/draw/{target['key']}/requeue", {})
    admin("POST", hub_process, f"/api/tournaments/{ev.tid}/draw/{target['key']}/walkover", {"winner": winner})
    card = page.locator(f".bm[data-key='{target['key']}'][data-status='walkover']")
    card.wait_for(timeout=FAST * 1000)
    assert "Walkover" in card.inner_text() and "w/o" in card.inner_text()
    assert card.locator(".bm-p.winner").get_attribute("data-player") == winner
    # A withdrawn player: the match goes to the opponent as a walkover.
    nxt = next(m for m in ev.get()["draw"]["matches"] if m["status"] in ("called", "ready"))
    gone = nxt["players"][1]
    admin("POST", hub_process, f"/api/tournaments/{ev.tid}/players/{gone}/withdraw", {})
    page.wait_for_selector(
        f".bm[data-key='{nxt['key']}'][data-status='walkover'][data-winner='{nxt['players'][0]}']", timeout=5000
    )
    shot(page, "bracket-byes-phone-en")
    assert not guard.errors
    page.context.close()
