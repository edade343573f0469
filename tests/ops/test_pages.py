"""hub/ops/pages.py and hub/ops/conditional.py: every page and static file has a strong ETag, answers
304 to a client that has it (If-None-Match, or If-Modified-Since without it), and HEAD with the
GET's headers and no body."""

from __future__ import annotations

import email.utils
import time

import pytest
from fastapi.testclient import TestClient

from hub.ops.pages import PAGES

PAGE_URLS = [url.replace("{table_id}", "tb1").replace("{tournament_id}", "t1").replace("{match_id}", "m1")
             for url in PAGES]
STATIC = ["/static/js/live.js", "/static/css/base.css", "/static/js/i18n.js", "/static/js/strings/zh-CN/notes.js"]



@pytest.mark.parametrize("url", PAGE_URLS + STATIC + ["/docs", "/redoc", "/api-docs/swagger-ui.css"])
def test_etag_304_and_head(real_rules_client: TestClient, url: str) -> None:
    r = real_rules_client.get(url)
    assert r.status_code == 200 and r.content
    etag = r.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"') and len(etag) > 10
    assert r.headers["cache-control"] == "no-cache"  # revalidated every time: a deploy shows at once

    again = real_rules_client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert (
        real_rules_client.get(url, headers={"If-None-Match": f'"other", W/{etag}'}).status_code == 304
    )  # a list, weak match
    assert real_rules_client.get(url, headers={"If-None-Match": '"not-it"'}).status_code == 200

    head = real_rules_client.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["etag"] == etag and head.headers["content-length"] == str(len(r.content))
    assert head.headers["content-type"] == r.headers["content-type"]
    assert real_rules_client.head(url, headers={"If-None-Match": etag}).status_code == 304


def test_if_modified_since_for_static_files(real_rules_client: TestClient) -> None:
    r = real_rules_client.get("/static/js/live.js")
    last = r.headers["last-modified"]
    assert real_rules_client.get("/static/js/live.js", headers={"If-Modified-Since": last}).status_code == 304
    old = email.utils.formatdate(time.time() - 10 * 365 * 86400, usegmt=True)
    assert real_rules_client.get("/static/js/live.js", headers={"If-Modified-Since": old}).status_code == 200
    assert real_rules_client.get("/static/js/live.js", headers={"If-Modified-Since": "garbage"}).status_code == 200
    # If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
    assert (
        real_rules_client.get(
            "/static/js/live.js", headers={"If-None-Match": '"x"', "If-Modified-Since": last}
        ).status_code
        == 200
    )


def test_pages_keep_their_security_headers_on_304(real_rules_client: TestClient) -> None:
    etag = real_rules_client.get("/tablet/tb1").headers["etag"]
    r = real_rules_client.get("/tablet/tb1", headers={"If-None-Match": etag})
    assert r.status_code == 304 and "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert "frame-ancestors" not in real_rules_client.get("/overlay/tb1").headers["content-security-policy"]


def test_a_changed_file_gets_a_new_etag(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    from starlette.requests import Request

    from hub.ops import conditional

    f = tmp_path / "a.js"
    f.write_text("one")
    req = Request({"type": "http", "method": "GET", "headers": [], "path": "/"})
    first = conditional.file_response(req, f, "text/javascript").headers["etag"]
    f.write_text("two!")
    assert conditional.file_response(req, f, "text/javascript").headers["etag"] != first


def test_static_still_refuses_what_it_refused(real_rules_client: TestClient) -> None:
    for bad in ("/static/page.html", "/static/../hub/app.py", "/static/nope.js", "/static/js"):
        assert real_rules_client.get(bad).status_code == 404, bad
        assert real_rules_client.head(bad).status_code == 404, bad
    assert real_rules_client.post("/static/js/live.js").status_code == 405
