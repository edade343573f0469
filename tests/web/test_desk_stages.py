"""The desk sets up a two-stage event (PROTOCOL.md section 11) in a real headless Chromium against a
real `cuehub serve`: round-robin groups then a knockout with its own race and a longer final, and
a double elimination to the last 4 with a shorter race in the losers bracket; the draw the hub
makes has both stages and each round's format; the run view names the knockout's rounds.
Screenshots in English and Chinese."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PageWatch, shot
from .test_desk import ServedHub, new_context, no_sideways_scroll, sign_in


@pytest.fixture(scope="module")
def stage_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub_process = ServedHub(tmp_path_factory.mktemp("deskstages")).start()
    try:
        yield hub_process
    finally:
        hub_process.stop()


def _event(hub_process: ServedHub, name: str, players: int, tables: int = 2) -> str:
    tid = hub_process.admin_post("/api/tournaments", {"name": name})["id"]
    for i in range(tables):
        hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"T{i + 1}"})
    hub_process.admin_post(
        f"/api/tournaments/{tid}/players", {"players": [{"name": f"P{i}"} for i in range(1, players + 1)]}
    )
    return tid


def _signed_in(browser: Any, hub_process: ServedHub, locale: str) -> tuple[Any, Any, PageWatch]:
    ctx = new_context(browser, "laptop", locale)
    guard = PageWatch()
    page = guard.attach(ctx.new_page())
    sign_in(page, hub_process)
    return ctx, page, guard


def test_groups_then_a_knockout_through_the_desk(stage_hub: ServedHub, browser: Any) -> None:
    hub_process = stage_hub
    tid = _event(hub_process, "Groups and knockout", 8)
    ctx, page, guard = _signed_in(browser, hub_process, "en-US")
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/format")
        page.click("label[for=discipline-wpa_nine]")
        page.fill("#fmt-race-to", "2")
        page.click("[data-step=draw]")
        page.click("label[for=draw-type-round_robin]")
        page.fill("#draw-groups", "2")
        assert page.locator("#then-advance").count() == 0  # no next stage until asked for
        page.click("label[for=then-knockout]")
        page.fill("#then-advance", "2")
        page.fill("#then-length", "3")
        page.fill("#then-final", "4")
        page.click("label[for=draw-type-round_robin]")  # a repaint keeps what was typed
        assert page.input_value("#then-advance") == "2" and page.input_value("#then-final") == "4"
        assert "best 2 of each group" in page.inner_text("#draw-summary")
        assert page.inner_text("#draw-race-summary") == "Knockout: race to 3 · Final: race to 4"
        assert "A1 v B2" in page.inner_text("#then-help")
        no_sideways_scroll(page)
        shot(page, "desk-stages-groups-en")
        page.click("#start-draw")
        page.wait_for_selector("#run-standings")
        draw = hub_process.get(f"/api/tournaments/{tid}")["draw"]
        first, second = draw["stages"]
        assert (first["type"], first["groups"], second["type"], second["advance"]) == (
            "round_robin",
            2,
            "single_elimination",
            2,
        )
        assert [(r["round"], r["format"]["race_to"]) for r in second["rounds"]] == [("K1", 3), ("K2", 4)]
        assert {r["format"]["race_to"] for r in first["rounds"]} == {2}
        assert {m["key"] for m in draw["matches"] if m["stage"] == 2} == {"K1-1", "K1-2", "K2-1"}
        page.wait_for_selector("#run-rounds")
        assert page.inner_text("#run-then") == "Then a knockout of the best 2 of each group"
        rounds_text = page.inner_text("#run-rounds")
        assert "Knockout, round 1" in rounds_text and "Knockout final" in rounds_text
        assert rounds_text.index("Group B, round 1") < rounds_text.index("Knockout, round 1")  # stage by stage
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()


def test_a_double_elimination_to_the_last_four_in_chinese(stage_hub: ServedHub, browser: Any) -> None:
    hub_process = stage_hub
    tid = _event(hub_process, "双败 + 淘汰赛", 12)
    ctx, page, guard = _signed_in(browser, hub_process, "zh-CN")
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/draw")
        page.wait_for_selector("#start-draw")
        page.click("label[for=draw-type-double_elimination]")
        assert page.locator("#race-final").count() == 1  # the grand final's race, until a knockout replaces it
        page.click("label[for=then-knockout]")
        page.fill("#then-advance", "4")
        page.fill("#race-losers", "5")
        assert page.locator("#race-final").count() == 0
        assert "败者组" in page.inner_text("#draw-rounds-race")
        assert page.inner_text("#draw-race-summary") == "败者组：局数5"  # golden_nine: racks
        assert "下一阶段" in page.inner_text("#draw-then") and "最后 4 人" in page.inner_text("#draw-summary")
        shot(page, "desk-stages-double-zh")
        page.click("label[for=draw-type-single_elimination]")
        assert page.locator("#draw-then").count() == 0  # a single elimination takes no next stage
        page.click("label[for=draw-type-double_elimination]")
        page.fill("#then-advance", "6")  # not a power of two: the hub says so, nothing is drawn
        page.click("#start-draw")
        page.wait_for_selector("#draw-message.err")
        assert "bad_advance" in page.inner_text("#draw-message")
        assert hub_process.get(f"/api/tournaments/{tid}")["draw"] is None
        page.fill("#then-advance", "4")
        page.click("#start-draw")
        page.wait_for_url(f"**/desk/{tid}/run")
        draw = hub_process.get(f"/api/tournaments/{tid}")["draw"]
        assert [s["type"] for s in draw["stages"]] == ["double_elimination", "single_elimination"]
        assert draw["stages"][1]["advance"] == 4
        assert "GF" not in {m["key"] for m in draw["matches"]}
        assert draw["match"]["by_round"] == {"losers": {"format": {"racks": 5}}}
        races = {r["round"]: r["format"]["racks"] for r in draw["stages"][0]["rounds"]}
        assert races["L1"] == 5 and races["W1"] == 9
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_run_view_names_a_brackets_rounds_as_the_bracket_does(
    stage_hub: ServedHub, browser: Any, locale: str
) -> None:
    """Three players in a bracket of four: the first round is the semi-finals on the desk as on the
    bracket and the board (it was "Round 1" on the desk); a double elimination's rounds end in the
    winners', losers' and grand finals."""
    hub_process = stage_hub
    single = _event(hub_process, "Three", 3, tables=1)
    wpa = {"discipline": "wpa_nine", "format": {"race_to": 3}, "options": {}}
    hub_process.admin_post(f"/api/tournaments/{single}/draw", {"type": "single_elimination", "match": wpa})
    double = _event(hub_process, "Eight", 8, tables=1)
    hub_process.admin_post(f"/api/tournaments/{double}/draw", {"type": "double_elimination", "match": wpa})
    zh = locale == "zh-CN"
    ctx, page, guard = _signed_in(browser, hub_process, locale)
    try:
        page.goto(f"{hub_process.url}/desk/{single}/run")
        page.wait_for_selector("#run-rounds .round[data-round='W2'] h4")
        heads = page.locator("#run-rounds .round h4").all_inner_texts()
        assert heads == (["半决赛", "决赛"] if zh else ["Semi-finals", "Final"]), heads
        page.goto(f"{hub_process.url}/desk/{double}/run")
        page.wait_for_selector("#run-rounds .round[data-round='GF'] h4")
        heads = page.locator("#run-rounds .round h4").all_inner_texts()
        finals = ["胜者组决赛", "败者组决赛", "总决赛"] if zh else ["Winners final", "Losers final", "Grand final"]
        assert all(head in heads for head in finals), heads
        shot(page, f"desk-run-round-names-{locale[:2]}")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_the_draw_step_offers_the_formats_the_hub_serves(stage_hub: ServedHub, browser: Any) -> None:
    """The draw step's types, the disciplines each takes and their settings come from GET
    /api/draw-formats: a format the hub adds shows with its own setting, the desk unchanged."""
    hub_process = stage_hub
    tid = _event(hub_process, "Formats", 6)
    served = hub_process.get("/api/draw-formats")
    swiss = {
        **next(f for f in served["formats"] if f["name"] == "round_robin"),
        "name": "swiss",
        "then": None,
        "params": [{"name": "rounds", "type": "integer", "minimum": 3, "maximum": 9, "default": 5, "about": "rounds"}],
    }
    catalogue = {**served, "formats": [*served["formats"], swiss]}
    asked: list[str] = []

    def answer(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(catalogue))

    ctx, page, guard = _signed_in(browser, hub_process, "en-US")
    try:
        page.route("**/api/draw-formats", answer)
        page.goto(f"{hub_process.url}/desk/{tid}/draw")
        page.wait_for_selector("#start-draw")
        assert asked
        offered = page.locator("input[name=draw-type]").evaluate_all("xs => xs.map((x) => x.value)")
        assert offered == [f["name"] for f in catalogue["formats"]]
        assert page.is_checked("#draw-type-double_elimination")  # the hub's default
        assert page.is_disabled("#draw-type-chase_groups")  # a three-player format; golden_nine has two
        page.click("label[for=draw-type-swiss]")
        rounds = page.locator("#draw-rounds")
        assert (rounds.get_attribute("min"), rounds.get_attribute("max"), rounds.input_value()) == ("3", "9", "5")
        assert page.locator("#draw-groups").count() == 0 and page.locator("#draw-then").count() == 0
        page.click("label[for=draw-type-round_robin]")
        assert page.locator("#draw-groups").get_attribute("max") == "26"
        assert page.locator("#draw-rounds").count() == 0
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()
