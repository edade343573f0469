"""GET /api/tournaments for the home page (hub/tournaments/summary.py): each tournament with its
state, what is live and next, and its champion; the results exports answer as downloads."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer, envelope

from hub.app import create_app
from hub.settings import Settings
from hub.tournaments.summary import summarize

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def make(c: TestClient, name: str, players: int, tables: int) -> tuple[str, dict[str, str]]:
    tid = c.post("/api/tournaments", json={"name": name}, headers=admin()).json()["id"]
    tokens = {}
    for i in range(tables):
        tb = c.post(f"/api/tournaments/{tid}/tables", json={"name": f"Table {i + 1}"}, headers=admin()).json()
        tokens[tb["id"]] = tb["token"]
    if players:
        r = c.post(f"/api/tournaments/{tid}/players",
                   json={"players": [{"name": f"{name} P{i + 1}", "seed": i + 1} for i in range(players)]},
                   headers=admin())
        assert r.status_code == 201, r.text
    return tid, tokens


def listed(c: TestClient, tid: str, pred: Any = lambda e: True) -> dict[str, Any]:
    """The list's entry for `tid` once `pred` holds (the list is kept for up to a second)."""
    deadline = time.monotonic() + 5
    while True:
        entry = next(e for e in c.get("/api/tournaments").json()["tournaments"] if e["id"] == tid)
        if pred(entry):
            return entry
        assert time.monotonic() < deadline, entry
        time.sleep(0.05)


def command(c: TestClient, tokens: dict[str, str], entry: dict[str, Any], cmd: dict[str, Any]) -> None:
    r = c.post(f"/api/matches/{entry['match_id']}/commands", json=envelope(entry["match_id"], cmd),
               headers=bearer(tokens[entry["table_id"]]))
    assert r.status_code == 200, r.text


def test_setup_running_live_next_and_finished(c: TestClient) -> None:
    fresh, _ = make(c, "Fresh", 2, 1)
    e = listed(c, fresh)
    assert e["status"] == "setup" and e["draw_type"] is None and e["live"] == [] and e["next"] == []
    assert e["name"] == "Fresh" and e["tables"] == 1

    tid, tokens = make(c, "Open", 6, 2)
    c.post(f"/api/tournaments/{tid}/draw", json={"type": "single_elimination", "seeding": "seeded", "match": WPA},
           headers=admin())
    t = c.get(f"/api/tournaments/{tid}").json()
    called = [m for m in t["draw"]["matches"] if m["status"] == "called"]
    assert len(called) == 2
    e = listed(c, tid, lambda e: e["status"] == "running")
    # 6 players: 8 slots, 2 byes left out
    assert e["draw_type"] == "single_elimination" and e["played"] == 0 and e["total"] == 5
    # Called and not started: next, on their tables; nothing live yet.
    assert e["live"] == [] and {n["key"] for n in e["next"]} == {m["key"] for m in called}
    assert all(n["table"] and n["match_id"] for n in e["next"])
    first = called[0]
    command(c, tokens, first, {"kind": "start", "breaker": first["players"][1]})
    e = listed(c, tid, lambda e: e["live"])
    (live,) = e["live"]
    names = {p["id"]: p["name"] for p in t["players"]}
    assert live["key"] == first["key"] and live["match_id"] == first["match_id"]
    assert live["players"] == [names[p] for p in first["players"]] and live["scores"] == [0, 0]
    assert first["key"] not in {n["key"] for n in e["next"]}

    # A draw played to its end: finished, with its champion.
    while True:
        t = c.get(f"/api/tournaments/{tid}").json()
        if t["draw"]["status"] == "finished":
            break
        for m in (m for m in t["draw"]["matches"] if m["status"] == "called"):
            match = c.get(f"/api/matches/{m['match_id']}").json()
            loser = m["players"][1]
            if match["status"] == "scheduled":
                command(c, tokens, m, {"kind": "start", "breaker": loser})
            if match["status"] != "finished":
                command(c, tokens, m, {"kind": "concede", "player": loser, "scope": "match"})
        time.sleep(0.05)
    champion = t["draw"]["champion"]
    e = listed(c, tid, lambda e: e["status"] == "finished")
    assert e["champion"] == {"id": champion, "name": names[champion]}
    assert e["played"] == e["total"] and e["live"] == [] and e["next"] == []
    # Newest first, as before.
    ids = [x["id"] for x in c.get("/api/tournaments").json()["tournaments"]]
    assert ids.index(tid) < ids.index(fresh)


def test_a_hand_made_live_match_is_listed(c: TestClient) -> None:
    tid, tokens = make(c, "Friendly", 0, 1)
    (table_id,) = tokens
    m = c.post("/api/matches", json={"tournament_id": tid, "table_id": table_id, "discipline": "wpa_nine",
                                     "players": [{"id": "a", "name": "<b>A</b>"}, {"id": "b", "name": "B"}],
                                     "format": {"race_to": 3}}, headers=admin()).json()
    command(c, tokens, {"match_id": m["id"], "table_id": table_id}, {"kind": "start", "breaker": "a"})
    e = listed(c, tid, lambda e: e["live"])
    assert e["status"] == "setup" and e["live"] == [{"key": None, "match_id": m["id"], "table": "Table 1",
                                                     "players": ["<b>A</b>", "B"], "scores": [0, 0]}]


def test_results_exports_are_downloads(c: TestClient) -> None:
    tid, _ = make(c, "Club night 春", 3, 1)
    c.post(f"/api/tournaments/{tid}/draw", json={"type": "round_robin", "match": WPA}, headers=admin())
    for path, kind, name in (("results.json", "application/json", "results.json"),
                             ("results.csv", "text/csv", "matches.csv"), ("placings.csv", "text/csv", "placings.csv")):
        r = c.get(f"/api/tournaments/{tid}/{path}")
        assert r.status_code == 200 and r.headers["content-type"].startswith(kind)
        assert r.headers["content-disposition"] == (
            f"attachment; filename=\"Club-night-{name}\"; filename*=UTF-8''Club-night-%E6%98%A5-{name}")
    assert c.get("/api/tournaments/nope/results.csv").status_code == 404


def test_export_file_names_keep_chinese(c: TestClient) -> None:
    """RFC 6266: the name in its own script as `filename*` (UTF-8, percent-encoded), and an ASCII
    `filename` for clients that read only that (the tournament's id when nothing of it is ASCII)."""
    for title, ascii_name, whole in (("深圳金九公开赛 2026", "2026", "深圳金九公开赛-2026"),
                                     ("全国九球 / 决赛", None, "全国九球-决赛"),
                                     ('Open "A"; B', "Open-A-B", "Open-A-B")):
        tid, _ = make(c, title, 2, 1)
        r = c.get(f"/api/tournaments/{tid}/placings.csv")
        assert r.status_code == 200
        disposition = r.headers["content-disposition"]
        head, fallback, extended = (part.strip() for part in disposition.split(";"))
        assert head == "attachment"
        assert fallback == f'filename="{ascii_name or tid}-placings.csv"', disposition
        assert fallback.isascii() and extended.isascii()
        assert extended.startswith("filename*=UTF-8''")
        assert unquote(extended.removeprefix("filename*=UTF-8''")) == f"{whole}-placings.csv", disposition


def test_summarize_is_pure_and_keeps_byes_out() -> None:
    proj = {"id": "t1", "name": "T", "tables": [{"id": "tb1", "name": "Table 1", "status": "free", "match": None}],
            "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}, {"id": "p3", "name": "C"}],
            "queue": ["W2-1"],
            "draw": {"type": "single_elimination", "status": "running", "champion": None, "matches": [
                {"key": "W1-1", "players": ["p1", None], "status": "bye", "winner": "p1"},
                {"key": "W1-2", "players": ["p2", "p3"], "status": "finished", "winner": "p2"},
                {"key": "W2-1", "players": ["p1", "p2"], "status": "ready"}]}}
    e = summarize(proj)
    assert (e["played"], e["total"]) == (1, 2)
    assert e["counts"] == {"matches": 2, "played": 1, "walkovers": 0, "left": 1}
    # the projection's own count, when it has one, is the one shown
    counted = summarize({**proj, "draw": {**proj["draw"], "counts": {"matches": 9, "played": 3, "walkovers": 1,
                                                                      "left": 5}}})
    assert (counted["played"], counted["total"]) == (4, 9)
    assert e["next"] == [{"key": "W2-1", "match_id": None, "table": None, "players": ["A", "B"]}]


def test_a_second_lifespan_lists_from_its_own_store(sqlite_settings: Settings) -> None:
    app = create_app(sqlite_settings)
    with TestClient(app) as c1:
        tid, _ = make(c1, "First", 0, 0)
        assert [e["id"] for e in c1.get("/api/tournaments").json()["tournaments"]] == [tid]
    with TestClient(app) as c2:  # the first lifespan's engine is disposed: the list is made again
        other, _ = make(c2, "Second", 0, 0)
        assert [e["id"] for e in c2.get("/api/tournaments").json()["tournaments"]] == [other, tid]
