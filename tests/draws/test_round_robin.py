"""Round robin: circle schedule, groups, queue order, standings and their tie-breaks."""

from __future__ import annotations

import itertools

import pytest

from hub.draws import dispatch
from hub.draws.round_robin import circle, snake
from tests.draws.harness import Stream


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 11, 16])
def test_circle_plays_every_pair_once(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = circle(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:  # nobody twice in a round
        seen = [p for pair in r for p in pair]
        assert len(seen) == len(set(seen))


def test_snake_deal() -> None:
    assert snake(list("abcdefg"), 3) == [["a", "f", "g"], ["b", "e"], ["c", "d"]]
    assert snake(list("abcdef"), 2) == [["a", "d", "e"], ["b", "c", "f"]]


def test_keys_rounds_groups_and_queue_order() -> None:
    s = Stream()
    s.add(8, seeded=True)
    s.draw("round_robin", groups=2)
    matches = s.view["draw"]["matches"]
    assert {m["group"] for m in matches} == {"A", "B"}
    groups = {g: sorted({p for m in matches if m["group"] == g for p in m["players"]}) for g in "AB"}
    assert groups == {"A": ["p1", "p4", "p5", "p8"], "B": ["p2", "p3", "p6", "p7"]}
    assert [(m["key"], m["round"]) for m in matches[:4]] == [("A-1", "R1"), ("A-2", "R1"), ("B-1", "R1"), ("B-2", "R1")]
    assert matches[4]["key"] == "A-3" and matches[4]["round"] == "R2"
    assert all(m["bracket"] == "group" and m["winner_to"] is None and m["loser_to"] is None for m in matches)
    assert s.view["queue"] == [m["key"] for m in matches]
    assert len(matches) == 12


def test_group_sizes_differ_by_at_most_one() -> None:
    s = Stream()
    s.add(11, seeded=True)
    s.draw("round_robin", groups=3)
    sizes = sorted(sum(1 for r in s.view["standings"] if r["group"] == g) for g in "ABC")
    assert sizes == [3, 4, 4]


def test_a_player_in_a_called_match_is_passed_over() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("round_robin")
    queue = s.view["queue"]
    first = s.match(queue[0])["players"]
    s.call(queue[0], "tb1")
    got = dispatch(s.state, [("tb1", False), ("tb2", True), ("tb3", True)])
    assert len(got) == 1  # four players: only one other match can run at once
    key, table = got[0]
    assert table == "tb2" and not set(first) & set(s.match(key)["players"])
    skipped = [k for k in s.view["queue"] if s.view["queue"].index(k) < s.view["queue"].index(key)]
    assert all(set(first) & set(s.match(k)["players"]) for k in skipped)


def result_of(s: Stream, a: str, b: str, score_a: int, score_b: int) -> None:
    key = next(m["key"] for m in s.view["draw"]["matches"] if set(m["players"]) == {a, b})
    s.call(key)
    s.result(key, a if score_a > score_b else b, {a: score_a, b: score_b})


def test_three_way_tie_broken_by_score_difference() -> None:
    s = Stream()
    s.add(4)
    s.draw("round_robin", seeding="seeded")
    # p1 > p2 > p3 > p1 (one head-to-head win each), everybody beats p4
    for a, b, x, y in [("p1", "p2", 5, 4), ("p2", "p3", 5, 0), ("p3", "p1", 5, 3),
                       ("p1", "p4", 5, 0), ("p2", "p4", 5, 0), ("p3", "p4", 5, 0)]:
        result_of(s, a, b, x, y)
    table = {r["player"]: r for r in s.view["standings"]}
    assert [r["player"] for r in s.view["standings"]] == ["p2", "p1", "p3", "p4"]
    assert table["p2"] == {"player": "p2", "group": "A", "played": 3, "won": 2, "lost": 1, "points": 2, "rank": 1,
                           "score_for": 14, "score_against": 5, "walkovers_won": 0, "walkovers_lost": 0}
    assert s.view["draw"]["status"] == "finished" and s.view["draw"]["champion"] == "p2"
    assert {p["id"]: p["status"] for p in s.view["players"]} == {
        "p1": "eliminated", "p2": "champion", "p3": "eliminated", "p4": "eliminated"}


def test_head_to_head_before_score_difference() -> None:
    s = Stream()
    s.add(4)
    s.draw("round_robin", seeding="seeded")
    for a, b, x, y in [("p1", "p2", 5, 4), ("p1", "p4", 5, 4), ("p3", "p1", 5, 0),
                       ("p2", "p3", 9, 0), ("p2", "p4", 9, 0), ("p4", "p3", 5, 0)]:
        result_of(s, a, b, x, y)
    # p1 and p2 on 2 points: p1 beat p2 although p2's difference is far better; p4 beat p3
    assert [(r["player"], r["points"], r["rank"]) for r in s.view["standings"]] == [
        ("p1", 2, 1), ("p2", 2, 2), ("p4", 1, 3), ("p3", 1, 4)]


def test_score_for_then_seed_then_entry() -> None:
    s = Stream()
    s.do({"kind": "add_players", "players": [{"name": "A"}, {"name": "B", "seed": 2}, {"name": "C"},
                                             {"name": "D", "seed": 1}]})
    s.draw("round_robin", seeding="seeded")
    # nothing played: seeded first by seed, then order of entry
    assert [r["player"] for r in s.view["standings"]] == ["p4", "p2", "p1", "p3"]
    # equal points, no head-to-head among them, equal difference: more score for ranks first
    result_of(s, "p1", "p2", 5, 3)
    result_of(s, "p3", "p4", 7, 5)
    assert [r["player"] for r in s.view["standings"]] == ["p3", "p1", "p4", "p2"]


def test_walkovers_and_withdrawals_in_standings() -> None:
    s = Stream()
    s.add(3, seeded=True)
    s.draw("round_robin")
    key = next(m["key"] for m in s.view["draw"]["matches"] if set(m["players"]) == {"p1", "p2"})
    s.do({"kind": "walkover", "key": key, "winner": "p2"})
    s.do({"kind": "withdraw", "player": "p3"})
    for m in s.view["draw"]["matches"]:
        assert m["status"] == "walkover"
    table = {r["player"]: r for r in s.view["standings"]}
    # walkovers are wins for the points, but no match played
    p2, p3 = table["p2"], table["p3"]
    assert (p2["walkovers_won"], p2["points"], p2["played"], p2["won"]) == (2, 2, 0, 0)
    assert (p3["walkovers_lost"], p3["played"], p3["lost"], p3["points"]) == (2, 0, 0, 0)
    assert s.view["draw"]["status"] == "finished" and s.view["draw"]["champion"] == "p2"
    statuses = {p["id"]: p["status"] for p in s.view["players"]}
    assert statuses == {"p1": "eliminated", "p2": "champion", "p3": "withdrawn"}


def test_several_groups_end_with_standings_and_no_champion() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("round_robin", groups=2)
    for m in list(s.view["draw"]["matches"]):
        s.play(m["key"], m["players"][0])
    assert s.view["draw"]["status"] == "finished" and s.view["draw"]["champion"] is None
    assert [(r["group"], r["rank"]) for r in s.view["standings"]] == [("A", 1), ("A", 2), ("B", 1), ("B", 2)]
    # each group's winner is qualified, nobody stays active in a finished draw
    winners = {r["player"] for r in s.view["standings"] if r["rank"] == 1}
    assert {p["id"]: p["status"] for p in s.view["players"]} == {
        p["id"]: "qualified" if p["id"] in winners else "eliminated" for p in s.view["players"]}


def test_every_pair_once_across_groups() -> None:
    s = Stream()
    s.add(13, seeded=True)
    s.draw("round_robin", groups=3)
    matches = s.view["draw"]["matches"]
    for g in "ABC":
        members = [r["player"] for r in s.view["standings"] if r["group"] == g]
        got = sorted(tuple(sorted(m["players"])) for m in matches if m["group"] == g)
        assert got == sorted(tuple(sorted(c)) for c in itertools.combinations(members, 2))
        assert [m["key"] for m in matches if m["group"] == g] == [f"{g}-{i}" for i in range(1, len(got) + 1)]
