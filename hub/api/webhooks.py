"""Webhooks over REST (PROTOCOL.md section 16), admin only: what the hub tells other systems.

- `POST /api/webhooks` `{"url", "events": [...], "secret"?}` -> `201 {"id", "url", "events", "secret",
  "created_at"}`: the secret (given, or made here: 256 bits) is shown in this answer only. `url` is an
  http(s) URL (at most 2,000 characters); `events` a non-empty list of `match.called`, `match.started`,
  `match.finished`, `tournament.finished`, `entry.created`. At most MAX_HOOKS hooks (`409 too_many_hooks`).
- `GET /api/webhooks` -> `{"webhooks": [...]}`; `GET /api/webhooks/{id}`; `DELETE /api/webhooks/{id}` -> `200`.
- `GET /api/webhooks/{id}/deliveries` -> `{"deliveries": [{"id", "event", "status", "attempts",
  "latency_ms", "last_code", "last_error", "created_at", "next_at", "done_at"}]}`: the last 100, newest
  first; `status` is `pending`, `delivered`, `failed` or `dropped`.
How deliveries go out: hub/webhooks/service.py and docs/webhooks.md.
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hub.api import deps, models
from hub.api import webhook_models as wm
from hub.api.errors import ApiError
from hub.api.tournaments import _body
from hub.store import webhooks as store
from hub.store.db import now_ms
from hub.webhooks import EVENTS

router = APIRouter(prefix="/api", tags=["webhooks"], responses=models.errors(401, 403, 503),
                   dependencies=[Depends(deps.require_admin)])
MAX_HOOKS = 100


def _hook(row: Any, secret: bool = False) -> dict[str, Any]:
    out = {"id": row.id, "url": row.url, "events": list(row.events), "created_at": row.created_at}
    if secret:
        out["secret"] = row.secret
    return out


def _check(body: dict[str, Any]) -> tuple[str, list[str], str]:
    url = body.get("url")
    if not isinstance(url, str) or len(url) > 2000:
        raise ApiError(422, "bad_url", "url must be an http(s) URL of at most 2,000 characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ApiError(422, "bad_url", "url must be an http(s) URL with a host")
    events = body.get("events")
    if (not isinstance(events, list) or not events or not all(isinstance(e, str) for e in events)
            or set(events) - set(EVENTS)):
        raise ApiError(422, "bad_events", f"events must be a non-empty list of {', '.join(EVENTS)}")
    secret = body.get("secret")
    if secret is None:
        secret = secrets.token_hex(32)
    if not isinstance(secret, str) or not 1 <= len(secret) <= 200:
        raise ApiError(422, "bad_secret", "secret must be a string of 1 to 200 characters")
    return url, list(dict.fromkeys(events)), secret


@router.post("/webhooks", status_code=201, response_model=None, openapi_extra=models.body(wm.NewWebhook),
             responses=models.ok(wm.Webhook, "The hook, with its secret (shown this once).", 201)
             | models.errors(409, 413, 422))
async def create(request: Request) -> JSONResponse:
    url, events, secret = _check(await _body(request))
    engine = deps.engine(request)
    if len(await store.every(engine)) >= MAX_HOOKS:
        raise ApiError(409, "too_many_hooks", f"at most {MAX_HOOKS} webhooks")
    hook_id = "wh" + secrets.token_hex(8)
    await store.create(engine, hook_id, url, events, secret, now_ms())
    _changed(request)
    row = await store.get(engine, hook_id)
    return JSONResponse(_hook(row, secret=True), status_code=201)


@router.get("/webhooks", response_model=None, responses=models.ok(wm.WebhookList, "Every hook (no secrets)."))
async def list_hooks(request: Request) -> dict[str, Any]:
    return {"webhooks": [_hook(r) for r in await store.every(deps.engine(request))]}


async def _existing(request: Request, hook_id: str) -> Any:
    row = await store.get(deps.engine(request), hook_id)
    if row is None:
        raise ApiError(404, "not_found", f"no webhook {hook_id!r}")
    return row


@router.get("/webhooks/{hook_id}", response_model=None,
            responses=models.ok(wm.Webhook, "The hook (no secret).") | models.errors(404))
async def get_hook(hook_id: str, request: Request) -> dict[str, Any]:
    return _hook(await _existing(request, hook_id))


@router.delete("/webhooks/{hook_id}", response_model=None,
               responses=models.ok(wm.Deleted, "The hook and its deliveries are gone.") | models.errors(404))
async def delete_hook(hook_id: str, request: Request) -> dict[str, Any]:
    await _existing(request, hook_id)
    await store.delete(deps.engine(request), hook_id)
    _changed(request)
    return {"id": hook_id, "deleted": True}


@router.get("/webhooks/{hook_id}/deliveries", response_model=None,
            responses=models.ok(wm.Deliveries, "The last 100 deliveries, newest first.") | models.errors(404))
async def deliveries(hook_id: str, request: Request) -> dict[str, Any]:
    await _existing(request, hook_id)
    rows = await store.recent(deps.engine(request), hook_id)
    return {"deliveries": [{"id": r.id, "event": r.event, "status": r.status, "attempts": r.attempts,
                            "latency_ms": r.latency_ms, "last_code": r.last_code, "last_error": r.last_error,
                            "created_at": r.created_at, "next_at": r.next_at, "done_at": r.done_at} for r in rows]}


def _changed(request: Request) -> None:
    hooks = getattr(deps.services(request), "webhooks", None)
    if hooks is not None:
        hooks.changed()
