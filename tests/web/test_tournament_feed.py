"""The board and the bracket follow a tournament live from its deltas (tournament_feed.js), in a
real headless Chromium against the real hub: each page gets one snapshot, then only updates that
carry a `base`, and still shows every stroke and result; the pages' own delta code, run on the
frames they received, rebuilds what a fresh snapshot says (docs/tournament-channel.md)."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from tests.frames import subscribe_frame

from .conftest import Hub, PageWatch, shot
from .test_bracket import NAMES, TV, Event, phone_page, wait_live


def frames_of(page: Any, channel: str) -> list[dict[str, Any]]:
    """Every message of `channel` the page's sockets receive, from now on."""
    got: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if msg.get("channel") == channel:
                got.append(msg)

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return got


def snapshot(hub_process: Hub, channel: str) -> dict[str, Any]:
    with connect(hub_process.url.replace("http", "ws", 1) + "/ws/watch", open_timeout=5) as ws:
        ws.send(json.dumps(subscribe_frame(channel)))
        return json.loads(ws.recv(timeout=5))


REBUILD = """async ([frames]) => {
  const { applyDelta } = await import('/static/js/tournament_feed.js');
  let proj = null;
  for (const msg of frames) {
    if (msg.type === 'snapshot') proj = msg.data;
    else if (msg.type === 'update' && proj && msg.base === proj.version) proj = applyDelta(proj, msg.data, msg.version);
    else return { gap: msg.version };
  }
  return { proj };
}"""


def test_board_and_bracket_follow_the_deltas_live(watch_gateway: Hub, browser: Any, guard: PageWatch) -> None:
    hub_process = watch_gateway
    ev = Event(hub_process, [{"name": n} for n in NAMES[:8]], tables=2, name="Deltas Open")
    channel = f"tournament:{ev.tid}"
    ctx = browser.new_context(viewport=TV)
    board = guard.attach(ctx.new_page())
    board_frames = frames_of(board, channel)
    board.goto(f"{hub_process.url}/board/{ev.tid}")
    bracket = phone_page(browser, guard, "about:blank")
    bracket_frames = frames_of(bracket, channel)
    bracket.goto(f"{hub_process.url}/bracket/{ev.tid}")
    board.wait_for_selector("body[data-conn='live']")
    ev.draw("single_elimination", seeding="random", seed=4)
    wait_live(bracket)
    first, second = ev.called()
    # Strokes: the board's cell goes live, the bracket's match shows its score.
    ev.start(first, first["players"][1])  # the player who will concede it breaks
    board.wait_for_selector(f".cell[data-table='{first['table_id']}'].live", timeout=5000)
    bracket.wait_for_selector(f".bm[data-key='{first['key']}'].st-live", timeout=5000)
    # Results move the winners on: both pages show them.
    for entry in (first, second):
        ev.win(entry, entry["players"][0])
        bracket.wait_for_selector(f".bm[data-key='{entry['key']}'][data-status='finished']"
                                  f"[data-winner='{entry['players'][0]}']", timeout=5000)
    board.wait_for_function("(n) => document.querySelectorAll('#up-next .un-item').length >= n", arg=1, timeout=5000)
    shot(board, "feed-board-tv-en")
    shot(bracket, "feed-bracket-phone-en")
    fresh = snapshot(hub_process, channel)
    for page, frames in ((board, board_frames), (bracket, bracket_frames)):
        for _ in range(50):  # the page's socket has had the messages up to the fresh snapshot's version
            if frames and frames[-1]["version"] >= fresh["version"]:
                break
            page.wait_for_timeout(100)
        kinds = [m["type"] for m in frames]
        assert kinds.count("snapshot") == 1 and kinds[0] == "snapshot", kinds
        updates = [m for m in frames if m["type"] == "update"]
        assert len(updates) >= 8 and all(isinstance(m["base"], int) for m in updates)
        # A stroke's update is its table, not the tournament.
        assert any(set(m["data"]) == {"tables"} for m in updates)
        upto = [m for m in frames if m["version"] <= fresh["version"]]
        rebuilt = page.evaluate(REBUILD, [upto])
        assert "gap" not in rebuilt, rebuilt
        assert upto[-1]["version"] == fresh["version"]
        assert rebuilt["proj"] == fresh["data"]
    assert not guard.errors, guard.errors
    ctx.close()
    bracket.context.close()
