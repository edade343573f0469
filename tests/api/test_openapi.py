"""The published OpenAPI document (`GET /openapi.json`) describes the API as it behaves:

- every POST declares its request body, every 2xx answer a schema, every error our ErrorResponse
  (FastAPI's HTTPValidationError appears nowhere), and the security schemes are declared and used;
- every public acceptance scenario, played over HTTP on the real rules, is answered as documented:
  each accepted command fits the documented command envelope, and each answer (acks, rejects,
  projections, events, listings) fits the schema documented for its status.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient
from spine_helpers import ADMIN, admin, bearer

from hub.app import create_app
from hub.settings import Settings

_ALL = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "acceptance").glob("*.json"))
# Every discipline's shapes (clocks, ranking, decisions, rejects) without replaying all of them
# (tests/scenarios does that): every third scenario and every reject file.
SCENARIOS = sorted(set(_ALL[::3]) | {p for p in _ALL if p.name.startswith("rejects_")})
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def real_rules_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("openapi") / "hub.db"
    with TestClient(create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", admin_token=ADMIN))) as c:
        yield c


@pytest.fixture(scope="module")
def doc(real_rules_client: TestClient) -> dict[str, Any]:
    r = real_rules_client.get("/openapi.json")
    assert r.status_code == 200
    return r.json()


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if method in METHODS:
                yield path, method, op


def resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


class Validator:
    """Checks instances against the document's own schemas (JSON Schema 2020-12, as OpenAPI 3.1)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc

    def check(self, schema: dict[str, Any], instance: Any) -> None:
        wrapped = {**schema, "components": self.doc["components"]}
        jsonschema.Draft202012Validator(wrapped).validate(instance)

    def answer(self, path: str, method: str, status: int, body: Any) -> None:
        responses = self.doc["paths"][path][method]["responses"]
        entry = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
        assert entry is not None, f"{method.upper()} {path} answered {status}, which is not documented"
        self.check(entry["content"]["application/json"]["schema"], body)

    def request(self, path: str, method: str, body: Any) -> None:
        self.check(self.doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"], body)


# --- the document ---------------------------------------------------------------------------------


def test_every_post_declares_its_request_body(doc: dict[str, Any]) -> None:
    posts = [(path, op) for path, method, op in operations(doc) if method == "post"]
    assert len(posts) >= 5
    for path, op in posts:
        body = op.get("requestBody")
        assert body is not None, f"POST {path} declares no request body"
        schema = body["content"]["application/json"]["schema"]
        target = resolve(doc, schema)
        assert target.get("type") == "object" or "oneOf" in target or "anyOf" in target, (path, target)


def test_every_2xx_has_a_described_schema(doc: dict[str, Any]) -> None:
    seen = 0
    for path, method, op in operations(doc):
        for status, answer in op["responses"].items():
            if not status.startswith("2"):
                continue
            seen += 1
            assert answer.get("description"), (method, path, status)
            content = answer.get("content") or {}
            if status == "204":  # No Content: nothing to describe, and nothing may be declared
                assert not content, f"{method.upper()} {path} 204 declares content"
                continue
            assert content, f"{method.upper()} {path} {status} has no content"
            for media, entry in content.items():
                schema = entry.get("schema")
                assert schema, f"{method.upper()} {path} {status} {media}: no schema"
                target = resolve(doc, schema)
                described = target.get("properties") or target.get("anyOf") or target.get("oneOf") \
                    or target.get("type") == "string"
                assert described, f"{method.upper()} {path} {status} {media}: the schema says nothing ({target})"
    assert seen >= 12


def test_errors_have_our_shape_and_fastapis_is_gone(doc: dict[str, Any]) -> None:
    text = json.dumps(doc)
    assert "HTTPValidationError" not in text and "ValidationError" not in doc["components"]["schemas"]
    error = doc["components"]["schemas"]["ErrorResponse"]
    assert error["required"] == ["error"]
    assert set(resolve(doc, error["properties"]["error"])["required"]) == {"code", "message"}
    for path, method, op in operations(doc):
        for status, answer in op["responses"].items():
            if status[0] in "45":
                ref = json.dumps(answer["content"]["application/json"]["schema"])
                assert "ErrorResponse" in ref or "CommandReject" in ref or "ErrorOrReject" in ref \
                    or "Readiness" in ref, (method, path, status, ref)
        assert "4XX" in op["responses"], (method, path)


def test_security_schemes_are_declared_and_used(doc: dict[str, Any]) -> None:
    schemes = doc["components"]["securitySchemes"]
    assert schemes["adminToken"] == {**schemes["adminToken"], "type": "http", "scheme": "bearer"}
    assert schemes["tableToken"] == {**schemes["tableToken"], "type": "http", "scheme": "bearer"}
    assert schemes["deskSession"] == {
        **schemes["deskSession"],
        "type": "apiKey",
        "in": "cookie",
        "name": "cuehub_session",
    }
    ops = {(method, path): op for path, method, op in operations(doc)}
    for key in (("post", "/api/tournaments"), ("post", "/api/tournaments/{tid}/tables"), ("post", "/api/matches"),
                ("post", "/api/tables/{table_id}/token")):
        assert {"adminToken": []} in ops[key]["security"] and {"deskSession": []} in ops[key]["security"], key
    assert ops[("post", "/api/matches/{mid}/commands")]["security"] == [{"tableToken": []}]
    assert "security" not in ops[("get", "/api/matches/{mid}")]  # reads are public


def test_the_command_envelope_names_every_command_kind(doc: dict[str, Any]) -> None:
    from hub.rules.commands import TABLE_KINDS

    envelope = doc["components"]["schemas"]["CommandEnvelope"]
    command = envelope["properties"]["command"]
    kinds = set(command["discriminator"]["mapping"])
    assert kinds == set(TABLE_KINDS)
    for name in command["discriminator"]["mapping"].values():
        assert resolve(doc, {"$ref": name})["properties"]["kind"]["const"] in kinds
    assert set(envelope["required"]) == {"id", "match_id", "command"}


def test_the_documents_version_is_the_packages(doc: dict[str, Any]) -> None:
    import hub

    assert doc["info"]["version"] == hub.__version__ and doc["openapi"].startswith("3.")


def test_fastapis_own_validation_errors_get_our_shape_as_documented(
    real_rules_client: TestClient, doc: dict[str, Any]
) -> None:
    r = real_rules_client.get("/api/matches/m1/events?since=abc")
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
    Validator(doc).answer("/api/matches/{mid}/events", "get", 422, r.json())


# --- real answers ---------------------------------------------------------------------------------


def _match_body(scenario: dict[str, Any], tid: str, table_id: str) -> dict[str, Any]:
    body = {
        "tournament_id": tid,
        "table_id": table_id,
        "discipline": scenario["discipline"],
        "players": scenario["players"],
        "format": scenario["format"],
    }
    if "options" in scenario:
        body["options"] = scenario["options"]
    return body


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_is_answered_as_documented(
    real_rules_client: TestClient, doc: dict[str, Any], path: Path
) -> None:
    v = Validator(doc)
    scenario = json.loads(path.read_text())
    t = real_rules_client.post("/api/tournaments", json={"name": scenario["name"][:200]}, headers=admin())
    v.answer("/api/tournaments", "post", t.status_code, t.json())
    tb = real_rules_client.post(f"/api/tournaments/{t.json()['id']}/tables", json={"name": "T"}, headers=admin())
    v.answer("/api/tournaments/{tid}/tables", "post", tb.status_code, tb.json())
    body = _match_body(scenario, t.json()["id"], tb.json()["id"])
    v.request("/api/matches", "post", body)
    m = real_rules_client.post("/api/matches", json=body, headers=admin())
    v.answer("/api/matches", "post", m.status_code, m.json())
    assert m.status_code == 201, m.text
    mid, token = m.json()["id"], bearer(tb.json()["token"])
    accepted = 0
    for step in scenario["steps"]:
        if "command" not in step:
            continue
        env = {"id": str(uuid.uuid4()), "match_id": mid, "command": step["command"]}
        r = real_rules_client.post(f"/api/matches/{mid}/commands", json=env, headers=token)
        v.answer("/api/matches/{mid}/commands", "post", r.status_code, r.json())
        if r.status_code == 200:
            accepted += 1
            v.request("/api/matches/{mid}/commands", "post", env)  # what the hub took, the document allows
    assert accepted > 0
    for url, template in (
        (f"/api/matches/{mid}", "/api/matches/{mid}"),
        (f"/api/matches/{mid}/events", "/api/matches/{mid}/events"),
        (f"/api/tournaments/{t.json()['id']}", "/api/tournaments/{tid}"),
        ("/api/matches", "/api/matches"),
        ("/api/tournaments", "/api/tournaments"),
    ):
        r = real_rules_client.get(url)
        v.answer(template, "get", r.status_code, r.json())


def test_operations_answers_are_documented(real_rules_client: TestClient, doc: dict[str, Any]) -> None:
    v = Validator(doc)
    for path in ("/healthz", "/readyz", "/api/config"):
        r = real_rules_client.get(path)
        v.answer(path, "get", r.status_code, r.json())
    table = real_rules_client.post("/api/tournaments", json={"name": "Rot"}, headers=admin()).json()
    tb = real_rules_client.post(f"/api/tournaments/{table['id']}/tables", json={"name": "T"}, headers=admin()).json()
    r = real_rules_client.post(f"/api/tables/{tb['id']}/token", headers=admin())
    v.answer("/api/tables/{table_id}/token", "post", r.status_code, r.json())
    r = real_rules_client.post(f"/api/tables/{tb['id']}/token")
    assert r.status_code == 401
    v.answer("/api/tables/{table_id}/token", "post", r.status_code, r.json())
    metrics = doc["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert "text/plain" in metrics and real_rules_client.get("/metrics").headers["content-type"].startswith(
        "text/plain"
    )
