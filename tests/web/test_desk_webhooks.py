"""The desk's webhooks card in Chromium at tablet width (PROTOCOL.md section 16): the organiser adds
a hook (its secret shown once), a sign-up is delivered to a live receiver and its log shows it
delivered with its delivery id (the one the receiver saw) without a reload; a hook on a port nobody
listens on shows waiting with its attempts and last error; removing a hook from the page removes it
from the hub. Both languages; screenshots test-artifacts/desk-webhooks-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.services import free_port
from tests.webhooks.receiver import Receiver

from .conftest import PageWatch, shot
from .test_desk import ADMIN, ServedHub, new_context, no_sideways_scroll, sign_in

AUTH = {"Authorization": f"Bearer {ADMIN}"}


@pytest.fixture(scope="module")
def hooks_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    hub = ServedHub(tmp_path_factory.mktemp("webhooks")).start()
    try:
        yield hub
    finally:
        hub.stop()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver().start()
    yield r
    r.stop()


def add_hook(page: Any, url: str, events: list[str]) -> str:
    page.fill("#webhook-url", url)
    for box in page.locator("#webhook-form input[type=checkbox]").all():
        box.set_checked(box.get_attribute("data-event") in events)
    before = set(page.locator(".wh-hook").evaluate_all("ns => ns.map(n => n.dataset.hook)"))
    page.click("#webhook-add")
    page.wait_for_selector("#webhook-message.ok")
    page.wait_for_function("n => document.querySelectorAll('.wh-hook').length > n", arg=len(before))
    after = set(page.locator(".wh-hook").evaluate_all("ns => ns.map(n => n.dataset.hook)"))
    (made,) = after - before
    return str(made)


def sign_up(hub: ServedHub, name: str) -> None:
    tid = hub.admin_post("/api/tournaments", {"name": f"Open {name}"})["id"]
    r = httpx.patch(f"{hub.url}/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True}},
                    headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    r = httpx.post(f"{hub.url}/api/tournaments/{tid}/entries", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_hooks_and_their_deliveries_on_the_desk(hooks_hub: ServedHub, receiver: Receiver, browser: Any,
                                                locale: str) -> None:
    hub = hooks_hub
    ctx = new_context(browser, "tablet", locale)
    guard = PageWatch()
    try:
        page = guard.attach(ctx.new_page())
        sign_in(page, hub)
        page.wait_for_selector("#webhooks h2")
        live = add_hook(page, receiver.url, ["entry.created"])
        secret = page.inner_text(f".wh-hook[data-hook='{live}'] #webhook-secret-value")
        assert len(secret) == 64
        dead = add_hook(page, f"http://127.0.0.1:{free_port()}/never", ["entry.created", "match.called"])
        listed = httpx.get(f"{hub.url}/api/webhooks", headers=AUTH, timeout=10).json()["webhooks"]
        by_id = {h["id"]: h for h in listed}
        assert by_id[live]["events"] == ["entry.created"] and by_id[live]["url"] == receiver.url
        assert by_id[dead]["events"] == ["match.called", "entry.created"]  # the boxes' order

        sign_up(hub, "Ann Lee" if locale == "en-US" else "李明")
        (body,) = receiver.wait(1)
        # The live hook's log (open since it was added) shows the delivery, refreshed in place.
        sent = f".wh-hook[data-hook='{live}'] tr[data-delivery='{body['id']}']"
        page.wait_for_selector(f"{sent}[data-status='delivered']", timeout=10_000)
        row = page.locator(sent)
        assert row.locator(".wh-event").inner_text() == "entry.created"
        assert row.locator(".wh-id").inner_text() == body["id"]
        assert row.locator(".wh-attempts").inner_text() == "1"
        assert ("delivered" if locale == "en-US" else "已送达") in row.locator(".wh-status").inner_text()
        assert "HTTP 204" in row.locator(".wh-last").inner_text()
        # The dead hook: waiting, tried at least once, its last error said.
        waiting = f".wh-hook[data-hook='{dead}'] tr[data-status='pending']"
        page.wait_for_selector(f"{waiting} .wh-last bdi:not(:empty)", timeout=10_000)
        assert int(page.inner_text(f"{waiting} .wh-attempts")) >= 1
        assert "Connect" in page.inner_text(f"{waiting} .wh-last")
        counts = page.locator(f".wh-hook[data-hook='{dead}'] .wh-counts")
        assert counts.get_attribute("data-pending") == "1" and counts.get_attribute("data-delivered") == "0"
        assert no_sideways_scroll(page)
        shot(page, f"desk-webhooks-{locale}")

        # Removing a hook from the page (the in-page question) removes it from the hub.
        page.click(f".wh-hook[data-hook='{dead}'] button[data-action='remove']")
        page.click("#modal-confirm")
        page.wait_for_selector(f".wh-hook[data-hook='{dead}']", state="detached", timeout=10_000)
        assert httpx.get(f"{hub.url}/api/webhooks/{dead}", headers=AUTH, timeout=10).status_code == 404
        httpx.delete(f"{hub.url}/api/webhooks/{live}", headers=AUTH, timeout=10)
        page.wait_for_selector(f".wh-hook[data-hook='{live}']", state="detached", timeout=10_000)  # the refresh
        page.wait_for_selector("#no-webhooks")
        assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)
    finally:
        ctx.close()


def test_bad_url_and_no_events_are_said_in_the_page(hooks_hub: ServedHub, browser: Any) -> None:
    ctx = new_context(browser, "phone", "en-US")
    try:
        page = ctx.new_page()
        sign_in(page, hooks_hub)
        page.wait_for_selector("#webhooks h2")
        page.fill("#webhook-url", "http://a.test/x")
        for box in page.locator("#webhook-form input[type=checkbox]").all():
            box.set_checked(False)
        page.click("#webhook-add")
        page.wait_for_selector("#webhook-message.err")
        assert "at least one event" in page.inner_text("#webhook-message")
        page.fill("#webhook-url", "ftp://a.test/x")  # the browser's url type lets it by; the hub refuses it
        page.locator("#webhook-form input[data-event='match.called']").set_checked(True)
        page.click("#webhook-add")
        page.locator("#webhook-message.err", has_text="bad_url").wait_for(timeout=10_000)
        assert no_sideways_scroll(page)
        shot(page, "desk-webhooks-phone")
    finally:
        ctx.close()
