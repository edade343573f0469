"""Hostile input on the table socket and on POST /api/matches/{mid}/commands (hypothesis).

Random JSON, wrong types, huge numbers, unicode (lone surrogates included), NaN, near-envelopes
with random commands, raw garbage, 1 MB frames, floods. Properties:
- every frame gets exactly one answer (ack or reject), in order, and the socket stays open;
- HTTP never answers 5xx;
- a reject changes nothing: the stored events are the same before and after.
The number of cases run is printed (pytest -s).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spine_helpers import ADMIN, PG_URL, admin, bearer, require_pg
from starlette.websockets import WebSocketDisconnect

from hub.app import create_app
from tests.frames import auth_frame
from tests.services import pg_execute

PG_DSN = PG_URL.replace("postgresql+asyncpg", "postgresql")

EXAMPLES = int(os.environ.get("CUEHUB_FUZZ_EXAMPLES_WS", "200"))
COUNTS: dict[str, int] = {"ws": 0, "http": 0, "ws_acks": 0, "http_acks": 0}

KINDS = ["start", "lag", "shot", "decision", "extension", "foul", "penalty", "concede", "stalemate", "timeout",
         "pause", "resume", "undo", "rack", "clock_expired", "match_time_expired", "", "SHOT", "x" * 300]

huge_ints = st.one_of(st.integers(), st.sampled_from([2**31, 2**63, -2**63 - 1, 10**40, -1, 0, 16, 99]))
texts = st.one_of(st.text(max_size=80), st.sampled_from(["", "a", "b", "\x00", "\ud800", "🎱" * 40, "x" * 65,
                                                             "' OR 1=1 --", "<script>alert(1)</script>"]))
scalars = st.one_of(st.none(), st.booleans(), huge_ints, st.floats(allow_nan=True, allow_infinity=True), texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(texts, inner, max_size=5)), max_leaves=20)
balls = st.lists(st.one_of(st.integers(-2, 16), huge_ints, texts), max_size=4)


def command_strategy() -> st.SearchStrategy[Any]:
    fields = st.fixed_dictionaries({"kind": st.one_of(st.sampled_from(KINDS), json_values)}, optional={
        "player": st.one_of(st.sampled_from(["a", "b", "c"]), json_values),
        "breaker": st.one_of(st.sampled_from(["a", "b"]), json_values),
        "winner": st.one_of(st.sampled_from(["a", "b"]), json_values),
        "first_contact": st.one_of(st.none(), st.integers(-1, 16), huge_ints, texts),
        "pocketed": st.one_of(balls, json_values), "off_table": st.one_of(balls, json_values),
        "cue_ball": st.one_of(st.sampled_from(["table", "pocketed", "off_table", "moon"]), json_values),
        "rail": st.one_of(st.booleans(), json_values), "break_rails": st.one_of(huge_ints, json_values),
        "break_crossings": huge_ints, "called_fouls": st.one_of(st.lists(texts, max_size=3), json_values),
        "choice": st.one_of(st.sampled_from(["break", "pass", "play", "push_back"]), json_values),
        "scope": st.sampled_from(["rack", "match", "universe"]), "type": texts, "reason": texts,
        "push_out": json_values, "order": json_values,
        "called": st.one_of(st.none(), st.integers(-1, 16), huge_ints, texts, json_values),
        "win_type": st.one_of(st.sampled_from(["normal", "small_gold", "big_gold", "gold"]), json_values),
        "paid_by": st.one_of(st.sampled_from(["a", "b", "c"]), json_values),
    })
    return st.one_of(fields, json_values)


def envelope_strategy(mid: str) -> st.SearchStrategy[Any]:
    env = st.fixed_dictionaries(
        {"id": st.one_of(st.uuids().map(str), texts, json_values),
         "match_id": st.one_of(st.just(mid), texts, json_values),
         "command": command_strategy()},
        optional={"expected_version": st.one_of(huge_ints, json_values), "type": texts, "extra": json_values},
    )
    return st.one_of(env, env, env, json_values)


def frame_strategy(mid: str) -> st.SearchStrategy[str]:
    raw_text = st.one_of(st.text(max_size=200), st.sampled_from(
        ["", "{", "[]", "null", "NaN", '{"id": "x", "match_id": ', "\x00" * 10, '{"id": 1e999}', "9" * 5000]))
    return st.one_of(envelope_strategy(mid).map(lambda v: json.dumps(v)), raw_text)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served_match(request, tmp_path_factory) -> Iterator[dict[str, Any]]:
    from hub.settings import Settings

    limits = {"admin_token": ADMIN, "table_rate_per_s": 1e6, "table_rate_burst": 10**6}
    schema = None
    if request.param == "sqlite":
        db = tmp_path_factory.mktemp("fuzz") / "hub.db"
        settings_ = Settings(database_url=f"sqlite+aiosqlite:///{db}", **limits)
    else:
        require_pg()
        schema = "fuzz_" + uuid.uuid4().hex[:10]
        pg_execute(PG_DSN, f'CREATE SCHEMA "{schema}"')
        settings_ = Settings(database_url=PG_URL, database_schema=schema, **limits)
    request.addfinalizer(lambda: schema and pg_execute(PG_DSN, f'DROP SCHEMA "{schema}" CASCADE'))
    COUNTS.update({k: 0 for k in COUNTS})
    with TestClient(create_app(settings_)) as c:
        t = c.post("/api/tournaments", json={"name": "Fuzz"}, headers=admin()).json()
        tb = c.post(f"/api/tournaments/{t['id']}/tables", json={"name": "T"}, headers=admin()).json()
        m = c.post("/api/matches", headers=admin(), json={
            "tournament_id": t["id"], "table_id": tb["id"], "discipline": "wpa_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"race_to": 50}}).json()
        yield {"c": c, "tid": t["id"], "table_id": tb["id"], "token": tb["token"], "mid": m["id"]}
    print(f"\n[fuzz {request.param}] table socket frames={COUNTS['ws']} (acks {COUNTS['ws_acks']}), "
          f"HTTP commands={COUNTS['http']} (acks {COUNTS['http_acks']})")


def _events(c: TestClient, mid: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/matches/{mid}/events")
    assert r.status_code == 200
    return r.json()["events"]


def _answer(ws) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("ack", "reject"):
            return msg
        assert msg["type"] == "state", msg


@pytest.fixture(scope="module")
def socket(served_match) -> Iterator[Any]:
    with served_match["c"].websocket_connect(f"/ws/tables/{served_match['table_id']}") as ws:
        ws.send_json(auth_frame(served_match["token"]))
        assert ws.receive_json()["type"] == "ready"
        yield ws


@given(data=st.data())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_table_socket_fuzz(served_match, socket, data):
    c, mid = served_match["c"], served_match["mid"]
    frames = data.draw(st.lists(frame_strategy(mid), min_size=1, max_size=3))
    for frame in frames:
        before = _events(c, mid)
        socket.send_text(frame)
        answer = _answer(socket)  # a crash or close would raise here
        COUNTS["ws"] += 1
        after = _events(c, mid)
        if answer["type"] == "reject":
            assert after == before, (frame, answer)
            assert isinstance(answer["error"]["code"], str) and isinstance(answer["error"]["message"], str)
        else:
            COUNTS["ws_acks"] += 1
            assert after[-1]["version"] == answer["version"] or answer["id"] in {e["command_id"] for e in after}


@given(data=st.data())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_http_commands_fuzz(served_match, data):
    c, mid = served_match["c"], served_match["mid"]
    token = data.draw(st.sampled_from([served_match["token"], served_match["token"], "wrong", ADMIN]))
    path_mid = data.draw(st.sampled_from([mid, mid, mid, "nope", "m" * 500, "%00"]))
    if data.draw(st.booleans()):
        body: bytes = json.dumps(data.draw(envelope_strategy(mid))).encode()
    else:
        body = data.draw(st.one_of(st.binary(max_size=300), frame_strategy(mid).map(str.encode)))
    before = _events(c, mid)
    r = c.post(f"/api/matches/{path_mid}/commands", content=body,
               headers={**bearer(token), "Content-Type": "application/json"})
    COUNTS["http"] += 1
    assert r.status_code < 500, (body, r.text)
    assert set(r.json()) >= ({"type"} if r.status_code == 200 else {"error"}) or "error" in r.json()
    after = _events(c, mid)
    if r.status_code != 200:
        assert after == before, (body, r.text)
    else:
        COUNTS["http_acks"] += 1


NASTY_STRINGS = ["\ud800", "a\udfffb", "\x00", "a\x00b", "\udbff\x00"]


def test_unstorable_strings_are_bad_input_not_outages(served_match, socket):
    """Lone surrogates and NUL cannot be stored (PostgreSQL text has no NUL); they answer as bad
    input (reject / 422), never a 500, a 503 or a closed socket, and store nothing."""
    c, mid = served_match["c"], served_match["mid"]
    before = _events(c, mid)
    for s in NASTY_STRINGS:
        envs = [{"id": s, "match_id": mid, "command": {"kind": "start", "breaker": "a"}},
                {"id": str(uuid.uuid4()), "match_id": mid, "command": {"kind": "pause", "reason": s}},
                {"id": str(uuid.uuid4()), "match_id": mid, "command": {"kind": "shot", "player": s}},
                {"id": str(uuid.uuid4()), "match_id": s, "command": {"kind": "undo"}},
                {"id": str(uuid.uuid4()), "match_id": mid, "command": {"kind": s, s: s}}]
        for env in envs:
            text = json.dumps(env)
            socket.send_text(text)
            assert _answer(socket)["type"] == "reject", env
            r = c.post(f"/api/matches/{mid}/commands", content=text.encode(), headers=bearer(served_match["token"]))
            assert r.status_code in (404, 409, 422), (env, r.status_code, r.text)
        r = c.post("/api/tournaments", content=json.dumps({"name": s}).encode(), headers=admin())
        assert r.status_code == 422, (s, r.text)
    deep = "[" * 60_000  # under the 64 KiB cap, far over the parser's recursion limit
    socket.send_text(deep)
    assert _answer(socket)["error"]["code"] == "bad_command"
    assert (
        c.post(f"/api/matches/{mid}/commands", content=deep.encode(), headers=bearer(served_match["token"])).status_code
        == 422
    )
    after = _events(c, mid)
    assert after == before


def test_one_megabyte_frames_and_bodies(served_match, socket):
    c, mid = served_match["c"], served_match["mid"]
    before = _events(c, mid)
    big_env = json.dumps({"id": "big", "match_id": mid, "command": {"kind": "shot", "pad": "x" * (1 << 20)}})
    for frame in ("x" * (1 << 20), big_env, "🎱" * (1 << 18)):
        socket.send_text(frame)
        assert _answer(socket)["error"]["code"] == "bad_command"
    socket.send_bytes(b"\xff" * (1 << 20))
    assert _answer(socket)["error"]["code"] == "bad_command"
    r = c.post(f"/api/matches/{mid}/commands", content=big_env.encode(), headers=bearer(served_match["token"]))
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    assert _events(c, mid) == before
    # The session is still usable afterwards.
    socket.send_text(json.dumps({"id": str(uuid.uuid4()), "match_id": mid, "command": {"kind": "nope"}}))
    assert _answer(socket)["type"] == "reject"


def test_flood_is_limited_and_changes_nothing(tmp_path):
    """2000 frames sent without reading answers. The hub answers rate_limited past the burst and
    closes the socket 4429; nothing is stored by the rejected frames; the hub still serves.

    A budget of 5 a second (burst 50), not the default 50 (burst 100): on a loaded machine the hub
    can take 20 ms a frame, the budget then refills as fast as the flood spends it, the socket is
    never closed and the test would wait for ever."""
    from hub.settings import Settings

    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}",
        admin_token=ADMIN,
        table_rate_per_s=5,
        table_rate_burst=50,
    )
    with TestClient(create_app(settings)) as c:
        t = c.post("/api/tournaments", json={"name": "F"}, headers=admin()).json()
        tb = c.post(f"/api/tournaments/{t['id']}/tables", json={"name": "T"}, headers=admin()).json()
        m = c.post(
            "/api/matches",
            headers=admin(),
            json={
                "tournament_id": t["id"],
                "table_id": tb["id"],
                "discipline": "wpa_nine",
                "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                "format": {"race_to": 5},
            },
        ).json()
        codes: dict[str, int] = {}
        with c.websocket_connect(f"/ws/tables/{tb['id']}") as ws:
            ws.send_json(auth_frame(tb["token"]))
            assert ws.receive_json()["type"] == "ready"
            for i in range(2000):
                ws.send_text(
                    json.dumps({"id": f"f{i}", "match_id": m["id"], "command": {"kind": "shot", "player": "b"}})
                )
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    msg = ws.receive_json()
                    if msg["type"] == "reject":
                        codes[msg["error"]["code"]] = codes.get(msg["error"]["code"], 0) + 1
        assert closed.value.code == 4429
        assert codes.get("rate_limited", 0) > 0 and set(codes) <= {
            "bad_command",
            "not_started",
            "not_your_turn",
            "rate_limited",
        }
        assert c.get(f"/api/matches/{m['id']}").json()["version"] == 0
        assert c.get("/healthz").status_code == 200
        print(f"\n[fuzz] flood: 2000 frames -> {codes}, closed {closed.value.code}")
