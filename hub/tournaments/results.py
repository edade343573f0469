"""A tournament's results for export (JSON and CSV): placings, standings and every draw match.

Placings start with the champion. round_robin and chase_groups take the standings' ranks, each
group's withdrawn players after every active one and without a place (a withdrawn leader is not
1st). In the eliminations the champion is 1st, and the others are placed by the round that put them
out, later rounds better (the grand final's loser 2nd, then the losers-bracket final's, ...);
players put out in the same round share the place (3rd for both semi-final losers of a single
elimination, then 5th for the quarter-final losers). Players still in a running draw are listed
after, without a place, then the withdrawn ones. A walkover is no match played: `played`, `won`
and `lost` count the matches played; a team event's rows also have `rubbers_won` and `rubbers_lost`
(its team matches' scores, `score_1`..., are rubbers won).

Rounds have readable names (`round_name`: "Winners round 2", "Losers round 1", "Grand final",
"Final", "Group A, round 3"; `lang=zh-CN` gives them, and the word for a bye, in Chinese). A result
entered by hand at the desk says so: `entered` in the JSON, "by hand" (手动录入) in the CSV; a match
forfeited by a player who withdrew from the event while it was played names them: `withdrawn` (ids) in
the JSON, the `withdrew` column (names) in the CSV. The CSV files start with a UTF-8 byte order mark
(so a spreadsheet reads Chinese names right) and use CRLF line ends.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from hub.tournaments.round_names import bye_word, entered_word, namer

# race_N: each player's own race in a handicapped race (PROTOCOL.md section 13), else empty
MATCH_COLUMNS = ("key", "round", "round_name", "group", "status", "player_1", "player_2", "player_3",
                 "score_1", "score_2", "score_3", "race_1", "race_2", "race_3", "winner", "match_id", "table", "stage",
                 "entered", "withdrew")
BOM = "\ufeff"  # a spreadsheet then reads the file as UTF-8 (Chinese names)
PLACING_COLUMNS = ("place", "player_id", "name", "club", "seed", "status", "played", "won", "lost", "points")


def _depth(key: str, round_: str, stage: int = 1) -> tuple[int, int, int]:
    """How far in the draw a round is (greater is later): a knockout stage after the first stage,
    grand finals after the losers bracket, which comes after the winners bracket."""
    if key.startswith("GF"):
        return (stage, 3, 2 if key == "GF2" else 1)
    m = re.match(r"([WLK])(\d+)", round_ or key)
    if m is None:
        return (stage, 0, 0)
    return (stage, 2 if m.group(1) == "L" else 1, int(m.group(2)))


def placings(proj: dict[str, Any]) -> list[dict[str, Any]]:
    draw = proj.get("draw")
    players = {p["id"]: p for p in proj.get("players") or []}
    if not draw:
        return []
    standings = proj.get("standings")
    two_stage = len(draw.get("stages") or []) > 1  # a knockout after groups: placed as an elimination
    if standings and not two_stage:
        rows = _standing_places(standings, players)
    else:
        rows = _bracket_places(draw, players, standings)
    rubbers = _rubbers(draw)
    return [{**r, **_who(players, r["player"]), **rubbers.get(r["player"], {})} for r in rows]


def _rubbers(draw: dict[str, Any]) -> dict[str, dict[str, int]]:
    """A team event's placings count rubbers too (PROTOCOL.md section 15): `rubbers_won`, `rubbers_lost`
    of each team over its team matches (a rubber not played counts for neither)."""
    out: dict[str, dict[str, int]] = {}
    for m in draw.get("matches") or []:
        for r in (m.get("team") or {}).get("rubbers") or []:
            if r["status"] != "finished" or r.get("winner") is None:
                continue
            for pid in m["players"]:
                row = out.setdefault(pid, {"rubbers_won": 0, "rubbers_lost": 0})
                row["rubbers_won" if pid == r["winner"] else "rubbers_lost"] += 1
    return out


def _withdrawn(players: dict[str, dict[str, Any]], pid: str) -> bool:
    return (players.get(pid) or {}).get("status") == "withdrawn"


def _standing_places(standings: list[dict[str, Any]], players: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Round robin and chase: each group's standings, withdrawn players after every active one (a
    withdrawn leader is not 1st: the champion is); places counted again without them."""
    out = []
    ordered = sorted(standings, key=lambda s: (s.get("group") or "", _withdrawn(players, s["player"]), s["rank"]))
    place, group = 0, object()
    for s in ordered:
        if s.get("group") != group:
            place, group = 0, s.get("group")
        gone = _withdrawn(players, s["player"])
        place += 0 if gone else 1
        out.append({"place": None if gone else place, "player": s["player"],
                    **{k: s.get(k) for k in ("played", "won", "lost", "points")}})
    return out


def _bracket_places(draw: dict[str, Any], players: dict[str, dict[str, Any]],
                    standings: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    out_at: dict[str, tuple[int, int, int]] = {}
    record: dict[str, list[int]] = {pid: [0, 0] for pid in players}
    for m in draw.get("matches") or []:
        if m["status"] not in ("finished", "walkover") or not m.get("winner"):
            continue
        for pid in m["players"]:
            if pid is None or pid not in record:
                continue
            if m["status"] == "finished":  # a walkover decides, but is no match played
                record[pid][0 if pid == m["winner"] else 1] += 1
            if pid != m["winner"]:
                out_at[pid] = max(out_at.get(pid, (0, 0, 0)), _depth(m["key"], m.get("round", ""), m.get("stage", 1)))
    stages = draw.get("stages") or []
    if len(stages) > 1 and standings:  # out in the groups: by group rank (every group's 3rd sharing a place)
        knockout = set(stages[1].get("entrants") or [])
        for row in standings:
            if row["player"] not in knockout and row["player"] in out_at:
                out_at[row["player"]] = (1, 0, -row["rank"])
    champion = draw.get("champion")
    out = []
    if champion:
        out.append({"place": 1, "player": champion})
    gone = [pid for pid, p in players.items() if pid != champion and p.get("status") == "eliminated"
            and pid in out_at]
    gone.sort(key=lambda pid: out_at[pid], reverse=True)
    place, previous, better = None, None, 1 if champion else 0
    for i, pid in enumerate(gone):
        if out_at[pid] != previous:
            place, previous = better + i + 1, out_at[pid]
        out.append({"place": place, "player": pid})
    listed = {r["player"] for r in out}
    # still in a running draw, then the withdrawn: listed after every placed player, without a place
    out += [{"place": None, "player": pid} for pid in players if pid not in listed and not _withdrawn(players, pid)]
    out += [{"place": None, "player": pid} for pid in players if pid not in listed and _withdrawn(players, pid)]
    for r in out:
        won, lost = record.get(r["player"], [0, 0])
        r.update(played=won + lost, won=won, lost=lost, points=None)
    return out


def _who(players: dict[str, dict[str, Any]], pid: str) -> dict[str, Any]:
    p = players.get(pid) or {}
    return {"name": p.get("name"), "club": p.get("club"), "seed": p.get("seed"), "status": p.get("status")}


def matches(proj: dict[str, Any], lang: str | None = None) -> list[dict[str, Any]]:
    names = {p["id"]: p["name"] for p in proj.get("players") or []}
    tables = {t["id"]: t["name"] for t in proj.get("tables") or []}
    draw = proj.get("draw") or {}
    round_name = namer(draw, lang)
    out = []
    for m in draw.get("matches") or []:
        scores = m.get("scores") or {}
        races = m.get("races") or {}
        out.append({
            "key": m["key"], "stage": m.get("stage", 1), "round": m.get("round"), "round_name": round_name(m),
            "group": m.get("group"),
            "status": m["status"],
            "players": [{"id": pid, "name": names.get(pid), "score": scores.get(pid),
                         **({"race": races[pid]} if pid in races else {})} if pid and pid != "bye" else None
                        for pid in m["players"]],
            "winner": m.get("winner"), "winner_name": names.get(m.get("winner") or ""),
            "match_id": m.get("match_id"), "table": tables.get(m.get("table_id") or ""),
            "entered": bool(m.get("entered")),  # the result was entered by hand at the desk
            "withdrawn": list(m.get("withdrawn") or []),  # forfeited: these players withdrew from the event
        })
    return out


def results_json(proj: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    draw = proj.get("draw") or {}
    return {
        "tournament": {"id": proj["id"], "name": proj["name"]},
        "draw": {k: draw.get(k) for k in ("type", "status", "champion", "seeding", "seed", "stages")} if draw else None,
        "placings": placings(proj),
        "standings": proj.get("standings"),
        "matches": matches(proj, lang),
    }


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\r\n")
    w.writeheader()
    for row in rows:
        # A cell starting with = + - @ would be a formula to a spreadsheet: prefix it (CSV injection).
        w.writerow({k: ("'" + v if isinstance(v, str) and v and v[0] in "=+-@\t\r" else v) for k, v in row.items()})
    return BOM + buf.getvalue()


def matches_csv(proj: dict[str, Any], lang: str | None = None) -> str:
    rows = []
    names = {p["id"]: p["name"] for p in proj.get("players") or []}
    bye, entered = bye_word(lang), entered_word(lang)
    drawn = (proj.get("draw") or {}).get("matches") or []
    for m, slots in zip(matches(proj, lang), (d["players"] for d in drawn), strict=True):
        row = {k: m.get(k) for k in ("key", "stage", "round", "round_name", "group", "status", "match_id", "table")}
        row["winner"] = m.get("winner_name")
        row["entered"] = entered if m["entered"] else ""  # by hand at the desk, not played on a tablet
        row["withdrew"] = ", ".join(names.get(pid) or pid for pid in m["withdrawn"])  # who withdrew, forfeiting it
        for i, p in enumerate(m["players"][:3]):
            # a slot that will never get a player ("bye": a chase sit-out's, even in a round not formed yet)
            never = m["status"] == "bye" or slots[i] == "bye"
            row[f"player_{i + 1}"] = p["name"] if p else (bye if never else "")
            row[f"score_{i + 1}"] = p["score"] if p else None
            row[f"race_{i + 1}"] = p.get("race") if p else None
        rows.append(row)
    return _csv(MATCH_COLUMNS, rows)


def placings_csv(proj: dict[str, Any]) -> str:
    rows = placings(proj)
    team = any("rubbers_won" in r for r in rows)  # a team event: its rubbers too
    return _csv(PLACING_COLUMNS + (("rubbers_won", "rubbers_lost") if team else ()),
                [{**r, "player_id": r["player"]} for r in rows])
