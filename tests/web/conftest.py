"""Browser tests of the web screens: the real hub (uvicorn, app factory, SQLite file) in a
subprocess on a free loopback port, and Debian's headless Chromium driven by Playwright.

Needs /usr/bin/chromium (Debian package `chromium`) and the `playwright` Python package;
never `playwright install` (no browser downloads here: `executable_path` is used).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.frames import subscribe_frame
from tests.hubproc import HubProcess
from tests.services import free_port  # noqa: F401 - the web tests import it from here

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("CUEHUB_CHROMIUM", "/usr/bin/chromium")
ADMIN_TOKEN = "web-test-admin"
XSS_NAME = "<img src=x onerror=alert(1)>"


class Hub(HubProcess):
    """The hub (the app factory under uvicorn, a SQLite file) for the browser tests, with the REST
    calls that set a screen up. `stop` is a SIGKILL: the sockets drop without a close frame, the
    way a crashed server looks to a tablet; `start` brings it back on the same port and database."""

    def __init__(self, workdir: Path, **env: str) -> None:
        super().__init__(f"sqlite+aiosqlite:///{workdir / 'hub.db'}", workdir, command="app",
                         env={"HUB_ADMIN_TOKEN": ADMIN_TOKEN, **env})

    def stop(self) -> None:
        self.kill()

    # --- REST setup -------------------------------------------------------------------------
    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = httpx.post(f"{self.url}{path}", json=body, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10)
        assert r.status_code == 201, r.text
        return r.json()

    def tournament(self, name: str = "Open") -> str:
        return self.post("/api/tournaments", {"name": name})["id"]

    def table(self, tid: str, name: str) -> dict[str, Any]:
        return self.post(f"/api/tournaments/{tid}/tables", {"name": name})

    def match(self, tid: str, table_id: str, *, names: tuple[str, str] = (XSS_NAME, "杨帆 Yang Fan"),
              discipline: str = "golden_nine", **extra: Any) -> dict[str, Any]:
        body = {
            "tournament_id": tid, "table_id": table_id, "discipline": discipline,
            "players": [{"id": "a", "name": names[0]}, {"id": "b", "name": names[1]}],
            "format": {"racks": 9} if discipline in ("golden_nine", "chase_nine") else {"race_to": 7},
            "options": {"shot_clock": {"shot_s": 45, "extension_s": 30, "break_s": 45}},
            **extra,
        }
        return self.post("/api/matches", body)

    def setup(self, tables: int = 1, **match_kw: Any) -> dict[str, Any]:
        """A tournament with `tables` tables, each with a scheduled match."""
        tid = self.tournament(f"Open {uuid.uuid4().hex[:4]}")
        out = []
        for i in range(tables):
            tb = self.table(tid, f"Table {i + 1}")
            m = self.match(tid, tb["id"], **match_kw)
            out.append({"table_id": tb["id"], "token": tb["token"], "match_id": m["id"]})
        return {"tid": tid, "tables": out}


@pytest.fixture(scope="module")
def hub_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    h = Hub(tmp_path_factory.mktemp("webhub"))
    h.start()
    try:
        yield h
    finally:
        h.stop()


def _watch_answers(hub_process: Hub) -> str | None:
    """None when /ws/watch answers a subscribe with a snapshot, else what went wrong."""
    import json

    from websockets.sync.client import connect

    tid = hub_process.tournament("probe")
    try:
        with connect(hub_process.url.replace("http", "ws", 1) + "/ws/watch", open_timeout=5) as ws:
            ws.send(json.dumps(subscribe_frame(f"tournament:{tid}")))
            msg = json.loads(ws.recv(timeout=5))
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return f"{type(exc).__name__}: {exc}"
    return None if msg.get("type") == "snapshot" else f"unexpected first message {msg!r}"


@pytest.fixture(scope="module")
def watch_gateway(hub_process: Hub) -> Hub:
    """The screens that follow matches need the public /ws/watch gateway of the hub: fail
    fast, with the reason, when the hub does not serve it (rather than a 30 s page timeout)."""
    problem = _watch_answers(hub_process)
    if problem:
        pytest.fail(f"the hub's /ws/watch does not answer a subscribe with a snapshot: {problem}")
    return hub_process


# Module scope, not session: Playwright's sync API keeps an event loop running in this thread
# while it is open, which would break the asyncio tests of any module collected after these.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
        )
        try:
            yield b
        finally:
            b.close()


class PageWatch:
    """Collects what must never happen on a page: dialogs (alert/confirm/prompt) and script errors."""

    def __init__(self) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []

    def attach(self, page: Any) -> Any:
        def on_dialog(d: Any) -> None:
            self.dialogs.append(d.message)
            d.dismiss()

        page.on("dialog", on_dialog)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def guard() -> PageWatch:
    return PageWatch()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
