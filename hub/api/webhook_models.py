"""OpenAPI models of the webhook calls (hub/api/webhooks.py, PROTOCOL.md section 16)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Event = Literal["match.called", "match.started", "match.finished", "tournament.finished", "entry.created"]


class NewWebhook(BaseModel):
    url: str = Field(max_length=2000, description="An http(s) URL; redirects are not followed.")
    events: list[Event] = Field(min_length=1)
    secret: str | None = Field(None, min_length=1, max_length=200,
                               description="The HMAC-SHA256 key of X-Cuehub-Signature; absent: the hub makes one.")


class Webhook(BaseModel):
    id: str
    url: str
    events: list[Event]
    created_at: int
    secret: str | None = Field(None, description="In the answer to POST only.")


class WebhookList(BaseModel):
    webhooks: list[Webhook]


class Deleted(BaseModel):
    id: str
    deleted: bool


class Delivery(BaseModel):
    id: str = Field(description="X-Cuehub-Delivery: the same on every attempt.")
    event: Event
    status: Literal["pending", "delivered", "failed", "dropped"]
    attempts: int
    latency_ms: int | None = Field(description="Of the last attempt.")
    last_code: int | None
    last_error: str | None
    created_at: int
    next_at: int
    done_at: int | None


class Deliveries(BaseModel):
    deliveries: list[Delivery]
