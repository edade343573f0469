"""PROTOCOL.md section 12 over REST on the real rules and a real SQLite file: a draw played stroke by
stroke, then the profiles, matches, head-to-head and statistics the hub keeps by itself (the keeper
runs after the acks, so reads poll until it has caught up); re-links, merges, reopened matches,
walkovers and results by hand; and the errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from services import wait_until
from spine_helpers import admin, bearer, envelope

from hub.app import create_app
from hub.settings import Settings

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}
NAMES = ["王也", "Zheng Yubo", "Ko Pin-yi", "Fedor Gorst"]


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


class Event:
    def __init__(self, c: TestClient, names: list[str], name: str = "Open", tables: int = 2) -> None:
        self.c = c
        self.tid = c.post("/api/tournaments", json={"name": name}, headers=admin()).json()["id"]
        self.tokens: dict[str, str] = {}
        for i in range(tables):
            tb = c.post(f"/api/tournaments/{self.tid}/tables", json={"name": f"T{i}"}, headers=admin()).json()
            self.tokens[tb["id"]] = tb["token"]
        r = c.post(f"/api/tournaments/{self.tid}/players", json={"players": [{"name": n} for n in names]},
                   headers=admin())
        assert r.status_code == 201, r.text
        self.players = {p["name"]: p for p in r.json()["players"]}

    def pid(self, name: str) -> str:
        return str(self.players[name]["id"])

    def person(self, name: str) -> str:
        return str(self.players[name]["person"])

    def draw(self) -> None:
        r = self.c.post(f"/api/tournaments/{self.tid}/draw", headers=admin(),
                        json={"type": "single_elimination", "seeding": "random", "seed": 7, "match": WPA})
        assert r.status_code == 201, r.text

    def entry(self, key: str) -> dict[str, Any]:
        t = self.c.get(f"/api/tournaments/{self.tid}").json()
        return next(m for m in t["draw"]["matches"] if m["key"] == key)

    def send(self, mid: str, command: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        table = self.c.get(f"/api/matches/{mid}").json()["table_id"]
        r = self.c.post(f"/api/matches/{mid}/commands", json=envelope(mid, command), headers=bearer(self.tokens[table]))
        assert r.status_code == expect, r.text
        return r.json()

    def play(self, key: str, winner: str) -> str:
        """The loser breaks dry, the winner runs the rack out (a table run), then wins the next
        rack on its break (a golden break): 2-0."""
        e = wait_until(lambda: self.entry(key)["status"] == "called" and self.entry(key), what=f"{key} called")
        mid, loser = e["match_id"], next(p for p in e["players"] if p != winner)
        self.send(mid, {"kind": "start", "breaker": loser})
        self.send(mid, {"kind": "shot", "player": loser, "first_contact": 1, "break_rails": 4})
        self.send(mid, {"kind": "shot", "player": winner, "first_contact": 1, "pocketed": list(range(1, 10)),
                        "intent": "pot"})
        self.send(mid, {"kind": "shot", "player": winner, "first_contact": 1, "pocketed": [9], "break_rails": 4})
        wait_until(lambda: self.entry(key)["status"] == "finished", what=f"{key} finished")
        return str(mid)


def profile(c: TestClient, person: str) -> dict[str, Any]:
    r = c.get(f"/api/people/{person}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def played(c: TestClient, person: str) -> int:
    return int(profile(c, person)["stats"]["total"]["matches"]["played"])


def test_a_draw_played_to_its_end_makes_history(c: TestClient) -> None:
    ev = Event(c, NAMES)
    assert all(p["link"] == "created" and p["person"] for p in ev.players.values())
    ev.draw()
    first = ev.entry("W1-1")["players"]
    second = ev.entry("W1-2")["players"]
    m1 = ev.play("W1-1", first[0])
    ev.play("W1-2", second[1])
    final = ev.play("W2-1", first[0])
    champion = next(n for n, p in ev.players.items() if p["id"] == first[0])
    runner_up = next(n for n, p in ev.players.items() if p["id"] == second[1])
    person = ev.person(champion)

    prof = wait_until(lambda: played(c, person) == 2 and profile(c, person), what="the champion's history")
    (event,) = prof["events"]
    assert (event["tournament_id"], event["place"], event["status"], event["played_as"]) == (
        ev.tid, 1, "champion", champion)
    total = prof["stats"]["total"]
    assert total["matches"] == {"played": 2, "won": 2, "entered": 0}
    assert total["racks"] == {"played": 4, "won": 4, "won_on_own_break": 2, "won_on_opponent_break": 2}
    assert total["breaks"] == {"taken": 2, "balls": 2, "dry": 0, "fouls": 0, "racks_won": 2}
    assert total["table_runs"] == 2 and total["golden_breaks"] == 2
    assert total["intent"]["pot"] == {"strokes": 2, "success": 2}
    assert total["strokes"]["count"] == 4 and total["strokes"]["timed"] == 4
    assert prof["stats"]["disciplines"]["wpa_nine"] == total
    assert event["stats"] == prof["stats"]  # one event: the entry's statistics are the career's
    assert set(prof["ratings"]) <= {"wpa_nine"} and prof["live"] is None  # ratings: tests/ratings/

    loser_prof = wait_until(lambda: profile(c, ev.person(runner_up))["events"][0]["place"] == 2
                            and profile(c, ev.person(runner_up)), what="the runner-up's place")
    assert loser_prof["stats"]["total"]["breaks"]["dry"] == 1

    page1 = c.get(f"/api/people/{person}/matches", params={"limit": 1}).json()
    assert [m["match_id"] for m in page1["matches"]] == [final] and page1["next"]
    page2 = c.get(f"/api/people/{person}/matches", params={"limit": 1, "cursor": page1["next"]}).json()
    assert [m["match_id"] for m in page2["matches"]] == [m1] and page2["next"] is None
    top = page1["matches"][0]
    assert top["round_name"] == "Final" and top["round_name_zh"] == "决赛" and top["won"] and top["score"] == 2
    assert top["opponents"] == [{"player_id": second[1], "name": runner_up, "score": 0,
                                 "person": ev.person(runner_up)}]
    assert c.get(f"/api/people/{person}/matches", params={"discipline": "golden_nine"}).json()["matches"] == []

    vs = c.get(f"/api/people/{person}/versus/{ev.person(runner_up)}").json()
    assert vs["total"] == {"matches": 1, "a_wins": 1, "b_wins": 0, "a_racks": 2, "b_racks": 0}
    assert vs["disciplines"] == {"wpa_nine": vs["total"]} and [m["match_id"] for m in vs["matches"]] == [final]
    back = c.get(f"/api/people/{ev.person(runner_up)}/versus/{person}").json()["total"]
    assert (back["a_wins"], back["b_wins"], back["a_racks"], back["b_racks"]) == (0, 1, 0, 2)

    stats = c.get(f"/api/tournaments/{ev.tid}/stats").json()
    row = next(p for p in stats["players"] if p["player_id"] == first[0])
    assert row["person"] == person and row["stats"] == event["stats"]
    listed = c.get("/api/people", params={"q": "wang ye"}).json()["people"]
    assert [(p["name"], p["events"]) for p in listed] == [("王也", 1)]
    wang = profile(c, listed[0]["id"])["ratings"]  # the ratings are tests/ratings/'s
    assert listed[0]["rating"] is None or set(listed[0]["rating"]) <= set(wang) | {"wpa_nine"}


def test_live_stats_relink_reopen_and_hand_result(c: TestClient) -> None:
    ev = Event(c, ["Alpha", "Beta"], tables=1)
    ev.draw()
    e = wait_until(lambda: ev.entry("W1-1")["status"] == "called" and ev.entry("W1-1"), what="called")
    mid, a, b = e["match_id"], *e["players"]
    ev.send(mid, {"kind": "start", "breaker": a})
    ev.send(mid, {"kind": "shot", "player": a, "first_contact": 1, "pocketed": [9], "break_rails": 4})
    live = c.get(f"/api/matches/{mid}/stats").json()
    assert live["status"] == "live" and live["version"] == 2
    mine = next(p for p in live["players"] if p["player_id"] == a)
    assert mine["stats"]["total"]["golden_breaks"] == 1 and mine["stats"]["total"]["matches"]["played"] == 0
    assert mine["person"] == ev.person("Alpha" if a == ev.pid("Alpha") else "Beta")
    assert profile(c, mine["person"])["live"]["match_id"] == mid
    ev.send(mid, {"kind": "shot", "player": a, "first_contact": 1, "pocketed": [9], "break_rails": 4})
    winner_person = mine["person"]
    wait_until(lambda: played(c, winner_person) == 1, what="the match in history")

    # re-link the winner's entry to another person: the history follows the link
    (other,) = c.post("/api/people", json={"name": "Alpha Prime"}, headers=admin()).json()["people"]
    r = c.patch(f"/api/tournaments/{ev.tid}/players/{a}", json={"person": other["id"]}, headers=admin())
    assert r.status_code == 200 and r.json()["person"] == other["id"]
    assert played(c, other["id"]) == 1 and played(c, winner_person) == 0
    assert profile(c, winner_person)["events"] == []

    # the last stroke undone: the match is live again and leaves history
    ev.send(mid, {"kind": "undo"})
    wait_until(lambda: played(c, other["id"]) == 0, what="the reopened match left history")
    assert c.get(f"/api/people/{other['id']}/matches").json()["matches"] == []

    # a result by hand: a match (entered), its racks by the score, no stroke statistics
    r = c.post(f"/api/matches/{mid}/result", json={"winner": b, "score": {a: 1, b: 2}}, headers=admin())
    assert r.status_code == 200, r.text
    prof = wait_until(lambda: played(c, other["id"]) == 1 and profile(c, other["id"]), what="the hand result")
    total = prof["stats"]["total"]
    assert total["matches"] == {"played": 1, "won": 0, "entered": 1} and total["racks"]["played"] == 3
    assert total["golden_breaks"] == 0 and total["strokes"]["count"] == 0
    (m,) = c.get(f"/api/people/{other['id']}/matches").json()["matches"]
    assert m["entered"] and not m["walkover"] and m["score"] == 1


def test_a_walkover_is_listed_and_counts_no_match(c: TestClient) -> None:
    ev = Event(c, ["One", "Two", "Three", "Four"], tables=1)
    ev.draw()
    e = wait_until(lambda: ev.entry("W1-2")["status"] in ("ready", "called") and ev.entry("W1-2"), what="ready")
    quitter, stayer = e["players"]
    assert c.post(f"/api/tournaments/{ev.tid}/players/{quitter}/withdraw", headers=admin()).status_code == 200
    person = next(p["person"] for p in ev.players.values() if p["id"] == stayer)
    page = wait_until(lambda: c.get(f"/api/people/{person}/matches").json()["matches"], what="the walkover")
    (m,) = page
    assert m["walkover"] and m["won"] and m["match_id"] is None and m["opponents"][0]["player_id"] == quitter
    assert played(c, person) == 0
    quitter_person = next(p["person"] for p in ev.players.values() if p["id"] == quitter)
    wait_until(lambda: profile(c, quitter_person)["events"][0]["status"] == "withdrawn", what="withdrawn")


def test_a_player_removed_before_the_draw_leaves_their_person_free(c: TestClient) -> None:
    ev = Event(c, ["Stays", "Goes"], tables=1)
    person = ev.person("Goes")
    assert c.delete(f"/api/people/{person}", headers=admin()).json()["error"]["code"] == "has_entries"
    r = c.delete(f"/api/tournaments/{ev.tid}/players/{ev.pid('Goes')}", headers=admin())
    assert r.status_code == 200, r.text
    assert profile(c, person)["events"] == []
    assert c.delete(f"/api/people/{person}", headers=admin()).status_code == 200
    assert c.get(f"/api/people/{person}").status_code == 404


def test_merged_people_answer_where_they_went(c: TestClient) -> None:
    made = c.post("/api/people", json={"people": [{"name": "Wu Jiaqing"}, {"name": "Wu Jia-qing"}]},
                  headers=admin()).json()["people"]
    r = c.post(f"/api/people/{made[1]['id']}/merge", json={"into": made[0]["id"]}, headers=admin())
    assert r.status_code == 200 and r.json() == {"id": made[1]["id"], "merged_into": made[0]["id"]}
    assert c.get(f"/api/people/{made[1]['id']}").json() == {"merged_into": made[0]["id"]}
    assert c.get(f"/api/people/{made[1]['id']}/matches").json()["merged_into"] == made[0]["id"]
    again = c.post(f"/api/people/{made[1]['id']}/merge", json={"into": made[0]["id"]}, headers=admin())
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_merged"
    r = c.post(f"/api/people/{made[1]['id']}/unmerge", headers=admin())
    assert r.status_code == 200 and c.get(f"/api/people/{made[1]['id']}").json()["name"] == "Wu Jia-qing"


def test_errors(c: TestClient) -> None:
    (p,) = c.post("/api/people", json={"name": "Solo"}, headers=admin()).json()["people"]
    for path in ("/api/people/nope", "/api/people/nope/matches", f"/api/people/{p['id']}/versus/nope",
                 "/api/tournaments/nope/stats", "/api/matches/nope/stats"):
        r = c.get(path)
        assert r.status_code == 404 and set(r.json()["error"]) == {"code", "message"}, path
    assert c.get(f"/api/people/{p['id']}/versus/{p['id']}").json()["error"]["code"] == "same_person"
    for params in ({"cursor": "!!"}, {"limit": 0}, {"limit": 101}, {"q": "x" * 201}):
        r = c.get("/api/people", params=params)
        assert r.status_code == 422, params
    assert c.get(f"/api/people/{p['id']}/matches", params={"cursor": "e30"}).json()["error"]["code"] == "bad_cursor"
    assert c.post("/api/people", json={"name": "X"}).status_code == 401
    assert c.post("/api/people", json={"name": "X"}, headers=bearer("wrong")).status_code == 403
    assert c.post("/api/people", json={"name": ""}, headers=admin()).status_code == 422
    assert c.patch(f"/api/people/{p['id']}", json={"nick": "x"}, headers=admin()).status_code == 422
    assert c.post(f"/api/people/{p['id']}/merge", json={"into": p["id"]}, headers=admin()).status_code == 422
    assert c.post(f"/api/people/{p['id']}/merge", json=["x"], headers=admin()).status_code == 422
    ev = Event(c, ["A"], tables=0)
    r = c.post(f"/api/tournaments/{ev.tid}/players", json={"person": "nope"}, headers=admin())
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_person"
    r = c.post(f"/api/tournaments/{ev.tid}/players", json={"person": p["id"], "seed": 3}, headers=admin())
    assert r.status_code == 201 and r.json()["players"][0]["name"] == "Solo" and r.json()["players"][0]["seed"] == 3
    assert r.json()["players"][0]["link"] == "linked"
    r = c.post(f"/api/tournaments/{ev.tid}/players", json={"person": p["id"]}, headers=admin())
    assert r.status_code == 409 and r.json()["error"]["code"] == "person_entered"
    assert c.delete(f"/api/people/{p['id']}", headers=admin()).json()["error"]["code"] == "has_entries"
