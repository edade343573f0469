"""A series' page (/series/{id}) in Chromium: the standings by person after a finished tournament,
the running one listed apart as in progress, the page moving by itself when that one finishes, on
a phone, a tablet and a TV, in English and Chinese; the CSV link."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from .conftest import ADMIN_TOKEN, ARTIFACTS, XSS_NAME, Hub, PageWatch

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
NAMES = [XSS_NAME, "杨帆 Yang Fan", "Ko Pin-yi", "Fedor Gorst"]
MATCH = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


def _tournament(hub_process: Hub, name: str) -> str:
    tid = hub_process.tournament(name)
    for i in range(2):
        hub_process.table(tid, f"T{i}")
    hub_process.post(f"/api/tournaments/{tid}/players", {"players": [{"name": n} for n in NAMES]})
    hub_process.post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination", "seeding": "random", "seed": 3,
                                             "match": MATCH})
    return tid


def settle(hub_process: Hub, tid: str, key: str) -> None:
    """Wait until the draw calls `key`, then enter its result by hand (its first player wins 2-0)."""
    deadline = time.monotonic() + 20
    while True:
        entry = next(m for m in httpx.get(f"{hub_process.url}/api/tournaments/{tid}").json()["draw"]["matches"]
                     if m["key"] == key)
        if entry["status"] == "called":
            break
        assert time.monotonic() < deadline, f"{key} never called"
        time.sleep(0.2)
    a, b = entry["players"]
    r = httpx.post(f"{hub_process.url}/api/matches/{entry['match_id']}/result", headers=AUTH, timeout=10,
                   json={"winner": a, "score": {a: 2, b: 0}})
    assert r.status_code == 200, r.text


def _finish(hub_process: Hub, tid: str, keys: tuple[str, ...] = ("W1-1", "W1-2", "W2-1")) -> None:
    for key in keys:
        settle(hub_process, tid, key)


@pytest.fixture(scope="module")
def season(hub_process: Hub) -> dict[str, Any]:
    one, two = _tournament(hub_process, "Week 1"), _tournament(hub_process, "Week 2")
    _finish(hub_process, one)
    settle(hub_process, two, "W1-1")
    sid = hub_process.post("/api/series", {"name": "Summer tour 夏季巡回赛", "points": {"1": 100, "2": 75, "3": 55}})[
        "id"
    ]
    for tid in (one, two):
        r = httpx.post(f"{hub_process.url}/api/series/{sid}/tournaments", headers=AUTH, json={"tournament_id": tid})
        assert r.status_code == 200, r.text
    return {"sid": sid, "one": one, "two": two}


@pytest.mark.parametrize(
    ("lang", "width", "height", "says"),
    [
        ("en-US", 390, 844, "In progress"),
        ("zh-CN", 390, 844, "进行中"),
        ("en-US", 1024, 768, "In progress"),
        ("zh-CN", 1920, 1080, "进行中"),
    ],
)
def test_the_standings_and_the_running_event_apart(
    hub_process: Hub, browser: Any, season: dict[str, Any], lang: str, width: int, height: int, says: str
) -> None:
    ctx = browser.new_context(locale=lang, viewport={"width": width, "height": height})
    try:
        page = PageWatch().attach(ctx.new_page())
        page.goto(f"{hub_process.url}/series/{season['sid']}")
        page.wait_for_selector("#se-rows .se-row")
        ranks = page.locator("#se-rows .se-row").evaluate_all("rows => rows.map(r => r.dataset.rank)")
        assert ranks == ["1", "2", "3", "3"]
        running = page.locator(f".se-tour[data-tournament='{season['two']}']")
        assert running.get_attribute("data-status") == "in_progress" and says in running.inner_text()
        assert XSS_NAME in page.locator("#se-rows").inner_text()  # a name is text, never markup
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"series-{width}-{lang}.png"), full_page=True)
        href = page.locator("#se-csv").get_attribute("href")
        assert httpx.get(hub_process.url + href).content.startswith("\ufeff".encode())
    finally:
        ctx.close()


def test_the_page_moves_when_the_running_event_finishes(hub_process: Hub, browser: Any, season: dict[str, Any]) -> None:
    ctx = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    try:
        page = PageWatch().attach(ctx.new_page())
        page.goto(f"{hub_process.url}/series/{season['sid']}")
        page.wait_for_selector("#se-rows .se-row")
        _finish(hub_process, season["two"], ("W1-2", "W2-1"))
        page.wait_for_selector(f".se-tour[data-tournament='{season['two']}'][data-status='finished']", timeout=20_000)
        page.wait_for_function(
            "[...document.querySelectorAll('#se-rows .se-pts')]"
            ".reduce((a, n) => a + Number(n.textContent), 0) === 2 * (100 + 75 + 55 + 55)"
        )
        page.screenshot(path=str(ARTIFACTS / "series-after-week-2.png"), full_page=True)
    finally:
        ctx.close()
