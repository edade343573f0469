"""Exports (hub/tournaments/results.py, round_names.py): the champion placed first, withdrawn players
after every active one, walkovers not counted as played, readable round names, a byte order mark."""

from __future__ import annotations

from typing import Any

from hub import draws
from hub.tournaments import results
from hub.tournaments.round_names import namer
from tests.draws.harness import Stream


def proj_of(s: Stream) -> dict[str, Any]:
    return {"id": "t1", "name": "Open", "tables": [], **draws.projection(s.state)}


def test_a_withdrawn_round_robin_leader_is_not_first() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("round_robin")
    wins = {frozenset(("p1", "p2")): "p1", frozenset(("p1", "p3")): "p1", frozenset(("p2", "p3")): "p2",
            frozenset(("p2", "p4")): "p2", frozenset(("p3", "p4")): "p3"}
    for key in [m["key"] for m in s.view["draw"]["matches"]]:
        players = s.match(key)["players"]
        winner = wins.get(frozenset(players))
        if winner is not None:  # everything but p1 v p4
            s.play(key, winner, {p: (5 if p == winner else 0) for p in players})
    s.do({"kind": "withdraw", "player": "p1"})  # the leader withdraws before the last match
    assert s.view["draw"]["status"] == "finished"
    assert s.view["standings"][0]["player"] == "p1"  # the standings still rank by points
    placed = results.placings(proj_of(s))
    champion = s.view["draw"]["champion"]
    assert champion == "p2" and placed[0]["player"] == champion and placed[0]["place"] == 1
    assert [r["place"] for r in placed] == [1, 2, 3, None]
    assert placed[-1]["player"] == "p1" and placed[-1]["status"] == "withdrawn"


def test_a_withdrawn_chase_leader_is_not_first() -> None:
    s = Stream()
    s.add(3, seeded=True)
    s.draw("chase_groups", rounds=2)
    s.play("C1-1", "p1", {"p1": 10, "p2": -4, "p3": -6})
    s.do({"kind": "withdraw", "player": "p1"})  # after round 1: round 2 cannot be played by two
    placed = results.placings(proj_of(s))
    assert [r["player"] for r in placed][-1] == "p1"
    assert placed[0]["player"] == s.view["draw"]["champion"] == "p2"


def test_walkovers_are_no_matches_played_in_a_bracket() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.do({"kind": "walkover", "key": "W1-1", "winner": "p1"})
    s.play("W1-2", "p2")
    s.play("W2-1", "p1")
    rows = {r["player"]: r for r in results.placings(proj_of(s))}
    assert (rows["p1"]["played"], rows["p1"]["won"]) == (1, 1)  # the final only
    assert (rows["p4"]["played"], rows["p4"]["lost"]) == (0, 0)
    assert [r["place"] for r in results.placings(proj_of(s))][:2] == [1, 2]


def test_a_grand_final_walkover_places_the_winners_side_finalist_second() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    for key in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
        s.play(key, s.match(key)["players"][0])
    s.do({"kind": "walkover", "key": "GF", "winner": "p4"})  # to the losers-bracket player: the title
    placed = results.placings(proj_of(s))
    assert [(r["place"], r["player"], r["status"]) for r in placed] == [
        (1, "p4", "champion"), (2, "p1", "eliminated"), (3, "p2", "eliminated"), (4, "p3", "eliminated")]
    assert (placed[1]["played"], placed[1]["won"], placed[1]["lost"]) == (2, 2, 0)  # the walkover is no match
    csv_rows = results.placings_csv(proj_of(s)).splitlines()
    assert csv_rows[2].startswith("2,p1,")  # after the header: the finalist has a place in the file too


def test_a_chase_sit_out_is_written_as_a_bye_in_every_round() -> None:
    s = Stream()
    s.add(5, seeded=True)
    s.draw("chase_groups", rounds=2)
    rows = {r.split(",")[0]: r.split(",") for r in results.matches_csv(proj_of(s), "zh-CN").splitlines()[1:]}
    # key, round, round_name, group, status, player_1, player_2, player_3, ...
    assert rows["C1-2"][4:8] == ["bye", "Player 4", "Player 5", "轮空"]
    assert rows["C2-2"][4:8] == ["waiting", "", "", "轮空"]  # not formed yet: who sits out is not known
    assert rows["C2-1"][4:8] == ["waiting", "", "", ""]
    exported = {m["key"]: m for m in results.matches(proj_of(s))}
    assert exported["C1-2"]["players"][2] is None and exported["C1-2"]["players"][0]["name"] == "Player 4"


def test_round_names_and_bom() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("double_elimination")
    name = namer(s.view["draw"])
    names = {m["key"]: name(m) for m in s.view["draw"]["matches"]}
    assert names["W2-1"] == "Winners round 2" and names["L1-1"] == "Losers round 1" and names["GF"] == "Grand final"
    zh = namer(s.view["draw"], "zh-CN")
    assert zh(s.match("GF")) == "总决赛" and zh(s.match("L1-1")) == "败者组第1轮"
    single = Stream()
    single.add(8, seeded=True)
    single.draw("single_elimination")
    name = namer(single.view["draw"])
    assert [name(single.match(k)) for k in ("W1-1", "W2-1", "W3-1")] == ["Quarter-finals", "Semi-finals", "Final"]
    rr = Stream()
    rr.add(3, seeded=True)
    rr.draw("round_robin")
    assert namer(rr.view["draw"])(rr.view["draw"]["matches"][0]) == "Group A, round 1"
    text = results.matches_csv(proj_of(single))
    assert text.startswith("\ufeffkey,round,round_name,")
    assert results.placings_csv(proj_of(single)).startswith("\ufeffplace,")


def test_a_bye_is_written_in_the_export_language() -> None:
    """The matches CSV names a bye's missing player in the file's language: "(bye)", or 轮空 with
    lang=zh-CN (with the round names in Chinese too)."""
    s = Stream()
    s.add(3, seeded=True)  # a bracket of four: the top seed has a bye
    s.draw("single_elimination")
    proj = proj_of(s)
    assert any(m["status"] == "bye" for m in proj["draw"]["matches"])
    english = results.matches_csv(proj)
    chinese = results.matches_csv(proj, "zh-CN")
    assert "(bye)" in english and "轮空" not in english
    assert "轮空" in chinese and "bye)" not in chinese and "决赛" in chinese
    bye_rows = [r for r in chinese.splitlines() if ",bye," in r]
    assert bye_rows and all("轮空" in r for r in bye_rows), bye_rows


def test_a_result_entered_by_hand_says_so_in_the_exports() -> None:
    """The desk's result by hand is marked in results.json (`entered`) and in the matches CSV's
    `entered` column, in the file's language; a result played on the tablet is not."""
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.play("W1-1", "p1")
    s.call("W1-2")
    match_id = s.state.calls["W1-2"].match_id
    s.do({"kind": "take_result", "key": "W1-2", "match_id": match_id, "winner": "p2",
          "scores": {"p2": 3, "p3": 1}, "entered": True})
    proj = proj_of(s)
    entered = {m["key"]: m["entered"] for m in results.matches(proj)}
    assert entered["W1-1"] is False and entered["W1-2"] is True and entered["W2-1"] is False
    rows = {r.split(",")[0]: r for r in results.matches_csv(proj).lstrip("\ufeff").splitlines()}
    assert rows["key"].endswith(",entered,withdrew")
    assert rows["W1-2"].endswith(",by hand,") and rows["W1-1"].endswith(",1,,")  # an empty cell stays empty
    assert results.matches_csv(proj, "zh-CN").splitlines()[2].endswith(",手动录入,")


def test_a_match_forfeited_by_a_withdrawal_names_who_withdrew() -> None:
    # the flow's take_result of a match a withdrawn player forfeited carries `withdrawn`
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.call("W1-1")
    match_id = s.state.calls["W1-1"].match_id
    s.do({"kind": "take_result", "key": "W1-1", "match_id": match_id, "winner": "p1",
          "scores": {"p1": 0, "p4": 0}, "withdrawn": ["p4"]})
    proj = proj_of(s)
    assert next(m for m in proj["draw"]["matches"] if m["key"] == "W1-1")["withdrawn"] == ["p4"]
    got = {m["key"]: m["withdrawn"] for m in results.matches(proj)}
    assert got["W1-1"] == ["p4"] and got["W1-2"] == []
    rows = {r.split(",")[0]: r for r in results.matches_csv(proj).lstrip("\ufeff").splitlines()}
    name = next(p["name"] for p in proj["players"] if p["id"] == "p4")
    assert rows["W1-1"].endswith(f",{name}") and rows["W1-2"].endswith(",,")


def test_a_handicapped_race_shows_each_race_in_the_exports() -> None:
    # PROTOCOL.md section 13: the draw keeps each player's race; results.json and the CSV show them
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.play("W1-2", "p2")
    s.call("W1-1")
    match_id = s.state.calls["W1-1"].match_id
    s.do({"kind": "take_result", "key": "W1-1", "match_id": match_id, "winner": "p4",
          "scores": {"p1": 3, "p4": 1}, "races": {"p1": 5, "p4": 1}})
    proj = proj_of(s)
    got = {m["key"]: m["players"] for m in results.matches(proj)}
    assert [(p["id"], p["score"], p["race"]) for p in got["W1-1"]] == [("p1", 3, 5), ("p4", 1, 1)]
    assert all("race" not in p for p in got["W1-2"])
    lines = results.matches_csv(proj).lstrip("\ufeff").splitlines()
    header = lines[0].split(",")
    rows = {r.split(",")[0]: dict(zip(header, r.split(","), strict=True)) for r in lines[1:]}
    assert (rows["W1-1"]["race_1"], rows["W1-1"]["race_2"]) == ("5", "1")
    assert rows["W1-1"]["winner"] == next(p["name"] for p in proj["players"] if p["id"] == "p4")
    assert rows["W1-2"]["race_1"] == "" and rows["W1-2"]["score_1"] != ""
