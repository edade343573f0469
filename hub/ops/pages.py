"""The web screens: HTML pages and their static assets from ``clients/web/``.

The server includes ``router``; this module only serves files (with ETag / 304 / HEAD, see
hub/ops/conditional.py), it knows nothing of the store or the rules. The files are found by
hub/ops/resources.py (inside the installed package, or beside it in a checkout). Every page is one
HTML shell (page.html) that reads its id from the URL and talks to the hub over ``/ws/watch``,
``/ws/tables/{id}`` and the public REST reads.
"""

from __future__ import annotations

import functools
import mimetypes
from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from hub.ops import conditional
from hub.ops.resources import require_files, web_root

router = APIRouter(include_in_schema=False)

# The pages are shells; they must never be cached stale across a deploy (no-cache: the browser
# revalidates with the ETag and gets a 304 when nothing changed), and nobody may frame the
# referee's console (the overlay is meant to be embedded by OBS, which is a browser source, not a frame).
_PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_STATIC_HEADERS = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'"
)

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("application/manifest+json", ".webmanifest")


# Every page is the same shell (clients/web/page.html) naming its own script and stylesheet:
# URL -> (page name, i18n key of its title, may it be framed). Only the overlay may be framed.
PAGES = {
    "/": ("index", "index_title", False),
    "/tablet/{table_id}": ("tablet", "tablet_title", False),
    "/board/{tournament_id}": ("board", "board_title", False),
    "/commentator/{match_id}": ("commentator", "commentator_title", False),
    "/watch/{match_id}": ("watch", "watch_title", False),
    # The live bracket, group tables and standings of a tournament's draw (for fans and the venue).
    "/bracket/{tournament_id}": ("bracket", "bracket_title", False),
    # One player of a tournament: their matches, the next one and its call (with "Follow").
    "/player/{tournament_id}/{player_id}": ("player", "player_title", False),
    "/overlay/{table_id}": ("overlay", "app", True),
    # The organiser's desk (clients/web/js/desk*.js): sign-in, tournaments, tables, cards; the
    # step of a tournament is the last path segment (/desk/{tid}/tables, .../cards, ...).
    "/desk": ("desk", "desk_title", False),
    "/desk/{tournament_id}": ("desk", "desk_title", False),
    "/desk/{tournament_id}/{step}": ("desk", "desk_title", False),
    "/pair": ("pair", "pair_title", False),
    # Sign-up and check-in (PROTOCOL.md section 14): a player's own entry, the secret in the fragment.
    "/enter/{tournament_id}": ("enter", "enter_title", False),
    # The spectator and commentator pages that follow whatever match is on a table (the page
    # reads "table" from its path: /watch/table/{id}, /commentator/table/{id}).
    "/watch/table/{table_id}": ("watch", "watch_title", False),
    "/commentator/table/{table_id}": ("commentator", "commentator_title", False),
    # Every person's rating per discipline (PROTOCOL.md section 13; ?discipline= picks one).
    "/ratings": ("ratings", "ratings_title", False),
    # A series' standings over several tournaments, live as they finish (PROTOCOL.md section 13).
    "/series/{series_id}": ("series", "series_title", False),
    # People across events (PROTOCOL.md section 12): the directory and a person's profile.
    "/people": ("people", "people_title", False),
    "/people/{person_id}": ("person", "person_title", False),
}


def check_files() -> None:
    """Every page's shell, script and stylesheet is installed (MissingPiece otherwise): a hub
    without its pages must not start and answer 500 on / while /healthz says 200."""
    names = sorted({name for name, _, _ in PAGES.values()})
    require_files(web_root(), ["page.html", "css/base.css", "js/i18n.js"]
                  + [f"js/strings/{lang}/common.js" for lang in ("en", "zh-CN")]  # the language tables
                  + [f"js/{n}.js" for n in names] + [f"css/{n}.css" for n in names], "the web pages")


@functools.cache
def _shell(page: str, title_key: str) -> tuple[bytes, str]:
    html = (web_root() / "page.html").read_text(encoding="utf-8").format(page=page, title_key=title_key)
    body = html.encode("utf-8")
    return body, conditional.etag_of(body)


def _page_route(page: str, title_key: str, frame_ok: bool) -> Callable[[Request], Response]:
    headers = dict(_PAGE_HEADERS)
    headers["Content-Security-Policy"] = _CSP + ("" if frame_ok else "; frame-ancestors 'none'")

    def serve_page(request: Request) -> Response:
        body, etag = _shell(page, title_key)
        return conditional.respond(request, body, "text/html; charset=utf-8", headers, etag=etag)

    serve_page.__name__ = f"{page}_page"
    return serve_page


for _url, (_name, _title_key, _frame_ok) in PAGES.items():
    router.add_api_route(_url, _page_route(_name, _title_key, _frame_ok), methods=["GET", "HEAD"])


def resolve_under(root: Path, path: str) -> Path:
    """`path` inside `root` as a file, or 404 (no escaping the root, no directories)."""
    root = root.resolve()
    try:
        target = (root / path).resolve()
        target.relative_to(root)
    except (ValueError, OSError):
        raise HTTPException(status_code=404, detail="not found") from None
    if not target.is_file():
        raise HTTPException(status_code=404, detail="not found")
    return target


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
def static_file(path: str, request: Request) -> Response:
    target = resolve_under(web_root(), path)
    if target.suffix == ".html":
        raise HTTPException(status_code=404, detail="not found")
    media_type, _ = mimetypes.guess_type(target.name)
    return conditional.file_response(request, target, media_type or "application/octet-stream", _STATIC_HEADERS)


# The tablet's offline app shell (clients/web/sw.js), served from the root so that it may control
# /tablet/ (the page registers it with that scope only).
@router.api_route("/sw.js", methods=["GET", "HEAD"])
def service_worker(request: Request) -> Response:
    return conditional.file_response(request, resolve_under(web_root(), "sw.js"), "text/javascript", _STATIC_HEADERS)
