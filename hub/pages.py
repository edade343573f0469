"""The web screens: HTML pages and their static assets from ``clients/web/``.

The server includes ``router``; this module only serves files, it knows nothing of the
store or the rules. Every page is a static HTML shell that reads its id from the URL and
talks to the hub over ``/ws/watch``, ``/ws/tables/{id}`` and the public REST reads.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

WEB_ROOT = Path(__file__).resolve().parents[1] / "clients" / "web"

router = APIRouter(include_in_schema=False)

# The pages are shells; they must never be cached stale across a deploy, and nobody
# may frame the referee's console (the overlay is meant to be embedded by OBS, which is
# a browser source, not a frame).
_PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'"
)

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")
mimetypes.add_type("image/svg+xml", ".svg")


def _page(name: str, frame_ok: bool = False) -> FileResponse:
    path = WEB_ROOT / name
    if not path.is_file():
        raise HTTPException(status_code=404, detail="page not found")
    headers = dict(_PAGE_HEADERS)
    headers["Content-Security-Policy"] = _CSP + ("" if frame_ok else "; frame-ancestors 'none'")
    return FileResponse(path, media_type="text/html; charset=utf-8", headers=headers)


@router.get("/")
def index_page() -> FileResponse:
    return _page("index.html")


@router.get("/tablet/{table_id}")
def tablet_page(table_id: str) -> FileResponse:
    return _page("tablet.html")


@router.get("/board/{tournament_id}")
def board_page(tournament_id: str) -> FileResponse:
    return _page("board.html")


@router.get("/commentator/{match_id}")
def commentator_page(match_id: str) -> FileResponse:
    return _page("commentator.html")


@router.get("/watch/{match_id}")
def watch_page(match_id: str) -> FileResponse:
    return _page("watch.html")


@router.get("/overlay/{table_id}")
def overlay_page(table_id: str) -> FileResponse:
    return _page("overlay.html", frame_ok=True)


@router.get("/static/{path:path}")
def static_file(path: str) -> FileResponse:
    root = WEB_ROOT.resolve()
    try:
        target = (root / path).resolve()
        target.relative_to(root)
    except (ValueError, OSError):
        raise HTTPException(status_code=404, detail="not found") from None
    if not target.is_file() or target.suffix == ".html":
        raise HTTPException(status_code=404, detail="not found")
    media_type, _ = mimetypes.guess_type(target.name)
    return FileResponse(
        target,
        media_type=media_type or "application/octet-stream",
        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
    )
