"""Names put into sentences on the referee's, the commentator's, the overlay's and the desk's pages
are isolated (a <bdi>, or an element whose computed unicode-bidi is isolate), in a real Chromium:
a right-to-left name (Arabic) or a mixed Chinese and Latin one never reorders the words and
numbers around it. Each check reads the DOM (where the name sits) and the layout (the text before
the name is drawn on its left, the text after it on its right)."""

from __future__ import annotations

import uuid
from typing import Any

from .conftest import ADMIN_TOKEN, ARTIFACTS, Hub, PageWatch, shot
from .tablet_helpers import TABLET, command, new_match, open_tablet, start

RTL = "سامي"
MIXED = "杨帆 Yang Fan"
TABLE = "طاولة 7"

# For every text node of the elements `sel` holding `name`: is it isolated (its nearest isolating
# ancestor holds just the name), and is the text before and after it (on the same line) drawn on
# its left and its right?
PLACES = """([sel, name]) => {
  const out = [];
  const isolating = (e) => e.tagName === "BDI"
    || ["isolate", "isolate-override", "plaintext"].includes(getComputedStyle(e).unicodeBidi);
  const rectOf = (node, i) => {
    const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
  for (const box of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
    for (const tn of texts.filter((x) => x.textContent.includes(name))) {
      let iso = null;
      for (let e = tn.parentElement; e && !iso; e = e === box ? null : e.parentElement) if (isolating(e)) iso = e;
      const res = { text: box.textContent, isolated: !!iso && iso.textContent.trim() === name,
                    before: null, after: null };
      if (res.isolated) {
        const r = iso.getBoundingClientRect();
        const line = (c) => c.height > 0 && Math.abs((c.top + c.bottom) / 2 - (r.top + r.bottom) / 2) < r.height / 2;
        const outside = texts.filter((x) => !iso.contains(x) && x.textContent.trim());
        const prev = outside.filter((x) => x.compareDocumentPosition(iso) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
        const next = outside.find((x) => x.compareDocumentPosition(iso) & Node.DOCUMENT_POSITION_PRECEDING);
        if (prev) {
          const c = rectOf(prev, prev.textContent.trimEnd().length - 1);
          if (line(c)) res.before = c.right <= r.left + 1;
        }
        if (next) {
          const c = rectOf(next, next.textContent.length - next.textContent.trimStart().length);
          if (line(c)) res.after = c.left >= r.right - 1;
        }
      }
      out.push(res);
    }
  }
  return out;
}"""


def places(page: Any, sel: str, name: str) -> list[dict[str, Any]]:
    return page.evaluate(PLACES, [sel, name])


def isolated_in(page: Any, sel: str, name: str, *, around: bool = False) -> None:
    """`name` is in `sel`, isolated everywhere; with `around`, text on its line on both sides of it,
    each in its place."""
    found = places(page, sel, name)
    assert found, f"{name!r} not in {sel}: {page.locator(sel).all_inner_texts()}"
    assert all(f["isolated"] and f["before"] is not False and f["after"] is not False for f in found), (sel, found)
    if around:
        assert any(f["before"] and f["after"] for f in found), (sel, found)


def test_tablet_commentator_and_overlay_isolate_names(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    tour = f"كأس Open {uuid.uuid4().hex[:4]}"
    t = new_match(hub_process, players=[("a", RTL), ("b", MIXED)], table_name=TABLE, tournament=tour)
    ctx = browser.new_context(locale="en-US", viewport=TABLET)
    try:
        tab = open_tablet(ctx, guard, hub_process, t)
        tab.wait_for_selector("#start:not(.hidden)")
        isolated_in(tab, "#table-name", TABLE)
        isolated_in(tab, "#table-name", tour)
        isolated_in(tab, "#start [data-breaker='a']", RTL)  # "سامي breaks"
        isolated_in(tab, "#start [data-lag='b']", MIXED)
        start(tab, "a")
        isolated_in(tab, "#stroke-title", RTL)  # "Stroke by سامي"
        isolated_in(tab, "#log .what", RTL, around=True)  # "Start: سامي breaks"
        tab.reload()  # the log is kept on the tablet, with the names each line was written with
        tab.wait_for_selector("body[data-conn='live'] #stroke:not(.hidden)")
        isolated_in(tab, "#log .what", RTL, around=True)
        command(
            hub_process, t, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [3], "break_crossings": 3}
        )
        command(
            hub_process, t, {"kind": "shot", "player": "a", "first_contact": None, "pocketed": []}
        )  # no hit: a foul
        tab.wait_for_selector("body[data-version='3']")
        isolated_in(tab, "#verdict-next", MIXED, around=False)  # "杨帆 Yang Fan to play · Ball in hand"
        assert tab.inner_text("#verdict-next").startswith(f"{MIXED} to play")
        isolated_in(tab, "#stroke-title", MIXED)
        isolated_in(tab, "#last", RTL)  # "Shot · سامي — Foul: …"
        # the referee's question names the player, isolated
        tab.select_option("#act-player", "a")
        tab.click("#act-penalty-btn")
        isolated_in(tab, "#modal-text", RTL, around=True)  # "Intentional foul against سامي?"
        shot(tab, "names-tablet-en")
        tab.click("#modal-cancel")

        com = guard.attach(ctx.new_page())
        com.goto(f"{hub_process.url}/commentator/{t['match_id']}")
        com.wait_for_selector("#strokes li[data-version='3']")
        com.wait_for_function("t => document.querySelector('#meta').textContent.includes(t)", arg=TABLE)
        isolated_in(com, "#meta", TABLE, around=True)  # "Chinese nine-ball · 9 racks · طاولة 7 · كأس Open …"
        isolated_in(com, "#meta", tour)
        isolated_in(com, "#strokes .who", RTL)
        isolated_in(com, "#stats th", MIXED)

        ov = guard.attach(ctx.new_page())
        ov.set_viewport_size({"width": 1280, "height": 720})
        ov.goto(f"{hub_process.url}/overlay/{t['table_id']}?title=auto")
        ov.wait_for_function(
            "t => ((document.querySelector('#bug-title') || {}).textContent || '').includes(t)", arg=TABLE
        )
        isolated_in(ov, "#bug .row[data-player='a']", RTL)
        isolated_in(ov, "#bug-title", TABLE)
        isolated_in(ov, "#bug-title", tour, around=False)
        assert ov.inner_text("#bug-title") == f"{tour} · {TABLE}"

        command(hub_process, t, {"kind": "concede", "player": "b", "scope": "rack"})  # a rack in the history
        command(
            hub_process, t, {"kind": "shot", "player": "a", "first_contact": None, "pocketed": []}
        )  # a's break: a foul
        command(hub_process, t, {"kind": "concede", "player": "b", "scope": "match"})
        tab.wait_for_selector("#over:not(.hidden)")
        isolated_in(tab, "#over-result", RTL, around=False)  # "سامي wins the match"
        assert tab.inner_text("#over-result").startswith(f"{RTL} wins")
        com.wait_for_selector("#result")
        isolated_in(com, "#result", RTL)
        isolated_in(com, "#history td", RTL)
        # the winner's star after the name, outside its isolation (inside, it would go to the
        # right-to-left name's left)
        ov.wait_for_selector("#bug .row.winner .nm-mark")
        star = ov.eval_on_selector(
            "#bug .row.winner",
            """r => {
            const n = r.querySelector('bdi.name').getBoundingClientRect(), m = r.querySelector('.nm-mark');
            return [m.closest('bdi') === null, m.getBoundingClientRect().left - n.right]; }""",
        )
        assert star[0] and -1 <= star[1] <= 20, star
        shot(tab, "names-tablet-over-en")
        shot(com, "names-commentator-en")
        ov.screenshot(path=str(ARTIFACTS / "names-overlay-en.png"), omit_background=True)

        # In Chinese: "轮到 杨帆 Yang Fan 击球" keeps the name isolated between the Chinese words.
        tab.click("#lang-switch")
        isolated_in(tab, "#over-result", RTL)
        assert tab.inner_text("#over-result").startswith(f"{RTL} 赢得比赛")
        shot(tab, "names-tablet-over-zh")
    finally:
        ctx.close()
    assert not guard.errors and not guard.dialogs


def test_the_desk_isolates_names_in_what_it_says(hub_process: Hub, browser: Any, guard: PageWatch) -> None:
    """A result entered by hand is said as "W1-1: سامي 2 : 杨帆 Yang Fan 1": each score stays on
    its player's right (unisolated, the 2 would jump to the left of the Arabic name)."""
    tid = hub_process.admin_post("/api/tournaments", {"name": f"Desk {uuid.uuid4().hex[:4]}"})["id"]
    tb = hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": TABLE})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players", {"players": [{"name": RTL, "seed": 1}, {"name": MIXED, "seed": 2}]}
    )
    hub_process.admin_post(
        f"/api/tournaments/{tid}/draw",
        {
            "type": "single_elimination",
            "seeding": "seeded",
            "match": {"discipline": "wpa_nine", "format": {"race_to": 2}},
        },
    )
    ids = {p["name"]: p["id"] for p in hub_process.get(f"/api/tournaments/{tid}/players")["players"]}
    ctx = browser.new_context(locale="en-US", viewport=TABLET)
    try:
        desk = guard.attach(ctx.new_page())
        desk.goto(f"{hub_process.url}/desk")
        desk.fill("#signin-token", ADMIN_TOKEN)
        desk.click("#signin-submit")
        desk.wait_for_selector("#new-tournament")
        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        card = f".run-table[data-table='{tb['id']}']"
        desk.wait_for_selector(f"{card} .rt-match")
        isolated_in(desk, f"{card} .rt-name", TABLE)
        isolated_in(desk, ".entry[data-key='W1-1'] .e-result", TABLE)  # "on طاولة 7"
        desk.click(f"{card} [data-action=result]")
        form = f"{card} form.result-form"
        desk.fill(f"{form} .res-score[data-player='{ids[RTL]}']", "2")
        desk.fill(f"{form} .res-score[data-player='{ids[MIXED]}']", "1")
        desk.click(f"{form} [data-action=result-go]")
        desk.wait_for_selector("#run-message.ok")
        isolated_in(desk, "#run-message", RTL, around=True)
        isolated_in(desk, "#run-message", MIXED, around=True)
        desk.wait_for_selector("#run-champion")
        isolated_in(desk, "#run-champion", RTL)
        shot(desk, "names-desk-en")
    finally:
        ctx.close()
    assert not guard.errors and not guard.dialogs
