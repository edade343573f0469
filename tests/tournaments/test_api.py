"""PROTOCOL.md section 7 over REST on the real rules and a real SQLite file: players, the draw, the
queue feeding the tables by itself, walkovers, withdrawals, pauses, moves, cancels, renames, and the
undo of a finished draw match."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer, envelope

from hub.app import create_app
from hub.settings import Settings
from tests.frames import subscribe_frame
from tests.watch.tournament_view import TournamentView

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


class Event:
    """A tournament made through the API, with helpers to play its matches from the tablets."""

    def __init__(self, c: TestClient, players: int = 0, tables: int = 2, **player_kw: Any) -> None:
        self.c = c
        self.tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
        self.tables: dict[str, str] = {}  # table id -> token
        self.table_ids: list[str] = []
        for i in range(tables):
            tb = c.post(f"/api/tournaments/{self.tid}/tables", json={"name": f"Table {i + 1}"}, headers=admin()).json()
            self.tables[tb["id"]] = tb["token"]
            self.table_ids.append(tb["id"])
        self.players: list[dict[str, Any]] = []
        if players:
            r = c.post(f"/api/tournaments/{self.tid}/players",
                       json={"players": [{"name": f"Player {i + 1}", **player_kw} for i in range(players)]},
                       headers=admin())
            assert r.status_code == 201, r.text
            self.players = r.json()["players"]

    def get(self) -> dict[str, Any]:
        r = self.c.get(f"/api/tournaments/{self.tid}")
        assert r.status_code == 200, r.text
        return r.json()

    def draw(self, type_: str = "single_elimination", match: dict[str, Any] = WPA, expect: int = 201,
             **body: Any) -> dict[str, Any]:
        r = self.c.post(f"/api/tournaments/{self.tid}/draw", json={"type": type_, "match": match, **body},
                        headers=admin())
        assert r.status_code == expect, r.text
        return r.json()

    def entry(self, key: str) -> dict[str, Any]:
        return next(m for m in self.get()["draw"]["matches"] if m["key"] == key)

    def until(self, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The tournament once `pred(projection)` holds: the flow acts on a match's end by itself,
        a moment after the stroke that ended it was acknowledged."""
        deadline = time.monotonic() + timeout
        while True:
            t = self.get()
            if pred(t):
                return t
            assert time.monotonic() < deadline, "the flow did not get there"
            time.sleep(0.02)

    def settled(self, key: str) -> dict[str, Any]:
        """The entry of `key` once its match's result has been taken."""
        t = self.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == key)["status"] == "finished")
        return next(m for m in t["draw"]["matches"] if m["key"] == key)

    def command(self, mid: str, command: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        table = self.c.get(f"/api/matches/{mid}").json()["table_id"]
        r = self.c.post(f"/api/matches/{mid}/commands", json=envelope(mid, command), headers=bearer(self.tables[table]))
        assert r.status_code == expect, r.text
        return r.json()

    def win(self, key: str, winner: str) -> str:
        """The called match of `key` is won by `winner` (the loser breaks and concedes)."""
        e = self.entry(key)
        assert e["status"] == "called", e
        loser = next(p for p in e["players"] if p != winner)
        self.command(e["match_id"], {"kind": "start", "breaker": loser})
        self.command(e["match_id"], {"kind": "concede", "player": loser, "scope": "match"})
        self.settled(key)
        return e["match_id"]


def test_players_added_listed_and_refused(c: TestClient) -> None:
    ev = Event(c)
    url = f"/api/tournaments/{ev.tid}/players"
    one = c.post(url, json={"name": "Zheng Yubo", "club": "Shanghai", "seed": 1}, headers=admin())
    assert one.status_code == 201, one.text
    (p,) = one.json()["players"]
    assert p["name"] == "Zheng Yubo" and p["club"] == "Shanghai" and p["seed"] == 1 and p["status"] == "active"
    many = c.post(url, json={"players": [{"name": "Yang Fan"}, {"name": "Wu Jiaqing", "handicap": "eight"}]},
                  headers=admin())
    assert [q["name"] for q in many.json()["players"]] == ["Yang Fan", "Wu Jiaqing"]
    assert [q["name"] for q in c.get(url).json()["players"]] == ["Zheng Yubo", "Yang Fan", "Wu Jiaqing"]
    for bad in ({"name": ""}, {"name": "x" * 200}, {"name": 7}, {"nmae": "typo"}, {"players": []},
                {"name": "A", "seed": 0}, {"name": "A", "handicap": "nine"}, [1, 2]):
        r = c.post(url, json=bad, headers=admin())
        assert r.status_code == 422, (bad, r.text)
        assert set(r.json()["error"]) == {"code", "message"}
    taken = c.post(url, json={"name": "B", "seed": 1}, headers=admin())  # seed taken: added unseeded
    assert taken.status_code == 201 and taken.json()["players"][0]["seed"] is None
    assert taken.json()["seed_taken"] == [{"id": "p4", "name": "B", "seed": 1, "holder": "Zheng Yubo"}]
    assert c.post(url, json={"name": "B"}).status_code == 401
    assert c.post(url, json={"name": "B"}, headers=bearer("not-the-token")).status_code == 403
    assert c.post("/api/tournaments/nope/players", json={"name": "B"}, headers=admin()).status_code == 404
    assert c.get("/api/tournaments/nope/players").status_code == 404
    assert len(c.get(url).json()["players"]) == 4  # nothing half-stored


def test_draw_refusals(c: TestClient) -> None:
    ev = Event(c, players=1)
    ev.draw(expect=422)  # too few players
    Event.__init__  # noqa: B018 - readability
    c.post(f"/api/tournaments/{ev.tid}/players", json={"name": "Second"}, headers=admin())
    ev.draw("swiss", expect=422)
    ev.draw(match={"discipline": "golden_nine", "format": {"race_to": 5}}, expect=422)  # bad format
    ev.draw(match={"discipline": "chase_nine", "format": {"racks": 2}}, expect=422)  # a 3-player discipline
    ev.draw("chase_groups", expect=422)
    assert ev.get()["draw"] is None  # nothing half-stored
    ev.draw()
    ev.draw(expect=409)  # a second draw
    r = c.post(f"/api/tournaments/{ev.tid}/players", json={"name": "Late"}, headers=admin())
    assert r.status_code == 201 and ev.get()["draw"]["stale"] is True  # a late entry: a redraw takes it in
    unauthorised = c.post(f"/api/tournaments/{ev.tid}/draw", json={"type": "single_elimination", "match": WPA})
    assert unauthorised.status_code == 401


def test_the_queue_feeds_free_tables_and_winners_move_on(c: TestClient) -> None:
    ev = Event(c, players=4, tables=1)
    t = ev.draw()
    assert t["draw"]["type"] == "single_elimination" and t["draw"]["status"] == "running"
    called = [m for m in t["draw"]["matches"] if m["status"] == "called"]
    assert len(called) == 1 and called[0]["table_id"] == ev.table_ids[0]  # one table: one match
    assert t["queue"] == [m["key"] for m in t["draw"]["matches"] if m["status"] == "ready"] and len(t["queue"]) == 1
    assert t["tables"][0]["status"] == "playing" and t["tables"][0]["match"]["id"] == called[0]["match_id"]
    match = c.get(f"/api/matches/{called[0]['match_id']}").json()
    assert match["draw"] == {"tournament_id": ev.tid, "key": called[0]["key"], "round": called[0]["round"]}
    assert [p["id"] for p in match["players"]] == called[0]["players"]
    # A second table: the queue's head goes to it at once.
    tb = c.post(f"/api/tournaments/{ev.tid}/tables", json={"name": "Table 2"}, headers=admin()).json()
    ev.tables[tb["id"]] = tb["token"]
    ev.table_ids.append(tb["id"])
    first = called[0]["key"]
    second = t["queue"][0]
    assert ev.entry(second)["status"] == "called" and ev.entry(second)["table_id"] == tb["id"]
    winner1 = ev.entry(first)["players"][0]
    ev.win(first, winner1)
    done = ev.settled(first)
    assert done["status"] == "finished" and done["winner"] == winner1
    final = done["winner_to"]
    assert winner1 in ev.entry(final)["players"] and ev.entry(final)["status"] == "waiting"
    winner2 = ev.entry(second)["players"][1]
    ev.win(second, winner2)
    t = ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == final)["status"] == "called")
    f = next(m for m in t["draw"]["matches"] if m["key"] == final)
    assert sorted(f["players"]) == sorted([winner1, winner2])
    ev.win(final, winner2)
    t = ev.until(lambda t: t["draw"]["status"] == "finished")
    assert t["draw"]["champion"] == winner2
    status = {p["id"]: p["status"] for p in t["players"]}
    assert status[winner2] == "champion" and status[winner1] == "eliminated"
    assert {tb["status"] for tb in t["tables"]} == {"free"}


def test_redraw_before_a_match_starts(c: TestClient) -> None:
    ev = Event(c, players=4, tables=2)
    t = ev.draw(seed=1)
    old = [m["match_id"] for m in t["draw"]["matches"] if m["match_id"]]
    assert len(old) == 2
    t2 = ev.draw(seed=2, redraw=True)
    assert t2["draw"]["seed"] == 2
    for mid in old:
        assert c.get(f"/api/matches/{mid}").status_code == 404  # taken off their tables
    new = [m for m in t2["draw"]["matches"] if m["status"] == "called"]
    assert len(new) == 2 and not set(m["match_id"] for m in new) & set(old)
    ev.win(new[0]["key"], new[0]["players"][0])
    ev.draw(seed=3, redraw=True, expect=409)  # a match has been played


def test_walkover_withdrawal_and_bye(c: TestClient) -> None:
    ev = Event(c, players=3, tables=1)
    t = ev.draw(seeding="random", seed=5)
    byes = [m for m in t["draw"]["matches"] if m["status"] == "bye"]
    assert len(byes) == 1 and byes[0]["round"] == "W1"
    called = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    # Walkover of the called (not started) match: it comes off its table, the winner moves on.
    winner = called["players"][1]
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{called['key']}/walkover", json={"winner": winner}, headers=admin())
    assert r.status_code == 200, r.text
    assert c.get(f"/api/matches/{called['match_id']}").status_code == 404
    assert ev.entry(called["key"])["status"] == "walkover" and ev.entry(called["key"])["winner"] == winner
    final = ev.entry(called["winner_to"])
    assert final["status"] == "called" and winner in final["players"]
    other = next(p for p in final["players"] if p != winner)
    # The other finalist withdraws: their final goes to `winner` as a walkover.
    r = c.post(f"/api/tournaments/{ev.tid}/players/{other}/withdraw", headers=admin())
    assert r.status_code == 200 and r.json()["status"] == "withdrawn"
    t = ev.get()
    assert t["draw"]["status"] == "finished" and t["draw"]["champion"] == winner
    assert c.post(f"/api/tournaments/{ev.tid}/players/{other}/withdraw", headers=admin()).status_code == 409
    assert c.post(f"/api/tournaments/{ev.tid}/players/nobody/withdraw", headers=admin()).status_code == 404
    assert c.post(f"/api/tournaments/{ev.tid}/draw/ZZ-9/walkover", json={"winner": winner},
                  headers=admin()).status_code == 404


def test_withdrawing_a_player_at_the_table_forfeits_the_match(c: TestClient) -> None:
    ev = Event(c, players=2, tables=1)
    t = ev.draw()
    m = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    ev.command(m["match_id"], {"kind": "start", "breaker": m["players"][0]})
    quitter = m["players"][0]
    c.post(f"/api/tournaments/{ev.tid}/players/{quitter}/withdraw", headers=admin())
    played = c.get(f"/api/matches/{m['match_id']}").json()
    assert played["status"] == "finished" and played["winner"] == m["players"][1]
    assert ev.until(lambda t: t["draw"]["status"] == "finished")["draw"]["champion"] == m["players"][1]


def test_paused_tables_get_no_match(c: TestClient) -> None:
    ev = Event(c, players=4, tables=1)
    table = ev.table_ids[0]
    t = ev.draw()
    first = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    r = c.post(f"/api/tables/{table}/pause", headers=admin())
    assert r.status_code == 200 and r.json()["status"] == "paused"
    assert ev.get()["tables"][0]["status"] == "paused"
    ev.win(first["key"], first["players"][0])
    c.portal.call(c.app.state.services.flow.idle, ev.tid)  # the flow would have called a match by now
    t = ev.get()
    assert t["tables"][0]["match"]["status"] == "finished" and t["queue"]  # nothing new on the paused table
    assert c.post(f"/api/tables/{table}/pause", headers=admin()).status_code == 409
    r = c.post(f"/api/tables/{table}/resume", headers=admin())
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert c.post("/api/tables/nope/pause", headers=admin()).status_code == 404
    assert c.post(f"/api/tables/{table}/pause").status_code == 401


def test_move_and_delete_matches(c: TestClient) -> None:
    ev = Event(c, tables=3)
    a, b, spare = ev.table_ids
    body = {"tournament_id": ev.tid, "discipline": "wpa_nine", "format": {"race_to": 3},
            "players": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}]}
    m1 = c.post("/api/matches", json={**body, "table_id": a}, headers=admin()).json()
    m2 = c.post("/api/matches", json={**body, "table_id": b}, headers=admin()).json()
    r = c.patch(f"/api/matches/{m1['id']}", json={"table_id": b}, headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_busy"
    r = c.patch(f"/api/matches/{m1['id']}", json={"table_id": spare}, headers=admin())
    assert r.status_code == 200 and r.json()["table_id"] == spare
    t = {tb["id"]: tb for tb in ev.get()["tables"]}
    assert t[spare]["match"]["id"] == m1["id"] and t[a]["match"] is None and t[a]["status"] == "free"
    for bad in ({}, {"table_id": 5}, {"table_id": spare, "x": 1}):
        assert c.patch(f"/api/matches/{m1['id']}", json=bad, headers=admin()).status_code == 422
    assert c.patch(f"/api/matches/{m1['id']}", json={"table_id": "nope"}, headers=admin()).status_code == 404
    assert c.patch("/api/matches/nope", json={"table_id": a}, headers=admin()).status_code == 404
    drawn = {"tournament_id": ev.tid, "key": "W1-1", "round": "W1"}
    assert c.post("/api/matches", json={**body, "table_id": a, "draw": drawn}, headers=admin()).status_code == 422
    r = c.delete(f"/api/matches/{m2['id']}", headers=admin())
    assert r.status_code == 200 and c.get(f"/api/matches/{m2['id']}").status_code == 404
    assert m2["id"] not in [m["id"] for m in c.get("/api/matches").json()["matches"]]
    assert c.post("/api/matches", json={**body, "table_id": b}, headers=admin()).status_code == 201  # b is free
    c.post(f"/api/matches/{m1['id']}/commands", json=envelope(m1["id"], {"kind": "start", "breaker": "x"}),
           headers=bearer(ev.tables[spare]))
    assert c.delete(f"/api/matches/{m1['id']}", headers=admin()).status_code == 409  # started
    assert c.patch(f"/api/matches/{m1['id']}", json={"table_id": a}, headers=admin()).status_code == 409
    assert c.delete("/api/matches/nope", headers=admin()).status_code == 404
    assert c.delete(f"/api/matches/{m1['id']}").status_code == 401


def test_draw_matches_are_the_draws(c: TestClient) -> None:
    ev = Event(c, players=2, tables=1)
    m = next(m for m in ev.draw()["draw"]["matches"] if m["status"] == "called")
    r = c.delete(f"/api/matches/{m['match_id']}", headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "held_by_draw"


def test_rename_reaches_past_matches(c: TestClient) -> None:
    ev = Event(c, players=4, tables=2)
    t = ev.draw()
    m = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    pid = m["players"][0]
    ev.win(m["key"], pid)
    r = c.patch(f"/api/tournaments/{ev.tid}/players/{pid}", json={"name": "Zheng Yubo", "club": "Xi'an"},
                headers=admin())
    assert r.status_code == 200 and r.json()["name"] == "Zheng Yubo" and r.json()["club"] == "Xi'an"
    past = c.get(f"/api/matches/{m['match_id']}").json()
    assert past["status"] == "finished" and next(p for p in past["players"] if p["id"] == pid)["name"] == "Zheng Yubo"
    assert next(p for p in ev.get()["players"] if p["id"] == pid)["name"] == "Zheng Yubo"
    for bad in ({"name": ""}, {"name": "x" * 200}, {"colour": "red"}):
        assert c.patch(f"/api/tournaments/{ev.tid}/players/{pid}", json=bad, headers=admin()).status_code == 422
    assert c.patch(f"/api/tournaments/{ev.tid}/players/{pid}", json={"seed": 3}, headers=admin()).status_code == 409
    assert c.patch(f"/api/tournaments/{ev.tid}/players/nobody", json={"name": "x"}, headers=admin()).status_code == 404


def test_undo_of_a_finished_draw_match(c: TestClient) -> None:
    ev = Event(c, players=4, tables=1)
    t = ev.draw()
    first = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    pid = first["players"][0]
    mid = ev.win(first["key"], pid)
    t = ev.until(lambda t: any(m["status"] == "called" for m in t["draw"]["matches"]))
    nxt = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    assert nxt["key"] != first["key"]  # the table took the next match at once
    # The referee undoes the concession: the next match (not started) leaves the table, the result goes.
    ev.command(mid, {"kind": "undo"})
    assert c.get(f"/api/matches/{mid}").json()["status"] == "live"
    ev.until(lambda t: next(m for m in t["draw"]["matches"] if m["key"] == first["key"])["status"] == "called")
    assert pid not in ev.entry(first["winner_to"])["players"]
    assert c.get(f"/api/matches/{nxt['match_id']}").status_code == 404
    # Played again, the other way round (the start undone too: `pid` breaks and concedes).
    other = first["players"][1]
    ev.command(mid, {"kind": "undo"})
    ev.command(mid, {"kind": "start", "breaker": pid})
    ev.command(mid, {"kind": "concede", "player": pid, "scope": "match"})
    assert ev.settled(first["key"])["winner"] == other
    # Once the next match has started, the result stands: an undo is refused.
    t = ev.until(lambda t: any(m["status"] == "called" for m in t["draw"]["matches"]))
    nxt = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    ev.command(nxt["match_id"], {"kind": "start", "breaker": nxt["players"][0]})
    r = ev.command(mid, {"kind": "undo"}, expect=409)
    assert r["error"]["code"] == "not_allowed"


def test_call_requeue_and_order(c: TestClient) -> None:
    ev = Event(c, players=8, tables=1)
    t = ev.draw()
    (on_table,) = [m for m in t["draw"]["matches"] if m["status"] == "called"]
    queue = t["queue"]
    assert len(queue) == 3
    r = c.post(f"/api/tournaments/{ev.tid}/queue", json={"keys": [queue[2]]}, headers=admin())
    assert r.status_code == 200 and r.json()["queue"][0] == queue[2]
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{on_table['key']}/requeue", headers=admin())
    assert r.status_code == 200, r.text
    t = r.json()
    now = next(m for m in t["draw"]["matches"] if m["status"] == "called")
    assert now["key"] == queue[2] and t["queue"][-1] == on_table["key"]
    assert c.get(f"/api/matches/{on_table['match_id']}").status_code == 404
    r = c.post(f"/api/tournaments/{ev.tid}/draw/{t['queue'][0]}/call", json={}, headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_free_table"
    assert c.post(f"/api/tournaments/{ev.tid}/queue", json={"keys": ["W2-1"]}, headers=admin()).status_code == 409


def test_the_tournament_channel_carries_players_draw_queue_and_tables(c: TestClient) -> None:
    """Every change reaches `tournament:{tid}` on /ws/watch: players, the draw, the calls to tables,
    results moving winners on; and each update's data equals what REST answers then."""
    ev = Event(c, players=0, tables=1)
    with c.websocket_connect("/ws/watch") as ws:
        ws.send_json(subscribe_frame(f"tournament:{ev.tid}"))
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["data"]["draw"] is None and snap["data"]["players"] == []
        view = TournamentView()
        view.take(snap)
        c.post(f"/api/tournaments/{ev.tid}/players", json={"players": [{"name": f"P{i}"} for i in range(4)]},
               headers=admin())
        up = ws.receive_json()
        assert up["type"] == "update" and len(up["data"]["players"]) == 4
        view.take(up)
        ev.draw()

        def until(pred: Any) -> dict[str, Any]:
            for _ in range(50):
                msg = ws.receive_json()
                assert msg["type"] == "update", msg
                data = view.take(msg)  # the deltas applied: the whole projection at that version
                assert data is not None, "a gap in the updates"
                if pred(data):
                    return {**msg, "data": data}
            raise AssertionError("no such update")

        called = until(lambda d: d["draw"] and any(m["status"] == "called" for m in d["draw"]["matches"])
                       and d["tables"][0]["match"] is not None)
        key = next(m["key"] for m in called["data"]["draw"]["matches"] if m["status"] == "called")
        assert called["data"]["tables"][0]["status"] == "playing" and called["data"]["queue"]
        ev.win(key, ev.entry(key)["players"][0])
        moved = until(lambda d: next(m for m in d["draw"]["matches"] if m["key"] == key)["status"] == "finished")
        versions = [snap["version"], up["version"], called["version"], moved["version"]]
        assert versions == sorted(set(versions))
        # the next match called onto the table: its match there, and the draw saying so
        last = until(lambda d: d["tables"][0]["match"]["status"] == "scheduled" and any(
            m["status"] == "called" and m["match_id"] == d["tables"][0]["match"]["id"] for m in d["draw"]["matches"]))
        rest = ev.get()
        assert rest["draw"].pop("matches_page") == {"offset": 0, "limit": 256, "total": 3, "next": None}
        for field in ("players", "draw", "queue", "standings"):
            assert last["data"][field] == rest[field], field


def test_results_export(c: TestClient) -> None:
    ev = Event(c, tables=2)
    c.post(f"/api/tournaments/{ev.tid}/players",
           json={"players": [{"name": "=HYPERLINK(\"x\")", "club": "A, B"}, {"name": "Yang Fan"}, {"name": "Wu"},
                             {"name": "Ko"}]}, headers=admin())
    ev.draw(seeding="random", seed=11)
    for key in ("W1-1", "W1-2", "W2-1"):
        e = ev.until(lambda t, key=key: next(m for m in t["draw"]["matches"] if m["key"] == key)["status"] == "called")
        entry = next(m for m in e["draw"]["matches"] if m["key"] == key)
        ev.win(key, entry["players"][0])
    t = ev.until(lambda t: t["draw"]["status"] == "finished")
    r = c.get(f"/api/tournaments/{ev.tid}/results.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    places = {p["player"]: p["place"] for p in data["placings"]}
    final = next(m for m in t["draw"]["matches"] if m["key"] == "W2-1")
    assert places[t["draw"]["champion"]] == 1
    assert places[next(p for p in final["players"] if p != final["winner"])] == 2
    assert sorted(places.values()) == [1, 2, 3, 3]
    assert [m["key"] for m in data["matches"]] == ["W1-1", "W1-2", "W2-1"]
    assert data["matches"][2]["winner"] == t["draw"]["champion"]
    csv_text = c.get(f"/api/tournaments/{ev.tid}/results.csv").text
    assert csv_text.startswith("\ufeff")  # a byte order mark: a spreadsheet reads it as UTF-8
    lines = csv_text.lstrip("\ufeff").strip().split("\r\n")
    assert lines[0].startswith("key,round,round_name,group,status,player_1") and len(lines) == 4
    assert lines[3].startswith("W2-1,W2,Final,")
    assert ",决赛," in c.get(f"/api/tournaments/{ev.tid}/results.csv?lang=zh-CN").text
    assert "'=HYPERLINK" in csv_text and "\n=" not in csv_text and ",=" not in csv_text  # no formula injection
    placings = c.get(f"/api/tournaments/{ev.tid}/placings.csv").text.lstrip("\ufeff").strip().split("\r\n")
    assert placings[0].startswith("place,player_id,name") and len(placings) == 5 and '"A, B"' in "".join(placings)
    assert c.get("/api/tournaments/nope/results.json").status_code == 404


def test_a_called_draw_match_moves_and_the_draw_follows(c: TestClient) -> None:
    ev = Event(c, players=4, tables=3)
    t = ev.draw()
    called = [m for m in t["draw"]["matches"] if m["status"] == "called"]
    free = next(tb["id"] for tb in t["tables"] if tb["status"] == "free")
    m = called[0]
    r = c.patch(f"/api/matches/{m['match_id']}", json={"table_id": free}, headers=admin())
    assert r.status_code == 200 and r.json()["table_id"] == free
    t = ev.get()
    assert next(x for x in t["draw"]["matches"] if x["key"] == m["key"])["table_id"] == free
    status = {tb["id"]: tb["status"] for tb in t["tables"]}
    assert status[free] == "playing" and status[m["table_id"]] == "free"
    c.post(f"/api/tables/{m['table_id']}/pause", headers=admin())
    r = c.patch(f"/api/matches/{m['match_id']}", json={"table_id": m["table_id"]}, headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_paused"
    ev.win(m["key"], m["players"][0])  # played on its new table (token of that table)
