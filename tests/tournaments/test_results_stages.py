"""Exports of a two-stage event: every match of both stages, placings from the knockout down."""

from __future__ import annotations

import csv
import io
import random

from hub.tournaments import results
from tests.draws.harness import Stream, drive


def _finished(kind: str, n: int, **extra) -> dict:
    s = Stream()
    s.add(n, seeded=True)
    s.draw(kind, **extra)
    drive(s, random.Random(n), ["t1", "t2", "t3"], extra=False)
    return {**s.view, "id": "t1", "name": "Open", "tables": []}


def test_groups_then_knockout_placings_and_matches() -> None:
    proj = _finished("round_robin", 12, groups=3, then={"type": "single_elimination", "advance": 2})
    draw = proj["draw"]
    places = results.placings(proj)
    assert places[0]["player"] == draw["champion"] and places[0]["place"] == 1
    knockout = set(draw["stages"][1]["entrants"])
    order = [p["player"] for p in places]
    # the knockout's players first, then the ones out in the groups, best group rank first
    assert set(order[:len(knockout)]) == knockout
    rank = {r["player"]: r["rank"] for r in proj["standings"]}
    out = order[len(knockout):]
    assert [rank[p] for p in out] == sorted(rank[p] for p in out)
    thirds = [p for p in places if p["player"] in out and rank[p["player"]] == 3]
    assert len({p["place"] for p in thirds}) == 1  # every group's third shares a place
    rows = list(csv.DictReader(io.StringIO(results.matches_csv(proj).lstrip("\ufeff"))))
    assert {r["stage"] for r in rows} == {"1", "2"}
    assert {r["key"] for r in rows if r["stage"] == "2"} == {m["key"] for m in draw["matches"] if m["stage"] == 2}
    assert len(rows) == len(draw["matches"])
    # 3 groups x 2: a knockout of 8 slots, read as the knockout's own rounds
    assert {r["key"]: r["round_name"] for r in rows if r["stage"] == "2" and r["key"].endswith("-1")} == {
        "K1-1": "Knockout quarter-finals", "K2-1": "Knockout semi-finals", "K3-1": "Knockout final"}
    zh = list(csv.DictReader(io.StringIO(results.matches_csv(proj, "zh-CN").lstrip("\ufeff"))))
    assert next(r["round_name"] for r in zh if r["key"] == "K3-1") == "淘汰赛决赛"
    assert [s["stage"] for s in results.results_json(proj)["draw"]["stages"]] == [1, 2]


def test_double_elimination_then_knockout_placings() -> None:
    proj = _finished("double_elimination", 16, then={"type": "single_elimination", "advance": 4})
    places = results.placings(proj)
    assert places[0]["player"] == proj["draw"]["champion"]
    knockout = set(proj["draw"]["stages"][1]["entrants"])
    assert {p["player"] for p in places[:4]} == knockout
    assert places[1]["place"] == 2 and {p["place"] for p in places[2:4]} == {3}
    assert all(p["place"] is not None and p["place"] > 4 for p in places[4:])
