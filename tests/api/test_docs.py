"""/docs and /redoc (hub/api/docs.py) come from files shipped in the package: nothing on those
pages points off the hub, and they run under a CSP without inline scripts. (tests/web/
test_api_docs.py renders both in Chromium with every request off the hub blocked.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from hub.api import docs
from hub.app import create_app
from hub.settings import Settings


@pytest.fixture
def hub(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as c:
        yield c


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_pages_use_only_the_hubs_own_files(hub: TestClient, page: str) -> None:
    r = hub.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "http://" not in html and "https://" not in html and "//cdn" not in html
    assert "<script>" not in html  # no inline script: the CSP allows none
    refs = re.findall(r'(?:src|href|spec-url)="([^"]+)"', html)
    assert refs
    for ref in refs:
        assert ref.startswith("/"), ref
        assert hub.get(ref).status_code == 200, ref
    csp = r.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp


def test_the_assets_are_the_vendored_viewers(hub: TestClient) -> None:
    js = hub.get(f"{docs.PREFIX}/swagger-ui-bundle.js")
    assert js.status_code == 200 and "SwaggerUIBundle" in js.text[:2000] and "javascript" in js.headers["content-type"]
    assert "redoc" in hub.get(f"{docs.PREFIX}/redoc.standalone.js").text[:5000].lower()
    assert hub.get(f"{docs.PREFIX}/swagger-ui.css").headers["content-type"].startswith("text/css")
    init = hub.get(f"{docs.PREFIX}/swagger-init.js").text
    assert '"/openapi.json"' in init and "validatorUrl: null" in init
    assert hub.get(f"{docs.PREFIX}/README.md").status_code == 404  # only the listed files
    assert hub.get(f"{docs.PREFIX}/../models.py").status_code == 404


def test_fastapis_cdn_pages_are_off(hub: TestClient) -> None:
    assert "cdn.jsdelivr" not in hub.get("/docs").text
    assert hub.get("/docs/oauth2-redirect").status_code == 404
