"""Team events from the desk in a real headless Chromium against a real `cuehub serve` (PROTOCOL.md
section 15): a Mosconi-style event (two teams, singles and doubles rubbers, first to 11 of 21, races
to 5) and a World-Cup-style scotch-doubles knockout set up in a few steps; lineups named at the desk;
the board and the bracket show the team match's score in rubbers and each rubber. Both languages,
with screenshots."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PageWatch, shot
from .test_desk import ServedHub, new_context, no_sideways_scroll, sign_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def team_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("deskteams")).start()
    try:
        yield hub
    finally:
        hub.stop()


def _signed_in(browser: Any, hub: ServedHub, locale: str, size: str = "laptop") -> tuple[Any, Any, PageWatch]:
    ctx = new_context(browser, size, locale)
    guard = PageWatch()
    page = guard.attach(ctx.new_page())
    sign_in(page, hub)
    return ctx, page, guard


def _event(hub: ServedHub, name: str, tables: int) -> str:
    tid = hub.admin_post("/api/tournaments", {"name": name})["id"]
    for i in range(tables):
        hub.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"T{i + 1}"})
    return tid


def _until(check: Any, timeout: float = 20.0) -> None:
    """Poll `check()` (the pages' CSP refuses the string evaluation wait_for_function needs)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the page did not get there"
        time.sleep(0.1)


def _add_team(page: Any, name: str, members: list[str]) -> None:
    page.fill("#team-name", name)
    page.fill("#team-members", "\n".join(members))
    page.click("#add-team")
    page.wait_for_selector(f"#team-list li:has-text('{name}')")


def test_a_mosconi_style_event_from_the_desk_board_and_bracket(team_hub: ServedHub, browser: Any) -> None:
    hub = team_hub
    tid = _event(hub, "Mosconi Cup", 4)
    ctx, page, guard = _signed_in(browser, hub, "en-US")
    try:
        page.goto(f"{hub.url}/desk/{tid}/format")
        page.click("label[for=discipline-wpa_nine]")
        page.goto(f"{hub.url}/desk/{tid}/teams")
        page.wait_for_selector("label[for=team-preset-mosconi]")
        page.click("label[for=team-preset-mosconi]")
        _add_team(page, "Team USA", ["Shane Van Boening", "Fedor Gorst", "Skyler Woodward", "Billy Thorpe"])
        _add_team(page, "Team Europe", ["Joshua Filler", "Jayson Shaw", "Albin Ouschan", "Eklent Kaci"])
        shot(page, "desk-teams-en")
        page.goto(f"{hub.url}/desk/{tid}/draw")
        page.wait_for_selector("#draw-team-summary")
        assert "first to 11 of 21" in page.inner_text("#draw-team-summary")
        page.click("#start-draw")
        page.wait_for_url(f"**/desk/{tid}/run")
        draw = hub.get(f"/api/tournaments/{tid}")["draw"]
        assert draw["match"]["team"]["to_win"] == 11 and len(draw["match"]["team"]["rubbers"]) == 21
        assert draw["match"]["format"]["race_to"] == 5
        kinds = {r["kind"] for r in draw["match"]["team"]["rubbers"]}
        assert kinds == {"singles", "doubles"}
        (m,) = draw["matches"]
        assert m["team"]["score"] == dict.fromkeys(m["players"], 0)
        # Lineups: one rubber by hand (hidden from the public until both teams named theirs), then all in order
        page.goto(f"{hub.url}/desk/{tid}/teams")
        page.wait_for_selector("#lineups .lineup-form")
        first = page.locator("#lineups .lineup-form").first
        first.locator("button").click()
        page.wait_for_selector("#teams-message.ok")
        public = hub.get(f"/api/tournaments/{tid}")["draw"]["matches"][0]["team"]["rubbers"][0]
        assert len(public["named"]) == 1 and public["lineups"] == {}
        page.click("#name-all-W1-1")
        # rubbers in parallel, on free tables, as long as no member is in two live rubbers
        _until(lambda: page.locator("#lineups .tm-rubber.st-called").count() >= 2, timeout=60)
        live = [r for r in hub.get(f"/api/tournaments/{tid}")["draw"]["matches"][0]["team"]["rubbers"]
                if r["status"] == "called"]
        playing = [p for r in live for side in r["lineups"].values() for p in side]
        assert len(live) >= 2 and len(playing) == len(set(playing))
        shot(page, "desk-teams-lineups-en")
        assert no_sideways_scroll(page)
        board = guard.attach(ctx.new_page())
        board.goto(f"{hub.url}/board/{tid}")
        board.wait_for_selector(".un-item.un-team")
        assert "first to 11" in board.inner_text("#up-next") and "0–0" in board.inner_text("#up-next")
        _until(lambda: board.locator(".cell .pl-row").count() >= 4)
        assert "Rubber" not in board.inner_text("#board")  # each table shows its rubber's players
        shot(board, "board-team-en")
        bracket = guard.attach(ctx.new_page())
        bracket.goto(f"{hub.url}/bracket/{tid}")
        bracket.wait_for_selector(".tm-block .tm-rubber")
        text = bracket.inner_text(".tm-block")
        assert "Rubber 1" in text and "Doubles" in text and "first to 11" in text
        assert bracket.locator(".tm-rubber.st-called").count() >= 2
        shot(bracket, "bracket-team-en")
        # the team's page: its members (the captain marked) and its team match with the rubbers
        usa = next(p for p in hub.get(f"/api/tournaments/{tid}")["players"] if p["name"] == "Team USA")
        team_page = guard.attach(ctx.new_page())
        team_page.goto(f"{hub.url}/player/{tid}/{usa['id']}")
        team_page.wait_for_selector("#pl-members li")
        assert "Shane Van Boening · Captain" in team_page.inner_text("#pl-members")
        team_page.wait_for_selector(".pl-m-team .tm-rubber")
        assert "first to 11" in team_page.inner_text(".pl-m-team")
        assert team_page.inner_text("#next-state") == "Team match in play"
        shot(team_page, "team-page-en")
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()
    # the same screens in Chinese
    ctx, page, guard = _signed_in(browser, hub, "zh-CN")
    try:
        page.goto(f"{hub.url}/bracket/{tid}?lang=zh-CN")
        page.wait_for_selector(".tm-block .tm-rubber")
        text = page.inner_text(".tm-block")
        assert "第 1 场" in text and "双打" in text and "先胜 11 场" in text
        shot(page, "bracket-team-zh")
        page.goto(f"{hub.url}/board/{tid}?lang=zh-CN")
        page.wait_for_selector(".un-item.un-team")
        assert "团体赛" in page.inner_text("#up-next")
        shot(page, "board-team-zh")
        page.set_viewport_size({"width": 390, "height": 844})  # a phone
        page.goto(f"{hub.url}/bracket/{tid}?lang=zh-CN")
        page.wait_for_selector(".tm-block .tm-rubber")
        assert no_sideways_scroll(page)
        shot(page, "bracket-team-phone-zh")
        page.set_viewport_size({"width": 1920, "height": 1080})  # the venue's TV
        page.goto(f"{hub.url}/board/{tid}?lang=zh-CN")
        page.wait_for_selector(".un-item.un-team")
        shot(page, "board-team-tv-zh")
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(f"{hub.url}/desk/{tid}/teams?lang=zh-CN")
        page.wait_for_selector("#lineups")
        assert "出场名单" in page.inner_text("#step-teams")
        shot(page, "desk-teams-zh")
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()


def test_a_world_cup_style_scotch_doubles_knockout_from_the_desk(team_hub: ServedHub, browser: Any) -> None:
    hub = team_hub
    tid = _event(hub, "World Cup of Pool", 2)
    ctx, page, guard = _signed_in(browser, hub, "en-US", size="phone")
    try:
        page.goto(f"{hub.url}/desk/{tid}/format")
        page.click("label[for=discipline-wpa_nine]")
        page.goto(f"{hub.url}/desk/{tid}/teams")
        page.wait_for_selector("label[for=team-preset-world_cup]")
        page.click("label[for=team-preset-world_cup]")
        pairs = (("China", ["Wu Jiaqing", "Zheng Xiaohui"]), ("Austria", ["Albin Ouschan", "Mario He"]),
                 ("Philippines", ["Carlo Biado", "Johann Chua"]), ("Japan", ["Naoyuki Oi", "Masato Yoshioka"]))
        for country, pair in pairs:
            _add_team(page, country, pair)
        assert no_sideways_scroll(page)
        shot(page, "desk-world-cup-phone-en")
        page.goto(f"{hub.url}/desk/{tid}/draw")
        page.wait_for_selector("#draw-team-summary")
        page.click("#start-draw")
        page.wait_for_url(f"**/desk/{tid}/run")
        t = hub.get(f"/api/tournaments/{tid}")
        assert t["draw"]["type"] == "single_elimination" and t["draw"]["match"]["doubles"] is True
        assert t["draw"]["match"]["format"]["race_to"] == 7 and "team" not in t["draw"]["match"]
        assert all(len(p["members"]) == 2 for p in t["players"])
        assert sum(m["status"] == "called" for m in t["draw"]["matches"]) == 2
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()
