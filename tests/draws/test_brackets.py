"""Single and double elimination brackets: shapes, seeding positions, byes, the reset, withdrawals."""

from __future__ import annotations

from collections import Counter

import pytest

from hub.draws import stale_calls
from hub.draws.brackets import bracket_size, seed_order, structure
from tests.draws.harness import Stream


def rounds_of(view: dict) -> Counter:
    return Counter(m["round"] for m in view["draw"]["matches"])


def test_seed_order() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


# N -> (bracket size, byes in W1)
SHAPES = {2: (2, 0), 3: (4, 1), 4: (4, 0), 5: (8, 3), 7: (8, 1), 8: (8, 0), 9: (16, 7), 16: (16, 0), 17: (32, 15)}


@pytest.mark.parametrize("n", sorted(SHAPES))
def test_single_elimination_shape(n: int) -> None:
    size, byes = SHAPES[n]
    assert bracket_size(n) == size
    s = Stream()
    s.add(n, seeded=True)
    s.draw("single_elimination")
    view = s.view
    k = size.bit_length() - 1
    assert rounds_of(view) == {f"W{r}": size >> r for r in range(1, k + 1)}
    first = [m for m in view["draw"]["matches"] if m["round"] == "W1"]
    assert sum(m["status"] == "bye" for m in first) == byes
    assert all(m["players"].count("bye") <= 1 and None not in m["players"] for m in first)
    assert sum(len([p for p in m["players"] if p != "bye"]) for m in first) == n
    assert all(m["loser_to"] is None for m in view["draw"]["matches"])
    assert view["draw"]["matches"][-1]["winner_to"] is None
    # the byes fall on the top seeds
    bye_players = {m["winner"] for m in first if m["status"] == "bye"}
    assert bye_players == {f"p{i}" for i in range(1, byes + 1)}
    assert sum(k.startswith("W1-") for k in view["queue"]) == n - size // 2
    # two bye winners meet in W2 at once
    assert all(k.startswith(("W1-", "W2-")) for k in view["queue"])


@pytest.mark.parametrize("n", sorted(SHAPES))
def test_double_elimination_shape(n: int) -> None:
    size, _ = SHAPES[n]
    k = size.bit_length() - 1
    s = Stream()
    s.add(n, seeded=True)
    s.draw("double_elimination")
    counts = rounds_of(s.view)
    want = {f"W{r}": size >> r for r in range(1, k + 1)} | {"GF": 1}
    for j in range(1, k):
        want[f"L{2 * j - 1}"] = size >> (j + 1)
        want[f"L{2 * j}"] = size >> (j + 1)
    assert counts == want
    assert sum(counts.values()) == 2 * size - 2
    brackets = Counter(m["bracket"] for m in s.view["draw"]["matches"])
    assert (brackets["winners"], brackets["losers"], brackets["final"]) == (size - 1, size - 2, 1)


def test_seeded_eight_first_round() -> None:
    s = Stream()
    s.add(8, seeded=True)
    s.draw("single_elimination")
    first = [(m["key"], m["players"], m["status"]) for m in s.view["draw"]["matches"] if m["round"] == "W1"]
    assert first == [("W1-1", ["p1", "p8"], "ready"), ("W1-2", ["p4", "p5"], "ready"),
                     ("W1-3", ["p2", "p7"], "ready"), ("W1-4", ["p3", "p6"], "ready")]
    assert s.match("W1-1")["winner_to"] == "W2-1" and s.match("W1-4")["winner_to"] == "W2-2"
    assert s.match("W2-1")["players"] == [None, None] and s.match("W2-1")["status"] == "waiting"
    assert s.view["queue"] == ["W1-1", "W1-2", "W1-3", "W1-4"]


def test_seeded_five_first_round_and_byes() -> None:
    s = Stream()
    s.add(5, seeded=True)
    s.draw("double_elimination")
    first = [(m["key"], m["players"], m["status"], m["winner"])
             for m in s.view["draw"]["matches"] if m["round"] == "W1"]
    assert first == [("W1-1", ["p1", "bye"], "bye", "p1"), ("W1-2", ["p4", "p5"], "ready", None),
                     ("W1-3", ["p2", "bye"], "bye", "p2"), ("W1-4", ["p3", "bye"], "bye", "p3")]
    # a W1 bye leaves its losers-bracket slot empty; two byes make an L1 match with nobody
    assert s.match("W2-1")["players"] == ["p1", None] and s.match("W2-1")["status"] == "waiting"
    assert s.match("W2-2")["players"] == ["p2", "p3"] and s.match("W2-2")["status"] == "ready"
    assert s.match("L1-2")["status"] == "bye" and s.match("L1-2")["players"] == ["bye", "bye"]
    assert s.match("L1-1")["players"] == ["bye", None]  # the W1-1 bye drops nobody; the W1-2 loser is not known yet
    assert s.match("L1-2")["winner"] is None
    assert s.match("L1-1")["status"] == "waiting"
    assert s.match("W1-1")["loser_to"] is None  # a bye sends nobody down
    s.play("W1-2", "p5")
    assert s.match("L1-1")["status"] == "bye" and s.match("L1-1")["winner"] == "p4"
    assert s.match("W2-1")["players"] == ["p1", "p5"]
    s.play("W2-2", "p2")
    s.play("W2-1", "p1")
    # L2-2 takes the loser of W2-1 against the empty winner of L1-2: a bye (this reaches L2)
    assert s.match("L2-2")["players"] == ["bye", "p5"] and s.match("L2-2")["status"] == "bye"
    assert s.match("L2-1")["players"] == ["p4", "p3"] and s.match("L2-1")["status"] == "ready"


def test_losers_bracket_links() -> None:
    s = Stream()
    s.add(8, seeded=True)
    s.draw("double_elimination")
    m = s.match
    assert [m(f"W1-{i}")["loser_to"] for i in range(1, 5)] == ["L1-1", "L1-1", "L1-2", "L1-2"]
    # L2 takes W2's losers in reverse order (the drop order of 8), L4 the W3 loser
    assert m("W2-1")["loser_to"] == "L2-2" and m("W2-2")["loser_to"] == "L2-1"
    assert m("W3-1")["loser_to"] == "L4-1" and m("W3-1")["winner_to"] == "GF"
    assert m("L1-1")["winner_to"] == "L2-1" and m("L3-1")["winner_to"] == "L4-1"
    assert m("L4-1")["winner_to"] == "GF" and m("L4-1")["loser_to"] is None
    assert m("GF")["winner_to"] is None and m("GF")["loser_to"] is None
    big = {n.key: n for n in structure(True, 16)}
    # 16: L2 takes W2's losers with the halves swapped, L4 and L6 straight (drop_order.MASKS)
    assert [str(big[f"L2-{i}"].slots[1].ref) for i in range(1, 5)] == ["W2-3", "W2-4", "W2-1", "W2-2"]
    assert [str(big[f"L4-{i}"].slots[1].ref) for i in range(1, 3)] == ["W3-1", "W3-2"]
    assert str(big["L6-1"].slots[1].ref) == "W4-1"


def play_bracket(s: Stream, winners: dict[str, str]) -> None:
    """Play every ready match, the winner picked by ``winners`` (key -> slot index '0'/'1') or slot 0."""
    while s.view["queue"]:
        key = s.view["queue"][0]
        players = s.match(key)["players"]
        s.play(key, players[int(winners.get(key, "0"))])


def test_double_elimination_reset() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    play_bracket(s, {"GF": "1"})  # the losers-bracket player wins the grand final
    gf, gf2 = s.match("GF"), s.match("GF2")
    assert gf["winner"] == gf["players"][1]
    assert gf["winner_to"] == "GF2" and gf["loser_to"] == "GF2"
    assert gf2["players"] == gf["players"]  # the same two players again
    assert s.view["draw"]["status"] == "finished" and s.view["draw"]["champion"] == gf2["winner"] == "p1"
    assert s.view["draw"]["matches"][-1]["key"] == "GF2"


def test_double_elimination_reset_won_by_the_losers_bracket_player() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    play_bracket(s, {"GF": "1", "GF2": "1"})
    champion = s.view["draw"]["champion"]
    assert champion == s.match("GF")["players"][1]
    statuses = {p["id"]: p["status"] for p in s.view["players"]}
    assert statuses[champion] == "champion"
    assert sorted(statuses.values()) == ["champion", "eliminated", "eliminated", "eliminated"]


def test_double_elimination_without_reset() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    play_bracket(s, {})
    keys = [m["key"] for m in s.view["draw"]["matches"]]
    assert "GF2" not in keys
    assert s.view["draw"]["champion"] == "p1" and s.view["draw"]["status"] == "finished"


def test_double_elimination_of_two() -> None:
    s = Stream()
    s.add(2, seeded=True)
    s.draw("double_elimination")
    assert [m["key"] for m in s.view["draw"]["matches"]] == ["W1-1", "GF"]
    s.play("W1-1", "p2")
    assert s.match("GF")["players"] == ["p2", "p1"]  # the winner against the loser of W1-1
    s.play("GF", "p1")
    assert s.match("GF2")["status"] == "ready"
    s.play("GF2", "p1")
    assert s.view["draw"]["champion"] == "p1"


def test_single_elimination_champion_and_statuses() -> None:
    s = Stream()
    s.add(3, seeded=True)
    s.draw("single_elimination")
    assert s.view["queue"] == ["W1-2"]
    s.play("W1-2", "p3")
    assert {p["id"]: p["status"] for p in s.view["players"]} == {"p1": "active", "p2": "eliminated", "p3": "active"}
    s.play("W2-1", "p3")
    assert s.view["draw"]["champion"] == "p3" and s.view["draw"]["status"] == "finished"
    assert {p["id"]: p["status"] for p in s.view["players"]} == {"p1": "eliminated", "p2": "eliminated",
                                                                  "p3": "champion"}


def test_withdrawn_players_lose_by_walkover() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "withdraw", "player": "p4"})
    assert s.match("W1-1")["status"] == "walkover" and s.match("W1-1")["winner"] == "p1"
    assert s.view["queue"] == ["W1-2"]
    # a called match stays called when a player withdraws; uncalled, it becomes a walkover
    s.call("W1-2")
    s.do({"kind": "withdraw", "player": "p2"})
    assert s.match("W1-2")["status"] == "called"
    s.do({"kind": "uncall", "key": "W1-2"})
    assert s.match("W1-2")["status"] == "walkover" and s.match("W1-2")["winner"] == "p3"
    assert s.match("W2-1")["players"] == ["p1", "p3"] and s.match("W2-1")["status"] == "ready"


def test_both_withdrawn_first_slot_goes_on_and_loses_next() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    s.call("W1-1", "tb1")
    s.call("W1-2", "tb2")
    s.do({"kind": "withdraw", "player": "p1"})
    s.do({"kind": "withdraw", "player": "p2"})
    s.result("W1-1", "p1")  # called matches are still played (or forfeited) on their tables
    s.result("W1-2", "p2")
    w2 = s.match("W2-1")
    assert (w2["players"], w2["status"], w2["winner"]) == (["p1", "p2"], "walkover", "p1")
    s.play("L1-1", "p3")
    assert s.match("L2-1")["players"] == ["p3", "p2"] and s.match("L2-1")["winner"] == "p3"
    # the winners-side finalist has withdrawn: the GF walkover alone decides the title, no reset
    assert s.match("GF")["status"] == "walkover" and s.match("GF")["winner"] == "p3"
    assert "GF2" not in {m["key"] for m in s.view["draw"]["matches"]}
    assert s.view["draw"]["champion"] == "p3" and s.view["draw"]["status"] == "finished"
    statuses = {p["id"]: p["status"] for p in s.view["players"]}
    assert statuses == {"p1": "withdrawn", "p2": "withdrawn", "p3": "champion", "p4": "eliminated"}


def test_a_grand_final_walkover_to_the_losers_side_leaves_nobody_active() -> None:
    """The desk gives GF to the losers-bracket player as a walkover (the winners-side finalist did
    not come): the title is decided, no reset, and the winners-side finalist, with one loss only,
    is out, not `active` in a finished draw (PROTOCOL.md section 11)."""
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    for key in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
        s.play(key, s.match(key)["players"][0])
    gf = s.match("GF")
    assert gf["players"] == ["p1", "p4"] and gf["status"] == "ready"
    s.do({"kind": "walkover", "key": "GF", "winner": "p4"})
    view = s.view
    assert view["draw"]["status"] == "finished" and view["draw"]["champion"] == "p4"
    assert "GF2" not in {m["key"] for m in view["draw"]["matches"]}
    statuses = {p["id"]: p["status"] for p in view["players"]}
    assert statuses == {"p1": "eliminated", "p2": "eliminated", "p3": "eliminated", "p4": "champion"}


def test_the_first_withdrawal_decides_the_walkover() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "withdraw", "player": "p1"})
    s.do({"kind": "withdraw", "player": "p4"})
    assert s.match("W1-1")["winner"] == "p4"  # p1 was gone first
    s.play("W1-2", "p3")
    assert s.match("W2-1")["status"] == "walkover" and s.match("W2-1")["winner"] == "p3"


def test_players_withdrawn_before_the_draw_are_not_entrants() -> None:
    s = Stream()
    s.add(5, seeded=True)
    s.do({"kind": "withdraw", "player": "p5"})
    s.draw("single_elimination")
    assert s.view["draw"]["entrants"] == ["p1", "p2", "p3", "p4"]
    assert all(m["status"] == "ready" for m in s.view["draw"]["matches"] if m["round"] == "W1")


def test_a_later_withdrawal_does_not_change_a_walkover_already_decided() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "withdraw", "player": "p4"})
    assert s.match("W1-1")["winner"] == "p1"
    s.play("W1-2", "p2")
    s.call("W2-1")
    s.do({"kind": "withdraw", "player": "p1"})  # p1 went on: W1-1 stays theirs
    assert s.match("W1-1")["winner"] == "p1" and s.match("W2-1")["players"] == ["p1", "p2"]
    assert stale_calls(s.state) == []
