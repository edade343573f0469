"""Chase groups: round 1 by seeding in a snake, later rounds by standings, byes, walkovers."""

from __future__ import annotations

import pytest

from tests.draws.harness import Stream


def chase(n: int, rounds: int = 3) -> Stream:
    s = Stream()
    s.add(n, seeded=True)
    s.draw("chase_groups", rounds=rounds)
    return s


def round_of(s: Stream, r: int) -> list[tuple[str, list, str]]:
    return [(m["key"], m["players"], m["status"]) for m in s.view["draw"]["matches"] if m["round"] == f"R{r}"]


@pytest.mark.parametrize("n, first", [
    (9, [("C1-1", ["p1", "p6", "p7"], "ready"), ("C1-2", ["p2", "p5", "p8"], "ready"),
         ("C1-3", ["p3", "p4", "p9"], "ready")]),
    (10, [("C1-1", ["p1", "p6", "p7"], "ready"), ("C1-2", ["p2", "p5", "p8"], "ready"),
          ("C1-3", ["p3", "p4", "p9"], "ready"), ("C1-4", ["p10", "bye", "bye"], "bye")]),
    (11, [("C1-1", ["p1", "p6", "p7"], "ready"), ("C1-2", ["p2", "p5", "p8"], "ready"),
          ("C1-3", ["p3", "p4", "p9"], "ready"), ("C1-4", ["p10", "p11", "bye"], "bye")]),
])
def test_round_one(n: int, first: list) -> None:
    s = chase(n)
    assert round_of(s, 1) == first
    later = round_of(s, 2)
    assert all(status == "waiting" for _, _, status in later)
    # not known yet (null), but the sit-out's slots nobody will fill are "bye" already
    left = n % 3
    assert [players for _, players, _ in later] == [[None] * 3] * (n // 3) + (
        [[None] * left + ["bye"] * (3 - left)] if left else [])
    assert [key for key, _, _ in later] == [f"C2-{i}" for i in range(1, len(first) + 1)]
    assert all(m["bracket"] == "chase" and "group" not in m for m in s.view["draw"]["matches"])
    assert s.view["queue"] == ["C1-1", "C1-2", "C1-3"]


def test_later_rounds_by_standings_and_byes_by_fewest_then_lowest() -> None:
    s = chase(10)
    # net points sum to zero in each match
    s.play("C1-1", "p7", {"p1": -5, "p6": -3, "p7": 8})
    s.play("C1-2", "p2", {"p2": 6, "p5": 0, "p8": -6})
    assert round_of(s, 2)[0][2] == "waiting"  # round 2 waits for the whole of round 1
    s.play("C1-3", "p9", {"p3": -1, "p4": -2, "p9": 3})
    table = [(r["player"], r["points"], r["rank"], r["byes"]) for r in s.view["standings"]]
    # points: p7 8, p2 6, p9 3, then p5 0 and p10 0 (p5 seeded higher), p3 -1, p4 -2, p6 -3, p1 -5, p8 -6
    assert [t[0] for t in table] == ["p7", "p2", "p9", "p5", "p10", "p3", "p4", "p6", "p1", "p8"]
    assert dict((t[0], t[3]) for t in table)["p10"] == 1
    second = round_of(s, 2)
    # p10 had the bye; the lowest-ranked without one (p8) sits out now
    assert second == [("C2-1", ["p7", "p2", "p9"], "ready"), ("C2-2", ["p5", "p10", "p3"], "ready"),
                      ("C2-3", ["p4", "p6", "p1"], "ready"), ("C2-4", ["p8", "bye", "bye"], "bye")]


def test_shared_top_and_champion() -> None:
    s = chase(3, rounds=2)
    assert round_of(s, 1) == [("C1-1", ["p1", "p2", "p3"], "ready")]
    s.play("C1-1", None, {"p1": 4, "p2": 4, "p3": -8})
    assert s.match("C1-1")["winner"] is None and s.match("C1-1")["scores"] == {"p1": 4, "p2": 4, "p3": -8}
    s.play("C2-1", "p2", {"p1": -1, "p2": 2, "p3": -1})
    view = s.view
    assert [(r["player"], r["points"], r["won"], r["played"], r["lost"]) for r in view["standings"]] == [
        ("p2", 6, 1, 2, 1), ("p1", 3, 0, 2, 2), ("p3", -9, 0, 2, 2)]
    assert view["draw"]["status"] == "finished" and view["draw"]["champion"] == "p2"
    assert {p["id"]: p["status"] for p in view["players"]} == {"p1": "eliminated", "p2": "champion",
                                                                "p3": "eliminated"}


def test_points_then_matches_won_then_seed() -> None:
    s = chase(6, rounds=1)
    s.play("C1-1", "p4", {"p1": 0, "p4": 5, "p5": -5})
    s.play("C1-2", None, {"p2": 5, "p3": 5, "p6": -10})
    # p4, p2, p3 on 5 points: p4 won its match; p2 before p3 by seed
    assert [r["player"] for r in s.view["standings"]][:3] == ["p4", "p2", "p3"]


def test_withdrawal_before_the_round_is_used_forms_it_again() -> None:
    s = chase(7, rounds=2)
    assert round_of(s, 1) == [("C1-1", ["p1", "p4", "p5"], "ready"), ("C1-2", ["p2", "p3", "p6"], "ready"),
                              ("C1-3", ["p7", "bye", "bye"], "bye")]
    s.do({"kind": "withdraw", "player": "p6"})  # no match of round 1 is called yet: formed again without p6
    first = round_of(s, 1)
    assert len(first) == 2 and all(status == "ready" for _, _, status in first)
    assert "p6" not in {p for _, players, _ in first for p in players}
    assert all(r["played"] == 0 for r in s.view["standings"])


def test_a_round_formed_again_after_a_withdrawal_shows_its_empty_slots_as_bye() -> None:
    """Nine players, one withdraws before round 1 is used: eight, so two sit out of each round; the
    sit-out entry's third slot will never get a player: "bye", not null (null: not known yet)."""
    s = chase(9, rounds=2)
    assert [status for _, _, status in round_of(s, 1)] == ["ready"] * 3
    s.do({"kind": "withdraw", "player": "p5"})
    first = round_of(s, 1)
    assert [status for _, _, status in first] == ["ready", "ready", "bye"]
    assert first[-1][1][2] == "bye" and None not in first[-1][1]
    assert [players for _, players, _ in round_of(s, 2)] == [[None] * 3, [None] * 3, [None, None, "bye"]]
    assert s.view["draw"]["counts"]["matches"] == 4  # two a round: a sit-out is never a match
    for key, players, _ in first[:2]:
        s.play(key, players[0], {players[0]: 4, players[1]: -2, players[2]: -2})
    second = round_of(s, 2)
    assert [status for _, _, status in second] == ["ready", "ready", "bye"]
    assert second[-1][1][2] == "bye" and None not in second[-1][1]
    assert s.view["draw"]["counts"]["matches"] == 4


def test_withdrawal_once_the_round_is_called_is_no_match_played() -> None:
    s = chase(7, rounds=2)
    s.call("C1-1", "tb1")
    s.do({"kind": "withdraw", "player": "p6"})  # p6 plays C1-2: that match cannot be played by two
    c12 = s.match("C1-2")
    assert c12["status"] == "walkover" and c12["winner"] is None and c12["scores"] is None
    s.result("C1-1", "p4", {"p1": 0, "p4": 3, "p5": -3})
    rows = {r["player"]: r for r in s.view["standings"]}
    # the voided match is booked as nothing for p2 and p3: not played, not lost
    assert (rows["p2"]["played"], rows["p2"]["lost"], rows["p3"]["played"]) == (0, 0, 0)
    assert rows["p4"]["played"] == 1
    second = round_of(s, 2)
    # six players left: two matches of three, no bye; p6 is left out
    assert len(second) == 2 and all(status == "ready" for _, _, status in second)
    assert "p6" not in {p for _, players, _ in second for p in players}
    assert {p["id"]: p["status"] for p in s.view["players"]}["p6"] == "withdrawn"


def test_explicit_walkover_credits_a_walkover_won_without_points() -> None:
    s = chase(3, rounds=1)
    s.do({"kind": "walkover", "key": "C1-1", "winner": "p3"})
    row = s.view["standings"][0]
    assert (row["player"], row["played"], row["won"], row["walkovers_won"], row["points"]) == ("p3", 0, 0, 1, 0)
    assert s.view["draw"]["champion"] == "p3"


def test_waiting_rounds_follow_the_field() -> None:
    s = chase(9)
    assert len(round_of(s, 3)) == 3
    s.do({"kind": "withdraw", "player": "p9"})
    assert len(round_of(s, 3)) == 3  # 8 players: two matches and a bye
    s.do({"kind": "withdraw", "player": "p8"})
    s.do({"kind": "withdraw", "player": "p7"})
    assert len(round_of(s, 3)) == 2
