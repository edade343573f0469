"""The web screens: HTML pages and their static assets from ``clients/web/``.

The server includes ``router``; this module only serves files, it knows nothing of the
store or the rules. Every page is one HTML shell (page.html) that reads its id from the URL and
talks to the hub over ``/ws/watch``, ``/ws/tables/{id}`` and the public REST reads.
"""

from __future__ import annotations

import functools
import mimetypes
from pathlib import Path
from typing import Callable

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

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


# Every page is the same shell (clients/web/page.html) naming its own script and stylesheet:
# URL -> (page name, i18n key of its title, may it be framed). Only the overlay may be framed.
PAGES = {
    "/": ("index", "index_title", False),
    "/tablet/{table_id}": ("tablet", "tablet_title", False),
    "/board/{tournament_id}": ("board", "board_title", False),
    "/commentator/{match_id}": ("commentator", "commentator_title", False),
    "/watch/{match_id}": ("watch", "watch_title", False),
    "/overlay/{table_id}": ("overlay", "app", True),
}


@functools.lru_cache(maxsize=None)
def _shell(page: str, title_key: str) -> str:
    return (WEB_ROOT / "page.html").read_text(encoding="utf-8").format(page=page, title_key=title_key)


def _page_route(page: str, title_key: str, frame_ok: bool) -> Callable[[], HTMLResponse]:
    headers = dict(_PAGE_HEADERS)
    headers["Content-Security-Policy"] = _CSP + ("" if frame_ok else "; frame-ancestors 'none'")

    def serve_page() -> HTMLResponse:
        return HTMLResponse(_shell(page, title_key), headers=headers)

    serve_page.__name__ = f"{page}_page"
    return serve_page


for _url, (_name, _title_key, _frame_ok) in PAGES.items():
    router.add_api_route(_url, _page_route(_name, _title_key, _frame_ok), methods=["GET"])


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
