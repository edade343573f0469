"""A team match on the day, in a real headless Chromium against a real `cuehub serve` (PROTOCOL.md
section 15): the desk's run step shows a team match due whose lineups are missing and names them
there; the watch, commentator and overlay pages of a rubber say which rubber it is and the team
match's score in rubbers. Both languages, with screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PageWatch, shot
from .test_desk import ServedHub, new_context, no_sideways_scroll
from .test_teams import _event, _signed_in, _until

pytestmark = pytest.mark.browser

THREE = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {},
         "team": {"rubbers": [{"kind": "singles"}, {"kind": "doubles"}, {"kind": "singles"}], "to_win": 2}}


@pytest.fixture(scope="module")
def run_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("teamrun")).start()
    try:
        yield hub
    finally:
        hub.stop()


def _team_event(hub: ServedHub, name: str) -> tuple[str, list[str]]:
    tid = _event(hub, name, 2)
    usa = ("Shane Van Boening", "Fedor Gorst", "Skyler Woodward")
    europe = ("Joshua Filler", "Jayson Shaw", "Albin Ouschan")
    teams = [{"name": "Team USA", "members": [{"name": n} for n in usa]},
             {"name": "Team Europe", "members": [{"name": n} for n in europe]}]
    added = hub.admin_post(f"/api/tournaments/{tid}/players", {"players": teams})["players"]
    hub.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination", "match": THREE})
    return tid, [p["id"] for p in added]


def _rubbers(hub: ServedHub, tid: str) -> list[dict[str, Any]]:
    return list(hub.get(f"/api/tournaments/{tid}")["draw"]["matches"][0]["team"]["rubbers"])


def test_the_run_step_names_the_lineups_of_a_team_match_due(run_hub: ServedHub, browser: Any) -> None:
    hub = run_hub
    tid, _teams = _team_event(hub, "Run lineups")
    ctx, page, guard = _signed_in(browser, hub, "en-US")
    try:
        page.goto(f"{hub.url}/desk/{tid}/run")
        page.wait_for_selector("#run-lineups #lineups-due .lineup-form")
        assert "Lineups to name" in page.inner_text("#lineups-due")
        assert page.locator("#lineups-due .team-match[data-key='W1-1']").count() == 1
        # one lineup by hand: the first form, its members as chosen
        first = page.locator("#lineups-due .lineup-form").first
        first.locator("select").first.select_option(index=1)
        first.locator("button").click()
        page.wait_for_selector("#run-message.ok")
        named = _rubbers(hub, tid)[0]["named"]
        assert len(named) == 1
        shot(page, "desk-run-lineups-en")
        assert no_sideways_scroll(page)
        # then every lineup left, in turn: the rubbers go to the tables and the panel goes away
        page.click("#name-all-W1-1")
        _until(lambda: page.locator("#lineups-due").count() == 0)
        _until(lambda: sum(r["status"] == "called" for r in _rubbers(hub, tid)) >= 1)
        assert all(r["status"] != "waiting" for r in _rubbers(hub, tid))
        assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
    finally:
        ctx.close()
    ctx, page, guard = _signed_in(browser, hub, "zh-CN")
    try:
        tid2, _ = _team_event(hub, "Run lineups zh")
        page.goto(f"{hub.url}/desk/{tid2}/run?lang=zh-CN")
        page.wait_for_selector("#lineups-due .lineup-form")
        assert "待报出场名单" in page.inner_text("#lineups-due")
        shot(page, "desk-run-lineups-zh")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def _pages(ctx: Any, guard: PageWatch, hub: ServedHub, rubber: dict[str, Any], lang: str) -> dict[str, Any]:
    q = f"?lang={lang}"
    pages = {}
    for name, path in (("watch", f"/watch/{rubber['match_id']}{q}"),
                       ("commentator", f"/commentator/{rubber['match_id']}{q}"),
                       ("overlay", f"/overlay/{rubber['table_id']}{q}&title=auto")):
        page = guard.attach(ctx.new_page())
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(f"{hub.url}{path}")
        pages[name] = page
    return pages


def _line(page: Any, name: str) -> str:
    return str(page.inner_text("#bug" if name == "overlay" else "#meta"))


def test_the_match_screens_name_the_rubber_and_the_team_score(run_hub: ServedHub, browser: Any) -> None:
    hub = run_hub
    tid, (usa, europe) = _team_event(hub, "Rubber screens")
    for i in (1, 2, 3):
        for team in (usa, europe):
            members = [f"{team}.{i}"] if i != 2 else [f"{team}.1", f"{team}.2"]
            hub.admin_post(f"/api/tournaments/{tid}/draw/W1-1/lineup", {"rubber": i, "team": team, "members": members})
    _until(lambda: _rubbers(hub, tid)[0]["status"] == "called")
    first = _rubbers(hub, tid)[0]
    # rubber 1 won by USA (the desk enters it): the score in rubbers is 1-0 when rubber 3 is shown
    hub.admin_post(f"/api/matches/{first['match_id']}/result",
                   {"winner": f"{usa}.1", "score": {f"{usa}.1": 2, f"{europe}.1": 0}})
    _until(lambda: _rubbers(hub, tid)[2]["status"] == "called")
    third = _rubbers(hub, tid)[2]
    # the team match's score in the draw's order of its two teams
    a, b = hub.get(f"/api/tournaments/{tid}")["draw"]["matches"][0]["players"]
    names = {usa: "Team USA", europe: "Team Europe"}
    score = f"{names[a]} {int(a == usa)}–{int(b == usa)} {names[b]}"
    for lang, rubber_text, score_text in (
            ("en", "Rubber 3 of 3 · Singles", f"{score} in rubbers, first to 2"),
            ("zh-CN", "第 3 场（共 3 场）· 单打", f"{score}（分场比分，先胜 2 场）")):
        ctx = new_context(browser, "laptop", "en-US" if lang == "en" else "zh-CN")
        guard = PageWatch()
        try:
            pages = _pages(ctx, guard, hub, third, lang)
            for name, page in pages.items():
                _until(lambda page=page, name=name, want=score_text: want in _line(page, name))
                assert rubber_text in _line(page, name), (name, _line(page, name))
                shot(page, f"rubber-{name}-{lang}")
            assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
        finally:
            ctx.close()


def test_a_team_withdrawn_mid_team_match_on_the_bracket(run_hub: ServedHub, browser: Any) -> None:
    hub = run_hub
    tid, (usa, europe) = _team_event(hub, "Withdrawn team")
    for i in (1, 2, 3):
        for team in (usa, europe):
            members = [f"{team}.{i}"] if i != 2 else [f"{team}.1", f"{team}.2"]
            hub.admin_post(f"/api/tournaments/{tid}/draw/W1-1/lineup", {"rubber": i, "team": team, "members": members})
    _until(lambda: _rubbers(hub, tid)[0]["status"] == "called")
    hub.admin_post(f"/api/tournaments/{tid}/players/{usa}/withdraw")
    _until(lambda: all(r["status"] == "walkover" for r in _rubbers(hub, tid)))
    for lang, text in (("en", "Walkover to Team Europe"), ("zh-CN", "Team Europe 不战而胜")):
        ctx = new_context(browser, "laptop", "en-US" if lang == "en" else "zh-CN")
        guard = PageWatch()
        try:
            page = guard.attach(ctx.new_page())
            page.goto(f"{hub.url}/bracket/{tid}?lang={lang}")
            page.wait_for_selector(".tm-block .tm-rubber.st-walkover")
            assert page.locator(".tm-block .tm-rubber.st-walkover").count() == 3
            assert text in page.inner_text(".tm-block")
            shot(page, f"bracket-team-walkover-{lang}")
            assert guard.dialogs == [] and guard.errors == [], (guard.dialogs, guard.errors)
        finally:
            ctx.close()
