"""A rubber's result corrected or voided, a team withdrawn mid team match (hub/draws/team_corrections.py,
hub/draws/settle.py): the team match's score in rubbers and its outcome derived again, the draw
following it."""

from __future__ import annotations

from hub.draws import fold
from hub.draws.teams import dispatch_rubbers
from tests.draws.harness import Stream
from tests.draws.test_teams import SINGLES5, add_teams, name_all, play, team_draw


def call_all(s: Stream, tables: int = 5) -> None:
    for rkey, table in dispatch_rubbers(s.state, [(f"tb{n}", True) for n in range(1, tables + 1)]):
        s.do({"kind": "call_rubber", "rubber": rkey, "match_id": f"m-{rkey}", "table_id": table})


def correct(s: Stream, rkey: str, winner_team: str, version: int | None = None) -> None:
    """The rubber's match given to the other side: a result entered by hand over the played one."""
    call = s.state.rubber_calls[rkey]
    winner = next(p for p in call.players if s.state.member_team.get(p, p) == winner_team)
    command = {"kind": "take_rubber", "rubber": rkey, "match_id": call.match_id, "winner": winner,
               "scores": {p: 3 if p == winner else 2 for p in call.players}}
    if version is not None:
        command["match_version"] = version
    s.do(command)


def decided_3_1() -> tuple[Stream, str, str]:
    """A 5-rubber team match to 3 (a final of two teams), A winning 3-1 with rubber 5 dropped."""
    s = Stream()
    add_teams(s, 2, size=5)
    team_draw(s, SINGLES5)
    a, b = s.match("W1-1")["players"]
    name_all(s, "W1-1", range(1, 6))
    call_all(s, tables=4)
    for i, team in zip(range(1, 5), (a, b, a, a), strict=True):
        play(s, f"W1-1/{i}", team)
    assert s.match("W1-1")["status"] == "finished" and s.view["draw"]["champion"] == a
    return s, a, b


def test_a_correction_that_undecides_reopens_the_team_match_and_its_dropped_rubber_is_played() -> None:
    s, a, b = decided_3_1()
    correct(s, "W1-1/4", b)
    m = s.match("W1-1")
    assert m["team"]["score"] == {a: 2, b: 2} and m["status"] == "ready" and m["winner"] is None
    assert s.view["draw"]["champion"] is None and s.view["draw"]["status"] != "finished"
    assert [r["status"] for r in m["team"]["rubbers"]] == ["finished"] * 4 + ["ready"]
    call_all(s)
    assert s.match("W1-1")["team"]["rubbers"][4]["status"] == "called"
    play(s, "W1-1/5", b)
    done = s.match("W1-1")
    assert (done["winner"], done["scores"]) == (b, {a: 2, b: 3}) and s.view["draw"]["champion"] == b
    assert fold("t1", s.events) == s.state


def test_a_correction_keeps_its_place_the_first_to_to_win_decides() -> None:
    s, a, b = decided_3_1()
    correct(s, "W1-1/1", b)  # in the order taken: b, b, a, a: 2-2, nobody at 3, reopened
    assert s.match("W1-1")["status"] == "ready"
    correct(s, "W1-1/1", a)  # back as played: a 3-1 again, decided by rubber 4 as before
    m = s.match("W1-1")
    assert (m["status"], m["winner"], m["scores"]) == ("finished", a, {a: 3, b: 1})
    assert s.reject({"kind": "take_rubber", "rubber": "W1-1/1", "match_id": "m-W1-1/1",
                     "winner": f"{a}.1", "scores": {f"{a}.1": 3, f"{b}.1": 2}}).code == "already_decided"


def test_a_correction_moves_the_winner_and_the_draw_advances_the_other_team() -> None:
    s = Stream()
    add_teams(s, 4, size=2)
    team_draw(s, {"rubbers": [{"kind": "singles"}], "to_win": 1})
    semi = "W1-1"
    a, b = s.match(semi)["players"]
    name_all(s, semi, range(1, 2))
    call_all(s, tables=1)
    play(s, f"{semi}/1", a)
    final = next(m["key"] for m in s.view["draw"]["matches"] if m["round"] != s.match(semi)["round"])
    assert a in s.match(final)["players"]
    correct(s, f"{semi}/1", b)
    assert (s.match(semi)["winner"], s.match(semi)["scores"]) == (b, {a: 0, b: 1})
    assert b in s.match(final)["players"] and a not in s.match(final)["players"]
    # once the final's rubbers are called, the semi-final's correction is refused: it depends on it
    other = next(m["key"] for m in s.view["draw"]["matches"] if m["key"] not in (semi, final))
    name_all(s, other, range(1, 2))
    call_all(s, tables=1)
    play(s, f"{other}/1", min(s.match(other)["players"]))
    name_all(s, final, range(1, 2))
    call_all(s, tables=1)
    assert s.match(final)["team"]["rubbers"][0]["status"] == "called"
    call = s.state.rubber_calls[f"{semi}/1"]
    r = s.reject({"kind": "take_rubber", "rubber": f"{semi}/1", "match_id": call.match_id, "winner": f"{a}.1",
                  "scores": {f"{a}.1": 1, f"{b}.1": 0}})
    assert (r.status, r.code) == (409, "result_used") and final in r.message


def test_a_void_reopens_the_rubber_on_its_table_and_the_team_match() -> None:
    s, a, b = decided_3_1()
    s.do({"kind": "void_rubber", "rubber": "W1-1/4", "match_id": "m-W1-1/4"})
    m = s.match("W1-1")
    assert (m["status"], m["team"]["score"]) == ("called", {a: 2, b: 1})
    assert m["team"]["rubbers"][3]["status"] == "called" and "W1-1/4" in s.state.open_rubbers
    assert s.reject({"kind": "void_rubber", "rubber": "W1-1/4", "match_id": "m-W1-1/4"}).code == "not_finished"
    play(s, "W1-1/4", a)
    assert s.match("W1-1")["winner"] == a
    assert fold("t1", s.events) == s.state


def test_a_team_withdrawn_mid_team_match_gives_it_to_the_opponent_rubbers_as_walkovers() -> None:
    s = Stream()
    add_teams(s, 4, size=5)
    team_draw(s, SINGLES5)
    key = "W1-1"
    a, b = s.match(key)["players"]
    name_all(s, key, range(1, 6))
    call_all(s, tables=2)
    play(s, f"{key}/1", a)
    s.do({"kind": "withdraw", "player": a})
    m = s.match(key)
    assert (m["status"], m["winner"]) == ("walkover", b)
    statuses = [r["status"] for r in m["team"]["rubbers"]]
    assert statuses == ["finished", "called", "walkover", "walkover", "walkover"]  # rubber 2: the flow's to end
    assert [r["winner"] for r in m["team"]["rubbers"][2:]] == [b, b, b]
    assert dispatch_rubbers(s.state, [("tb1", True), ("tb3", True)]) == []  # nothing more is called
    final = m["winner_to"]
    assert b in s.match(final)["players"]
    # rubber 2, being played, is forfeited by the withdrawn side: its result changes nothing
    play(s, f"{key}/2", b)
    assert (s.match(key)["status"], s.match(key)["winner"]) == ("walkover", b)
    assert fold("t1", s.events) == s.state


def test_a_walkover_given_by_the_desk_on_a_team_match_being_played() -> None:
    s = Stream()
    add_teams(s, 2, size=5)
    team_draw(s, SINGLES5)
    a, b = s.match("W1-1")["players"]
    name_all(s, "W1-1", range(1, 6))
    call_all(s, tables=2)
    assert s.match("W1-1")["status"] == "called"
    s.do({"kind": "walkover", "key": "W1-1", "winner": a, "uncall": True})
    m = s.match("W1-1")
    assert (m["status"], m["winner"]) == ("walkover", a) and s.view["draw"]["champion"] == a
    assert [r["status"] for r in m["team"]["rubbers"]] == ["called", "called", "walkover", "walkover", "walkover"]
