"""`GET /api/draw-formats`: the draw formats the hub makes, each with the disciplines it takes and the
settings the draw body may carry (hub/draws/draw_formats/, the one registry); the desk's draw step
builds its choices from it. Public, the same for everyone, with an ETag (hub/ops/conditional.py).
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hub.api import competition_models as cm
from hub.api import models
from hub.draws import draw_formats
from hub.ops import conditional

router = APIRouter(prefix="/api", tags=["setup and reads"])


@router.get("/draw-formats", response_model=None, responses=models.ok(
    cm.DrawFormatList, "Every draw format; `ETag` given, `If-None-Match` answered 304."))
async def list_draw_formats(request: Request) -> Response:
    """Every draw format: its name, the disciplines and players a match it takes, its settings
    (name, type, bounds, default), and whether a knockout may follow it (`then`)."""
    body = json.dumps(draw_formats.catalogue(), separators=(",", ":")).encode()
    # no-cache: revalidated on every use (a 304 while the hub's formats are the same)
    return conditional.respond(request, body, "application/json", {"Cache-Control": "no-cache"})
