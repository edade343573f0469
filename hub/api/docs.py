"""`/docs` (Swagger UI) and `/redoc` (ReDoc) for `/openapi.json`, from assets shipped inside the
package (hub/api/docs_assets/, see its README.md): they work in a venue without internet.

FastAPI's own doc pages load their scripts from a CDN and start Swagger UI with an inline script;
these pages use the vendored files and a script file of their own, under a Content-Security-Policy
without inline scripts (the viewers do need inline styles, and ReDoc a blob: worker).
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from hub.ops import conditional
from hub.ops.resources import require_files

ASSETS = Path(__file__).resolve().parent / "docs_assets"
PREFIX = "/api-docs"
REQUIRED = ["swagger-ui-bundle.js", "swagger-ui.css", "swagger-init.js", "redoc.standalone.js", "favicon-32x32.png"]

router = APIRouter(include_in_schema=False)

_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; "
        "base-uri 'none'; frame-ancestors 'none'"
    ),
}

_SWAGGER = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cuehub API</title>
<link rel="icon" href="{PREFIX}/favicon-32x32.png">
<link rel="stylesheet" href="{PREFIX}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{PREFIX}/swagger-ui-bundle.js"></script>
<script src="{PREFIX}/swagger-init.js"></script>
</body>
</html>
""".encode()

_REDOC = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cuehub API</title>
<link rel="icon" href="{PREFIX}/favicon-32x32.png">
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<script src="{PREFIX}/redoc.standalone.js"></script>
</body>
</html>
""".encode()


def check_files() -> None:
    """The viewers are installed (MissingPiece otherwise)."""
    require_files(ASSETS, REQUIRED, "the API documentation assets")


@router.api_route("/docs", methods=["GET", "HEAD"])
def swagger_ui(request: Request) -> Response:
    return conditional.respond(request, _SWAGGER, "text/html; charset=utf-8", _HEADERS)


@router.api_route("/redoc", methods=["GET", "HEAD"])
def redoc(request: Request) -> Response:
    return conditional.respond(request, _REDOC, "text/html; charset=utf-8", _HEADERS)


@router.api_route(PREFIX + "/{name}", methods=["GET", "HEAD"])
def asset(name: str, request: Request) -> Response:
    if name not in REQUIRED:
        raise HTTPException(status_code=404, detail="not found")
    media_type, _ = mimetypes.guess_type(name)
    return conditional.file_response(request, ASSETS / name, media_type or "application/octet-stream",
                                     {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})
