"""The pieces every API model module and router uses to document the API (hub/api/models.py
explains the pattern): the security schemes, the error shape, the `errors` / `ok` / `body`
declarations, `absent` fields, the open answer base `_Open`, `Empty`, and `install(app)`, which
publishes the body models and our error shape in the app's OpenAPI document.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI
from fastapi.security import APIKeyCookie, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

# --- security schemes (one place: deps.py and every router use these objects) ------------------

ADMIN_TOKEN = HTTPBearer(
    scheme_name="adminToken", auto_error=False,
    description="The admin token (HUB_ADMIN_TOKEN, or the one printed at first start): setup and desk calls.",
)
TABLE_TOKEN = HTTPBearer(
    scheme_name="tableToken", auto_error=False,
    description="A table's token (made with the table, by pairing, or by rotation): that table's commands.",
)
DESK_SESSION = APIKeyCookie(
    name="cuehub_session", scheme_name="deskSession", auto_error=False,
    description="The desk's session cookie (POST /api/session); accepted wherever the admin token is. "
                "A write that carries it must also send `X-Requested-With: cuehub`.",
)

# --- the error shape -----------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(
        description="A stable machine-readable code, e.g. `bad_request`, `not_found`, `version_conflict`."
    )
    message: str = Field(description="What went wrong, for a person.")


class ErrorResponse(BaseModel):
    """Every error answer: `{"error": {"code", "message"}}` (bad input is a 4xx, never a 500)."""

    error: ErrorDetail


ERROR_TEXT = {
    400: "Bad request (e.g. a bad Content-Length).",
    401: "No bearer token (code `unauthorized`).",
    403: "The token is not allowed here (code `forbidden`).",
    404: "No such resource (code `not_found`, or `unknown_match`).",
    409: "Conflicts with the current state (e.g. `table_busy`).",
    413: "The body is over HUB_MAX_BODY_BYTES (code `too_large`).",
    422: "Bad input: malformed JSON or a bad field (codes `bad_request`, `bad_setup`, `bad_command`).",
    503: "The database is unavailable; retrying (with the same command id) is safe (code `unavailable`).",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` entries: our ErrorResponse for each status."""
    return {s: {"model": ErrorResponse, "description": ERROR_TEXT.get(s, "Error.")} for s in statuses}


def ok(model: type[BaseModel], description: str, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """`responses=` entry for a 2xx answer described by `model`."""
    return {status: {"model": model, "description": description}}


_BODY_MODELS: dict[str, type[BaseModel]] = {}


def body(model: type[BaseModel], description: str | None = None, *, required: bool = True) -> dict[str, Any]:
    """`openapi_extra=` declaring `model` as the JSON request body (`Empty`, not required, for a
    POST that takes none)."""
    _BODY_MODELS[model.__name__] = model
    out: dict[str, Any] = {
        "required": required,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}},
    }
    if description:
        out["description"] = description
    return {"requestBody": out}


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def absent(description: str | None = None, **constraints: Any) -> Any:
    """A field that may be left out but is never null (annotate it `T | SkipJsonSchema[None]`)."""
    return Field(None, description=description, json_schema_extra=_no_default, **constraints)


# What every stored name may hold (hub/rules/names.py: one rule for players, clubs, match players,
# tables and tournaments).
NAME_RULE = ("Control characters (U+0000-U+001F, DEL U+007F, U+0080-U+009F), the line and paragraph "
             "separators U+2028 and U+2029 and bidirectional controls (U+202A-U+202E, U+2066-U+2069) are "
             "refused (422, naming the character); invisible characters (zero-width space, word joiner, BOM, "
             "direction marks) are stripped (hub/rules/names.py).")

# An id chosen by a client (a command id, a table id ...).
Id = Annotated[str, Field(min_length=1, max_length=64)]


class _Open(BaseModel):
    """An answer object that may gain fields (PROTOCOL.md: "more may be added, none removed")."""

    model_config = ConfigDict(extra="allow")


class Empty(BaseModel):
    """No body: the call takes none (any body sent is ignored)."""


# --- publishing ----------------------------------------------------------------------------------

_REF = "#/components/schemas/{model}"


def install(app: FastAPI) -> None:
    """Publish the request-body models and our 422 shape in the app's OpenAPI document."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        if _BODY_MODELS:
            _, defs = models_json_schema([(m, "validation") for m in _BODY_MODELS.values()], ref_template=_REF)
            for name, definition in defs.get("$defs", {}).items():
                components.setdefault(name, definition)
        error_ref = {"$ref": _REF.format(model="ErrorResponse")}
        if "ErrorResponse" not in components:
            components["ErrorResponse"] = ErrorResponse.model_json_schema(ref_template=_REF)
            components.setdefault("ErrorDetail", ErrorDetail.model_json_schema(ref_template=_REF))
            components["ErrorResponse"].pop("$defs", None)
        for ops in schema.get("paths", {}).values():
            for op in ops.values():
                answers = op.setdefault("responses", {})
                answer = answers.get("422")
                if answer and "HTTPValidationError" in str(answer):
                    answers["422"] = {"description": ERROR_TEXT[422],
                                      "content": {"application/json": {"schema": error_ref}}}
                # Whatever the route, a client error has our shape (a NUL in the path or query is a
                # 404 before any route runs, an unknown method a 405).
                answers.setdefault("4XX", {"description": "Any other client error.",
                                           "content": {"application/json": {"schema": error_ref}}})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
