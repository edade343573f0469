"""The organiser's desk and tablet pairing in a real headless Chromium against a real
`cuehub serve` (PROTOCOL.md section 8): sign in through the page, create a tournament and four
tables, print table cards (QR + code; PDF pages of the right paper), pair a tablet with the six
digits and with the card's link, CSRF, sign-out, wrong tokens slowed down, names as text, pages
for ids that do not exist; screenshots at laptop, tablet and phone sizes in both languages."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.hubproc import HubProcess
from tests.services import free_port

from .conftest import ARTIFACTS, XSS_NAME, PageWatch, shot

ADMIN = "desk-test-admin-token-0123456789"
CSRF = {"X-Requested-With": "cuehub"}
SIZES = {"laptop": (1366, 768), "tablet": (1280, 800), "phone": (390, 844)}
MM_PER_PT = 25.4 / 72


class ServedHub(HubProcess):
    """`cuehub serve` as a user runs it (JSON logs with access lines, uvicorn's proxy headers from
    HUB_TRUSTED_PROXIES), on a free port and a temporary SQLite file."""

    def __init__(self, tmp: Path, **env: str) -> None:
        port = free_port()
        super().__init__(f"sqlite+aiosqlite:///{tmp / f'hub-{port}.db'}", tmp, name=f"hub-{port}", port=port,
                         env={"HUB_ADMIN_TOKEN": ADMIN, **env}, log_level="info")


@pytest.fixture(scope="module")
def desk_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    # The tests play the proxy in front of the hub, so loopback is trusted here (it is not by default).
    hub_process = ServedHub(tmp_path_factory.mktemp("deskhub"), HUB_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        yield hub_process
    finally:
        hub_process.stop()


def new_context(browser: Any, size: str = "laptop", locale: str = "en-US") -> Any:
    w, h = SIZES[size]
    return browser.new_context(locale=locale, viewport={"width": w, "height": h})


def sign_in(page: Any, hub_process: Any, token: str = ADMIN) -> None:
    page.goto(f"{hub_process.url}/desk")
    page.wait_for_selector("#signin-token")
    page.fill("#signin-token", token)
    page.click("#signin-submit")
    page.wait_for_selector("#create-tournament")  # (the list "#tournaments" is hidden while it is empty)


def open_desk(browser: Any, hub_process: Any, size: str = "laptop", locale: str = "en-US",
              token: str = ADMIN) -> tuple[Any, Any]:
    """A new browser context at `size` and `locale`, and a page signed in at the desk."""
    ctx = new_context(browser, size, locale)
    page = ctx.new_page()
    sign_in(page, hub_process, token)
    return ctx, page


def pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) in mm of each page of a PDF Chromium printed."""
    boxes = re.findall(rb"/MediaBox \[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    return [(round((float(x1) - float(x0)) * MM_PER_PT), round((float(y1) - float(y0)) * MM_PER_PT))
            for x0, y0, x1, y1 in boxes]


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_organiser_sets_up_prints_cards_and_tablets_pair(desk_hub: ServedHub, browser: Any) -> None:
    hub_process = desk_hub
    desk_ctx, tablet_ctx = new_context(browser), new_context(browser, "tablet")
    guard = PageWatch()
    try:
        desk = guard.attach(desk_ctx.new_page())
        desk.goto(f"{hub_process.url}/desk")
        desk.wait_for_selector("#signin-token")
        desk.fill("#signin-token", "not-the-token")
        desk.click("#signin-submit")
        desk.wait_for_selector("#signin-message.err")
        assert "not the admin token" in desk.inner_text("#signin-message")
        desk.fill("#signin-token", ADMIN)
        desk.click("#signin-submit")
        desk.wait_for_selector("#create-tournament")  # signed in: the desk's home (its list is hidden while empty)
        assert desk.locator("#signin-token").count() == 0

        # A tournament whose name is markup: shown as text, never run.
        desk.fill("#tournament-name", f"{XSS_NAME} Open")
        desk.click("#create-tournament")
        desk.wait_for_selector("#step-format")  # a new event starts at its first step, the format
        assert desk.inner_text("#tour-title") == f"{XSS_NAME} Open"
        assert desk.locator("#desk-head img").count() == 0
        tid = desk.url.rstrip("/").split("/")[-2]
        assert desk.url.endswith(f"/desk/{tid}/format")
        desk.click("[data-step=tables]")
        desk.wait_for_selector("#step-tables")

        # Four tables at once, then one renamed to markup.
        desk.fill("#table-count", "4")
        desk.click("#add-tables")
        desk.wait_for_selector(".table-row >> nth=3")
        tables = hub_process.get(f"/api/tournaments/{tid}")["tables"]
        assert [t["name"] for t in tables] == ["Table 1", "Table 2", "Table 3", "Table 4"]
        first = f".table-row[data-table='{tables[0]['id']}']"
        desk.click(f"{first} [data-action=rename]")
        desk.fill(f"{first} .rename-input", XSS_NAME)
        desk.click(f"{first} button[type=submit]")
        desk.locator(f"{first} .t-name").filter(has_text=XSS_NAME).wait_for()
        assert desk.locator("#table-list img").count() == 0
        assert hub_process.get(f"/api/tables/{tables[0]['id']}")["name"] == XSS_NAME

        # A pairing code on the tables step: six digits, big, with its countdown.
        desk.click(f".table-row[data-table='{tables[1]['id']}'] [data-action=code]")
        desk.wait_for_selector(".t-code .code-big")
        assert re.fullmatch(r"\d{6}", desk.get_attribute(".t-code .code-big", "data-code"))
        assert re.fullmatch(r"\d{3} \d{3}", desk.inner_text(".t-code .code-big"))
        shot(desk, "desk-tables-code")

        # Table cards: every table's QR code (rendered: decoded image) and code; printed as PDF.
        desk.click("[data-step=cards]")
        desk.wait_for_selector("#make-codes")
        desk.click("#make-codes")
        desk.wait_for_selector(".tcard .tc-code >> nth=3")
        cards = desk.locator(".tcard")
        assert cards.count() == 4
        codes, links = {}, {}
        for i in range(4):
            card = cards.nth(i)
            assert card.locator("img.tc-qr").evaluate("img => img.complete && img.naturalWidth > 0")
            code = card.locator(".tc-code").get_attribute("data-code")
            assert re.fullmatch(r"\d{6}", code)
            codes[card.get_attribute("data-table")] = code
            links[card.get_attribute("data-table")] = card.locator("img.tc-qr").get_attribute("data-link")
        assert desk.inner_text(f".tcard[data-table='{tables[0]['id']}'] .tc-name") == XSS_NAME
        assert desk.locator(".tcard img:not(.tc-qr)").count() == 0
        assert "/pair" in desk.inner_text(".tcard .tc-url >> nth=0")
        shot(desk, "desk-cards")
        desk.emulate_media(media="print")
        shot(desk, "desk-cards-print-a6")
        assert desk.locator("#desk-nav").is_hidden() and desk.locator("#cards-controls").is_hidden()
        assert pdf_pages(desk.pdf(prefer_css_page_size=True)) == [(105, 148)] * 4  # A6, one card a page
        desk.emulate_media(media="screen")
        desk.check("#paper-a4")
        desk.emulate_media(media="print")
        shot(desk, "desk-cards-print-a4")
        pdf = desk.pdf(prefer_css_page_size=True)
        (ARTIFACTS / "desk-cards-a4.pdf").write_bytes(pdf)
        assert pdf_pages(pdf) == [(210, 297)]  # A4, the four cards on one page
        desk.emulate_media(media="screen")

        # A tablet types table 2's six digits on /pair and becomes table 2's tablet.
        tablet = guard.attach(tablet_ctx.new_page())
        tablet.goto(f"{hub_process.url}/pair")
        tablet.wait_for_selector("#pair-code")
        shot(tablet, "pair-tablet")
        tablet.fill("#pair-code", codes[tables[1]["id"]])
        tablet.click("#pair-submit")
        tablet.wait_for_selector("#paired-name")
        assert tablet.inner_text("#paired-name") == "Table 2"
        shot(tablet, "pair-done-tablet")
        tablet.wait_for_url(f"{hub_process.url}/tablet/{tables[1]['id']}", timeout=10_000)
        tablet.wait_for_selector("body[data-conn='live']")
        stored = tablet.evaluate(f"localStorage.getItem('cuehub.token.{tables[1]['id']}')")
        assert stored and stored not in (ADMIN,)
        shot(tablet, "pair-landed-tablet")

        # Another tablet scans table 3's card: the QR's link, /pair#secret=..., pairs it at once.
        assert re.fullmatch(rf"{re.escape(hub_process.url)}/pair#secret=[A-Za-z0-9_-]{{24}}", links[tables[2]["id"]])
        scanned = guard.attach(tablet_ctx.new_page())
        scanned.goto(links[tables[2]["id"]])
        scanned.wait_for_url(f"{hub_process.url}/tablet/{tables[2]['id']}", timeout=10_000)
        scanned.wait_for_selector("body[data-conn='live']")
        # The card pairs once: its QR link again is refused on the page, the secret gone from the address bar.
        rescanned = guard.attach(tablet_ctx.new_page())
        rescanned.goto(links[tables[2]["id"]])
        rescanned.wait_for_selector("#pair-message.err")
        assert "QR code is already used or expired" in rescanned.inner_text("#pair-message")
        assert "secret" not in rescanned.url

        # A code is good once: table 2's code again is refused on the page.
        again = guard.attach(tablet_ctx.new_page())
        again.goto(f"{hub_process.url}/pair")
        again.fill("#pair-code", codes[tables[1]["id"]])
        again.click("#pair-submit")
        again.wait_for_selector("#pair-message.err")
        assert "wrong, already used or expired" in again.inner_text("#pair-message")

        # The desk sees the tablets arrive.
        desk.click("[data-step=tables]")
        row2 = f".table-row[data-table='{tables[1]['id']}']"
        desk.locator(f"{row2} .t-tablets").filter(has_text="Tablets paired: 1").wait_for()

        # A new token for table 2 (confirmed in the page): its paired tablet is signed out at once
        # and asks for a token; the paired-tablet count drops to 0.
        desk.click(f"{row2} [data-action=rotate]")
        desk.click("#modal-confirm")
        desk.wait_for_selector("#tables-message.ok")
        assert "Table 2" in desk.inner_text("#tables-message")
        tablet.wait_for_selector("#token-panel:not(.hidden)", timeout=10_000)
        assert tablet.evaluate(f"localStorage.getItem('cuehub.token.{tables[1]['id']}')") is None
        assert hub_process.get(f"/api/tables/{tables[1]['id']}")["tablets"] == 0
        desk.locator(f"{row2} .t-tablets").filter(has_text="Tablets paired: 0").wait_for()
        assert desk.locator(f"{row2} details.new-token code").text_content()  # the new token, on request
        shot(desk, "desk-tables-rotated")
        scanned.wait_for_selector("body[data-conn='live']")  # table 3's tablet is untouched

        # The admin token and the codes reached no log line (the QR's code is in a fragment).
        log = hub_process.log.read_text()
        assert ADMIN not in log
        for code in codes.values():
            assert code not in log, code
        assert '"GET /pair HTTP/1.1"' in log or "/pair" in log  # access lines are there
        assert ADMIN not in json.dumps(desk.evaluate("Object.assign({}, localStorage, sessionStorage)"))
        assert guard.dialogs == [] and guard.errors == []
    finally:
        desk_ctx.close()
        tablet_ctx.close()


def test_csrf_and_sign_out(desk_hub: ServedHub, browser: Any) -> None:
    hub_process = desk_hub
    ctx = new_context(browser)
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub_process)
        cookie = next(c for c in ctx.cookies() if c["name"] == "cuehub_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
        assert "cuehub_session" not in page.evaluate("document.cookie")

        # A write with the cookie but without the header is refused, from the page and from outside.
        post = """async (headers) => { const r = await fetch('/api/tournaments', {method: 'POST',
            headers: Object.assign({'Content-Type': 'application/json'}, headers.h),
            body: JSON.stringify({name: headers.name})});
            return [r.status, await r.json()]; }"""
        status, body = page.evaluate(post, {"h": {}, "name": "csrf-refused"})
        assert status == 403 and body["error"]["code"] == "csrf_header_required"
        status, body = page.evaluate(post, {"h": CSRF, "name": "csrf-ok"})
        assert status == 201
        jar = {"cuehub_session": cookie["value"]}
        r = httpx.post(f"{hub_process.url}/api/tournaments", json={"name": "csrf-refused"}, cookies=jar)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_header_required"
        assert (
            httpx.post(f"{hub_process.url}/api/tournaments", json={"name": "ok"}, cookies=jar, headers=CSRF).status_code
            == 201
        )
        assert "csrf-refused" not in [t["name"] for t in hub_process.get("/api/tournaments")["tournaments"]]

        # Sign out through the page: the old cookie no longer works anywhere.
        page.click("#signout")
        page.wait_for_selector("#signin-token")
        assert "Signed out" in page.inner_text("#signin-message")
        r = httpx.post(f"{hub_process.url}/api/tournaments", json={"name": "after"}, cookies=jar, headers=CSRF)
        assert r.status_code == 401 and r.json()["error"]["code"] == "session_expired"
        assert httpx.get(f"{hub_process.url}/api/session", cookies=jar).json()["signed_in"] is False
        page.reload()
        page.wait_for_selector("#signin-token")
        assert guard.dialogs == [] and guard.errors == []
    finally:
        ctx.close()


def test_wrong_tokens_are_slowed_down(desk_hub: ServedHub, browser: Any) -> None:
    """From one address (X-Forwarded-For, believed from 127.0.0.1 as this hub is told): 5 attempts at once,
    then spaced 1 s, 2 s, ... and past 3 s of waiting refused with 429; another address is not slowed."""
    hub_process = desk_hub
    slow = {"X-Forwarded-For": "203.0.113.7"}
    took, codes = [], []
    with httpx.Client(base_url=hub_process.url, timeout=10) as c:
        for _ in range(9):
            t0 = time.monotonic()
            r = c.post("/api/session", json={"token": "guess"}, headers=slow)
            took.append(time.monotonic() - t0)
            codes.append(r.status_code)
        assert codes[:8] == [401] * 8 and codes[8] == 429, codes
        assert max(took[:6]) < 0.5 and took[6] >= 0.9 and took[7] >= 1.9 and took[8] >= 0.9, took
        assert int(r.headers["retry-after"]) >= 1 and r.json()["error"]["code"] == "too_many_attempts"
        t0 = time.monotonic()
        r = c.post("/api/session", json={"token": ADMIN}, headers={"X-Forwarded-For": "198.51.100.9"})
        assert r.status_code == 204 and time.monotonic() - t0 < 0.5
    # The page says so in plain words: a burst of guesses from another address, then the page.
    burst = {"X-Forwarded-For": "203.0.113.8"}
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.route("**/api/session", lambda route: route.continue_(headers={**route.request.headers, **burst}))
        page.goto(f"{hub_process.url}/desk")
        page.fill("#signin-token", "guess")
        with ThreadPoolExecutor(10) as pool:
            futures = [
                pool.submit(
                    httpx.post, f"{hub_process.url}/api/session", json={"token": "guess"}, headers=burst, timeout=10
                )
                for _ in range(10)
            ]
            next(f for f in as_completed(futures) if f.result().status_code == 429)
            page.click("#signin-submit")
            page.wait_for_selector("#signin-message.err")
        assert "Too many attempts" in page.inner_text("#signin-message")
        shot(page, "desk-signin-too-many")
    finally:
        ctx.close()


def test_secure_cookie_only_behind_a_trusted_proxy(desk_hub: ServedHub, tmp_path: Path) -> None:
    https = {"X-Forwarded-Proto": "https"}
    r = httpx.post(f"{desk_hub.url}/api/session", json={"token": ADMIN}, headers=https)
    assert r.status_code == 204 and "secure" in r.headers["set-cookie"].lower()
    r = httpx.post(f"{desk_hub.url}/api/session", json={"token": ADMIN})
    assert r.status_code == 204 and "secure" not in r.headers["set-cookie"].lower()
    untrusting = ServedHub(tmp_path).start()  # the default: no proxy trusted, loopback neither
    try:
        r = httpx.post(f"{untrusting.url}/api/session", json={"token": ADMIN}, headers=https)
        assert r.status_code == 204 and "secure" not in r.headers["set-cookie"].lower()
        # Nor is X-Forwarded-For believed: a changed header does not buy a fresh address.
        for i in range(7):
            httpx.post(
                f"{untrusting.url}/api/session", json={"token": "x"}, headers={"X-Forwarded-For": f"192.0.2.{i}"}
            )
        t0 = time.monotonic()
        httpx.post(
            f"{untrusting.url}/api/session", json={"token": "x"}, headers={"X-Forwarded-For": "192.0.2.99"}, timeout=10
        )
        assert time.monotonic() - t0 >= 0.9
        # The ignored headers are logged, once.
        ignored = [line for line in untrusting.log.read_text().splitlines() if "ignored X-Forwarded-For" in line]
        assert len(ignored) == 1 and "127.0.0.1" in ignored[0], ignored
    finally:
        untrusting.stop()


def test_desk_routes_and_headers(desk_hub: ServedHub) -> None:
    for path in ("/desk", "/desk/anything", "/desk/anything/tables", "/pair", "/pair?code=123456"):
        r = httpx.get(desk_hub.url + path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    for asset in ("js/desk.js", "js/pair.js", "css/desk.css", "css/print.css", "css/pair.css"):
        assert httpx.get(f"{desk_hub.url}/static/{asset}").status_code == 200, asset


def test_pages_for_ids_that_do_not_exist(desk_hub: ServedHub, browser: Any) -> None:
    hub_process = desk_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "Real"})["id"]
    ctx = new_context(browser)
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub_process)
        page.goto(f"{hub_process.url}/desk/no-such-tournament")
        page.wait_for_selector("#not-found")
        assert "no tournament “no-such-tournament”" in page.inner_text("#not-found")
        shot(page, "desk-not-found")
        page.goto(f"{hub_process.url}/desk/{tid}/bogus")
        page.wait_for_selector("#not-found")
        assert "no page “bogus”" in page.inner_text("#not-found")
        page.goto(f"{hub_process.url}/desk/{tid}/cards?table=ghost")
        page.wait_for_selector("#not-found")
        assert "no table “ghost”" in page.inner_text("#not-found")
        # The language switch repaints the desk in place.
        page.goto(f"{hub_process.url}/desk/{tid}/tables")
        page.wait_for_selector("#step-tables")
        page.click("#lang-switch")
        page.locator("#step-tables h2").filter(has_text="球台").wait_for()
        assert "全部赛事" in page.locator("#desk-nav").text_content()
        page.click("#lang-switch")
        page.locator("#step-tables h2").filter(has_text="Tables").wait_for()
        # The players step takes a pasted list or a CSV file (tests/web/test_desk_flow.py).
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.wait_for_selector("#step-players")
        assert "CSV" in page.inner_text("#step-players")
        # /pair with a wrong code in the link: said, and the code is gone from the address bar.
        page.goto(f"{hub_process.url}/pair?code=000000")
        page.wait_for_selector("#pair-message.err")
        assert "code=" not in page.url
        assert guard.dialogs == [] and guard.errors == []
    finally:
        ctx.close()


def test_desk_and_pair_screenshots(desk_hub: ServedHub, browser: Any) -> None:
    """Every desk screen at laptop, tablet and phone sizes in English and Chinese: no sideways
    scrolling, the steps reachable, touch-sized controls (screenshots in test-artifacts/)."""
    hub_process = desk_hub
    tid = hub_process.admin_post("/api/tournaments", {"name": "春季公开赛 Spring Open"})["id"]
    for i in range(4):
        hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"Table {i + 1}"})
    guard = PageWatch()
    for locale, lang in (("en-US", "en"), ("zh-CN", "zh")):
        for size in SIZES:
            ctx = new_context(browser, size, locale)
            try:
                page = guard.attach(ctx.new_page())
                page.goto(f"{hub_process.url}/desk")
                page.wait_for_selector("#signin-token")
                shot(page, f"desk-signin-{size}-{lang}")
                page.fill("#signin-token", ADMIN)
                page.click("#signin-submit")
                page.wait_for_selector("#tournament-list")
                shot(page, f"desk-tournaments-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "tournaments")
                page.click(f"#tournament-list [data-tournament='{tid}'] .tour-name")
                page.wait_for_selector("#step-format")  # no players yet: the event's first step
                page.click("[data-step=tables]")
                page.wait_for_selector(".table-row >> nth=3")
                page.click(".table-row >> nth=0 >> [data-action=code]")
                page.wait_for_selector(".t-code")
                shot(page, f"desk-tables-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "tables")
                for selector in ("#add-table", "[data-action=rotate] >> nth=0", "[data-step=cards]"):
                    box = page.locator(selector).bounding_box()
                    assert box and box["height"] >= 40, (selector, box, size)
                page.click("[data-step=cards]")
                page.click("#make-codes")
                page.wait_for_selector(".tcard .tc-code >> nth=3")
                shot(page, f"desk-cards-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "cards")
                page.click("[data-step=draw]")
                page.wait_for_selector("#step-draw #draw-summary")  # the formats read from the hub
                shot(page, f"desk-draw-{size}-{lang}")
                assert no_sideways_scroll(page), (size, lang, "draw")
                pair = guard.attach(ctx.new_page())
                pair.goto(f"{hub_process.url}/pair")
                pair.wait_for_selector("#pair-code")
                shot(pair, f"pair-{size}-{lang}")
                assert no_sideways_scroll(pair), (size, lang, "pair")
                if lang == "zh":
                    assert page.evaluate("document.documentElement.lang") == "zh-CN"
                    assert "球台卡" in page.locator("#desk-nav").text_content()
                    assert "配对" in pair.inner_text("#pair")
            finally:
                ctx.close()
    assert guard.dialogs == [] and guard.errors == []
