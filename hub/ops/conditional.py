"""Conditional GETs and HEAD for what the hub serves as files (pages, static assets, API docs) and
for cached JSON listings: a strong ETag from the content, `304 Not Modified` when the client already
has it, and HEAD answered with the GET's headers and no body.

Files are hashed once per (path, size, mtime): a deploy that changes a file changes its ETag, and
revalidating an unchanged one costs a stat and a dict lookup.
"""

from __future__ import annotations

import email.utils
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

# (path, size, mtime_ns) -> (etag, bytes); the hub's own files are a few hundred KB in all.
_FILES: dict[tuple[str, int, int], tuple[str, bytes]] = {}


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _matches(header: str, etag: str) -> bool:
    """If-None-Match: a list of ETags (weak comparison, RFC 9110 13.1.2) or `*`."""
    bare = etag.removeprefix("W/")
    for candidate in header.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == bare:
            return True
    return False


def is_fresh(request: Request, etag: str, mtime: float | None = None) -> bool:
    """Does the client's copy match? If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)."""
    inm = request.headers.get("if-none-match")
    if inm is not None:
        return _matches(inm, etag)
    ims = request.headers.get("if-modified-since")
    if ims is not None and mtime is not None:
        try:
            since = email.utils.parsedate_to_datetime(ims).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return int(mtime) <= since
    return False


def respond(request: Request, body: bytes, media_type: str, headers: Mapping[str, str] | None = None,
            *, etag: str | None = None, mtime: float | None = None) -> Response:
    """200 with `body` (no body for HEAD), or 304 when the client's copy is current."""
    etag = etag or etag_of(body)
    out = {**(headers or {}), "ETag": etag}
    if mtime is not None:
        out["Last-Modified"] = email.utils.formatdate(mtime, usegmt=True)
    if is_fresh(request, etag, mtime):
        return Response(status_code=304, headers=out)
    if request.method == "HEAD":
        out["Content-Length"] = str(len(body))
        return Response(status_code=200, headers=out, media_type=media_type)
    return Response(body, status_code=200, headers=out, media_type=media_type)


def read_file(path: Path) -> tuple[str, bytes, float]:
    """(etag, content, mtime) of a file, hashed once per version of it."""
    st = os.stat(path)
    key = (str(path), st.st_size, st.st_mtime_ns)
    hit = _FILES.get(key)
    if hit is None:
        body = path.read_bytes()
        hit = (etag_of(body), body)
        if len(_FILES) > 4096:  # files rewritten again and again (a developer's tree): forget old versions
            _FILES.clear()
        _FILES[key] = hit
    return hit[0], hit[1], st.st_mtime


def file_response(request: Request, path: Path, media_type: str, headers: Mapping[str, str] | None = None) -> Response:
    etag, body, mtime = read_file(path)
    return respond(request, body, media_type, headers, etag=etag, mtime=mtime)
