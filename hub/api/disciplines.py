"""``GET /api/disciplines``: what every discipline is, as data (hub/rules/traits.py), for the pages,
the tools and any client: the balls, the formats, the tablet's choices... read instead of names.

Public and cacheable: a strong ETag of the body (a `304` when the client's copy is current) and
`Cache-Control: no-cache`, so a page revalidates once per load and the tablet's service worker keeps
the last copy for a visit without a link (clients/web/sw.js).
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from hub.api import models
from hub.ops import conditional
from hub.rules.disciplines import catalogue
from hub.rules.traits import Traits

router = APIRouter(prefix="/api", tags=["setup and reads"])
HEADERS = {"Cache-Control": "no-cache"}


class DisciplineList(BaseModel):
    disciplines: list[Traits] = Field(description="Every discipline the hub plays, in its registry's order.")


def body() -> bytes:
    """The answer's bytes (a few kilobytes: made again on each call, so a discipline registered
    after start, as the tests do, is served too)."""
    return json.dumps({"disciplines": catalogue()}, ensure_ascii=False, separators=(",", ":")).encode()


@router.get("/disciplines", response_model=None,
            responses=models.ok(DisciplineList, "Every discipline's traits.")
            | {304: {"description": "Not modified: the client's copy (If-None-Match) is current."}})
async def list_disciplines(request: Request) -> Response:
    """What every discipline is: its balls, win ball, formats and their defaults, break rules, scorings, push-out,
    call shot, groups, players a match, the tablet's flags and called fouls, stats, penalties, concessions, win
    types and shot-clock defaults (hub/rules/traits.py). Read these instead of knowing disciplines by name."""
    return conditional.respond(request, body(), "application/json", HEADERS)
