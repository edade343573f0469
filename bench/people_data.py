"""A store of people across events for bench/people_bench.py: PostgreSQL filled straight through
the store's tables with COPY (asyncpg), never through the HTTP API.

    generate(dsn, schema, people=100_000, matches=1_000_000, seed=1) -> Made

What it writes (a migrated schema first, `hub.store.db.migrate`):
- `people` and `people_terms` (the search index) for `people` people: half Chinese names (a surname
  and one or two given characters, from common ones), half Latin ones, 600 clubs; the terms,
  sort keys and link keys made by hub/people/folding.py as the hub makes them;
- tournaments of 64 entries with 126 finished matches each (as many as a double elimination), one
  table each, until `matches` matches: the `matches` rows (finished, version 120, a small setup),
  `history_matches` and `history_players` (the read model: a tally per player, made like the
  hub's: counts, fouls by code, a histogram of stroke times) and `people_entries` (each entry's
  person, its status and place, and the sum of its matches' tallies);
- who enters is drawn with weights: 1 % of the people are regulars, twenty times as likely to enter
  as the others (about a sixth of all entries: some people have hundreds of matches), so the
  profiles measured include heavy ones.
The matches' strokes (the `events` table) are not written: no read path of people reads them (a
rebuild would; it is not measured here). `Made` lists people and pairs who met, for the queries.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from hub.people import folding, tally

SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡"
            "余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯"
            "龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
GIVEN = ("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红鹏飞斌浩凯宇辉健俊帆晨阳博"
         "文欣怡佳琪雪梅兰婷瑶琳轩然宁昊天睿泽也")
FIRST = ["James", "John", "Robert", "Michael", "David", "Joshua", "Fedor", "Albin", "Jayson", "Carlo", "Eklent",
         "Kelly", "Shane", "Ko", "Chang", "Aloysius", "Jeffrey", "Niels", "Mika", "Thorsten", "Ralf", "Dennis",
         "Francisco", "Alex", "Wiktor", "Konrad", "Mario", "Omar", "Naoyuki", "Roland", "Jasmin", "Pia", "Ivan"]
LAST = ["Smith", "Filler", "Gorst", "Ouschan", "Shaw", "Biado", "Kaci", "Fisher", "Van Boening", "Pin-yi", "Yapp",
        "De Luna", "Feijen", "Immonen", "Hohmann", "Souquet", "Orcollo", "Sanchez", "Kazakis", "Zielinski",
        "Juszczyszyn", "Al Shaheen", "Oi", "Garcia", "Ouschan", "Ruiz", "Nowak", "Müller", "Šarić", "O'Brien"]
DISCIPLINES = ("wpa_nine", "golden_nine", "chinese_eight")
ENTRIES = 64
MATCHES_PER_EVENT = 126
BATCH_EVENTS = 200


@dataclass
class Made:
    people: list[str] = field(default_factory=list)  # person ids, in order
    names: list[str] = field(default_factory=list)
    regulars: list[str] = field(default_factory=list)
    met: list[tuple[str, str]] = field(default_factory=list)  # pairs of persons who played each other
    tournaments: int = 0
    matches: int = 0
    seconds: float = 0.0


def _name(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2, 2))))
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _tally(rng: random.Random, won: bool) -> dict[str, Any]:
    """One player's tally of one match, shaped like hub/people/stats.py's."""
    t = tally.empty()
    racks = rng.randint(5, 17)
    t.update(matches=1, matches_won=int(won), racks=racks, racks_won=racks // 2 + (1 if won else -1),
             breaks=racks // 2, break_balls=rng.randint(0, racks), dry_breaks=rng.randint(0, 3),
             break_fouls=rng.randint(0, 1), fouls=rng.randint(0, 5), strokes=rng.randint(30, 90),
             racks_won_own_break=rng.randint(0, 4), racks_won_opponent_break=rng.randint(0, 4),
             break_and_runs=rng.randint(0, 2), table_runs=rng.randint(0, 2))
    t["fouls_by_code"] = {c: rng.randint(1, 2) for c in rng.sample(["scratch", "no_rail", "wrong_ball_first",
                                                                    "time", "touched_ball"], 2)}
    for _ in range(t["strokes"]):
        tally.add_stroke_time(t, int(rng.lognormvariate(9.6, 0.6)))
    return t


async def _people(conn: asyncpg.Connection, schema: str, made: Made, n: int, rng: random.Random, now: int) -> None:
    clubs = [f"{rng.choice(['Golden', 'Dragon', 'Cue', 'Lucky', 'Star'])} Club {i}" for i in range(600)]
    rows, terms = [], []
    for i in range(n):
        name = _name(rng)
        club = rng.choice(clubs) if rng.random() < 0.7 else None
        pid = f"pe{i:08d}"
        words = folding.terms(name, club, [])
        rows.append((i + 1, pid, name, club, "[]", folding.link_key(name, club), folding.sort_key(name),
                     " ".join(words), None, now, now))
        terms += [(w, i + 1) for w in words]
        made.people.append(pid)
        made.names.append(name)
    await conn.copy_records_to_table("people", records=rows, schema_name=schema, columns=[
        "n", "id", "name", "club", "aliases", "link_key", "sort_key", "search", "merged_into", "created_at",
        "updated_at"])
    await conn.execute(f'SELECT setval(pg_get_serial_sequence(\'"{schema}".people\', \'n\'), {n})')
    await conn.copy_records_to_table("people_terms", records=terms, schema_name=schema, columns=["term", "person_n"])


def _event(t: int, made: Made, rng: random.Random, weights: list[float], now: int,
           out: dict[str, list[Any]]) -> None:
    tid, table = f"tb{t:07d}", f"tt{t:07d}"
    at0 = now - (10_000 - t) * 3_600_000
    out["tournaments"].append((t + 1, tid, f"Bench week {t}", at0))
    out["tables"].append((t + 1, table, tid, "T1", f"{t:064x}", at0))
    entrants: list[str] = []
    while len(entrants) < ENTRIES:
        pick = rng.choices(made.people, weights, k=ENTRIES)
        entrants = list(dict.fromkeys(entrants + pick))[:ENTRIES]
    discipline = rng.choice(DISCIPLINES)
    sums: dict[str, dict[str, Any]] = {}
    for k in range(MATCHES_PER_EVENT):
        a, b = rng.sample(range(ENTRIES), 2)
        pa, pb, mid = f"p{a + 1}", f"p{b + 1}", f"mb{made.matches + k:09d}"
        won_a = rng.random() < 0.5
        at = at0 + k * 600_000
        score = (rng.randint(5, 9), rng.randint(0, 4)) if won_a else (rng.randint(0, 4), rng.randint(5, 9))
        players = [{"player": pa, "name": made.names[int(entrants[a][2:])], "score": score[0]},
                   {"player": pb, "name": made.names[int(entrants[b][2:])], "score": score[1]}]
        setup = {"discipline": discipline, "players": [{"id": p["player"], "name": p["name"]} for p in players],
                 "format": {"race_to": 9}}
        out["matches"].append((made.matches + k + 1, mid, tid, table, discipline, json.dumps(setup), "finished",
                               120, at, f"K{k}"))
        out["history_matches"].append((
            mid, tid, mid, f"K{k}", json.dumps({"key": f"K{k}", "round": "R1", "name": "Round 1", "name_zh": "第1轮"}),
            discipline, at + 3_000_000, False, False, 120, pa if won_a else pb, json.dumps(players),
            json.dumps([[pa, pb, score[0]], [pb, pa, score[1]]])))
        for pid, won in ((pa, won_a), (pb, not won_a)):
            t_ = _tally(rng, won)
            tally.add(sums.setdefault(pid, tally.empty()), t_)
            out["history_players"].append((mid, pid, tid, at + 3_000_000, discipline, won, False, json.dumps(t_)))
        if k < 4:
            made.met.append((entrants[a], entrants[b]))
    for i, person in enumerate(entrants):
        pid = f"p{i + 1}"
        stats = json.dumps({discipline: sums[pid]}) if pid in sums else None
        out["people_entries"].append((tid, pid, person, "linked", 1, made.names[int(person[2:])], "eliminated",
                                      rng.randint(1, 64), stats))
    out["history_heads"].append((f"tournament:{tid}", 10**6))
    made.matches += MATCHES_PER_EVENT
    made.tournaments += 1


COLUMNS = {
    "tournaments": ["n", "id", "name", "created_at"],
    "tables": ["n", "id", "tournament_id", "name", "token_hash", "created_at"],
    "matches": ["n", "id", "tournament_id", "table_id", "discipline", "setup", "status", "version", "created_at",
                "draw_key"],
    "history_matches": ["ref", "tournament_id", "match_id", "draw_key", "round", "discipline", "at", "entered",
                        "walkover", "version", "winner", "players", "racks"],
    "history_players": ["ref", "player_id", "tournament_id", "at", "discipline", "won", "walkover", "stats"],
    "people_entries": ["tournament_id", "player_id", "person_id", "link", "version", "name", "status", "place",
                       "stats"],
    "history_heads": ["stream", "version"],
}


async def generate(dsn: str, schema: str, *, people: int, matches: int, seed: int = 1,
                   log: Any = print) -> Made:
    """Fill a migrated, empty schema (see the module's docstring)."""
    rng = random.Random(seed)
    made = Made()
    t0 = time.perf_counter()
    now = int(time.time() * 1000)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'SET search_path TO "{schema}"')
        await _people(conn, schema, made, people, rng, now)
        made.regulars = made.people[: max(1, people // 100)]
        weights = [20.0 if i < len(made.regulars) else 1.0 for i in range(people)]
        log(f"  {people:,} people and their terms in {time.perf_counter() - t0:.1f} s")
        events = -(-matches // MATCHES_PER_EVENT)
        for start in range(0, events, BATCH_EVENTS):
            out: dict[str, list[Any]] = {name: [] for name in COLUMNS}
            for t in range(start, min(events, start + BATCH_EVENTS)):
                _event(t, made, rng, weights, now, out)
            for name, columns in COLUMNS.items():
                await conn.copy_records_to_table(name, records=out[name], schema_name=schema, columns=columns)
            log(f"  {made.matches:,} matches ({made.tournaments:,} tournaments) in {time.perf_counter() - t0:.1f} s")
        for table in ("tournaments", "tables", "matches"):
            await conn.execute(f'SELECT setval(pg_get_serial_sequence(\'"{schema}".{table}\', \'n\'), '
                               f'(SELECT max(n) FROM "{schema}".{table}))')
        await conn.execute("VACUUM ANALYZE")  # what autovacuum does soon after: visibility maps, statistics
    finally:
        await conn.close()
    made.seconds = time.perf_counter() - t0
    return made
