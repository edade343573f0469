"""Helpers of the fans' page tests (test_fans.py, bench/bracket_render.py): tournaments made on the
real hub, draws played to the end in the test (from the hub's own draw structure), and a /ws/watch
stand-in (Playwright's WebSocket routing) that hands a page a projection built here: a finished
256-player bracket or a two-stage draw that the hub of this branch may not make yet."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx

ADMIN_TOKEN = "web-test-admin"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
TV = {"width": 1920, "height": 1080}
DECIDED = ("finished", "walkover", "bye")


def admin(url: str, method: str, path: str, body: Any = None) -> Any:
    r = httpx.request(method, f"{url}{path}", json=body, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=30)
    assert r.status_code < 300, r.text
    return r.json()


def draw_projection(url: str, players: int, type_: str, name: str = "Big open", tables: int = 0) -> dict[str, Any]:
    """A tournament of `players` on the hub with its draw made (no tables: nothing is called)."""
    tid = admin(url, "POST", "/api/tournaments", {"name": name})["id"]
    for i in range(tables):
        admin(url, "POST", f"/api/tournaments/{tid}/tables", {"name": f"Table {i + 1}"})
    entries = [{"name": f"Player {i + 1}", "club": f"Club {i % 7 + 1}", "seed": i + 1} for i in range(players)]
    admin(url, "POST", f"/api/tournaments/{tid}/players", {"players": entries})
    match = {"discipline": "wpa_nine", "format": {"race_to": 5}, "options": {}}
    proj = admin(url, "POST", f"/api/tournaments/{tid}/draw", {"type": type_, "match": match, "seeding": "seeded"})
    return whole_draw(url, proj)


def whole_draw(url: str, proj: dict[str, Any]) -> dict[str, Any]:
    """`proj` with every draw match: the REST answers carry one page of them (draw.matches_page)."""
    page = proj["draw"].get("matches_page")
    matches = list(proj["draw"]["matches"])
    while page and page.get("next") is not None:
        more = admin(url, "GET", f"/api/tournaments/{proj['id']}?matches_offset={page['next']}&matches_limit=1024")
        matches += more["draw"]["matches"]
        page = more["draw"].get("matches_page")
    proj["draw"]["matches"] = matches
    proj["draw"].pop("matches_page", None)
    return proj


def _real(pid: Any) -> bool:
    return pid is not None and pid != "bye"


def _place(by_key: dict[str, dict[str, Any]], key: str | None, pid: str) -> None:
    if not key or key not in by_key:
        return
    slots = by_key[key]["players"]
    if pid in slots:
        return
    for i, s in enumerate(slots):
        if s is None:
            slots[i] = pid
            return


def play_out(proj: dict[str, Any], upto: int | None = None) -> dict[str, Any]:
    """The projection with its matches played (the better seed wins, 5-3; the grand final goes to
    the reset); `upto` stops after that many results. The hub's own links (winner_to, loser_to) place
    every winner and loser."""
    p = copy.deepcopy(proj)
    draw = p["draw"]
    by_key = {m["key"]: m for m in draw["matches"]}
    seed = {pl["id"]: pl["seed"] or 10_000 for pl in p["players"]}
    done = 0
    changed = True
    while changed and (upto is None or done < upto):
        changed = False
        for m in draw["matches"]:
            if upto is not None and done >= upto:
                break
            if m["status"] in DECIDED or len(m["players"]) < 2 or not all(_real(x) for x in m["players"]):
                continue
            a, b = m["players"][:2]
            win = b if m["key"] == "GF" else min((a, b), key=lambda x: seed[x])
            lose = a if win == b else b
            m.update(status="finished", winner=win, scores={win: 5, lose: 3}, match_id=None, table_id=None)
            _place(by_key, m.get("winner_to"), win)
            _place(by_key, m.get("loser_to"), lose)
            if m["key"] == "GF":  # the losers-bracket player won it: the reset is played
                reset = by_key.get("GF2") or {
                    "key": "GF2", "round": "GF2", "bracket": "final", "stage": m.get("stage", 1), "status": "ready",
                    "match_id": None, "table_id": None, "winner": None, "winner_to": None, "loser_to": None}
                reset["players"] = [a, b]
                if "GF2" not in by_key:
                    by_key["GF2"] = reset
                    draw["matches"].append(reset)
            done += 1
            changed = True
    for m in draw["matches"]:
        if m["status"] == "waiting" and len(m["players"]) >= 2 and all(_real(x) for x in m["players"]):
            m["status"] = "ready"
    p["queue"] = [m["key"] for m in draw["matches"] if m["status"] == "ready"]
    if all(m["status"] in DECIDED for m in draw["matches"]):
        draw["status"] = "finished"
        last = by_key.get("GF2") or by_key.get("GF") or max(draw["matches"], key=lambda m: int(m["round"][1:] or 0))
        draw["champion"] = last["winner"]
    return p


def two_stage(de16: dict[str, Any]) -> dict[str, Any]:
    """A 16-player double elimination that stops at 4 players (W1-W3, L1-L4) and their knockout
    (K1-1, K1-2, K2-1), in the shape of docs/tournaments.md ("What the tournament projection shows")."""
    p = copy.deepcopy(de16)
    draw = p["draw"]
    last = {"winners": 3, "losers": 4}
    keep = [m for m in draw["matches"] if m["bracket"] in last and int(m["round"][1:]) <= last[m["bracket"]]]
    for m in keep:
        m["stage"] = 1
        if m["round"] in ("W3", "L4"):
            m["winner_to"] = None
    knockout = [
        {"key": "K1-1", "round": "K1", "bracket": "winners", "stage": 2, "players": [None, None], "status": "waiting",
         "match_id": None, "table_id": None, "winner": None, "winner_to": "K2-1", "loser_to": None},
        {"key": "K1-2", "round": "K1", "bracket": "winners", "stage": 2, "players": [None, None], "status": "waiting",
         "match_id": None, "table_id": None, "winner": None, "winner_to": "K2-1", "loser_to": None},
        {"key": "K2-1", "round": "K2", "bracket": "winners", "stage": 2, "players": [None, None], "status": "waiting",
         "match_id": None, "table_id": None, "winner": None, "winner_to": None, "loser_to": None},
    ]
    draw["matches"] = keep + knockout
    draw["stages"] = [
        {"stage": 1, "type": "double_elimination", "status": "running", "groups": None, "advance": None,
         "seeding": "seeded", "entrants": [pl["id"] for pl in p["players"]], "advanced": [], "rounds": []},
        {"stage": 2, "type": "single_elimination", "status": "waiting", "groups": None, "advance": 4,
         "seeding": "results", "entrants": None, "advanced": [], "rounds": []},
    ]
    return p


class FakeWatch:
    """/ws/watch answered by the test: every `tournament:` subscribe gets `proj` as a snapshot, and
    `push(proj)` sends it as an update to every socket of the page."""

    def __init__(self, page: Any, proj: dict[str, Any]) -> None:
        self.proj = proj
        self.version = int(proj.get("version") or 1)
        self.sockets: list[Any] = []
        self.subscribed: list[str] = []
        page.route_web_socket("**/ws/watch", self._route)

    def _route(self, ws: Any) -> None:
        self.sockets.append(ws)
        ws.on_message(lambda raw: self._on(ws, raw))

    def _on(self, ws: Any, raw: Any) -> None:
        msg = json.loads(raw)
        if msg.get("type") == "ping":
            ws.send(json.dumps({"type": "pong"}))
        elif msg.get("type") == "subscribe":
            ch = msg["channel"]
            self.subscribed.append(ch)
            data = self.proj if ch.startswith("tournament:") else None
            ws.send(json.dumps({"type": "snapshot", "channel": ch, "version": self.version, "data": data}))

    def push(self, proj: dict[str, Any]) -> None:
        self.proj = proj
        self.version += 1
        tid = proj["id"]
        for ws in self.sockets:
            msg = {"type": "update", "channel": f"tournament:{tid}", "version": self.version, "data": proj}
            ws.send(json.dumps(msg))
