"""hub/ops/pages.py and hub/ops/conditional.py: every page and static file has a strong ETag, answers
304 to a client that has it (If-None-Match, or If-Modified-Since without it), and HEAD with the
GET's headers and no body."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from hub.app import create_app
from hub.ops.pages import PAGES
from hub.settings import Settings

PAGE_URLS = [url.replace("{table_id}", "tb1").replace("{tournament_id}", "t1").replace("{match_id}", "m1")
             for url in PAGES]
STATIC = ["/static/js/live.js", "/static/css/base.css", "/static/js/i18n.js", "/static/js/strings/zh-CN/notes.js"]


@pytest.fixture
def hub(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as c:
        yield c


@pytest.mark.parametrize("url", PAGE_URLS + STATIC + ["/docs", "/redoc", "/api-docs/swagger-ui.css"])
def test_etag_304_and_head(hub: TestClient, url: str) -> None:
    r = hub.get(url)
    assert r.status_code == 200 and r.content
    etag = r.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"') and len(etag) > 10
    assert r.headers["cache-control"] == "no-cache"  # revalidated every time: a deploy shows at once

    again = hub.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert hub.get(url, headers={"If-None-Match": f'"other", W/{etag}'}).status_code == 304  # a list, weak match
    assert hub.get(url, headers={"If-None-Match": '"not-it"'}).status_code == 200

    head = hub.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["etag"] == etag and head.headers["content-length"] == str(len(r.content))
    assert head.headers["content-type"] == r.headers["content-type"]
    assert hub.head(url, headers={"If-None-Match": etag}).status_code == 304


def test_if_modified_since_for_static_files(hub: TestClient) -> None:
    r = hub.get("/static/js/live.js")
    last = r.headers["last-modified"]
    assert hub.get("/static/js/live.js", headers={"If-Modified-Since": last}).status_code == 304
    old = email.utils.formatdate(time.time() - 10 * 365 * 86400, usegmt=True)
    assert hub.get("/static/js/live.js", headers={"If-Modified-Since": old}).status_code == 200
    assert hub.get("/static/js/live.js", headers={"If-Modified-Since": "garbage"}).status_code == 200
    # If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
    assert hub.get("/static/js/live.js", headers={"If-None-Match": '"x"', "If-Modified-Since": last}).status_code == 200


def test_pages_keep_their_security_headers_on_304(hub: TestClient) -> None:
    etag = hub.get("/tablet/tb1").headers["etag"]
    r = hub.get("/tablet/tb1", headers={"If-None-Match": etag})
    assert r.status_code == 304 and "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert "frame-ancestors" not in hub.get("/overlay/tb1").headers["content-security-policy"]


def test_a_changed_file_gets_a_new_etag(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    from starlette.requests import Request

    from hub.ops import conditional

    f = tmp_path / "a.js"
    f.write_text("one")
    req = Request({"type": "http", "method": "GET", "headers": [], "path": "/"})
    first = conditional.file_response(req, f, "text/javascript").headers["etag"]
    f.write_text("two!")
    assert conditional.file_response(req, f, "text/javascript").headers["etag"] != first


def test_static_still_refuses_what_it_refused(hub: TestClient) -> None:
    for bad in ("/static/page.html", "/static/../hub/app.py", "/static/nope.js", "/static/js"):
        assert hub.get(bad).status_code == 404, bad
        assert hub.head(bad).status_code == 404, bad
    assert hub.post("/static/js/live.js").status_code == 405
