"""Two desks enter different results for the same draw match at the same moment, one on each of two
`cuehub serve` processes on PostgreSQL + Redis (PROTOCOL.md section 9): whatever each answers (200,
or 409 when the draw moved under its check), the bracket ends with the match's own result, on both
processes, and still after both restart; `cuehub replay` finds nothing to report.

Ten rounds on ten first-round matches of one draw: the even rounds race the first result of a match
that has not started, the odd ones race two corrections of a result the draw already holds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from spine_helpers import PG_URL

from tests.hubproc import ADMIN, HubProcess
from tests.services import require_redis, wait_until

REDIS_URL = os.environ.get("HUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
WPA = {"discipline": "wpa_nine", "format": {"race_to": 3}, "options": {}}
ROUNDS = 10
AUTH = {"Authorization": f"Bearer {ADMIN}"}
ROOT = Path(__file__).resolve().parents[2]


def post(base: str, path: str, body: Any) -> httpx.Response:
    return httpx.post(base + path, json=body, headers=AUTH, timeout=30)


def at_once(calls: list[tuple[str, str, Any]]) -> list[httpx.Response]:
    """POST each (base, path, body) from a thread of its own, released together by a barrier."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def one(i: int, base: str, path: str, body: Any) -> None:
        with httpx.Client(headers=AUTH, timeout=30) as client:
            client.get(base + "/healthz")  # the connection is open before the barrier
            barrier.wait()
            answers[i] = client.post(base + path, json=body)

    threads = [threading.Thread(target=one, args=(i, *call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(a is not None for a in answers)
    return answers  # type: ignore[return-value]


def setup(base: str) -> tuple[str, list[dict[str, Any]]]:
    """A single elimination of 32 players on 16 tables: every first-round match called at once."""
    tid = post(base, "/api/tournaments", {"name": "Race"}).json()["id"]
    for i in range(16):
        assert post(base, f"/api/tournaments/{tid}/tables", {"name": f"T{i + 1}"}).status_code == 201
    players = [{"name": f"Player {i + 1}"} for i in range(32)]
    assert post(base, f"/api/tournaments/{tid}/players", {"players": players}).status_code == 201
    assert post(base, f"/api/tournaments/{tid}/draw",
                {"type": "single_elimination", "match": WPA, "seed": 5}).status_code == 201
    draw = wait_until(lambda: _called_first_round(base, tid), 30, "the first round called")
    return tid, draw


def _called_first_round(base: str, tid: str) -> list[dict[str, Any]] | None:
    matches = httpx.get(f"{base}/api/tournaments/{tid}", timeout=10).json()["draw"]["matches"]
    first = sorted((m for m in matches if m["key"].startswith("W1-")), key=lambda m: int(m["key"].split("-")[1]))
    return first if first and all(m["status"] == "called" for m in first) else None


def mismatches(base: str, tid: str, keys: list[str]) -> list[str]:
    """Each raced key whose bracket entry differs from its match (winner, scores), or whose winner
    the next round does not hold."""
    t = httpx.get(f"{base}/api/tournaments/{tid}", timeout=10).json()
    by_key = {m["key"]: m for m in t["draw"]["matches"]}
    wrong = []
    for key in keys:
        entry = by_key[key]
        match = httpx.get(f"{base}/api/matches/{entry['match_id']}", timeout=10).json()
        scores = {p["id"]: p["score"] for p in match["players"]}
        if entry["status"] != "finished" or entry["winner"] != match["winner"] or entry["scores"] != scores:
            wrong.append(f"{key}: bracket {entry['status']} {entry.get('winner')} {entry.get('scores')}, "
                         f"match {match['status']} {match['winner']} {scores}")
            continue
        onward = by_key.get(entry.get("winner_to") or "")
        if onward is not None and match["winner"] not in onward["players"]:
            wrong.append(f"{key}: {onward['key']} holds {onward['players']}, not the winner {match['winner']}")
    return wrong


def settled(hubs: tuple[HubProcess, ...], tid: str, keys: list[str]) -> None:
    """Every process shows every raced key as its match says, within a deadline (the flow, and its
    sweep every 5 s, has had time to act); the failure names what still differs."""
    last: list[str] = []

    def agree() -> bool:
        nonlocal last
        last = [f"{h.name} {w}" for h in hubs for w in mismatches(h.base, tid, keys)]
        return not last

    try:
        wait_until(agree, 20, "the bracket to equal its matches")
    except AssertionError:
        raise AssertionError("\n".join(last)) from None


@contextmanager
def both(a: HubProcess, b: HubProcess) -> Iterator[None]:
    """A first (it migrates the schema), then B; both stopped afterwards."""
    try:
        a.start()
        b.start()
        yield
    finally:
        a.stop()
        b.stop()


def test_simultaneous_different_results_on_two_processes(tmp_path: Path, pg_schema: str) -> None:
    require_redis()
    env = {"HUB_BUS_URL": f"{REDIS_URL}?channel=cuehub-test-{uuid.uuid4().hex[:8]}",
           "HUB_DEPLOYMENT": f"race-{uuid.uuid4().hex[:6]}"}
    hubs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        hubs.append(HubProcess(PG_URL, tmp_path / name, schema=pg_schema, env=env, name=name))
    a, b = hubs
    with both(a, b):
        tid, first = setup(a.base)
        raced = []
        for n, entry in enumerate(first[:ROUNDS]):
            mid, (p, q) = entry["match_id"], entry["players"]
            if n % 2:  # a result the draw holds already, corrected twice at once
                first = post(a.base, f"/api/matches/{mid}/result", {"winner": p, "score": {p: 3, q: 0}})
                assert first.status_code == 200, first.text
                wait_until(lambda k=entry["key"]: not mismatches(a.base, tid, [k]), 10, "the first result taken")
                first_try, second_try = {p: 3, q: 2}, {p: 1, q: 3}
            else:
                first_try, second_try = {p: 3, q: 1}, {p: 2, q: 3}
            answers = at_once([
                (a.base, f"/api/matches/{mid}/result", {"winner": p if first_try[p] == 3 else q, "score": first_try}),
                (b.base, f"/api/matches/{mid}/result", {"winner": q if second_try[q] == 3 else p, "score": second_try}),
            ])
            codes = sorted(r.status_code for r in answers)
            assert codes in ([200, 200], [200, 409]), [r.text for r in answers]
            raced.append(entry["key"])
            time.sleep(0.05)
        settled((a, b), tid, raced)
    # After both restart (their memory gone), the store says the same.
    with both(a, b):
        settled((a, b), tid, raced)
    replay = subprocess.run([sys.executable, "-m", "hub.cli", "replay", "--no-progress"], cwd=ROOT,
                            env={**os.environ, "HUB_DATABASE_URL": PG_URL, "HUB_DATABASE_SCHEMA": pg_schema},
                            capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0 and "ok" in replay.stdout, replay.stdout + replay.stderr
