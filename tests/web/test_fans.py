"""The fans' side in a real headless Chromium against the real hub (conftest.py), at phone (390x844),
tablet (820x1180) and TV (1920x1080) sizes, in English and Chinese: "Find a player" on the bracket;
the player page following a call live and its "Follow" announcement after an hour idle (Playwright's
clock); the bracket's connector lines per round, its round tabs and that no column is cut off;
a finished 256-player bracket on a phone (its height and render time, printed; the target is in
bench/bracket_render.py); the board's call announcement and its phone list. Projections the hub
does not make in a test's time (a finished 256-player draw, two stages) come from fans_helpers.py
through a stand-in /ws/watch. Screenshots: test-artifacts/fans-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.services import wait_until

from .conftest import Hub, PageWatch, shot
from .fans_helpers import PHONE, TABLET, TV, FakeWatch, draw_projection, play_out, two_stage
from .test_bracket import Event

SIZES = {"phone": PHONE, "tablet": TABLET, "tv": TV}
LANGS = {"en": "en-US", "zh": "zh-CN"}
FIND = {"en": "Find a player", "zh": "查找选手"}
CLOCKED = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {"shot_clock": {"shot_s": 45}}}
NAMES = ["Zheng Yubo", "杨帆 Yang Fan", "Wu Jiaqing", "Ko Pin-yi", "Liu Haitao", "Dang Jinhu", "محمد Ali",
         "王也 Wang Ye"]


def open_page(browser: Any, guard: PageWatch, url: str, size: str = "phone", lang: str = "en",
              proj: dict[str, Any] | None = None, clock: bool = False) -> tuple[Any, FakeWatch | None]:
    ctx = browser.new_context(locale=LANGS[lang], viewport=SIZES[size], has_touch=size != "tv")
    page = guard.attach(ctx.new_page())
    fake = FakeWatch(page, proj) if proj is not None else None
    if clock:
        page.clock.install()
    page.goto(url)
    return page, fake


def bracket_ready(page: Any) -> None:
    page.wait_for_selector("body[data-conn='live'][data-rendered]", timeout=20000)


@pytest.fixture(scope="module")
def shapes(hub_process: Hub) -> dict[str, Any]:
    """Draw structures made once by the hub (16 and 64 players, no tables), played here."""
    de16 = draw_projection(hub_process.url, 16, "double_elimination", name="Sixteen")
    se64 = draw_projection(hub_process.url, 64, "single_elimination", name="Sixty-four")
    return {"de16": de16, "se64": se64}


# ------------------------------------------------------------------------------ Find a player
@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("tablet", "zh"), ("tv", "en")])
def test_search_highlights_scrolls_to_the_next_match_and_links(hub_process: Hub, browser: Any, guard: PageWatch,
                                                               shapes: dict[str, Any], size: str, lang: str) -> None:
    proj = play_out(shapes["se64"], upto=40)  # round 1 played, round 2 under way
    seed = {p["id"]: p["seed"] for p in proj["players"]}
    ready = [pid for m in proj["draw"]["matches"] if m["round"] == "W2" and m["status"] == "ready"
             for pid in m["players"]]
    target = next(p for p in proj["players"] if p["id"] == max(ready, key=lambda x: seed[x]))
    assert target["seed"] >= 10  # a name no other contains
    page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", size, lang, proj)
    bracket_ready(page)
    box = page.locator("#player-search")
    assert box.get_attribute("placeholder") == FIND[lang]
    assert page.evaluate("scrollY") == 0
    box.fill("player 5")  # case does not matter; "Player 5", "Player 50".. "Player 59"
    hits = page.locator("#search-results .hit")
    assert hits.count() == 8 and "Player 5" in hits.first.inner_text()
    box.fill(target["name"][1:].upper())
    assert hits.count() == 1
    hits.first.click()
    mine = [m for m in proj["draw"]["matches"] if target["id"] in m["players"]]
    nxt = next(m for m in mine if m["status"] not in ("finished", "walkover", "bye"))
    page.wait_for_selector(f".bm.hl-next[data-key='{nxt['key']}']")
    # every match of theirs is marked: its card, or the strip of the round folded away (a phone)
    for m in mine:
        card = page.locator(f".bm[data-key='{m['key']}']")
        if card.count() and card.is_visible():
            assert "hl" in card.get_attribute("class").split(), m["key"]
            assert card.locator(f".bm-p.me[data-player='{target['id']}']").count() == 1
        else:
            assert page.locator(f"#br-winners .round.folded.hl[data-round='{m['round']}']").count() == 1, m["key"]
    assert page.locator(".bm.hl").count() + page.locator(".round.folded.hl").count() == len(mine)
    # The next match is on screen: scrolled to, down the page and across the rounds.
    card = page.locator(f".bm[data-key='{nxt['key']}']").bounding_box()
    vw, vh = SIZES[size]["width"], SIZES[size]["height"]
    assert card["x"] >= 0 and card["x"] + card["width"] <= vw + 1, card
    assert card["y"] >= 0 and card["y"] + card["height"] <= vh, card
    link = page.locator("#player-link")
    assert link.get_attribute("href") == f"/player/{proj['id']}/{target['id']}"
    assert target["name"] in page.inner_text("#search-chosen")
    assert f"player={target['id']}" in page.url  # a shared link opens highlighted
    shot(page, f"fans-search-{size}-{lang}")
    link.click()
    page.wait_for_selector("#pl-name")
    assert page.inner_text("#pl-name") == target["name"]
    assert not guard.errors
    page.context.close()


def test_search_ignores_width_and_every_space(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    """Names as Chinese organisers type them: an ideographic space (U+3000) inside a name, full-width
    Latin letters, a club with a space. The search folds them all the same way (ui.js foldName):
    "李明" finds "李　明", "yang fan" finds "ＹＡＮＧ Fan", and the other way round."""
    entries = [{"name": "李　明"}, {"name": "ＹＡＮＧ Fan"}, {"name": "Wu Jiaqing", "club": "上海　浦东"},
               {"name": "李明华"}]
    ev = Event(hub_process, entries, tables=0, name="Folds")
    ev.draw("single_elimination")
    ids = {p["name"]: p["id"] for p in ev.players}
    page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{ev.tid}", "phone", "zh")
    bracket_ready(page)
    box = page.locator("#player-search")
    li, yang, wu = ["李　明", "李明华"], ["ＹＡＮＧ Fan"], ["Wu Jiaqing"]
    for query, found in (("李明", li), ("李 明", li), ("李　明", li), ("yang fan", yang), ("ｙａｎｇｆａｎ", yang),
                         ("YANG　FAN", yang), ("上海浦东", wu), ("wujiaqing", wu)):
        box.fill(query)  # the results are listed on the input event, before fill returns
        got = sorted(h.get_attribute("data-player") for h in page.locator("#search-results .hit").all())
        assert got == sorted(ids[n] for n in found), (query, got)
    shot(page, "fans-search-folds")
    assert not guard.errors
    page.context.close()


def test_search_finds_a_player_in_a_folded_round(hub_process: Hub, browser: Any, guard: PageWatch,
                                                  shapes: dict[str, Any]) -> None:
    """A finished 64-player bracket on a phone folds its early rounds; a player out in round 1 is
    found there: the round opens and the match is scrolled to."""
    proj = play_out(shapes["se64"])
    page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", "phone", "en", proj)
    bracket_ready(page)
    assert page.locator("#br-winners .round.folded[data-round='W1']").count() == 1
    page.fill("#player-search", "Player 64")
    page.keyboard.press("Enter")
    (first,) = [m for m in proj["draw"]["matches"] if m["round"] == "W1" and any(
        p == next(x["id"] for x in proj["players"] if x["name"] == "Player 64") for p in m["players"])]
    page.wait_for_selector(f".bm.hl-next[data-key='{first['key']}']")
    assert page.locator("#br-winners .round.folded[data-round='W1']").count() == 0
    box = page.locator(f".bm[data-key='{first['key']}']").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1 and 0 <= box["y"] <= PHONE["height"], box
    assert not guard.errors
    page.context.close()


# ------------------------------------------------------------------------------ the player page
@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("tablet", "zh")])
def test_player_page_follows_the_call_and_the_score_live(watch_gateway: Hub, browser: Any, guard: PageWatch,
                                                         size: str, lang: str) -> None:
    hub_process = watch_gateway
    entries = [{"name": n, "club": "Shanghai" if i % 2 else None, "seed": i + 1} for i, n in enumerate(NAMES[:4])]
    ev = Event(hub_process, entries, tables=1, name="Cup")
    ev.draw("single_elimination", seeding="seeded")
    (on_table,) = ev.called()
    waiting = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "ready")
    me = waiting["players"][0]
    name = next(p["name"] for p in ev.players if p["id"] == me)
    opponent = next(p["name"] for p in ev.players if p["id"] == waiting["players"][1])
    page, _ = open_page(browser, guard, f"{hub_process.url}/player/{ev.tid}/{me}", size, lang)
    page.wait_for_selector("#pl-next[data-state='ready']")
    assert page.inner_text("#pl-name") == name and page.locator("#pl-name").evaluate("n => n.tagName") == "BDI"
    assert page.inner_text("#pl-seed") == ("Seed 2" if lang == "en" else "2 号种子")
    assert page.inner_text("#next-state") == ("Up next #1" if lang == "en" else "下一场 #1")
    assert page.inner_text("#next-opponent") == opponent
    assert page.inner_text(".pl-follow-hint bdi") == name  # the name isolated inside the sentence
    # the final: waiting for the winners of both semi-finals
    final = next(m for m in ev.get()["draw"]["matches"] if m["round"] == "W2")
    assert page.locator(f".pl-m[data-key='{final['key']}']").count() == 0  # not theirs yet
    shot(page, f"fans-player-ready-{size}-{lang}")
    ev.win(on_table, on_table["players"][0])  # the table frees: their match is called to it
    page.wait_for_selector("#pl-next[data-state='called']", timeout=5000)
    assert page.inner_text("#next-state") == ("Called to Table 1" if lang == "en" else "已叫号：Table 1")
    assert page.inner_text("#next-state bdi") == "Table 1"  # a table's name is a name too
    called = ev.next_called(lambda m: m["key"] == waiting["key"])
    assert page.get_attribute("#watch-link", "href") == f"/watch/{called['match_id']}"
    # Played: the live score comes from the match channel, rack by rack.
    ev.start(called, waiting["players"][1])
    page.wait_for_selector("#pl-next[data-state='playing'] #live-score", timeout=5000)
    concede = {"kind": "concede", "player": waiting["players"][1], "scope": "rack"}
    ev.command(called["match_id"], called["table_id"], concede)
    page.wait_for_selector(f"#live-score .pl-live-row[data-player='{me}'] .score:text-is('1')", timeout=5000)
    shot(page, f"fans-player-live-{size}-{lang}")
    # the next rack is theirs to break: they concede it (1-1), then the opponent, at the table, the match
    ev.command(called["match_id"], called["table_id"], {"kind": "concede", "player": me, "scope": "rack"})
    page.wait_for_selector(f"#live-score .pl-live-row[data-player='{waiting['players'][1]}'] .score:text-is('1')",
                           timeout=5000)
    ev.win(called, me)
    page.wait_for_selector(f"#pl-next[data-key='{final['key']}']", timeout=5000)
    row = page.locator(f".pl-m[data-key='{waiting['key']}']")
    played = next(m for m in ev.get()["draw"]["matches"] if m["key"] == waiting["key"])
    theirs = next(v for k, v in played["scores"].items() if k != me)
    row.locator(f".pl-m-score:text-is('{played['scores'][me]}–{theirs}')").wait_for(timeout=5000)
    assert ("Won" if lang == "en" else "胜") in row.inner_text()
    # The final: they wait for the winner of the other semi-final (already played: its winner is known).
    assert page.get_attribute("#pl-next", "data-state") in ("called", "ready")
    assert not guard.errors
    page.context.close()


def test_player_page_waits_for_the_winner_of_a_match(hub_process: Hub, browser: Any, guard: PageWatch,
                                                     shapes: dict[str, Any]) -> None:
    proj = play_out(shapes["se64"], upto=33)  # round 1 and one match of round 2
    w2 = next(m for m in proj["draw"]["matches"] if m["round"] == "W2" and m["status"] == "finished")
    me = w2["winner"]
    r3 = next(m for m in proj["draw"]["matches"] if m["key"] == w2["winner_to"])
    feeding = [m["key"] for m in proj["draw"]["matches"] if m["winner_to"] == r3["key"]]
    other = next(k for k in feeding if k != w2["key"])
    page, fake = open_page(browser, guard, f"{hub_process.url}/player/{proj['id']}/{me}", "phone", "en", proj)
    page.wait_for_selector("#pl-next[data-state='waiting']")
    assert page.inner_text("#next-state") == f"Waiting for the winner of {other}"
    assert page.locator("#pl-list .pl-m").count() == 3  # W1, W2 and the one to come
    assert fake and any(ch == f"tournament:{proj['id']}" for ch in fake.subscribed)
    page.context.close()


def test_follow_announces_the_call_after_an_hour_idle(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    ev = Event(hub_process, [{"name": n, "seed": i + 1} for i, n in enumerate(NAMES[:4])], tables=1, name="Late night")
    ev.draw("single_elimination", seeding="seeded")
    (on_table,) = ev.called()
    waiting = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "ready")
    me = waiting["players"][1]
    ctx = browser.new_context(locale="en-US", viewport=PHONE, has_touch=True)
    ctx.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
    page = guard.attach(ctx.new_page())
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.clock.install()
    page.goto(f"{hub_process.url}/player/{ev.tid}/{me}")
    page.wait_for_selector("body[data-conn='live'] #pl-next[data-state='ready']")
    page.click("#follow")
    assert page.get_attribute("#follow", "aria-pressed") == "true"
    assert page.locator("#call-banner.hidden").count() == 1
    opened = len(sockets)
    page.clock.run_for("01:00:00")  # an hour on the page's clock: its socket goes quiet and is reopened
    page.wait_for_selector("body[data-conn='live']", timeout=10000)
    ev.win(on_table, on_table["players"][0])
    page.wait_for_selector("#call-banner:not(.hidden)", timeout=10000)
    banner = page.inner_text("#call-banner")
    name = next(p["name"] for p in ev.players if p["id"] == me)
    opponent = next(p["name"] for p in ev.players if p["id"] == waiting["players"][0])
    assert name in banner and "Called to Table 1" in banner and opponent in banner
    assert page.get_attribute("#call-banner", "role") == "alert"
    assert page.evaluate("document.body.dataset.sound") == "played"
    assert page.evaluate("window.__buzz.length") == 1
    assert len(sockets) > opened, "the socket was not reopened after the idle hour"
    shot(page, "fans-follow-called-phone-en")
    page.click("#call-dismiss")
    assert page.locator("#call-banner.hidden").count() == 1
    # A reload keeps following and does not ring again for the same call.
    page.reload()
    page.wait_for_selector("#pl-next[data-state='called']")
    assert page.get_attribute("#follow", "aria-pressed") == "true"
    assert page.locator("#call-banner.hidden").count() == 1
    assert not guard.errors
    ctx.close()


# ------------------------------------------------------------------------------ a bracket that reads as one
def expected_lines(proj: dict[str, Any], stage: int | None = None) -> dict[str, int]:
    """Lines into each round: every winner_to between matches of one bracket (the grand final
    closes the winners bracket), and the grand final to its reset."""
    ms = [m for m in proj["draw"]["matches"] if stage is None or m.get("stage", 1) == stage]
    by_key = {m["key"]: m for m in ms}
    side = {"winners": "w", "final": "w", "losers": "l"}
    out: dict[str, int] = {}
    for m in ms:
        to = by_key.get(m.get("winner_to") or "")
        if to and side[to["bracket"]] == side[m["bracket"]]:
            out[to["round"]] = out.get(to["round"], 0) + 1
    if "GF" in by_key and "GF2" in by_key and by_key["GF"].get("winner_to") != "GF2":
        out["GF2"] = out.get("GF2", 0) + 1
    return out


@pytest.mark.parametrize(("size", "lang"), [("tablet", "en"), ("tv", "zh"), ("phone", "zh")])
def test_connector_lines_join_every_round(hub_process: Hub, browser: Any, guard: PageWatch, shapes: dict[str, Any],
                                          size: str, lang: str) -> None:
    proj = play_out(shapes["de16"])  # finished, with the grand final's reset
    assert any(m["key"] == "GF2" for m in proj["draw"]["matches"])
    page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", size, lang, proj)
    bracket_ready(page)
    folded = set(page.locator(".round.folded").evaluate_all("ns => ns.map(n => n.dataset.round)"))
    if size != "phone":
        assert not folded  # a 16-player field folds nothing on a big screen
    got = dict(page.evaluate("""() => { const c = {}; for (const p of document.querySelectorAll('path.conn'))
        c[p.dataset.round] = (c[p.dataset.round] || 0) + 1; return Object.entries(c); }"""))
    by_key = {m["key"]: m for m in proj["draw"]["matches"]}
    fed_from_folded = {by_key[m["winner_to"]]["round"] for m in by_key.values()
                       if m.get("winner_to") and m["round"] in folded}
    want = {r: n for r, n in expected_lines(proj).items() if r not in folded and r not in fed_from_folded}
    assert want and got == want
    for r in ("W2", "W4", "GF", "GF2", "L2", "L6"):
        assert r in folded or got.get(r), r  # winners, losers, the grand final and its reset
    # A line runs from its match's right edge to the next match's left edge.
    ends = page.evaluate("""() => [...document.querySelectorAll('path.conn')].slice(0, 40).map(p => {
        const b = p.getBoundingClientRect();
        const f = document.getElementById('m-' + p.dataset.from).getBoundingClientRect();
        const t = document.getElementById('m-' + p.dataset.to).getBoundingClientRect();
        return [b.left - f.right, t.left - b.right]; })""")
    assert ends and all(abs(a) <= 2 and abs(b) <= 2 for a, b in ends), ends
    shot(page, f"fans-lines-{size}-{lang}")
    page.context.close()


def test_both_stages_are_drawn_with_their_lines(hub_process: Hub, browser: Any, guard: PageWatch,
                                                shapes: dict[str, Any]) -> None:
    proj = two_stage(play_out(shapes["de16"], upto=12))
    for size, lang in (("tv", "en"), ("phone", "zh")):
        page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", size, lang, proj)
        bracket_ready(page)
        assert page.locator(".br-stage").count() == 2
        assert page.inner_text("#stage-2 .stage-title").startswith("Stage 2" if lang == "en" else "第2阶段")
        assert page.locator("#stage-1 #br-winners .bm").count() == 8 + 4 + 2
        assert page.locator("#stage-1 #br-losers .bm").count() == 4 + 4 + 2 + 2
        assert page.locator("#stage-2 #br-s2-winners .bm").count() == 3
        assert page.locator("#stage-2 path.conn[data-round='K2']").count() == 2
        assert page.locator("#stage-1 path.conn[data-round='L4']").count() >= 2 or size == "phone"
        assert page.locator("#stage-1 .bm[data-key='GF']").count() == 0
        # a double elimination stopped for a knockout has no finals: its last rounds are named plainly
        names = {"en": ("Winners round 3", "Losers round 4"), "zh": ("胜者组第3轮", "败者组第4轮")}[lang]
        assert (page.inner_text("#tab-winners-W3"), page.inner_text("#tab-losers-L4")) == names
        assert page.locator("#stage-2 [role='tab']").all_text_contents() == (
            ["Semi-finals", "Final"] if lang == "en" else ["半决赛", "决赛"])
        shot(page, f"fans-stages-{size}-{lang}")
        page.context.close()
    assert not guard.errors


def test_a_right_to_left_name_keeps_its_marks_after_it(hub_process: Hub, browser: Any, guard: PageWatch,
                                                       shapes: dict[str, Any]) -> None:
    """The winner's ✓ sits after the name, outside its isolation (inside it, a right-to-left name
    put it on the name's left), and stays in view when a long name is cut short."""
    proj = play_out(shapes["de16"], upto=8)  # round 1 of the winners bracket played
    for i, pl in enumerate(proj["players"]):
        pl["name"] = f"محمد Ali {i + 1}" if i % 2 else f"Kelly Fisher-Longname-Longname {i + 1}"
    for size in ("tv", "phone"):
        page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", size, "en", proj)
        bracket_ready(page)
        rows = page.locator("#br-winners .round[data-round='W1'] .bm-p.winner").evaluate_all("""ns => ns.map(n => {
            const name = n.querySelector('bdi.name').getBoundingClientRect();
            const mark = n.querySelector('.nm-mark');
            const m = mark.getBoundingClientRect(), row = n.getBoundingClientRect();
            return [mark.textContent, mark.closest('bdi') === null, m.left - name.right, row.right - m.right]; })""")
        assert len(rows) == 8, rows
        assert all(text == "✓" and outside and -1 <= gap <= 12 and inside > 0
                   for text, outside, gap, inside in rows), rows
        page.context.close()
    assert not guard.errors


@pytest.mark.parametrize("size", ["phone", "tablet", "tv"])
def test_no_column_is_cut_off(
    hub_process: Hub, browser: Any, guard: PageWatch, shapes: dict[str, Any], size: str
) -> None:
    """Every round can be reached whole: the page never scrolls sideways, a bracket wider than the
    screen scrolls in its own box with a cue at the edge and a tab per round, and a column is never
    wider than that box."""
    proj = play_out(shapes["de16"], upto=14)
    page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", size, "en", proj)
    bracket_ready(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    for section in ("winners", "losers"):
        s = page.locator(f"#br-{section}")
        info = s.evaluate("""n => { const r = n.querySelector('.rounds'); return {
            over: r.scrollWidth > r.clientWidth + 2, style: getComputedStyle(r).overflowX, width: r.clientWidth,
            cols: [...r.querySelectorAll('.round')].map(c => c.getBoundingClientRect().width),
            tabs: n.querySelectorAll("[role='tab']").length,
            tabsShown: n.querySelector('.round-tabs').offsetParent !== null,
            more: n.querySelector('.rounds-wrap').dataset.more }; }""")
        assert info["tabs"] == len(info["cols"])
        assert max(info["cols"]) <= info["width"], info
        if info["over"]:
            assert info["style"] in ("auto", "scroll") and info["tabsShown"], info
            # scrolled to its start, the cue says there is more to the right
            s.locator(".rounds").evaluate("n => { n.style.scrollSnapType = 'none'; n.scrollLeft = 0; }")
            page.wait_for_selector(f"#br-{section} .rounds-wrap[data-more='right']")
            assert s.locator(".scroll-cue").is_visible()
            # a tab brings its round into view, whole
            last = s.locator("[role='tab']").last
            last.click()
            page.wait_for_selector(f"#br-{section} [role='tab']:last-child[aria-selected='true']")
            width = SIZES[size]["width"]

            def in_view(s: Any = s, width: int = width) -> bool:
                col = s.locator(".round").last.bounding_box()
                return col["x"] >= 0 and col["x"] + col["width"] <= width + 1

            wait_until(in_view, 5, "the last round scrolled into view")
    if size == "phone":
        assert page.locator("#br-winners .rounds-wrap[data-more]").count() == 1
        shot(page, "fans-cue-phone-en")
    assert not guard.errors
    page.context.close()


def selected_tabs_whole(page: Any) -> None:
    """Each bracket's selected round tab is whole in its (scrolled) tab bar."""
    for bar in page.locator("[role='tablist']").all():
        sel = bar.locator("[aria-selected='true']").bounding_box()
        box = bar.bounding_box()
        assert box["x"] - 1 <= sel["x"] and sel["x"] + sel["width"] <= box["x"] + box["width"] + 1, (sel, box)


def test_a_finished_256_player_bracket_on_a_phone(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    """At most 3,000 px tall, with round tabs; its render time printed (bench/bracket_render.py
    holds the target). Half played, it opens each bracket at the round being played, its tab in view."""
    drawn = draw_projection(hub_process.url, 256, "double_elimination", name="Two five six")
    midway = play_out(drawn, upto=470)  # the losers bracket at its round 6
    half, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{drawn['id']}", "phone", "zh", midway)
    bracket_ready(half)
    assert half.get_attribute("#br-losers [aria-selected='true']", "data-round") in ("L5", "L6")
    selected_tabs_whole(half)
    half.context.close()
    proj = play_out(drawn)
    assert proj["draw"]["status"] == "finished"
    for lang in ("en", "zh"):
        t0 = time.monotonic()
        page, _ = open_page(browser, guard, f"{hub_process.url}/bracket/{proj['id']}", "phone", lang, proj)
        bracket_ready(page)
        wall = time.monotonic() - t0
        height = page.evaluate("document.documentElement.scrollHeight")
        render_ms = int(page.evaluate("document.body.dataset.renderMs"))
        print(
            f"\n256-player double elimination, finished, phone {lang}: {height} px tall, render {render_ms} ms, "
            f"page open to drawn {wall:.2f} s"
        )
        assert height <= 3000
        assert page.locator("#br-winners [role='tab']").count() == 8 + 2  # W1-W8, GF, GF2
        assert page.locator("#br-losers [role='tab']").count() == 14
        selected_tabs_whole(page)
        champion = next(p["name"] for p in proj["players"] if p["id"] == proj["draw"]["champion"])
        assert page.inner_text("#champion-name") == champion
        shot(page, f"fans-256-phone-{lang}")
        # a folded round opens from its tab
        page.locator("#br-winners [role='tab'][data-round='W1']").click()
        page.wait_for_selector(
            "#br-winners .round[data-round='W1']:not(.folded) .bm[data-key='W1-128']", state="attached"
        )
        page.context.close()
    assert not guard.errors


# ------------------------------------------------------------------------------ the board
@pytest.mark.parametrize(("size", "lang"), [("tv", "en"), ("phone", "zh"), ("tablet", "en")])
def test_board_announces_every_new_call(
    watch_gateway: Hub, browser: Any, guard: PageWatch, size: str, lang: str
) -> None:
    hub_process = watch_gateway
    ev = Event(hub_process, [{"name": n, "seed": i + 1} for i, n in enumerate(NAMES)], tables=2, name="Hall")
    ev.draw("single_elimination", seeding="seeded", match=CLOCKED)
    page, _ = open_page(browser, guard, f"{hub_process.url}/board/{ev.tid}", size, lang, clock=True)
    page.wait_for_selector("body[data-conn='live'] .cell .pl-row")
    # the calls already on the tables when the board opens are not news
    assert page.locator("#call-announce.on").count() == 0
    region = page.locator("#call-announce")
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    first = ev.called()[0]
    ev.win(first, first["players"][0])
    page.wait_for_selector("#call-announce.on .ca-card", timeout=5000)
    new = next(m for m in ev.called() if m["key"] != first["key"] and m["table_id"] == first["table_id"])
    names = {p["id"]: p["name"] for p in ev.players}
    text = region.inner_text()
    assert all(names[p] in text for p in new["players"]) and "Table" in text
    assert page.locator(".ca-label").text_content() == ("Now called" if lang == "en" else "叫号")
    size_px = page.locator(".ca-table").evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
    assert size_px >= (60 if size == "tv" else 26)
    shot(page, f"fans-board-call-{size}-{lang}")
    page.clock.run_for(9000)  # a few seconds, then the tables again
    page.wait_for_selector("#call-announce:not(.on)", state="attached")
    # the phone: a list (one column, whole names), not the TV grid
    cells = page.locator(".cell").evaluate_all(
        "ns => ns.map(n => n.getBoundingClientRect()).map(r => [r.x, r.y, r.width])"
    )
    if size == "phone":
        assert len({round(x) for x, _, _ in cells}) == 1 and cells[1][1] > cells[0][1]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        cut = page.locator(".pl-row .name").evaluate_all(
            "ns => ns.filter(n => n.scrollWidth > n.clientWidth + 1).length"
        )
        assert cut == 0
        labels = page.locator(".pl-labels").first.evaluate("n => n.getBoundingClientRect().height")
        assert labels < 20  # one line, not wrapped
    elif size == "tv":
        assert len({round(y) for _, y, _ in cells}) == 1  # side by side
    # every big number has its label: the scores and the shot clock once it runs
    ev.start(new, new["players"][0])
    cell = page.locator(f".cell[data-table='{new['table_id']}']")
    cell.locator(".shotclock:not(.hidden)").wait_for(timeout=5000)
    assert cell.locator(".clock-label").inner_text().lower() == ("shot clock" if lang == "en" else "计时")
    assert cell.locator(".pl-labels").inner_text().strip()
    shot(page, f"fans-board-{size}-{lang}")
    assert not guard.errors
    page.context.close()


def test_player_through_to_the_second_stage(
    hub_process: Hub, browser: Any, guard: PageWatch, shapes: dict[str, Any]
) -> None:
    """A player who went through the first stage is told so while the knockout waits for its draw."""
    proj = two_stage(play_out(shapes["de16"]))
    by_key = {m["key"]: m for m in proj["draw"]["matches"]}
    through = [by_key["W3-1"]["winner"], by_key["W3-2"]["winner"], by_key["L4-1"]["winner"], by_key["L4-2"]["winner"]]
    proj["draw"]["stages"][0].update(status="finished", advanced=through)
    for lang, text in (("en", "Through to stage 2: waiting for its draw"), ("zh", "晋级第2阶段：等待对阵")):
        page, _ = open_page(browser, guard, f"{hub_process.url}/player/{proj['id']}/{through[0]}", "phone", lang, proj)
        page.wait_for_selector("#pl-next[data-state='waiting']")
        assert page.inner_text("#next-state") == text
        assert page.locator("#pl-list .pl-m").count() == 3  # W1, W2, W3 of the first stage
        page.context.close()
    assert not guard.errors
