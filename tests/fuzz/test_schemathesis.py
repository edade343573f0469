"""schemathesis against the app's own OpenAPI schema, in-process (ASGI): no request may get a 5xx.

The routers read their JSON bodies by hand (one error shape for every failure), so the generated
schema has no request bodies; this test adds loose body schemas for the POST calls so schemathesis
sends bodies too (positive and negative generation), with no token, a table token and the admin token.
Real ids (a tournament, a table, a match) are offered as examples so calls reach past the 404s.
"""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi

from hub.app import create_app
from hub.settings import Settings
from spine_helpers import ADMIN

EXAMPLES = int(os.environ.get("CUEHUB_FUZZ_EXAMPLES", "25"))

_tmp = Path(tempfile.mkdtemp(prefix="cuehub-schemathesis-"))
APP = create_app(Settings(database_url=f"sqlite+aiosqlite:///{_tmp / 'hub.db'}", admin_token=ADMIN))

_STR = {"type": "string"}
_ANY_OBJ = {"type": "object"}
BODIES = {
    ("/api/tournaments", "post"): {"type": "object", "properties": {"name": _STR}},
    ("/api/tournaments/{tid}/tables", "post"): {"type": "object", "properties": {"name": _STR}},
    ("/api/matches", "post"): {
        "type": "object",
        "properties": {
            "tournament_id": _STR, "table_id": _STR,
            "discipline": {"enum": ["golden_nine", "wpa_nine", "chinese_eight", "chase_nine", "snooker"]},
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "id": _STR, "name": _STR, "handicap": _STR}}},
            "format": {"type": "object", "properties": {
                "racks": {"type": "integer"}, "race_to": {"type": "integer"}, "minutes": {"type": "integer"},
                "break": _STR}},
            "options": _ANY_OBJ,
        },
    },
    ("/api/matches/{mid}/commands", "post"): {
        "type": "object",
        "properties": {
            "id": _STR, "match_id": _STR, "expected_version": {"type": "integer"},
            "command": {"type": "object", "properties": {
                "kind": {"enum": ["start", "lag", "shot", "decision", "extension", "foul", "penalty", "concede",
                                  "stalemate", "timeout", "pause", "resume", "undo", "clock_expired"]},
                "player": _STR, "breaker": _STR, "first_contact": {"type": ["integer", "null"]},
                "pocketed": {"type": "array", "items": {"type": "integer"}},
                "off_table": {"type": "array", "items": {"type": "integer"}},
                "cue_ball": _STR, "rail": {"type": "boolean"}, "break_rails": {"type": "integer"},
                "break_crossings": {"type": "integer"}, "called_fouls": {"type": "array", "items": _STR},
                "choice": _STR, "scope": _STR, "type": _STR, "reason": _STR}},
        },
    },
}


def _setup_ids() -> dict[str, str]:
    with asgi.get_client(APP) as c:
        h = {"Authorization": f"Bearer {ADMIN}"}
        t = c.post("/api/tournaments", json={"name": "Fuzz"}, headers=h).json()
        tb = c.post(f"/api/tournaments/{t['id']}/tables", json={"name": "T"}, headers=h).json()
        m = c.post("/api/matches", headers=h, json={
            "tournament_id": t["id"], "table_id": tb["id"], "discipline": "wpa_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"race_to": 5}}).json()
    return {"tid": t["id"], "table_id": tb["id"], "token": tb["token"], "mid": m["id"]}


IDS = _setup_ids()


def _schema() -> dict:
    raw = copy.deepcopy(APP.openapi())
    for (path, method), body in BODIES.items():
        raw["paths"][path][method]["requestBody"] = {"content": {"application/json": {"schema": body}}}
    # Real ids as examples, so some calls reach the handlers' deeper checks.
    examples = {"tid": IDS["tid"], "mid": IDS["mid"], "table_id": IDS["table_id"]}
    for ops in raw["paths"].values():
        for op in ops.values():
            for param in op.get("parameters", []):
                if param["name"] in examples:
                    param["schema"] = {"type": "string", "examples": [examples[param["name"]]]}
                    param["example"] = examples[param["name"]]
    return raw


schema = schemathesis.openapi.from_dict(_schema())
schema.app = APP

AUTHS = {"none": {}, "table": {"Authorization": f"Bearer {IDS['token']}"},
         "admin": {"Authorization": f"Bearer {ADMIN}"}}


@pytest.mark.parametrize("who", sorted(AUTHS))
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case, who):
    response = case.call(headers=AUTHS[who])
    assert response.status_code < 500, (case.method, case.path, case.path_parameters, case.body, response.text)
    case.validate_response(response, checks=[not_a_server_error])
