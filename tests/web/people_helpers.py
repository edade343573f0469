"""Helpers of the people pages' browser tests (test_people.py, test_people_links.py): history made on
the real hub over REST, the way the desk and the tablets make it: two weekly events with the same
four players (the second linked to the first's people by the rule), matches played stroke by stroke,
a result entered by hand, a walkover, and a final still being played."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.services import wait_until

ADMIN_TOKEN = "web-test-admin"
NAMES = ["王也", "Zheng Yubo", "Ko Pin-yi", "Fedor Gorst"]
WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


def call(url: str, method: str, path: str, body: Any = None, token: str = ADMIN_TOKEN) -> Any:
    r = httpx.request(method, f"{url}{path}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code < 300, f"{method} {path}: {r.status_code} {r.text}"
    return r.json()


@dataclass
class Event:
    """A tournament of `names` (seeded in that order) on two tables, its single-elimination draw made."""

    url: str
    name: str
    names: list[str]
    tid: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    players: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tid = call(self.url, "POST", "/api/tournaments", {"name": self.name})["id"]
        for i in range(2):
            tb = call(self.url, "POST", f"/api/tournaments/{self.tid}/tables", {"name": f"Table {i + 1}"})
            self.tokens[tb["id"]] = tb["token"]
        added = call(self.url, "POST", f"/api/tournaments/{self.tid}/players",
                     {"players": [{"name": n, "seed": i + 1} for i, n in enumerate(self.names)]})
        self.players = {p["name"]: p for p in added["players"]}
        call(self.url, "POST", f"/api/tournaments/{self.tid}/draw",
             {"type": "single_elimination", "seeding": "seeded", "match": WPA})

    def pid(self, name: str) -> str:
        return str(self.players[name]["id"])

    def person(self, name: str) -> str:
        return str(self.players[name]["person"])

    def entry(self, key: str) -> dict[str, Any]:
        proj = call(self.url, "GET", f"/api/tournaments/{self.tid}")
        return next(m for m in proj["draw"]["matches"] if m["key"] == key)

    def called(self, key: str) -> dict[str, Any]:
        return dict(wait_until(lambda: self.entry(key)["status"] == "called" and self.entry(key), what=f"{key} called"))

    def send(self, mid: str, command: dict[str, Any]) -> None:
        table = call(self.url, "GET", f"/api/matches/{mid}")["table_id"]
        env = {"id": str(uuid.uuid4()), "match_id": mid, "command": command}
        call(self.url, "POST", f"/api/matches/{mid}/commands", env, token=self.tokens[table])

    def play(self, key: str, winner: str) -> str:
        """`winner` (a name) wins 2-0: the loser breaks dry, the winner runs out, then a golden break."""
        e = self.called(key)
        mid, w = e["match_id"], self.pid(winner)
        loser = next(p for p in e["players"] if p != w)
        self.send(mid, {"kind": "start", "breaker": loser})
        self.send(mid, {"kind": "shot", "player": loser, "first_contact": 1, "break_rails": 4,
                        "intent": "pot"})
        run_out = list(range(1, 10))
        self.send(mid, {"kind": "shot", "player": w, "first_contact": 1, "pocketed": run_out, "intent": "pot"})
        self.send(mid, {"kind": "shot", "player": w, "first_contact": 1, "pocketed": [9], "break_rails": 4})
        wait_until(lambda: self.entry(key)["status"] == "finished", what=f"{key} finished")
        return str(mid)

    def by_hand(self, key: str, winner: str, score: tuple[int, int]) -> str:
        e = self.called(key)
        mid, w = e["match_id"], self.pid(winner)
        loser = next(p for p in e["players"] if p != w)
        call(self.url, "POST", f"/api/matches/{mid}/result", {"winner": w, "score": {w: score[0], loser: score[1]}})
        wait_until(lambda: self.entry(key)["status"] == "finished", what=f"{key} finished by hand")
        return str(mid)


@dataclass
class History:
    week1: Event
    week2: Event
    live_match: str

    def person(self, name: str) -> str:
        return self.week1.person(name)


def make_history(url: str, tag: str = "") -> History:
    """Week 1: every match played, the final entered by hand (王也 champion). Week 2: the same four,
    linked; Fedor Gorst withdraws (王也 through by walkover), Zheng Yubo beats Ko Pin-yi, and the final
    王也 against Zheng Yubo is being played (started, one stroke)."""
    names = [f"{n}{tag}" for n in NAMES]
    wang, zheng, ko, gorst = names
    w1 = Event(url, f"Week 1{tag}", names)
    w1.play("W1-1", wang)
    w1.play("W1-2", zheng)
    w1.by_hand("W2-1", wang, (2, 1))
    w2 = Event(url, f"Week 2{tag}", names)
    assert all(p["link"] == "linked" for p in w2.players.values()), w2.players
    call(url, "POST", f"/api/tournaments/{w2.tid}/players/{w2.pid(gorst)}/withdraw")
    w2.play("W1-2", zheng)
    final = w2.called("W2-1")
    w2.send(final["match_id"], {"kind": "start", "breaker": w2.pid(wang)})
    w2.send(final["match_id"], {"kind": "shot", "player": w2.pid(wang), "first_contact": 1, "break_rails": 4})
    # the keeper has caught up: Wang's two events and their matches are history
    wait_until(lambda: call(url, "GET", f"/api/people/{w1.person(wang)}")["stats"]["total"]["matches"]["played"] == 2,
               timeout=20, what="the keeper's history")
    return History(w1, w2, str(final["match_id"]))
