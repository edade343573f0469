"""The tournament channel's deltas (docs/tournament-channel.md), applied by a test client written
from the document (tournament_view.py), always rebuild what a fresh snapshot says.

- over random pairs of projections (any field changed, tables and players added, changed, removed or
  reordered, draws made, redrawn, gone, their matches and own fields changed): the hub's `diff`,
  applied by the test client, is the new projection;
- over random sequences of real changes on a hub (players, tables, a draw, calls, walkovers, results
  entered by hand, paused tables, renames, strokes): after every change the watcher's copy equals
  the snapshot a second socket gets then.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings
from hub.tournaments.delta import diff
from tests.frames import subscribe_frame
from tests.watch.tournament_view import TournamentView, apply_delta

# --- pure: random projections -------------------------------------------------------------------

names = st.text(min_size=1, max_size=6)
small = st.one_of(st.none(), st.integers(-3, 3), names, st.booleans())
value = st.recursive(small, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
                     max_leaves=6)


def entries(ident: str, prefix: str) -> st.SearchStrategy[list[dict[str, Any]]]:
    entry = st.fixed_dictionaries({ident: st.sampled_from([f"{prefix}{i}" for i in range(6)])},
                                  optional={"name": names, "status": st.sampled_from(["a", "b", "c"]), "x": value})
    return st.lists(entry, max_size=6, unique_by=lambda e: e[ident])


draws = st.one_of(st.none(), st.fixed_dictionaries(
    {"type": st.sampled_from(["single_elimination", "round_robin"]), "matches": entries("key", "W1-")},
    optional={"status": st.sampled_from(["running", "finished"]), "champion": st.one_of(st.none(), names),
              "stale": st.booleans(), "extra": value}))

projections = st.fixed_dictionaries(
    {"id": st.just("t1"), "name": names, "version": st.integers(0, 99), "tables": entries("id", "tb"),
     "players": entries("id", "p"), "draw": draws, "queue": st.lists(names, max_size=4),
     "standings": st.one_of(st.none(), st.lists(st.dictionaries(names, small, max_size=2), max_size=3))},
    optional={"archived": st.booleans(), "note": value})


@st.composite
def successors(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A projection and a later one: either anything at all, or a few edits of the first (what
    a hub's change usually is)."""
    old = draw(projections)
    if draw(st.booleans()):
        return old, draw(projections)
    new = copy.deepcopy(old)
    for _ in range(draw(st.integers(1, 4))):
        what = draw(st.sampled_from(["table", "player", "match", "draw_field", "queue", "drop", "add_field"]))
        if what in ("table", "player") and new[what + "s"]:
            i = draw(st.integers(0, len(new[what + "s"]) - 1))
            new[what + "s"][i] = {**new[what + "s"][i], "status": draw(st.sampled_from(["a", "b", "c", "d"]))}
        elif what == "match" and new["draw"] and new["draw"]["matches"]:
            i = draw(st.integers(0, len(new["draw"]["matches"]) - 1))
            new["draw"]["matches"][i] = {**new["draw"]["matches"][i], "x": draw(value)}
        elif what == "draw_field" and new["draw"]:
            new["draw"]["status"] = draw(st.sampled_from(["running", "finished"]))
        elif what == "queue":
            new["queue"] = draw(st.lists(names, max_size=4))
        elif what == "drop" and new["tables"]:
            new["tables"].pop(draw(st.integers(0, len(new["tables"]) - 1)))
        elif what == "add_field":
            new[draw(st.sampled_from(["note", "archived", "name"]))] = draw(value)
    new["version"] = old["version"] + 1
    return old, new


@given(successors())
@settings(max_examples=400, deadline=None)
def test_a_delta_applied_by_the_client_is_the_new_projection(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    old, new = pair
    before = copy.deepcopy(old)
    data = diff(old, new)
    assert old == before  # diff changes nothing
    assert apply_delta(old, data, new["version"]) == new
    if old == {**new, "version": old["version"]}:
        assert data == {}  # nothing changed, nothing sent


def test_a_stroke_is_one_table_entry() -> None:
    old = {"id": "t", "name": "Open", "version": 4, "players": [{"id": f"p{i}", "name": "x"} for i in range(1024)],
           "tables": [{"id": "tb1", "match": {"score": 0}}, {"id": "tb2", "match": None}], "draw": None,
           "queue": [], "standings": None}
    new = copy.deepcopy(old)
    new["tables"][0]["match"]["score"] = 1
    assert diff(old, new) == {"tables": [new["tables"][0]]}


# --- a hub: random sequences of real changes ------------------------------------------------------

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}
STEPS = ["players", "table", "draw", "walkover", "result", "pause", "rename", "start", "stroke", "requeue"]


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


class Organiser:
    """Does one kind of change on a tournament through the API (or finds nothing to do)."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
        self.tokens: dict[str, str] = {}
        self.added = 0

    def state(self) -> dict[str, Any]:
        return self.c.get(f"/api/tournaments/{self.tid}", params={"matches_limit": 1024}).json()

    def entries(self, status: str) -> list[dict[str, Any]]:
        draw = self.state()["draw"]
        return [m for m in (draw or {}).get("matches", []) if m["status"] == status]

    def do(self, step: str, pick: int) -> None:
        c, tid = self.c, self.tid
        if step == "players":
            batch = [{"name": f"P{self.added + i}"} for i in range(1 + pick % 3)]
            self.added += len(batch)
            c.post(f"/api/tournaments/{tid}/players", json={"players": batch}, headers=admin())
        elif step == "table" and len(self.tokens) < 3:
            tb = c.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{len(self.tokens) + 1}"}, headers=admin())
            self.tokens[tb.json()["id"]] = tb.json()["token"]
        elif step == "draw":
            kind = ["single_elimination", "double_elimination", "round_robin"][pick % 3]
            c.post(f"/api/tournaments/{tid}/draw", json={"type": kind, "seed": pick, "match": WPA}, headers=admin())
        elif step == "walkover":
            ready = self.entries("ready") + self.entries("called")
            if ready:
                m = ready[pick % len(ready)]
                c.post(f"/api/tournaments/{tid}/draw/{m['key']}/walkover", json={"winner": m["players"][0]},
                       headers=admin())
        elif step == "result":
            called = self.entries("called")
            if called:
                m = called[pick % len(called)]
                a, b = m["players"]
                c.post(f"/api/matches/{m['match_id']}/result", json={"winner": a, "score": {a: 2, b: pick % 2}},
                       headers=admin())
        elif step == "pause" and self.tokens:
            table = sorted(self.tokens)[pick % len(self.tokens)]
            paused = next(t for t in self.state()["tables"] if t["id"] == table)["status"] == "paused"
            c.post(f"/api/tables/{table}/{'resume' if paused else 'pause'}", headers=admin())
        elif step == "rename":
            players = self.state()["players"]
            if players:
                p = players[pick % len(players)]
                c.patch(f"/api/tournaments/{tid}/players/{p['id']}", json={"name": f"N{pick}"}, headers=admin())
        elif step in ("start", "stroke"):
            self._table_command(step, pick)
        elif step == "requeue":
            called = self.entries("called")
            if called:
                c.post(f"/api/tournaments/{tid}/draw/{called[pick % len(called)]['key']}/requeue", headers=admin())

    def _table_command(self, step: str, pick: int) -> None:
        tables = [t for t in self.state()["tables"] if t["match"] and t["match"]["status"] != "finished"]
        if not tables:
            return
        t = tables[pick % len(tables)]
        m = self.c.get(f"/api/matches/{t['match']['id']}").json()
        if m["status"] == "scheduled":
            command = {"kind": "start", "breaker": m["players"][0]["id"]}
        elif step == "stroke" and m["rack"].get("shooter"):
            command = {"kind": "shot", "player": m["rack"]["shooter"], "first_contact": None, "rail": False}
        else:
            return
        self.c.post(f"/api/matches/{m['id']}/commands", json={"id": str(uuid.uuid4()), "match_id": m["id"],
                                                              "command": command},
                    headers={"Authorization": f"Bearer {self.tokens[t['id']]}"})


def catch_up(c: TestClient, watcher: Any, view: TournamentView, channel: str) -> None:
    """Read the watcher's updates until its copy is at the version of a fresh snapshot, and compare."""
    for _ in range(20):
        with c.websocket_connect("/ws/watch") as fresh:
            fresh.send_json(subscribe_frame(channel))
            snap = fresh.receive_json()
        assert snap["type"] == "snapshot"
        while view.proj is None or view.proj["version"] < snap["version"]:
            msg = watcher.receive_json()
            # A snapshot is a watcher's resync when a delta had to wait behind one being sent and
            # another replaced it (docs/tournament-channel.md: a slow watcher gets the latest snapshot
            # instead); the TestClient's sender is sometimes that slow. A delta must never leave a gap.
            assert msg["type"] in ("update", "snapshot"), msg
            if msg["type"] == "snapshot":  # the latest: newer than anything this watcher was sent
                assert view.proj is None or msg["version"] > view.proj["version"], msg
            view.take(msg)
            assert view.gaps == 0, msg
        if view.proj["version"] == snap["version"]:
            assert view.proj == snap["data"]
            return
    raise AssertionError("the channel kept moving")


@given(st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 50)), min_size=4, max_size=14))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_watchers_copy_is_the_snapshot_after_every_change(c: TestClient, steps: list[tuple[str, int]]) -> None:
    org = Organiser(c)
    channel = f"tournament:{org.tid}"
    org.do("table", 0)
    with c.websocket_connect("/ws/watch") as watcher:
        watcher.send_json(subscribe_frame(channel))
        view = TournamentView()
        view.take(watcher.receive_json())
        for step, pick in [("players", 1), *steps]:
            org.do(step, pick)
            catch_up(c, watcher, view, channel)
        assert view.updates >= 1
