"""A handicapped draw end to end (PROTOCOL.md section 13): ratings from last week's result, a draw
whose match carries `handicap`, its match created with a race per player, played on the table until
the weaker player reaches their own shorter race, and the draw taking that result."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from services import wait_until
from spine_helpers import ADMIN, admin

from hub.app import create_app
from hub.settings import Settings
from tests.people.test_api import Event

WPA = {"discipline": "wpa_nine", "options": {}}


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/h.db", admin_token=ADMIN)
    with TestClient(create_app(settings)) as client:
        yield client


def _draw(ev: Event, match: dict[str, object]) -> None:
    r = ev.c.post(f"/api/tournaments/{ev.tid}/draw", headers=admin(),
                  json={"type": "single_elimination", "seeding": "random", "seed": 7, "match": match})
    assert r.status_code == 201, r.text


def test_the_weaker_player_wins_at_their_own_race(c: TestClient) -> None:
    week1 = Event(c, ["Alpha", "Beta"], name="Week 1", tables=1)
    _draw(week1, {**WPA, "format": {"race_to": 15}})
    e = wait_until(lambda: week1.entry("W1-1")["status"] == "called" and week1.entry("W1-1"), what="called")
    alpha, beta = week1.pid("Alpha"), week1.pid("Beta")
    r = c.post(f"/api/matches/{e['match_id']}/result", headers=admin(),
               json={"winner": alpha, "score": {alpha: 15, beta: 0}, "reason": "no referee"})
    assert r.status_code == 200, r.text

    def rated() -> dict[str, int] | None:
        rows = c.get("/api/ratings?discipline=wpa_nine").json()["ratings"]
        return {row["person"]: row["value"] for row in rows} if len(rows) == 2 else None

    values = wait_until(rated, timeout=30, what="rated")
    strong, weak = week1.person("Alpha"), week1.person("Beta")
    assert values[strong] > values[weak] + 100  # 15-0: far apart

    week2 = c.post("/api/tournaments", json={"name": "Week 2"}, headers=admin()).json()["id"]
    table = c.post(f"/api/tournaments/{week2}/tables", json={"name": "T1"}, headers=admin()).json()
    r = c.post(f"/api/tournaments/{week2}/players", headers=admin(),
               json={"players": [{"person": strong}, {"person": weak}]})
    assert r.status_code == 201, r.text
    ids = {p["person"]: p["id"] for p in r.json()["players"]}
    r = c.post(f"/api/tournaments/{week2}/draw", headers=admin(), json={
        "type": "single_elimination", "seeding": "random", "seed": 7,
        "match": {**WPA, "format": {"race_to": 5}, "handicap": {"by": "rating", "race_to": 5}}})
    assert r.status_code == 201, r.text

    def called() -> dict[str, object] | None:
        m = next(m for m in c.get(f"/api/tournaments/{week2}").json()["draw"]["matches"] if m["key"] == "W1-1")
        return m if m["status"] == "called" else None

    entry = wait_until(called, what="called")
    races = entry["races"]
    assert races[ids[strong]] == 5 and 1 <= races[ids[weak]] < 5  # the handicap: a shorter race
    mid = str(entry["match_id"])
    match = c.get(f"/api/matches/{mid}").json()
    assert {p["id"]: p["race_to"] for p in match["players"]} == races  # the engine has each race

    token = {"Authorization": f"Bearer {table['token']}"}
    n = 0

    def send(command: dict[str, object]) -> None:
        nonlocal n
        n += 1
        r = c.post(f"/api/matches/{mid}/commands", headers=token,
                   json={"id": f"c{n}", "match_id": mid, "command": command})
        assert r.status_code == 200, r.text

    send({"kind": "start", "breaker": ids[weak]})
    for _ in range(races[ids[weak]]):  # the 9 on every break: each rack the weaker player's (the winner breaks)
        send({"kind": "shot", "player": ids[weak], "first_contact": 1, "pocketed": [9], "break_rails": 4})
    match = c.get(f"/api/matches/{mid}").json()
    assert match["status"] == "finished" and match["winner"] == ids[weak]
    done = wait_until(lambda: (m := next(m for m in c.get(f"/api/tournaments/{week2}").json()["draw"]["matches"]
                                         if m["key"] == "W1-1"))["status"] == "finished" and m, what="taken")
    assert done["winner"] == ids[weak] and done["races"] == races
    assert c.get(f"/api/tournaments/{week2}").json()["draw"]["champion"] == ids[weak]
