"""Offline for minutes, nothing lost or refused, in a real headless Chromium against the
real hub: Playwright's offline mode (a link that goes dead without closing) and a hub killed with
SIGKILL. The tablet keeps entries in order, names no player when it cannot know the turn, loads
from its service worker after a reload with no network, and no time foul is stored while the hub
cannot hear the tablet."""

from __future__ import annotations

from typing import Any

from tests.services import wait_until

from .conftest import Hub, PageWatch, shot
from .tablet_helpers import (
    command,
    events,
    kinds,
    new_match,
    no_reject,
    open_tablet,
    start,
    version,
)

LONG_CLOCK = {"shot_clock": {"shot_s": 60, "break_s": 60, "extension_s": 30}}


def go_offline(context: Any, page: Any) -> None:
    context.set_offline(True)
    page.wait_for_selector("body[data-conn='offline']", timeout=8000)


def go_online(context: Any, page: Any) -> None:
    context.set_offline(False)
    page.wait_for_selector("body[data-conn='live']", timeout=15000)


def queued(page: Any, table_id: str) -> list[dict[str, Any]]:
    return page.evaluate(f"JSON.parse(localStorage.getItem('cuehub.queue.{table_id}') || '[]')")


def test_four_strokes_across_two_turn_changes_entered_offline(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, options=LONG_CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    page.click("#break-counts [data-count='4']")
    page.click("#pk-grid [data-ball='3']")
    page.click("#enter-stroke")
    version(page, 2)  # a broke legally and shoots on

    go_offline(context, page)
    page.wait_for_selector("#link-banner:not(.hidden)")
    # 1. a pots the 1 and stays at the table.
    page.click("#pk-grid [data-ball='1']")
    page.click("#enter-stroke")
    page.wait_for_selector("#stroke-title:text('the player at the table')")
    note = page.locator("#stroke-ask").inner_text()
    assert "cannot be known offline" in note and "Zheng Yubo" in note, note
    # 2. a plays a safety: a ball reached a rail; the turn goes to b.
    page.click("#flag-rail")
    page.click("#enter-stroke")
    # 3. b pots the 2 (the tablet preselects the lowest ball it has not seen go down).
    page.wait_for_selector("#fc-grid .ballbtn.on[data-ball='2']")
    assert page.locator("#fc-grid .ballbtn.on").count() == 1
    page.click("#pk-grid [data-ball='2']")
    page.click("#enter-stroke")
    # 4. b hits the 4 and no ball reaches a rail: a foul, the turn goes back to a.
    page.wait_for_timeout(1100)
    page.click("#enter-stroke")
    page.wait_for_selector("#stroke-ask.ask")
    page.click("#flag-no-rail")
    page.wait_for_selector("#queue-count:text('4 unsent')")
    q = queued(page, t["table_id"])
    assert [e["command"]["kind"] for e in q] == ["shot"] * 4
    assert all("player" not in e["command"] for e in q), q  # the hub decides whose turn it is
    assert all(isinstance(e["command"]["entered_at"], int) for e in q)
    assert kinds(hub_process, t["match_id"]) == ["start", "shot"]  # nothing reached the hub
    shot(page, "screens-tablet-offline-four")

    go_online(context, page)
    wait_until(lambda: len(events(hub_process, t["match_id"])) >= 6, 15, "the four strokes")
    page.wait_for_selector("#queue-count.hidden", state="attached", timeout=10000)
    evs = [e for e in events(hub_process, t["match_id"]) if e["kind"] == "shot"][1:]
    assert [e["command_id"] for e in evs] == [e["id"] for e in q]  # in the order entered
    assert [e["data"]["player"] for e in evs] == ["a", "a", "b", "b"]
    assert [e["data"]["pocketed"] for e in evs] == [[1], [], [2], []]
    m = hub_process.get(f"/api/matches/{t['match_id']}")
    assert m["rack"]["shooter"] == "a" and m["rack"]["ball_in_hand"] == "anywhere"
    assert [p["score"] for p in m["players"]] == [1, 0]  # golden_nine: the foul point to a
    assert "no_link" not in str(m)
    no_reject(page)
    assert page.locator("#log li .status:text('Accepted')").count() >= 5
    assert guard.dialogs == [] and guard.errors == []


def test_a_choice_left_open_offline_is_answered_before_the_strokes_after_it(
    hub_process: Hub, context: Any, guard: PageWatch
) -> None:
    t = new_match(hub_process, options=LONG_CLOCK)
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    version(page, 1)
    go_offline(context, page)
    # A break with two crossings: a loss of chance, so b has a choice the tablet cannot know of.
    page.click("#break-counts [data-count='2']")
    page.click("#enter-stroke")
    # b then plays (b chose "play" at the table): a safety with a rail.
    page.wait_for_selector("#stroke-title:text('the player at the table')")
    page.click("#flag-rail")
    page.click("#enter-stroke")
    page.wait_for_selector("#queue-count:text('2 unsent')")
    go_online(context, page)
    # The break is stored; the hub asks b's choice; the stroke waits for it, and says so.
    page.wait_for_selector("#pending:not(.hidden)", timeout=10000)
    page.wait_for_selector("#pending-waiting")
    assert "wait for the choice" in page.locator("#pending-waiting").inner_text()
    assert kinds(hub_process, t["match_id"]) == ["start", "shot"]
    page.click("#pending [data-choice='play']")
    wait_until(
        lambda: kinds(hub_process, t["match_id"]) == ["start", "shot", "decision", "shot"], 10, "decision then stroke"
    )
    last = events(hub_process, t["match_id"])[-1]
    assert last["data"]["player"] == "b" and last["data"]["rail"] is True
    page.wait_for_selector("#queue-count.hidden", state="attached")
    no_reject(page)


def test_a_reload_with_no_network_shows_the_tablet(hub_process: Hub, context: Any, guard: PageWatch) -> None:
    t = new_match(hub_process, options=LONG_CLOCK, table_name="Table 9")
    page = open_tablet(context, guard, hub_process, t)
    start(page)
    version(page, 1)
    # Polled from here: wait_for_function's polling evaluates its predicate with eval, which the
    # page's CSP (script-src 'self') refuses whenever the first look finds no controller yet.
    wait_until(lambda: page.evaluate("navigator.serviceWorker.controller !== null"), 10, "the service worker")
    # Every script and stylesheet the tablet loaded is in its service worker's cache (sw.js ASSETS).
    missing = page.evaluate("""async () => {
        const loaded = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
            .filter((p) => p.startsWith('/static/'));
        const cached = new Set();
        for (const name of await caches.keys()) {
            for (const r of await (await caches.open(name)).keys()) cached.add(new URL(r.url).pathname);
        }
        return [...new Set(loaded)].filter((p) => !cached.has(p));
    }""")
    assert missing == []
    hub_process.stop()  # SIGKILL: nothing answers at all
    try:
        context.set_offline(True)
        page.reload()
        # The app shell comes from the tablet's own cache: the tablet, not the browser's error page.
        page.wait_for_selector("#stroke:not(.hidden)", timeout=15000)
        assert "Table 9" in page.locator("#table-name").inner_text()
        assert page.locator("#start.hidden").count() == 1
        assert "Zheng Yubo" in page.locator("#stroke-title").inner_text()
        page.wait_for_selector("body[data-conn='offline']", timeout=10000)
        assert page.locator("#log li").count() >= 1  # the log was kept too
        # A stroke entered now waits on the tablet.
        page.click("#break-counts [data-count='4']")
        page.click("#pk-grid [data-ball='5']")
        page.click("#enter-stroke")
        page.wait_for_selector("#queue-count:text('1 unsent')")
        shot(page, "screens-tablet-reloaded-offline")
    finally:
        context.set_offline(False)
        hub_process.start()
    wait_until(lambda: kinds(hub_process, t["match_id"])[-1:] == ["shot"], 20, "the stroke entered offline")
    assert events(hub_process, t["match_id"])[-1]["data"]["pocketed"] == [5]
    no_reject(page)


def test_a_three_second_clock_and_the_tablet_cut_off_for_ten_seconds(
    hub_process: Hub, context: Any, guard: PageWatch
) -> None:
    t = new_match(hub_process, options={"shot_clock": {"shot_s": 3, "break_s": 3, "first_shot_s": 3}})
    page = open_tablet(context, guard, hub_process, t)
    page.wait_for_selector("#start:not(.hidden)")
    page.click("#start [data-breaker='a']")
    version(page, 1)
    context.set_offline(True)
    page.wait_for_timeout(10_000)
    # The hub could not hear the tablet: no time foul, the clock paused as of then, and shown.
    ks = kinds(hub_process, t["match_id"])
    assert "clock_expired" not in ks and "link_lost" in ks, ks
    m = hub_process.get(f"/api/matches/{t['match_id']}")
    assert m["clock"]["shot"]["running"] is False and m["clock"]["shot"]["reason"] == "link"
    assert 0 < m["clock"]["shot"]["remaining_ms"] <= 3000
    assert m["link"]["lost"] is True
    assert "no link" in page.locator("#clock-note").inner_text()
    shot(page, "screens-tablet-cut-off")
    go_online(context, page)
    # Back: the clock runs again with what was left; the stroke entered now is accepted.
    page.click("#break-counts [data-count='4']")
    page.click("#pk-grid [data-ball='2']")
    page.click("#enter-stroke")
    wait_until(lambda: "shot" in kinds(hub_process, t["match_id"]), 10, "the stroke")
    ks = kinds(hub_process, t["match_id"])
    assert ks[: ks.index("shot")] == ["start", "link_lost", "link_restored"], ks
    shot_ev = events(hub_process, t["match_id"])[ks.index("shot")]
    assert shot_ev["data"]["player"] == "a" and not shot_ev["voided"]
    command(hub_process, t, {"kind": "pause"})  # the next 3 s turn is not this test's business
    no_reject(page)


def test_a_hub_killed_for_longer_than_the_clock_stores_no_time_foul(
    hub_process: Hub, context: Any, guard: PageWatch
) -> None:
    t = new_match(hub_process, options={"shot_clock": {"shot_s": 3, "break_s": 3, "first_shot_s": 3}})
    page = open_tablet(context, guard, hub_process, t)
    page.wait_for_selector("#start:not(.hidden)")
    page.wait_for_timeout(1200)  # the tablet has been heard (and written down) by the hub
    page.click("#start [data-breaker='a']")
    version(page, 1)
    hub_process.stop()  # SIGKILL
    try:
        page.wait_for_selector("body[data-conn='offline']", timeout=8000)
        # The referee enters the break before time runs out at the table...
        page.click("#break-counts [data-count='5']")
        page.click("#pk-grid [data-ball='4']")
        page.click("#enter-stroke")
        page.wait_for_selector("#queue-count:text('1 unsent')")
        page.wait_for_timeout(4000)  # ... and the hub stays down past the deadline.
    finally:
        hub_process.start()
    wait_until(lambda: "shot" in kinds(hub_process, t["match_id"]), 20, "the stroke")
    evs = events(hub_process, t["match_id"])
    stroke = next(e for e in evs if e["kind"] == "shot")
    assert stroke["data"]["player"] == "a" and stroke["data"]["pocketed"] == [4] and not stroke["voided"]
    before = evs[: evs.index(stroke)]
    assert not [e for e in before if e["kind"] == "clock_expired" and not e["voided"]], evs
    command(hub_process, t, {"kind": "pause"})
    no_reject(page)
