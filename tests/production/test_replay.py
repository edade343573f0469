"""`cuehub replay`: every match refolded from the store, counts printed, disagreeing rows found
and repaired. Real subprocess on SQLite; the same on PostgreSQL (a fresh schema)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient
from spine_helpers import bearer, envelope, make_match, make_table

from hub.app import create_app
from hub.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def play(c: TestClient) -> list[str]:
    """Three matches: one finished by concession, one live with an undo, one scheduled."""
    ids = []
    for n in range(3):
        table = make_table(c)
        m = make_match(c, table)
        mid, auth = m["id"], bearer(table["token"])
        ids.append(mid)
        if n == 2:
            continue

        def post(cmd, mid=mid, auth=auth):
            return c.post(f"/api/matches/{mid}/commands", json=envelope(mid, cmd), headers=auth)

        assert post({"kind": "start", "breaker": "a"}).status_code == 200
        assert (
            post({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [1], "break_crossings": 4}).status_code
            == 200
        )
        if n == 0:
            assert post({"kind": "concede", "player": "a", "scope": "match"}).status_code == 200
        else:
            assert post({"kind": "undo"}).status_code == 200
    return ids


def run_replay(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", "replay", *args], cwd=ROOT, env={**os.environ, **env},
        capture_output=True, text=True, timeout=120,
    )


def test_replay_sqlite(sqlite_settings: Settings, tmp_path: Path) -> None:
    with TestClient(create_app(sqlite_settings)) as c:
        ids = play(c)
        projections = {mid: c.get(f"/api/matches/{mid}").json() for mid in ids}
    env = {"HUB_DATABASE_URL": sqlite_settings.database_url}

    r = run_replay(env, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["matches"] == 3 and report["ok"] is True
    assert report["events"] == 6 and report["voided"] == 1  # 3 + (2 + undo), one voided
    assert report["by_status"] == {"finished": 1, "live": 1, "scheduled": 1}
    assert "replay [" in r.stderr and "3/3 matches" in r.stderr  # the progress bar

    # The human summary.
    r = run_replay(env)
    assert (
        r.returncode == 0 and "replayed 3 matches, 6 events (1 voided)" in r.stdout and r.stdout.strip().endswith("ok")
    )

    # A match row that disagrees with its stream is found, then repaired from the fold.
    db = sqlite_settings.database_url.split("///", 1)[1]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE matches SET version = 99 WHERE id = ?", (ids[0],))
    r = run_replay(env)
    assert r.returncode == 1 and f"MISMATCH {ids[0]}: version 99 -> 3" in r.stdout
    r = run_replay(env, "--repair", "--no-progress")
    assert r.returncode == 0 and f"repaired {ids[0]}" in r.stdout and r.stderr == ""
    assert run_replay(env).returncode == 0

    # The fold the replay checked is the projection the hub served.
    with TestClient(create_app(sqlite_settings)) as c:
        for mid, proj in projections.items():
            assert c.get(f"/api/matches/{mid}").json() == proj


def test_replay_postgres(pg_settings: Settings) -> None:
    with TestClient(create_app(pg_settings)) as c:
        play(c)
    env = {"HUB_DATABASE_URL": pg_settings.database_url, "HUB_DATABASE_SCHEMA": pg_settings.database_schema or ""}
    r = run_replay(env, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["matches"] == 3 and report["events"] == 6 and report["ok"] is True


def test_replay_reports_a_bracket_winner_that_is_not_its_matchs(sqlite_settings: Settings) -> None:
    """A result stored on a draw match behind the flow's back (what the result race across two
    processes left) is reported as BRACKET, not repaired by --repair; a hub started on the store takes
    the match's result again by itself (the draw recorded the match version it read), and then the
    replay is clean."""
    import asyncio

    from spine_helpers import admin

    from hub.rules.events import Event
    from hub.store import match_events
    from hub.store.db import make_engine
    from tests.tournaments.test_api import Event as Tournament

    with TestClient(create_app(sqlite_settings)) as c:
        ev = Tournament(c, players=2, tables=1)
        ev.draw()
        m = next(m for m in ev.get()["draw"]["matches"] if m["status"] == "called")
        a, b = m["players"]
        r = c.post(f"/api/matches/{m['match_id']}/result", json={"winner": a, "score": {a: 2, b: 0}}, headers=admin())
        assert r.status_code == 200, r.text
        assert ev.settled(m["key"])["winner"] == a
        tid, key, mid = ev.tid, m["key"], m["match_id"]

    async def plant() -> None:  # b won after all: stored on the match, the draw never told
        engine = make_engine(sqlite_settings)
        try:
            data = {"winner": b, "score": {a: 1, b: 2}, "reason": None}
            await match_events.append(engine, mid, Event(2, "result_entered", data, 1, None), status="finished")
        finally:
            await engine.dispose()

    asyncio.run(plant())
    env = {"HUB_DATABASE_URL": sqlite_settings.database_url}
    r = run_replay(env, "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"BRACKET {tid} {key} (match {mid}): the bracket says {a} won" in r.stdout, r.stdout
    assert f"the match {b} won" in r.stdout and r.stdout.strip().endswith("NOT ok")
    r = run_replay(env, "--json", "--repair", "--no-progress")
    report = json.loads(r.stdout)
    assert r.returncode == 1 and report["draws"] == 1 and report["repaired"] == 0
    assert [(x["tournament_id"], x["key"], x["match_id"]) for x in report["brackets"]] == [(tid, key, mid)]

    with TestClient(create_app(sqlite_settings)) as c:  # the flow takes the match's result again
        ev = Tournament.__new__(Tournament)
        ev.c, ev.tid = c, tid
        assert ev.until(lambda t: t["draw"]["matches"][0]["winner"] == b)["draw"]["champion"] == b
    r = run_replay(env, "--no-progress")
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout
