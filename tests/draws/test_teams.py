"""Teams and team matches in the pure draw logic (hub/draws/teams.py)."""

from __future__ import annotations

from typing import Any

import pytest

from hub.draws import dispatch, fold
from hub.draws.teams import dispatch_rubbers
from tests.draws.harness import Stream

SINGLES5 = {"rubbers": [{"kind": "singles"}] * 5, "to_win": 3}


def add_teams(s: Stream, n: int, size: int = 4) -> list[str]:
    teams = [{"name": f"Team {t}", "members": [{"name": f"T{t} M{m}"} for m in range(1, size + 1)], "captain": 0}
             for t in range(1, n + 1)]
    event = s.do({"kind": "add_players", "players": teams})
    return [p["id"] for p in event.data["players"]]


def team_draw(s: Stream, team: dict[str, Any] | None = SINGLES5, kind: str = "single_elimination",
              **match: Any) -> None:
    template = {"discipline": "golden_nine", "format": {"racks": 5}, "options": {}, **match}
    if team is not None:
        template["team"] = team
    s.do({"kind": "make_draw", "type": kind, "seeding": "random", "seed": 3, "match": template})


def name_all(s: Stream, key: str, rubbers: range, pick: Any = None) -> None:
    entry = s.match(key)
    for i in rubbers:
        for team in entry["players"]:
            members = [m.id for m in s.state.player(team).members]
            kind = entry["team"]["rubbers"][i - 1]["kind"]
            chosen = pick(i, members) if pick else ([members[(i - 1) % len(members)]] if kind == "singles"
                                                    else members[:2])
            s.do({"kind": "name_lineup", "key": key, "rubber": i, "team": team, "members": chosen})


def play(s: Stream, rkey: str, winner_team: str) -> None:
    call = s.state.rubber_calls[rkey]
    winner = next(p for p in call.players if s.state.member_team.get(p, p) == winner_team)
    s.do({"kind": "take_rubber", "rubber": rkey, "match_id": call.match_id, "winner": winner,
          "scores": {p: 3 if p == winner else 1 for p in call.players}})


def test_a_team_has_members_with_ids_and_a_captain() -> None:
    s = Stream()
    t1, _t2 = add_teams(s, 2, size=3)
    team = s.view["players"][0]
    assert team["id"] == t1
    assert [m["id"] for m in team["members"]] == ["p1.1", "p1.2", "p1.3"]
    assert team["captain"] == 0 and team["members"][1]["name"] == "T1 M2"


def test_bad_teams_are_refused_with_codes() -> None:
    s = Stream()
    assert s.reject({"kind": "add_players", "players": [{"name": "A", "members": []}]}).code == "bad_request"
    r = s.reject({"kind": "add_players", "players": [{"name": "A", "members": [{"person": "x"}, {"person": "x"}]}]})
    assert r.code == "member_twice"
    assert s.reject({"kind": "add_players", "players": [{"name": "A", "captain": 0}]}).code == "bad_request"
    r = s.reject({"kind": "add_players", "players": [{"name": "A", "members": [{"name": "a"}], "captain": 1}]})
    assert r.code == "bad_request"


def test_members_change_until_the_team_has_played() -> None:
    s = Stream()
    t1, t2 = add_teams(s, 2, size=2)
    s.do({"kind": "update_player", "player": t1, "changes": {"members": [{"name": "New"}], "captain": 0}})
    assert [m.id for m in s.state.player(t1).members] == ["p1.3"]  # member ids are never given again
    team_draw(s, {"rubbers": [{"kind": "singles"}], "to_win": 1})
    name_all(s, "W1-1", range(1, 2), pick=lambda i, members: members[:1])
    (rkey, table), = dispatch_rubbers(s.state, [("tb1", True)])
    s.do({"kind": "call_rubber", "rubber": rkey, "match_id": "m1", "table_id": table})
    r = s.reject({"kind": "update_player", "player": t2, "changes": {"members": [{"name": "Late"}]}})
    assert (r.status, r.code) == (409, "team_played")


def test_a_five_rubber_team_match_to_three_in_parallel_unstarted_rubbers_dropped() -> None:
    s = Stream()
    add_teams(s, 2, size=5)
    team_draw(s)
    entry = s.match("W1-1")
    assert entry["status"] == "ready" and dispatch(s.state, [("tb1", True)]) == []  # never called as one match
    name_all(s, "W1-1", range(1, 6))
    calls = dispatch_rubbers(s.state, [("tb1", True), ("tb2", True), ("tb3", True), ("tb4", True)])
    assert calls == [("W1-1/1", "tb1"), ("W1-1/2", "tb2"), ("W1-1/3", "tb3"), ("W1-1/4", "tb4")]
    for n, (rkey, table) in enumerate(calls):
        s.do({"kind": "call_rubber", "rubber": rkey, "match_id": f"m{n}", "table_id": table})
    assert s.match("W1-1")["status"] == "called"
    a, b = entry["players"]
    play(s, "W1-1/1", a)
    play(s, "W1-1/2", b)
    play(s, "W1-1/3", a)
    assert s.match("W1-1")["team"]["score"] == {a: 2, b: 1} and s.match("W1-1")["status"] == "called"
    play(s, "W1-1/4", a)
    done = s.match("W1-1")
    assert done["status"] == "finished" and done["winner"] == a and done["scores"] == {a: 3, b: 1}
    assert [r["status"] for r in done["team"]["rubbers"]] == ["finished"] * 4 + ["dropped"]
    assert dispatch_rubbers(s.state, [("tb1", True)]) == []
    assert s.view["draw"]["champion"] == a
    assert fold("t1", s.events) == s.state  # the fold is pure: the same facts from the stored events


def test_a_member_is_in_one_live_rubber_at_a_time() -> None:
    s = Stream()
    add_teams(s, 2, size=3)
    team_draw(s)
    name_all(s, "W1-1", range(1, 6), pick=lambda i, members: [members[0]])  # the same member every rubber
    calls = dispatch_rubbers(s.state, [("tb1", True), ("tb2", True)])
    assert calls == [("W1-1/1", "tb1")]
    s.do({"kind": "call_rubber", "rubber": "W1-1/1", "match_id": "m1", "table_id": "tb1"})
    assert dispatch_rubbers(s.state, [("tb2", True)]) == []
    play(s, "W1-1/1", s.match("W1-1")["players"][0])
    assert dispatch_rubbers(s.state, [("tb1", True), ("tb2", True)]) == [("W1-1/2", "tb1")]


@pytest.mark.parametrize(("members", "code"), [(["p9.1"], "not_member"), ([], "lineup_size"),
                                                (["p1.1", "p1.2"], "lineup_size")])
def test_bad_lineups_are_refused(members: list[str], code: str) -> None:
    s = Stream()
    add_teams(s, 2, size=3)
    team_draw(s)
    team = s.match("W1-1")["players"][0]
    members = [m.replace("p1", team) for m in members]
    r = s.reject({"kind": "name_lineup", "key": "W1-1", "rubber": 1, "team": team, "members": members})
    assert (r.status, r.code) == (422, code)


def test_doubles_rubbers_name_two_members_and_are_created_doubles() -> None:
    s = Stream()
    add_teams(s, 2, size=3)
    team_draw(s, {"rubbers": [{"kind": "doubles", "format": {"racks": 3}}, {"kind": "singles"}], "to_win": 2})
    name_all(s, "W1-1", range(1, 3))
    from hub.draws.teams import rubber_body  # noqa: PLC0415

    body = rubber_body(s.state, "W1-1/1")
    assert body["doubles"] is True and body["format"]["racks"] == 3
    assert [len(p["members"]) for p in body["players"]] == [2, 2]
    assert body["draw"]["key"] == "W1-1/1"
    singles = rubber_body(s.state, "W1-1/2")
    assert "doubles" not in singles and all("." in p["id"] for p in singles["players"])


def test_a_team_single_elimination_runs_to_its_champion() -> None:
    s = Stream()
    ids = add_teams(s, 4, size=2)
    team_draw(s, {"rubbers": [{"kind": "singles"}, {"kind": "singles"}, {"kind": "doubles"}], "to_win": 2})
    n = 0
    while s.view["draw"]["status"] != "finished":
        playing = [m for m in s.view["draw"]["matches"] if m["status"] in ("ready", "called") and "team" in m]
        for m in playing:
            for r in m["team"]["rubbers"]:
                if r["status"] == "waiting":
                    name_all(s, m["key"], range(r["rubber"], r["rubber"] + 1))
        for rkey, table in dispatch_rubbers(s.state, [("tb1", True), ("tb2", True)]):
            n += 1
            s.do({"kind": "call_rubber", "rubber": rkey, "match_id": f"m{n}", "table_id": table})
        for rkey in list(s.state.open_rubbers):
            key = rkey.rsplit("/", 1)[0]
            play(s, rkey, min(s.match(key)["players"]))  # the lower id wins every rubber
    assert s.view["draw"]["champion"] == min(ids)
    assert fold("t1", s.events) == s.state


def test_a_scotch_doubles_draw_takes_teams_of_two() -> None:
    s = Stream()
    add_teams(s, 3, size=2)
    trio = [{"name": "x"}, {"name": "y"}, {"name": "z"}]
    s.do({"kind": "add_players", "players": [{"name": "Trio", "members": trio}]})
    template = {"discipline": "golden_nine", "format": {"racks": 5}, "options": {}, "doubles": True}
    r = s.reject({"kind": "make_draw", "type": "single_elimination", "seed": 1, "match": template})
    assert (r.status, r.code) == (422, "doubles_pairs")


def test_a_round_robin_of_teams_counts_rubbers_in_its_standings() -> None:
    s = Stream()
    add_teams(s, 3, size=3)
    team_draw(s, {"rubbers": [{"kind": "singles"}] * 3, "to_win": 2}, kind="round_robin")
    n = 0
    while s.view["draw"]["status"] != "finished":
        for m in s.view["draw"]["matches"]:
            if m["status"] in ("ready", "called") and any(r["status"] == "waiting" for r in m["team"]["rubbers"]):
                name_all(s, m["key"], range(1, 4), pick=lambda i, members: [members[i - 1]])
        for rkey, table in dispatch_rubbers(s.state, [("tb1", True)]):
            n += 1
            s.do({"kind": "call_rubber", "rubber": rkey, "match_id": f"m{n}", "table_id": table})
        for rkey in list(s.state.open_rubbers):
            play(s, rkey, min(s.match(rkey.rsplit("/", 1)[0])["players"]))  # the lower id wins
    rows = {row["player"]: row for row in s.view["standings"]}
    p1, p2, p3 = sorted(rows)
    # p1 wins both team matches 2-0 in rubbers, p2 beats p3 2-0: rubbers are what the table counts
    assert (rows[p1]["points"], rows[p1]["score_for"], rows[p1]["score_against"]) == (2, 4, 0)
    assert (rows[p3]["points"], rows[p3]["score_for"], rows[p3]["score_against"]) == (0, 0, 4)
    assert [r["player"] for r in s.view["standings"]] == [p1, p2, p3]
