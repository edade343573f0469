"""Driving the referee tablet the way a referee does (taps), and reading what the hub stored."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from .conftest import Hub, PageWatch

TABLET = {"width": 1280, "height": 800}


def new_match(hub_process: Hub, discipline: str = "golden_nine", *, players: list[tuple[str, str]] | None = None,
              fmt: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
              table_name: str = "Table 7", tournament: str | None = None) -> dict[str, Any]:
    """A tournament with one table holding a scheduled match."""
    tid = hub_process.tournament(tournament or f"Open {uuid.uuid4().hex[:4]}")
    tb = hub_process.table(tid, table_name)
    if players is None:
        players = [("a", "Zheng Yubo"), ("b", "Wang Can")] + ([("c", "Han Yu")] if discipline == "chase_nine" else [])
    if fmt is None:
        fmt = {"racks": 9} if discipline in ("golden_nine", "chase_nine") else {"race_to": 7}
    body: dict[str, Any] = {"tournament_id": tid, "table_id": tb["id"], "discipline": discipline,
                            "players": [{"id": i, "name": n} for i, n in players], "format": fmt}
    if options is not None:
        body["options"] = options
    m = hub_process.post("/api/matches", body)
    return {"tid": tid, "table_id": tb["id"], "token": tb["token"], "match_id": m["id"], "table_name": table_name}


def command(hub_process: Hub, t: dict[str, Any], cmd: dict[str, Any], match_id: str | None = None) -> dict[str, Any]:
    mid = match_id or t["match_id"]
    r = httpx.post(
        f"{hub_process.url}/api/matches/{mid}/commands",
        json={"id": uuid.uuid4().hex, "match_id": mid, "command": cmd},
        headers={"Authorization": f"Bearer {t['token']}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    return r.json()


def events(hub_process: Hub, mid: str) -> list[dict[str, Any]]:
    return hub_process.get(f"/api/matches/{mid}/events?since=0")["events"]


def kinds(hub_process: Hub, mid: str) -> list[str]:
    return [e["kind"] for e in events(hub_process, mid)]



def open_tablet(
    context: Any, guard: PageWatch, hub_process: Hub, t: dict[str, Any], size: dict[str, int] = TABLET
) -> Any:
    page = guard.attach(context.new_page())
    page.set_viewport_size(size)
    page.goto(f"{hub_process.url}/tablet/{t['table_id']}#token={t['token']}")
    page.wait_for_selector("body[data-conn='live']")
    return page


def start(page: Any, breaker: str = "a") -> None:
    page.wait_for_selector("#start:not(.hidden)")
    page.click(f"#start [data-breaker='{breaker}']")
    page.wait_for_selector("#stroke:not(.hidden)")


def version(page: Any, v: int, timeout: float = 10000) -> None:
    page.wait_for_selector(f"body[data-version='{v}']", timeout=timeout)


def tap_center(page: Any, selector: str) -> None:
    """A finger on the button's place: no waiting for it to be enabled or stable (a real tap)."""
    box = page.locator(selector).bounding_box()
    assert box, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def no_reject(page: Any) -> None:
    assert page.locator("#reject.hidden").count() == 1, page.locator("#reject").inner_text()
    assert "Rejected" not in page.locator("#log").inner_text()
