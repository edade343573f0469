"""Swagger UI (/docs) and ReDoc (/redoc) render the hub's API in Chromium with every request that
leaves the hub blocked, as in a venue without internet, without script errors or CSP refusals."""

from __future__ import annotations

from typing import Any

from .conftest import ARTIFACTS, Hub


def _offline(context: Any, hub_process: Hub) -> list[str]:
    ARTIFACTS.mkdir(exist_ok=True)
    blocked: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(hub_process.url):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    return blocked


def _watch_console(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return problems


def test_swagger_ui_renders_every_operation_offline(hub_process: Hub, context: Any) -> None:
    blocked = _offline(context, hub_process)
    page = context.new_page()
    problems = _watch_console(page)
    page.goto(f"{hub_process.url}/docs")
    page.wait_for_selector(".opblock", timeout=20000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/matches/{mid}/commands" in p.replace("\u200b", "") for p in paths), paths
    assert len(paths) >= 12
    # A request body is documented: open the command endpoint and find its schema in the request
    # body's Schema tab (not in the Schemas list below: with 100 schemas or more Swagger UI renders
    # only the part of that list in view).
    op = page.locator(".opblock-post", has_text="/commands").first
    op.locator(".opblock-summary").click()
    op.locator(".opblock-section-request-body").get_by_role("tab", name="Schema").first.click()
    op.locator("text=CommandEnvelope").first.wait_for(timeout=10000)
    page.screenshot(path=str(ARTIFACTS / "swagger-ui.png"))
    assert not blocked, blocked
    assert not problems, problems


def test_redoc_renders_offline(hub_process: Hub, context: Any) -> None:
    blocked = _offline(context, hub_process)
    page = context.new_page()
    problems = _watch_console(page)
    page.goto(f"{hub_process.url}/redoc")
    page.get_by_text("/api/matches/{mid}/commands").first.wait_for(timeout=30000)
    assert page.locator("h1").first.inner_text().startswith("cuehub")
    page.screenshot(path=str(ARTIFACTS / "redoc.png"))
    assert not blocked, blocked
    # The one thing ReDoc would fetch from outside is its footer logo (cdn.redoc.ly): the CSP refuses
    # it before any request is made, and ReDoc hides the image when it fails to load.
    problems = [p for p in problems if "cdn.redoc.ly/redoc/logo-mini.svg" not in p]
    assert not problems, problems
