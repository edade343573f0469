"""schemathesis against the app's published OpenAPI document (`GET /openapi.json`), in-process
(ASGI): no request may get a 5xx, and every answer must match what the document says of it
(its status is documented, its body fits the documented schema).

The request bodies, security schemes and answers come from the document itself (hub/api/models.py);
this test only offers real ids (a tournament, a table, a match, people) as examples for the path
parameters, so calls reach past the 404s, and sends no token, a table token or the admin token.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance, status_code_conformance
from schemathesis.python import asgi
from spine_helpers import ADMIN

from hub.app import create_app
from hub.guards.throttle import Backoff, Budget, Policies
from hub.settings import Settings

EXAMPLES = int(os.environ.get("CUEHUB_FUZZ_EXAMPLES", "25"))

_tmp = Path(tempfile.mkdtemp(prefix="cuehub-schemathesis-"))
# Generated sign-ins and pairing codes are guesses from one address: without these policies the
# backoff (tests/guards/test_throttle.py) would answer most of them 429 before any handler logic ran.
APP = create_app(Settings(database_url=f"sqlite+aiosqlite:///{_tmp / 'hub.db'}", admin_token=ADMIN),
                 throttle_policies=Policies(sign_in=Backoff(free=10**9), pairing=Backoff(free=10**9),
                                            pairing_hub=Budget(limit=10**9)))


def _setup() -> tuple[dict[str, str], dict[str, Any]]:
    with asgi.get_client(APP) as c:
        h = {"Authorization": f"Bearer {ADMIN}"}
        t = c.post("/api/tournaments", json={"name": "Fuzz"}, headers=h).json()
        tb = c.post(f"/api/tournaments/{t['id']}/tables", json={"name": "T"}, headers=h).json()
        m = c.post("/api/matches", headers=h, json={
            "tournament_id": t["id"], "table_id": tb["id"], "discipline": "wpa_nine",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"race_to": 5}}).json()
        person = c.post("/api/people", json={"people": [{"name": "Wang Ye"}, {"name": "Zheng Yubo"}]},
                        headers=h).json()["people"]
        c.post(f"/api/tournaments/{t['id']}/players", json={"person": person[0]["id"]}, headers=h)
        published = c.get("/openapi.json").json()
    return {"tid": t["id"], "table_id": tb["id"], "token": tb["token"], "mid": m["id"],
            "person_id": person[0]["id"], "a": person[0]["id"], "b": person[1]["id"]}, published


IDS, PUBLISHED = _setup()


def _with_examples(doc: dict[str, Any]) -> dict[str, Any]:
    """The published document, with the real ids as examples of the path parameters."""
    examples = {name: IDS[name] for name in ("tid", "mid", "table_id", "person_id", "a", "b")}
    for ops in doc["paths"].values():
        for op in ops.values():
            for param in op.get("parameters", []):
                if param["name"] in examples:
                    param["schema"] = {"type": "string", "examples": [examples[param["name"]]]}
                    param["example"] = examples[param["name"]]
    return doc


def test_the_published_document_declares_the_bodies() -> None:
    """The fuzzing below generates bodies from the document alone: it has them."""
    post = PUBLISHED["paths"]["/api/matches/{mid}/commands"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CommandEnvelope"
    }


schema = schemathesis.openapi.from_dict(_with_examples(PUBLISHED))
schema.app = APP

AUTHS = {"none": {}, "table": {"Authorization": f"Bearer {IDS['token']}"},
         "admin": {"Authorization": f"Bearer {ADMIN}"}}


@pytest.mark.parametrize("who", sorted(AUTHS))
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_answers_as_documented(case, who):
    response = case.call(headers=AUTHS[who])
    assert response.status_code < 500, (case.method, case.path, case.path_parameters, case.body, response.text)
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance, response_schema_conformance])
