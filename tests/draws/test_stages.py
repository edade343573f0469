"""Two-stage draws (``then``): who goes through, the knockout's seeding, statuses, rejects."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.draws.brackets import bracket_size, seed_order
from hub.draws.round_robin import group_sizes
from hub.draws.stages import place_by_group

from .harness import TEMPLATES, Stream, drive

KO = {"type": "single_elimination"}


def _finish_stage_one(s: Stream, rnd: random.Random, tables: list[str]) -> None:
    while s.view["draw"]["stages"][0]["status"] != "finished":
        drive_one(s, rnd, tables)


def drive_one(s: Stream, rnd: random.Random, tables: list[str]) -> None:
    from hub.draws import calls, dispatch

    from .harness import random_scores
    free = [(t, not any(c.table_id == t for c in s.state.open_calls.values())) for t in tables]
    for key, table in dispatch(s.state, free):
        s.call(key, table)
    open_calls = calls(s.state)
    key = rnd.choice(sorted(open_calls))
    winner, scores = random_scores(s.state.calls[key].players, rnd)
    s.result(key, winner, scores)


@settings(max_examples=25, deadline=None)
@given(k=st.integers(3, 6), j=st.integers(2, 4), seed=st.integers(0, 2**31), cut=st.integers(0, 7))
def test_double_elimination_stops_at_k_half_from_each_side(k: int, j: int, seed: int, cut: int) -> None:
    n = (1 << k) - (cut if k > 3 else 0)
    advance = 1 << j
    if advance > n // 2:
        return
    rnd = random.Random(seed)
    s = Stream()
    s.add(n, seeded=True)
    s.draw("double_elimination", then={**KO, "advance": advance})
    _finish_stage_one(s, rnd, ["t1", "t2", "t3"])
    view = s.view
    first, second = view["draw"]["stages"]
    assert second["status"] == "running" and len(second["entrants"]) == advance
    stage_one = [m for m in view["draw"]["matches"] if m["stage"] == 1]
    losses: dict[str, int] = {}
    for m in stage_one:
        if m["status"] in ("finished", "walkover"):
            for p in m["players"]:
                if p != m["winner"] and p not in (None, "bye"):
                    losses[p] = losses.get(p, 0) + 1
    top, bottom = second["entrants"][: advance // 2], second["entrants"][advance // 2:]
    assert all(losses.get(p, 0) == 0 for p in top)  # the winners side: unbeaten
    assert all(losses.get(p, 0) == 1 for p in bottom)  # the losers side: one loss
    assert first["advanced"] == second["entrants"]
    # everyone else has lost twice and is eliminated; the advancers are still active
    statuses = {p["id"]: p["status"] for p in view["players"]}
    for pid, status in statuses.items():
        assert status == ("active" if pid in second["entrants"] else "eliminated"), pid
        if pid not in second["entrants"]:
            assert losses[pid] == 2
    # every first knockout match: a winners-side player against a losers-side one
    for m in view["draw"]["matches"]:
        if m["round"] == "K1":
            a, b = m["players"]
            assert (a in top) != (b in top)
    assert "GF" not in {m["key"] for m in view["draw"]["matches"]}
    drive(s, rnd, ["t1", "t2"], extra=False)
    assert s.view["draw"]["status"] == "finished"
    champion = s.view["draw"]["champion"]
    assert champion in second["entrants"]
    assert s.view["draw"]["stages"][1]["status"] == "finished"


@pytest.mark.parametrize(("groups", "advance"), [(2, 2), (4, 2), (3, 2), (2, 3), (4, 1), (3, 3), (8, 2)])
def test_groups_best_k_go_through_winners_first(groups: int, advance: int) -> None:
    n = groups * (advance + 2)
    rnd = random.Random(groups * 10 + advance)
    s = Stream()
    s.add(n, seeded=True)
    s.draw("round_robin", groups=groups, then={**KO, "advance": advance})
    assert s.view["draw"]["stages"][1]["status"] == "waiting"
    assert all(m["players"] in ([None, None], [None, "bye"], ["bye", None])
               for m in s.view["draw"]["matches"] if m["round"] == "K1")
    _finish_stage_one(s, rnd, ["t1", "t2", "t3", "t4"])
    view = s.view
    entrants = view["draw"]["stages"][1]["entrants"]
    rank = {r["player"]: (r["group"], r["rank"]) for r in view["standings"]}
    # tier t holds every group's t-th, group winners first
    assert [rank[p][1] for p in entrants] == sorted(rank[p][1] for p in entrants)
    assert sorted(rank[p] for p in entrants) == sorted((chr(65 + g), r) for g in range(groups)
                                                       for r in range(1, advance + 1))
    out = {p for p in rank if p not in entrants}
    assert all(p["status"] == "eliminated" for p in view["players"] if p["id"] in out)


def _meeting_round(size: int, seed_a: int, seed_b: int) -> int:
    position = {s: i for i, s in enumerate(seed_order(size))}
    return (position[seed_a] ^ position[seed_b]).bit_length()


@settings(max_examples=120, deadline=None)
@given(groups=st.integers(1, 26), advance=st.integers(1, 12))
def test_two_of_a_group_meet_as_late_as_the_bracket_allows(groups: int, advance: int) -> None:
    if groups * advance < 2:
        return
    tiers = [[(f"{chr(65 + g)}{t}", chr(65 + g)) for g in range(groups)] for t in range(1, advance + 1)]
    size = bracket_size(groups * advance)
    placed = place_by_group(tiers, size)
    assert placed == [p for tier in tiers for p, _ in sorted(tier, key=lambda x: placed.index(x[0]))]
    k = size.bit_length() - 1
    spread = (advance - 1).bit_length()  # a group's players fit in 2**spread parts of the bracket
    best = k - spread + 1
    for g in range(groups):
        seeds = [i + 1 for i, p in enumerate(placed) if p[0] == chr(65 + g)]
        earliest = min((_meeting_round(size, a, b) for a in seeds for b in seeds if a < b), default=k + 1)
        assert earliest >= best, (groups, advance, g, seeds)
    # the group winners hold the top seeds
    assert {p[1:] for p in placed[:groups]} == {"1"}


@pytest.mark.parametrize(("groups", "advance"), [(15, 5), (17, 5), (15, 8), (17, 8), (7, 28)])
def test_big_fields_past_the_search_are_placed_by_colouring(groups: int, advance: int) -> None:
    from hub.draws import apart
    tiers = [[(f"{chr(65 + g)}{t}", chr(65 + g)) for g in range(groups)] for t in range(1, advance + 1)]
    size = bracket_size(groups * advance)
    assert apart._search(tiers, size) is None  # the depth-first search gives up here
    placed = place_by_group(tiers, size)
    k = size.bit_length() - 1
    best = k - (advance - 1).bit_length() + 1
    for g in range(groups):
        seeds = [i + 1 for i, p in enumerate(placed) if p[0] == chr(65 + g)]
        assert min(_meeting_round(size, a, b) for a in seeds for b in seeds if a < b) >= best
    assert placed[:groups] == [f"{chr(65 + g)}1" for g in range(groups)]  # group winners in group order


def test_two_groups_of_two_give_a1_v_b2() -> None:
    placed = place_by_group([[("A1", "A"), ("B1", "B")], [("A2", "A"), ("B2", "B")]], 4)
    # seed chart of 4: 1 v 4, 2 v 3
    assert (placed[0], placed[3]) == ("A1", "B2") and (placed[1], placed[2]) == ("B1", "A2")


@pytest.mark.parametrize(("body", "code"), [
    ({"type": "double_elimination", "then": {**KO, "advance": 6}}, "bad_advance"),  # not a power of two
    ({"type": "double_elimination", "then": {**KO, "advance": 2}}, "bad_advance"),  # under 4
    ({"type": "double_elimination", "then": {**KO, "advance": 16}}, "bad_advance"),  # over half of 20
    ({"type": "round_robin", "groups": 4, "then": {**KO, "advance": 5}}, "bad_advance"),  # groups of 5
    ({"type": "round_robin", "groups": 1, "then": {**KO, "advance": 1}}, "bad_advance"),  # one player
    ({"type": "round_robin", "groups": 4, "then": {**KO, "advance": 0}}, "bad_advance"),
    ({"type": "single_elimination", "then": {**KO, "advance": 4}}, "bad_request"),
    ({"type": "double_elimination", "then": {"type": "round_robin", "advance": 4}}, "bad_request"),
    ({"type": "double_elimination", "then": {**KO, "advance": 4, "seeding": "best"}}, "bad_request"),
    ({"type": "double_elimination", "then": {**KO, "advance": 4, "match": TEMPLATES["wpa_nine"]}}, "bad_request"),
    ({"type": "double_elimination", "then": {**KO, "advance": 4, "extra": 1}}, "bad_request"),
    ({"type": "double_elimination",
      "then": {**KO, "advance": 4, "match": {**TEMPLATES["golden_nine"], "by_round": {"L1": {"format": {}}}}}},
     "bad_request"),  # the knockout has no losers bracket
])
def test_impossible_stages_are_refused(body: dict, code: str) -> None:
    s = Stream()
    s.add(20, seeded=True)
    r = s.reject({"kind": "make_draw", "seeding": "seeded", "seed": 1, "match": TEMPLATES["golden_nine"], **body})
    assert (r.status, r.code) == (422, code)


def test_keys_are_unique_across_stages_and_the_knockout_is_named_k() -> None:
    s = Stream()
    s.add(32, seeded=True)
    s.draw("double_elimination", then={**KO, "advance": 8})
    keys = [m["key"] for m in s.view["draw"]["matches"]]
    assert len(keys) == len(set(keys))
    second = [m for m in s.view["draw"]["matches"] if m["stage"] == 2]
    assert [m["key"] for m in second] == ["K1-1", "K1-2", "K1-3", "K1-4", "K2-1", "K2-2", "K3-1"]
    rounds = {m["round"] for m in s.view["draw"]["matches"] if m["stage"] == 1}
    assert rounds == {"W1", "W2", "W3", "L1", "L2", "L3", "L4"}


def test_voiding_a_first_stage_result_is_refused_once_the_knockout_started() -> None:
    rnd = random.Random(5)
    s = Stream()
    s.add(4, seeded=True)
    s.draw("round_robin", then={**KO, "advance": 2})
    _finish_stage_one(s, rnd, ["t1"])
    last = max((m for m in s.state.derived.matches if m.stage == 1), key=lambda m: m.resolved_at or 0)
    s.call("K1-1", "t2")
    r = s.reject({"kind": "void_result", "key": last.key, "match_id": last.match_id})
    assert r.code == "downstream_started"


def test_a_withdrawn_player_is_passed_over_for_the_next_in_the_group() -> None:
    s = Stream()
    s.add(6, seeded=True)
    s.draw("round_robin", groups=2, then={**KO, "advance": 1})
    group_a = [r["player"] for r in s.view["standings"] if r["group"] == "A"]
    s.do({"kind": "withdraw", "player": group_a[0]})
    rnd = random.Random(2)
    _finish_stage_one(s, rnd, ["t1", "t2"])
    entrants = s.view["draw"]["stages"][1]["entrants"]
    a_best = next(r["player"] for r in s.view["standings"] if r["group"] == "A"
                  and r["player"] != group_a[0])
    assert group_a[0] not in entrants and a_best in entrants


@pytest.mark.parametrize(("n", "groups", "sizes"), [(10, 3, [4, 3, 3]), (11, 3, [4, 4, 3]), (9, 3, [3, 3, 3]),
                                                     (7, 2, [4, 3]), (13, 4, [4, 3, 3, 3])])
def test_group_sizes_larger_first(n: int, groups: int, sizes: list[int]) -> None:
    assert group_sizes(n, groups) == sizes
    s = Stream()
    s.add(n, seeded=True)
    s.draw("round_robin", groups=groups)
    by_group: dict[str, int] = {}
    for row in s.view["standings"]:
        by_group[row["group"]] = by_group.get(row["group"], 0) + 1
    assert [by_group[chr(65 + g)] for g in range(groups)] == sizes


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 60), groups=st.integers(1, 26))
def test_snake_sizes_and_top_seeds_spread(n: int, groups: int) -> None:
    from hub.draws.round_robin import snake
    if n < groups:
        return
    piles = snake([str(i) for i in range(1, n + 1)], groups)
    sizes = [len(p) for p in piles]
    assert sizes == sorted(sizes, reverse=True) and max(sizes) - min(sizes) <= 1 and sum(sizes) == n
    assert [p[0] for p in piles] == [str(i) for i in range(1, groups + 1)]  # seeds 1..G head the groups
    assert sorted(x for p in piles for x in p) == sorted(str(i) for i in range(1, n + 1))


def test_ten_in_three_gives_the_tenth_to_the_first_group() -> None:
    from hub.draws.round_robin import snake
    assert snake([str(i) for i in range(1, 11)], 3) == [["1", "6", "7", "10"], ["2", "5", "8"], ["3", "4", "9"]]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(["double_elimination", "round_robin"]),
       n=st.integers(8, 24))
def test_two_stage_draws_always_end_under_withdrawals_walkovers_and_undos(seed: int, kind: str, n: int) -> None:
    rnd = random.Random(seed)
    s = Stream()
    s.add(n, seeded=True)
    if kind == "double_elimination":
        s.draw(kind, then={**KO, "advance": 4})
    else:
        s.draw(kind, groups=2, then={**KO, "advance": 2})
    drive(s, rnd, ["t1", "t2", "t3"], extra=True)
    view = s.view
    draw = view["draw"]
    assert draw["status"] == "finished"
    assert all(st_["status"] == "finished" for st_ in draw["stages"])
    statuses = {p["id"]: p["status"] for p in view["players"]}
    assert "active" not in statuses.values()  # nobody stays active in a finished draw
    if draw["champion"] is not None:
        assert draw["champion"] in draw["stages"][1]["entrants"]
    from hub.draws import fold
    assert fold("t1", s.events) == s.state  # the facts replay exactly


def test_the_match_cap_counts_both_stages() -> None:
    from hub.draws.brackets import structure
    from hub.draws.draw_commands import MAX_DRAW_MATCHES, staged_size
    then = {"type": "single_elimination", "advance": 8}
    # a stopped 32-player double elimination: its own 52 matches and the knockout's 7
    assert staged_size("double_elimination", 32, {}, then) == 52 + 7
    assert len(structure(True, 32, "W", 8)) == 52
    assert staged_size("round_robin", 12, {"groups": 3}, {**then, "advance": 2}) == 3 * 6 + 7
    # 91 in one group: 4,095 matches fit; with a knockout of 3 (4 slots, 3 matches) they do not
    assert staged_size("round_robin", 91, {"groups": 1}, None) <= MAX_DRAW_MATCHES
    assert staged_size("round_robin", 91, {"groups": 1}, {**then, "advance": 3}) > MAX_DRAW_MATCHES
    s = Stream()
    s.add(91, seeded=True)
    r = s.reject({"kind": "make_draw", "type": "round_robin", "seeding": "seeded", "seed": 1,
                  "match": TEMPLATES["golden_nine"], "then": {**then, "advance": 3}})
    assert r.code == "draw_too_large"


@pytest.mark.parametrize("seeding", ["results", "seeded", "random"])
def test_then_seeding_orders_each_side_within_its_own_seeds(seeding: str) -> None:
    """``results`` (the default): each side in the first stage's order (here a random draw);
    ``seeded``: by the players' seeds; ``random``: shuffled; always the winners side first."""
    s = Stream()
    s.add(16, seeded=True)
    then = {**KO, "advance": 8} if seeding == "results" else {**KO, "advance": 8, "seeding": seeding}
    s.draw("double_elimination", seeding="random", seed=11, then=then)
    _finish_stage_one(s, random.Random(3), ["t1", "t2", "t3"])
    first, second = s.view["draw"]["stages"]
    assert second["seeding"] == seeding
    order = {pid: i for i, pid in enumerate(first["entrants"])}
    seed = {p["id"]: p["seed"] for p in s.view["players"]}
    last_w = max(int(m["round"][1:]) for m in s.view["draw"]["matches"] if m["round"].startswith("W"))
    unbeaten = {m["winner"] for m in s.view["draw"]["matches"] if m["round"] == f"W{last_w}"}
    top, bottom = second["entrants"][:4], second["entrants"][4:]
    assert set(top) == unbeaten
    for side in (top, bottom):
        if seeding == "results":
            assert side == sorted(side, key=order.__getitem__)
        elif seeding == "seeded":
            assert side == sorted(side, key=seed.__getitem__)
    if seeding == "random":  # the same draw seed, the same knockout
        again = Stream()
        again.add(16, seeded=True)
        again.draw("double_elimination", seeding="random", seed=11, then=then)
        _finish_stage_one(again, random.Random(3), ["t1", "t2", "t3"])
        assert again.view["draw"]["stages"][1]["entrants"] == second["entrants"]
