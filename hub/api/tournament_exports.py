"""The results for export over REST (PROTOCOL.md section 9): `GET /api/tournaments/{tid}/results.json`,
`results.csv` (every draw match) and `placings.csv` (`hub/tournaments/results.py` makes them), cached
per tournament version and language and built off the event loop (`hub/tournaments/exports.py`), with
an `ETag` (`If-None-Match`: 304) and the tournament's name in the file's name.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hub.api import competition_models as cm
from hub.api import deps, models
from hub.api.tournaments import whole_projection
from hub.ops import conditional
from hub.tournaments import exports, results
from hub.tournaments.exports import ExportCache

router = APIRouter(prefix="/api", tags=["running a competition"], responses=models.errors(503))



def _disposition(proj: dict[str, Any], what: str, ext: str) -> str:
    """`Content-Disposition` of an export, named after the tournament in its own script (RFC 6266:
    `filename*` in UTF-8, RFC 5987) with an ASCII `filename` for clients that read only that:
    "深圳金九公开赛 2026" gives 深圳金九公开赛-2026-placings.csv, or 2026-placings.csv."""

    def stem(name: str) -> str:  # letters and digits of any script; anything else a dash
        return re.sub("-+", "-", "".join(ch if ch.isalnum() else "-" for ch in name)).strip("-")

    name = unicodedata.normalize("NFC", proj["name"])
    whole = f"{stem(name) or proj['id']}-{what}.{ext}"
    ascii_only = f"{stem(name.encode('ascii', 'ignore').decode()) or proj['id']}-{what}.{ext}"
    return f"attachment; filename=\"{ascii_only}\"; filename*=UTF-8''{quote(whole, safe='')}"


async def _export(request: Request, proj: dict[str, Any], kind: str, lang: str | None, media_type: str,
                  headers: dict[str, str], build: Callable[[], bytes]) -> Response:
    """An export, cached per tournament version and language (hub/tournaments/exports.py): 304 for a
    client that has this version's, else the bytes built once, off the event loop."""
    services = deps.services(request)
    if services.exports is None:
        services.exports = ExportCache()
    # no-cache: a client (or a proxy) revalidates each time, and gets a 304 while nothing changed.
    headers = {**headers, "Cache-Control": "no-cache"}
    etag = exports.etag_of(proj, kind, lang)
    if conditional.is_fresh(request, etag):
        return conditional.respond(request, b"", media_type, headers, etag=etag)
    export = await services.exports.get(proj, kind, lang, build)
    return conditional.respond(request, export.body, media_type, headers, etag=export.etag)


def _json_bytes(content: Any) -> bytes:
    return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


@router.get("/tournaments/{tid}/results.json", response_model=None,
            responses=models.ok(cm.ResultsExport, "Placings, standings and every draw match; `ETag` given, "
                                "`If-None-Match` answered 304.") | models.errors(404))
async def results_json(tid: str, request: Request, lang: str | None = None) -> Response:
    proj = await whole_projection(request, tid)
    return await _export(request, proj, "results.json", lang, "application/json", {
        "Content-Disposition": _disposition(proj, "results", "json")},
        lambda: _json_bytes(results.results_json(proj, lang)))


@router.get("/tournaments/{tid}/results.csv", response_model=None, response_class=Response,
            responses=cm.csv_ok("Every draw match, a row each; `ETag` given, `If-None-Match` answered 304.")
            | models.errors(404))
async def results_csv(tid: str, request: Request, lang: str | None = None) -> Response:
    proj = await whole_projection(request, tid)
    return await _export(request, proj, "results.csv", lang, "text/csv; charset=utf-8", {
        "Content-Disposition": _disposition(proj, "matches", "csv")},
        lambda: results.matches_csv(proj, lang).encode("utf-8"))


@router.get("/tournaments/{tid}/placings.csv", response_model=None, response_class=Response,
            responses=cm.csv_ok("The final placings, a row per player; `ETag` given, `If-None-Match` answered 304.")
            | models.errors(404))
async def placings_csv(tid: str, request: Request) -> Response:
    proj = await whole_projection(request, tid)
    return await _export(request, proj, "placings.csv", None, "text/csv; charset=utf-8", {
        "Content-Disposition": _disposition(proj, "placings", "csv")},
        lambda: results.placings_csv(proj).encode("utf-8"))
