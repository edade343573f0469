"""PROTOCOL.md section 17 in a draw, over REST on the real rules: a double elimination of a game the
hub does not judge (discipline other), scored rack by rack from the tablets, to its end; the new
disciplines fit the two-player draws and not chase_groups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from test_api import Event

from hub.app import create_app
from hub.settings import Settings

SNOOKER = {"discipline": "other", "format": {"race_to": 2, "game": "snooker"}, "options": {"scoring": "racks"}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def test_a_rack_scored_double_elimination_to_its_end(c: TestClient) -> None:
    ev = Event(c, players=4, tables=2)
    t = ev.draw("double_elimination", match=SNOOKER, seeding="random", seed=5)
    played: list[str] = []
    while t["draw"]["status"] != "finished":
        called = [m for m in t["draw"]["matches"] if m["status"] == "called"]
        assert called, t["draw"]
        m = called[0]
        proj = c.get(f"/api/matches/{m['match_id']}").json()
        assert proj["discipline"] == "other" and proj["format"]["game"] == "snooker"
        assert proj["options"]["scoring"] == "racks"
        first, second = m["players"]
        ev.command(m["match_id"], {"kind": "start", "breaker": first})
        ev.command(m["match_id"], {"kind": "shot", "player": first, "first_contact": None}, expect=409)
        ev.command(m["match_id"], {"kind": "rack", "winner": second})  # the loser-to-be wins a frame ...
        ev.command(m["match_id"], {"kind": "undo"})  # ... entered by mistake: undone
        for _ in range(2):
            ev.command(m["match_id"], {"kind": "rack", "winner": first})
        done = ev.settled(m["key"])
        assert done["winner"] == first
        end = c.get(f"/api/matches/{m['match_id']}").json()
        assert end["status"] == "finished" and [p["score"] for p in end["players"]] == [2, 0]
        played.append(m["key"])
        t = ev.until(lambda t, key=m["key"]: any(x["key"] == key and x["status"] == "finished"
                                                  for x in t["draw"]["matches"]))
        t = ev.get()
    assert "GF" in played and t["draw"]["champion"] is not None
    assert len(played) >= 6  # W1 x2, W2, L1, L2, GF (and GF2 when the losers-bracket player wins GF)


@pytest.mark.parametrize("match", [
    {"discipline": "wpa_eight", "format": {"race_to": 3}},
    {"discipline": "wpa_ten", "format": {"race_to": 3, "break": "alternate"}, "options": {"scoring": "racks"}},
    {"discipline": "golden_nine", "format": {"racks": 3}, "options": {"scoring": "racks"}},
    SNOOKER,
])
def test_two_player_draws_take_the_new_disciplines(c: TestClient, match: dict) -> None:
    ev = Event(c, players=4, tables=1)
    t = ev.draw("round_robin", match=match)
    called = [m for m in t["draw"]["matches"] if m["status"] == "called"]
    proj = c.get(f"/api/matches/{called[0]['match_id']}").json()
    assert proj["discipline"] == match["discipline"]
    assert proj["options"].get("scoring", "strokes") == match.get("options", {}).get(
        "scoring", "racks" if match["discipline"] == "other" else "strokes")


@pytest.mark.parametrize("match", [
    {"discipline": "other", "format": {"race_to": 3}},  # no game
    {"discipline": "other", "format": {"race_to": 3, "game": "snooker"}, "options": {"scoring": "strokes"}},
    {"discipline": "wpa_nine", "format": {"race_to": 3}, "options": {"scoring": "frames"}},
    {"discipline": "wpa_eight", "format": {"racks": 3}},
])
def test_bad_rack_scoring_templates_are_422(c: TestClient, match: dict) -> None:
    ev = Event(c, players=4)
    ev.draw("single_elimination", match=match, expect=422)
    assert ev.get()["draw"] is None


def test_chase_groups_plays_chase_nine_only(c: TestClient) -> None:
    ev = Event(c, players=6)
    ev.draw("chase_groups", match={"discipline": "wpa_ten", "format": {"race_to": 3}}, expect=422)
    ev.draw("chase_groups", match={"discipline": "chase_nine", "format": {"racks": 2},
                                   "options": {"scoring": "racks"}}, expect=201)
