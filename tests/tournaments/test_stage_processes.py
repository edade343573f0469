"""Two-stage events played by a real `cuehub serve` process on PostgreSQL from simulated tablets
alone (`cuehub simulate`'s machinery): a 32-player double elimination to the last 8, then its
single elimination to the champion; and round-robin groups whose best two play a knockout. The
hub calls every match of both stages; each is played to its round's race (match.by_round)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from test_processes import hub, play

from hub.tools.simulate import DrawPlan

SIDE_RACES = {"losers": {"format": {"race_to": 1}}}


def _played(base: str, tid: str) -> list[dict[str, Any]]:
    return [m for m in httpx.get(f"{base}/api/matches?status=finished", timeout=10).json()["matches"]
            if (m.get("draw") or {}).get("tournament_id") == tid]


def _check_common(base: str, t: dict[str, Any]) -> dict[str, dict[str, Any]]:
    draw = t["draw"]
    assert draw["status"] == "finished" and draw["champion"]
    assert [s["status"] for s in draw["stages"]] == ["finished", "finished"]
    assert all(m["status"] in ("finished", "walkover", "bye") for m in draw["matches"])
    played = _played(base, t["id"])
    keys = Counter(m["draw"]["key"] for m in played)
    assert all(n == 1 for n in keys.values()), keys  # every draw match played exactly once
    assert set(keys) == {m["key"] for m in draw["matches"] if m["status"] == "finished"}
    statuses = {p["id"]: p["status"] for p in t["players"]}
    assert statuses[draw["champion"]] == "champion"
    assert {s for p, s in statuses.items() if p != draw["champion"]} == {"eliminated"}
    assert {tb["status"] for tb in t["tables"]} == {"free"}
    return {m["draw"]["key"]: m for m in played}


def test_double_elimination_to_the_last_eight_then_a_knockout(tmp_path: Path, pg_schema: str) -> None:
    plan = DrawPlan("double_elimination", players=32, tables=8, discipline="wpa_nine", length=2, seed=3,
                    seeding="seeded", by_round=SIDE_RACES,
                    then={"type": "single_elimination", "advance": 8,
                          "match": {"discipline": "wpa_nine", "format": {"race_to": 2},
                                    "by_round": {"final": {"format": {"race_to": 3}}}}})
    h = hub(tmp_path, pg_schema, "a")
    h.start()
    try:
        sim = play(h.base, [h.base], plan)
        assert sim.finished and not sim.stats.errors, sim.stats.errors
        t = httpx.get(f"{h.base}/api/tournaments/{sim.tournament['id']}", timeout=10).json()  # type: ignore[index]
        played = _check_common(h.base, t)
        draw = t["draw"]
        first, second = draw["stages"]
        assert len(second["entrants"]) == 8 and first["advanced"] == second["entrants"]
        stage_one = [m for m in draw["matches"] if m["stage"] == 1]
        assert {m["round"] for m in stage_one} == {"W1", "W2", "W3", "L1", "L2", "L3", "L4"}
        assert len(stage_one) == 16 + 8 + 4 + 8 + 8 + 4 + 4
        losses: Counter[str] = Counter()
        for m in stage_one:
            losses.update(p for p in m["players"] if p not in (None, "bye") and p != m["winner"])
        assert all(losses[p] == 0 for p in second["entrants"][:4])
        assert all(losses[p] == 1 for p in second["entrants"][4:])
        assert sum(1 for p in t["players"] if losses[p["id"]] == 2) == 24
        for m in draw["matches"]:
            if m["round"] == "K1":
                assert (m["players"][0] in second["entrants"][:4]) != (m["players"][1] in second["entrants"][:4])
        # each match was created with its round's race, and its projection says so
        race = {k: httpx.get(f"{h.base}/api/matches/{m['id']}", timeout=10).json()["format"]["race_to"]
                for k, m in played.items()}
        assert {race[k] for k in race if k.startswith("L")} == {1}
        assert {race[k] for k in race if k.startswith("W")} == {2}
        assert race["K3-1"] == 3 and {race[k] for k in race if k.startswith(("K1", "K2"))} == {2}
        assert sim.champion == draw["champion"] and draw["champion"] in second["entrants"]
        results = httpx.get(f"{h.base}/api/tournaments/{t['id']}/results.json", timeout=10).json()
        assert results["placings"][0]["player"] == draw["champion"]
        assert {m["key"] for m in results["matches"]} == {m["key"] for m in draw["matches"]}
    finally:
        h.stop()


def test_groups_then_a_knockout(tmp_path: Path, pg_schema: str) -> None:
    plan = DrawPlan("round_robin", players=12, tables=4, discipline="wpa_nine", length=1, seed=4, groups=3,
                    then={"type": "single_elimination", "advance": 2})
    h = hub(tmp_path, pg_schema, "a")
    h.start()
    try:
        sim = play(h.base, [h.base], plan)
        assert sim.finished and not sim.stats.errors, sim.stats.errors
        t = httpx.get(f"{h.base}/api/tournaments/{sim.tournament['id']}", timeout=10).json()  # type: ignore[index]
        _check_common(h.base, t)
        draw = t["draw"]
        entrants = draw["stages"][1]["entrants"]
        rank = {r["player"]: (r["group"], r["rank"]) for r in t["standings"]}
        assert sorted(rank[p] for p in entrants) == [(g, r) for g in "ABC" for r in (1, 2)]
        assert [rank[p][1] for p in entrants[:3]] == [1, 1, 1]  # group winners seeded first
        knockout = [m for m in draw["matches"] if m["stage"] == 2]
        assert [m["key"] for m in knockout] == ["K1-1", "K1-2", "K1-3", "K1-4", "K2-1", "K2-2", "K3-1"]
        assert sum(m["status"] == "bye" for m in knockout) == 2  # 6 players: the top two seeds go through
        for m in knockout:
            a, b = m["players"]
            if a not in (None, "bye") and b not in (None, "bye") and m["round"] != "K3":
                assert rank[a][0] != rank[b][0]  # two of a group meet only in the final
    finally:
        h.stop()
