"""make_draw: settings, the reject codes, seeding orders, redraw."""

from __future__ import annotations

import pytest

from hub.draws import TournamentEvent, fold
from hub.draws.draw_commands import MAX_DRAW_MATCHES, draw_size
from tests.draws.harness import TEMPLATES, Stream

GOLDEN = TEMPLATES["golden_nine"]
CHASE = TEMPLATES["chase_nine"]


def draw_cmd(**fields: object) -> dict:
    return {"kind": "make_draw", "type": "single_elimination", "seed": 7, "match": GOLDEN, **fields}


@pytest.mark.parametrize("fields, status, code", [
    ({"type": "swiss"}, 422, "bad_request"),
    ({"type": None}, 422, "bad_request"),
    ({"seeding": "fargo"}, 422, "bad_request"),  # "rating": tests/draws/test_handicaps.py
    ({"seed": None}, 422, "bad_request"),
    ({"seed": True}, 422, "bad_request"),
    ({"seed": "7"}, 422, "bad_request"),
    ({"seed": 2**64}, 422, "bad_request"),
    ({"seed": -1}, 422, "bad_request"),
    ({"match": None}, 422, "bad_request"),
    ({"match": {"discipline": "snooker"}}, 422, "bad_request"),
    ({"match": {"discipline": "golden_nine", "tables": 3}}, 422, "bad_request"),
    ({"match": {"discipline": "golden_nine", "format": []}}, 422, "bad_request"),
    ({"match": CHASE}, 422, "bad_request"),
    ({"type": "double_elimination", "match": CHASE}, 422, "bad_request"),
    ({"type": "round_robin", "match": CHASE}, 422, "bad_request"),
    ({"type": "chase_groups", "match": GOLDEN}, 422, "bad_request"),
    ({"groups": 2}, 422, "bad_request"),
    ({"rounds": 2}, 422, "bad_request"),
    ({"type": "round_robin", "groups": 0}, 422, "bad_request"),
    ({"type": "round_robin", "groups": 27}, 422, "bad_request"),
    ({"type": "round_robin", "groups": "2"}, 422, "bad_request"),
    ({"type": "round_robin", "groups": 4}, 422, "too_few_players"),
    ({"type": "chase_groups", "match": CHASE, "rounds": 0}, 422, "bad_request"),
    ({"type": "chase_groups", "match": CHASE, "rounds": 51}, 422, "bad_request"),
    ({"redraw": "yes"}, 422, "bad_request"),
    ({"colour": "red"}, 422, "bad_request"),
])
def test_make_draw_rejects(fields: dict, status: int, code: str) -> None:
    s = Stream()
    s.add(7)
    cmd = draw_cmd(**fields)
    if fields.get("seed", 0) is None:
        del cmd["seed"]
    r = s.reject(cmd)
    assert (r.status, r.code) == (status, code), r.message


def test_too_few_players() -> None:
    s = Stream()
    r = s.reject(draw_cmd())
    assert (r.status, r.code) == (422, "too_few_players")
    s.add(2)
    s.do({"kind": "withdraw", "player": "p2"})
    assert s.reject(draw_cmd()).code == "too_few_players"  # withdrawn players do not count
    s.add(1)
    r = s.reject(draw_cmd(type="chase_groups", match=CHASE))
    assert (r.status, r.code) == (422, "too_few_players")
    s.do(draw_cmd())


def test_defaults_stored() -> None:
    s = Stream()
    s.add(6)
    event = s.do({"kind": "make_draw", "type": "chase_groups", "seed": 11, "match": {"discipline": "chase_nine"}})
    assert event.data["seeding"] == "random" and event.data["rounds"] == 3 and event.data["groups"] is None
    assert event.data["match"] == {"discipline": "chase_nine", "format": {}, "options": {}}
    assert sorted(event.data["entrants"]) == [f"p{i}" for i in range(1, 7)]
    draw = s.view["draw"]
    assert (draw["type"], draw["seeding"], draw["seed"], draw["rounds"], draw["groups"]) == (
        "chase_groups", "random", 11, 3, None)


def test_seeded_order_puts_seeds_first_and_shuffles_the_rest() -> None:
    s = Stream()
    s.do({"kind": "add_players", "players": [{"name": "A"}, {"name": "B", "seed": 2}, {"name": "C"},
                                             {"name": "D", "seed": 1}, {"name": "E"}, {"name": "F"}]})
    event = s.do(draw_cmd(seeding="seeded"))
    assert event.data["entrants"][:2] == ["p4", "p2"]
    assert sorted(event.data["entrants"][2:]) == ["p1", "p3", "p5", "p6"]


def test_replay_reads_the_stored_order() -> None:
    s = Stream()
    s.add(8)
    event = s.do(draw_cmd(seeding="random"))
    order = list(reversed(event.data["entrants"]))
    events = s.events[:-1] + [TournamentEvent(event.version, event.kind, {**event.data, "entrants": order})]
    assert fold("t1", events).draw.entrants == tuple(order)


def test_redraw() -> None:
    s = Stream()
    s.add(8)
    s.do(draw_cmd(seed=1))
    r = s.reject(draw_cmd(seed=2))
    assert (r.status, r.code) == (409, "draw_exists")
    s.call("W1-1")
    s.do({"kind": "order_queue", "keys": ["W1-3"]})
    s.do(draw_cmd(seed=2, type="round_robin", redraw=True))
    assert s.view["draw"]["type"] == "round_robin" and s.state.calls == {} and s.state.queue_order == ()
    assert all(m["status"] == "ready" for m in s.view["draw"]["matches"])
    key = s.view["queue"][0]
    s.do({"kind": "walkover", "key": key, "winner": s.match(key)["players"][0]})
    r = s.reject(draw_cmd(seed=3, redraw=True))
    assert (r.status, r.code) == (409, "draw_started")


def test_redraw_refused_after_a_result_and_allowed_before_any_draw() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.do(draw_cmd(redraw=True))  # nothing to replace: a plain draw
    s.play("W1-1", s.match("W1-1")["players"][0])
    r = s.reject(draw_cmd(redraw=True))
    assert (r.status, r.code) == (409, "draw_started")


def test_null_settings_take_the_defaults() -> None:
    s = Stream()
    s.add(6)
    event = s.do({"kind": "make_draw", "type": "round_robin", "seeding": None, "seed": 5, "groups": None,
                  "rounds": None, "redraw": None, "match": GOLDEN})
    assert (event.data["seeding"], event.data["groups"], event.data["rounds"], event.data["redraw"]) == (
        "random", 1, None, False)


# --- the size cap -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, n, extra", [
    ("single_elimination", 2, {}), ("single_elimination", 13, {}), ("single_elimination", 64, {}),
    ("double_elimination", 3, {}), ("double_elimination", 17, {}),
    ("round_robin", 9, {}), ("round_robin", 23, {"groups": 4}), ("round_robin", 12, {"groups": 5}),
    ("chase_groups", 10, {"rounds": 2}), ("chase_groups", 12, {}),
])
def test_draw_size_counts_what_the_draw_makes(kind: str, n: int, extra: dict) -> None:
    s = Stream()
    s.add(n)
    s.draw(kind, **extra)
    made = len(s.view["draw"]["matches"])
    counted = draw_size(kind, n, extra)
    # A double elimination also counts the grand final's reset, made only when it is played.
    assert counted == made + (1 if kind == "double_elimination" else 0)


def test_a_round_robin_over_the_cap_is_refused_naming_groups() -> None:
    s = Stream()
    s.add(91)  # 91 x 90 / 2 = 4,095 matches: the most that fits one group
    assert draw_size("round_robin", 91) <= MAX_DRAW_MATCHES < draw_size("round_robin", 92)
    s.do({"kind": "add_players", "players": [{"name": "Late"}]})
    r = s.reject({**draw_cmd(type="round_robin")})
    assert (r.status, r.code) == (422, "draw_too_large")
    assert "groups" in r.message and "4186" in r.message  # 92 x 91 / 2, and the way out
    s.draw("round_robin", groups=2)  # two groups of 46: 2 x 1,035 matches
    assert len(s.view["draw"]["matches"]) == 2070


def test_a_draw_too_large_is_refused_before_anything_is_made() -> None:
    s = Stream()
    for _ in range(2):
        s.add(500)
    before = len(s.events)
    r = s.reject(draw_cmd(type="round_robin", groups=26))  # 26 groups of 38-39: about 18,000 matches
    assert r.code == "draw_too_large" and "groups" in r.message
    r = s.reject(draw_cmd(type="chase_groups", match=CHASE, rounds=50))
    assert r.code == "draw_too_large" and "rounds" in r.message
    assert len(s.events) == before and s.view["draw"] is None
    s.draw("double_elimination")  # 1,000 players: a bracket of 1,024, 2,046 matches, fits
    assert len(s.view["draw"]["matches"]) == 2046
