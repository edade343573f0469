"""The desk's tables view lists every tablet of every table (PROTOCOL.md section 16): two web tablets
of one table show online; one closed shows offline within 5 s, and when none is left the table is
marked. Screenshots in both languages (test-artifacts/desk-tablets-*.png)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PageWatch, shot
from .test_desk import ServedHub, new_context, sign_in


@pytest.fixture(scope="module")
def links_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("tablets")).start()
    try:
        yield hub
    finally:
        hub.stop()


def open_tablet(browser: Any, hub: ServedHub, table: dict[str, Any]) -> Any:
    ctx = browser.new_context(locale="en-US", viewport={"width": 1024, "height": 768})
    page = ctx.new_page()
    page.goto(f"{hub.url}/tablet/{table['id']}#token={table['token']}")
    page.wait_for_selector("body[data-conn='live']", timeout=10_000)
    return ctx


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_every_tablet_online_or_not_and_a_drop_within_5_s(links_hub: ServedHub, browser: Any, locale: str) -> None:
    hub = links_hub
    tid = hub.admin_post("/api/tournaments", {"name": "Tablets"})["id"]
    one = hub.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 1"})
    hub.admin_post(f"/api/tournaments/{tid}/tables", {"name": "Table 2"})
    first, second = open_tablet(browser, hub, one), open_tablet(browser, hub, one)
    ctx = new_context(browser, "tablet", locale)
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub)
        page.goto(f"{hub.url}/desk/{tid}/tables")
        row = f".table-row[data-table='{one['id']}']"
        page.locator(f"{row} .tb[data-online='yes']").nth(1).wait_for(timeout=10_000)
        shot(page, f"desk-tablets-online-{locale}")
        second.close()
        t0 = time.monotonic()
        page.wait_for_selector(f"{row} .tb[data-online='no']", timeout=5_000)
        assert time.monotonic() - t0 < 5.0
        assert page.locator(f"{row} .tb[data-online='yes']").count() == 1
        state = page.inner_text(f"{row} .tb[data-online='no'] .tb-state")
        assert ("offline since" in state) if locale == "en-US" else ("离线" in state)
        first.close()
        page.wait_for_selector(f"{row}.tablet-dropped", timeout=5_000)
        assert page.get_attribute(f"{row} .t-links", "data-dropped") == "yes"
        shot(page, f"desk-tablets-dropped-{locale}")
        assert not guard.errors, guard.errors
    finally:
        ctx.close()
