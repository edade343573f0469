"""projection: PROTOCOL section 7 fields, JSON-ready, nothing shared with the state."""

from __future__ import annotations

import json
import random

import pytest

from hub.draws import projection
from tests.draws.harness import Stream

MATCH_FIELDS = {"key", "round", "bracket", "players", "status", "match_id", "table_id", "winner", "winner_to",
                "loser_to", "scores", "stage"}


def test_fields_and_json() -> None:
    s = Stream()
    s.add(5, seeded=True)
    s.draw("double_elimination")
    s.play("W1-2", "p5")
    view = s.view
    assert set(view) == {"players", "draw", "queue", "standings", "paused_tables", "archived", "no_show_minutes",
                         "version"}
    assert view["version"] == len(s.events)
    assert set(view["players"][0]) == {"id", "name", "club", "seed", "handicap", "status", "person"}
    draw = view["draw"]
    assert {"type", "status", "champion", "seeding", "seed", "groups", "rounds", "match", "matches", "stale",
            "counts", "stages"} <= set(draw)
    assert all(set(m) == MATCH_FIELDS for m in draw["matches"])
    assert view["standings"] is None
    assert json.loads(json.dumps(view)) == view


def test_round_robin_matches_name_their_group() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("round_robin")
    assert all(set(m) == MATCH_FIELDS | {"group"} for m in s.view["draw"]["matches"])
    assert set(s.view["standings"][0]) == {"player", "group", "played", "won", "lost", "points", "rank",
                                           "score_for", "score_against", "walkovers_won", "walkovers_lost"}


def test_chase_standings_fields() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("chase_groups")
    assert set(s.view["standings"][0]) == {"player", "played", "won", "lost", "points", "rank", "byes",
                                           "walkovers_won"}


def test_changing_the_projection_changes_nothing() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("round_robin")
    s.play("A-1", s.match("A-1")["players"][0])
    view = projection(s.state)
    view["draw"]["match"]["format"]["racks"] = 1
    view["draw"]["matches"][0]["scores"].clear()
    view["standings"][0]["points"] = 99
    view["queue"].clear()
    assert projection(s.state) != view
    assert projection(s.state)["draw"]["match"]["format"] == {"racks": 5}


def test_one_match_count_leaves_byes_out_and_walkovers_unplayed() -> None:
    s = Stream()
    s.add(5, seeded=True)
    s.draw("single_elimination")  # 8 slots: 3 byes in round 1, 4 real matches in all
    counts = s.view["draw"]["counts"]
    assert counts == {"matches": 4, "played": 0, "walkovers": 0, "left": 4}
    s.play("W1-2", "p5")
    ready = s.view["queue"][0]
    s.do({"kind": "walkover", "key": ready, "winner": s.match(ready)["players"][0]})
    assert s.view["draw"]["counts"] == {"matches": 4, "played": 1, "walkovers": 1, "left": 2}


@pytest.mark.parametrize("n", [5, 12, 17, 24, 33])
def test_a_double_eliminations_count_is_what_will_be_played_from_the_start(n: int) -> None:
    """2N-2 matches (the reset aside) from the draw on: losers-bracket entries fed by a round-1 bye
    are not counted while they wait for their other player, so the total never shrinks."""
    rnd = random.Random(n)
    s = Stream()
    players = s.add(n, seeded=True)
    s.draw("double_elimination")
    assert s.view["draw"]["counts"]["matches"] == 2 * n - 2
    totals = set()
    while s.view["draw"]["status"] != "finished":
        key = s.view["queue"][0]
        m = s.match(key)
        s.play(key, rnd.choice([p for p in m["players"] if p in players]))
        counts = s.view["draw"]["counts"]
        reset = [m for m in s.view["draw"]["matches"] if m["round"] == "GF2" and m["status"] != "bye"]
        totals.add(counts["matches"] - len(reset))
        assert counts["played"] + counts["left"] == counts["matches"]
    assert totals == {2 * n - 2}
