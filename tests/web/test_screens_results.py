"""How a match ended, said right on every screen (issue 29), in a real Chromium against `cuehub serve`:
a player withdrawn mid-match "withdrew" on the tablet, the desk, the bracket and the export (never
"wins · penalty" or a bare "0 : 0"), and the desk's Reinstate offers to reopen the forfeited match; a
result the desk decided is undone only at the desk (the tablet says so, in both languages); the
tablet names the round ("Final") and says when the event is over; watch, overlay and commentator
name a round as the bracket does ("Winners round 1", not "Round W1"); a scratch asks no rail."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import PageWatch, shot
from .test_corrections import admin, entries, event, nine_on_the_break, open_tablet, table_command, token_of
from .test_desk import ServedHub, open_desk

LOCALES = {"en": "en-US", "zh": "zh-CN"}
WORDS = {
    "en": {"withdrew": "withdrew", "penalty": "penalty", "desk_only": "only the desk can undo it", "final": "Final",
           "over": "last match of the event", "w1": "Winners round 1", "lost": "stays lost"},
    "zh": {"withdrew": "退赛", "penalty": "处罚", "desk_only": "只能在记分台撤销", "final": "决赛",
           "over": "最后一场比赛", "w1": "胜者组第1轮", "lost": "仍算输"},
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub_process = ServedHub(tmp_path_factory.mktemp("results")).start()
    try:
        yield hub_process
    finally:
        hub_process.stop()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_withdrawal_mid_match_is_said_everywhere_and_reinstating_offers_the_reopen(
        served: ServedHub, browser: Any, lang: str) -> None:
    hub_process, words = served, WORDS[lang]
    ev = event(hub_process, 4, 2, name="Withdrawals")
    tid = ev["tid"]
    w11 = entries(hub_process, tid)["W1-1"]
    a, quitter = w11["players"]
    names = {p["id"]: p["name"] for p in hub_process.get(f"/api/tournaments/{tid}/players")["players"]}
    guard = PageWatch()
    screens = browser.new_context(locale=LOCALES[lang])
    desk_ctx, desk = open_desk(browser, hub_process, "laptop", LOCALES[lang])
    guard.attach(desk)
    try:
        tab = open_tablet(screens, guard, hub_process, {"id": w11["table_id"], "token": token_of(ev, w11["table_id"])})
        bracket = guard.attach(screens.new_page())
        bracket.goto(f"{hub_process.url}/bracket/{tid}")
        bracket.wait_for_selector("#m-W1-1")
        token = token_of(ev, w11["table_id"])
        table_command(hub_process, token, w11["match_id"], {"kind": "start", "breaker": a})
        nine_on_the_break(hub_process, token, w11["match_id"], a)  # 1 : 0, then the player leaves the event
        tab.wait_for_selector("#stroke:not(.hidden)")
        hub_process.admin_post(f"/api/tournaments/{tid}/players/{quitter}/withdraw")

        # the tablet: the match is over because the player withdrew; its Undo is the desk's
        tab.wait_for_selector("#over:not(.hidden) #over-desk-only")
        said = tab.inner_text("#over-result")
        assert f"{names[quitter]} {words['withdrew']}" in said and words["penalty"] not in said, said
        assert not tab.is_enabled("#over-undo") and words["desk_only"] in tab.inner_text("#over-desk-only")
        assert words["withdrew"] in tab.inner_text("#verdict")
        shot(tab, f"results-withdrawal-tablet-{lang}")
        # the bracket and the desk
        bracket.locator("#m-W1-1 .bm-state").filter(has_text=words["withdrew"]).wait_for()
        assert names[quitter] in bracket.inner_text("#m-W1-1 .bm-state")
        desk.goto(f"{hub_process.url}/desk/{tid}/run")
        result = "#run-rounds .entry[data-key='W1-1'] .e-result"
        desk.locator(result).filter(has_text=words["withdrew"]).wait_for()
        assert names[quitter] in desk.inner_text(result) and names[a] in desk.inner_text(result)
        card = f".run-table[data-table='{w11['table_id']}'] .rt-withdrew"
        assert names[quitter] in desk.inner_text(card) and words["withdrew"] in desk.inner_text(card)
        # reopening it while the player is withdrawn would only forfeit it again: reinstating offers it
        assert desk.locator("#run-rounds .entry[data-key='W1-1'] [data-action=reopen]").count() == 0
        shot(desk, f"results-withdrawal-desk-{lang}")
        # the export
        csv = httpx.get(f"{hub_process.url}/api/tournaments/{tid}/results.csv", timeout=10).text
        row = next(line for line in csv.splitlines() if line.startswith("W1-1,"))
        assert row.endswith(f",{names[quitter]}"), row

        # Reinstate says the forfeited match stays lost, then offers to reopen it: it plays on.
        desk.click("[data-step=players]")
        player = f".player-row[data-player='{quitter}']"
        desk.click(f"{player}.status-withdrawn [data-action=reinstate]")
        question = desk.inner_text("#modal-text")
        assert "W1-1" in question and words["lost"] in question, question
        desk.click("#modal-confirm")
        reopen = "#players-message [data-action=reopen-forfeited][data-key='W1-1']"
        desk.wait_for_selector(reopen)
        # reinstating alone: still lost
        assert hub_process.get(f"/api/matches/{w11['match_id']}")["status"] == "finished"
        shot(desk, f"results-reinstate-offers-reopen-{lang}")
        desk.click(reopen)
        tab.wait_for_selector("#stroke:not(.hidden)")
        back = hub_process.get(f"/api/matches/{w11['match_id']}")
        assert back["status"] == "live" and [p["score"] for p in back["players"]] == [1, 0]
    finally:
        desk_ctx.close()
        screens.close()
    assert guard.errors == [], guard.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tablet_names_the_final_refuses_the_desks_result_and_says_the_event_is_over(
    served: ServedHub, browser: Any, lang: str
) -> None:
    hub_process, words = served, WORDS[lang]
    ev = event(hub_process, 2, 1, name="Final night")
    tid = ev["tid"]
    final = entries(hub_process, tid)["W1-1"]  # two players: their one match is the final
    a, b = final["players"]
    guard = PageWatch()
    ctx = browser.new_context(locale=LOCALES[lang])
    try:
        tab = open_tablet(ctx, guard, hub_process, {"id": final["table_id"], "token": token_of(ev, final["table_id"])})
        tab.locator("#round-name").filter(has_text=f"{words['final']} · W1-1").wait_for()
        token = token_of(ev, final["table_id"])
        table_command(hub_process, token, final["match_id"], {"kind": "start", "breaker": a})
        tab.wait_for_selector("#stroke:not(.hidden)")
        r = admin(
            hub_process,
            "POST",
            f"/api/matches/{final['match_id']}/result",
            {"winner": b, "score": {a: 0, b: 2}, "reason": "players reported"},
        )
        assert r.status_code == 200, r.text
        tab.wait_for_selector("#over:not(.hidden) #over-desk-only")
        assert tab.inner_text("#over-round") == f"{words['final']} · W1-1"
        assert not tab.is_enabled("#over-undo") and words["desk_only"] in tab.inner_text("#over-desk-only")
        # the result was the event's last: said, not "no next match called yet"
        tab.locator("#over-next").filter(has_text=words["over"]).wait_for(timeout=15000)
        shot(tab, f"results-tablet-final-over-{lang}")
        tab.click("#next-match")
        tab.locator("#no-match").filter(has_text=words["over"]).wait_for()
        # the undo the tablet would have sent is refused by the hub too, and the match stays finished
        mid = final["match_id"]
        r = httpx.post(
            f"{hub_process.url}/api/matches/{mid}/commands",
            headers={"Authorization": f"Bearer {token}"},
            json={"id": uuid.uuid4().hex, "match_id": mid, "command": {"kind": "undo"}},
            timeout=10,
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_allowed"
        assert hub_process.get(f"/api/matches/{final['match_id']}")["status"] == "finished"
    finally:
        ctx.close()
    assert guard.errors == [], guard.errors


def test_a_scratch_asks_no_rail(served: ServedHub, browser: Any) -> None:
    hub_process = served
    ev = event(hub_process, 2, 1, name="Scratch")
    m = entries(hub_process, ev["tid"])["W1-1"]
    a, b = m["players"]
    token = token_of(ev, m["table_id"])
    table_command(hub_process, token, m["match_id"], {"kind": "start", "breaker": a})
    table_command(
        hub_process, token, m["match_id"], {"kind": "shot", "player": a, "first_contact": 1, "break_rails": 4}
    )
    guard = PageWatch()
    ctx = browser.new_context(locale="en-US")
    try:
        tab = open_tablet(ctx, guard, hub_process, {"id": m["table_id"], "token": token})
        tab.wait_for_selector("#stroke:not(.hidden) #rail-question.open")  # nothing pocketed: the rail is asked
        tab.click("#cue-ball [data-cue='pocketed']")
        assert tab.locator("#rail-question.hidden").count() == 1  # a scratch is a foul whatever the rail
        tab.click("#enter-stroke")
        tab.locator("#verdict").filter(has_text="scratch").wait_for()
        assert "no rail" not in tab.inner_text("#verdict")
        last = hub_process.get(f"/api/matches/{m['match_id']}")["last"]
        assert last["fouls"] == ["scratch"], last
    finally:
        ctx.close()
    assert guard.errors == [], guard.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_watch_overlay_and_commentator_name_the_round_as_the_bracket(
    served: ServedHub, browser: Any, lang: str
) -> None:
    hub_process, words = served, WORDS[lang]
    tid = hub_process.admin_post("/api/tournaments", {"name": f"Rounds {lang}"})["id"]
    table = hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 1"})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players", {"players": [{"name": f"P{i}", "seed": i} for i in range(1, 17)]}
    )
    # a double elimination played down to four, then a knockout: its rounds are "Winners round n"
    wpa = {"discipline": "wpa_nine", "format": {"race_to": 2}}
    hub_process.admin_post(
        f"/api/tournaments/{tid}/draw",
        {
            "type": "double_elimination",
            "seeding": "seeded",
            "match": wpa,
            "then": {"type": "single_elimination", "advance": 4, "match": wpa},
        },
    )
    m = next(x for x in entries(hub_process, tid).values() if x["status"] == "called")
    want = f"{words['w1']} · {m['key']}"
    guard = PageWatch()
    ctx = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 800})
    try:
        for url, sel in (
            (f"/watch/{m['match_id']}", "#meta"),
            (f"/commentator/{m['match_id']}", "#meta"),
            (f"/overlay/{table['id']}?title=auto", "#bug"),
        ):
            page = guard.attach(ctx.new_page())
            page.goto(hub_process.url + url)
            page.locator(sel).filter(has_text=want).wait_for()
            assert f"Round {m['round']}" not in page.inner_text(sel)
            shot(page, f"results-round-name-{url.split('/')[1]}-{lang}")
            page.close()
    finally:
        ctx.close()
    assert guard.errors == [], guard.errors
