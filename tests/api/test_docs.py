"""/docs and /redoc (hub/api/docs.py) come from files shipped in the package: nothing on those
pages points off the hub, and they run under a CSP without inline scripts. (tests/web/
test_api_docs.py renders both in Chromium with every request off the hub blocked.)"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from hub.api import docs


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_pages_use_only_the_hubs_own_files(real_rules_client: TestClient, page: str) -> None:
    r = real_rules_client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "http://" not in html and "https://" not in html and "//cdn" not in html
    assert "<script>" not in html  # no inline script: the CSP allows none
    refs = re.findall(r'(?:src|href|spec-url)="([^"]+)"', html)
    assert refs
    for ref in refs:
        assert ref.startswith("/"), ref
        assert real_rules_client.get(ref).status_code == 200, ref
    csp = r.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp


def test_the_assets_are_the_vendored_viewers(real_rules_client: TestClient) -> None:
    js = real_rules_client.get(f"{docs.PREFIX}/swagger-ui-bundle.js")
    assert js.status_code == 200 and "SwaggerUIBundle" in js.text[:2000] and "javascript" in js.headers["content-type"]
    assert "redoc" in real_rules_client.get(f"{docs.PREFIX}/redoc.standalone.js").text[:5000].lower()
    assert real_rules_client.get(f"{docs.PREFIX}/swagger-ui.css").headers["content-type"].startswith("text/css")
    init = real_rules_client.get(f"{docs.PREFIX}/swagger-init.js").text
    assert '"/openapi.json"' in init and "validatorUrl: null" in init
    assert real_rules_client.get(f"{docs.PREFIX}/README.md").status_code == 404  # only the listed files
    assert real_rules_client.get(f"{docs.PREFIX}/../models.py").status_code == 404


def test_fastapis_cdn_pages_are_off(real_rules_client: TestClient) -> None:
    assert "cdn.jsdelivr" not in real_rules_client.get("/docs").text
    assert real_rules_client.get("/docs/oauth2-redirect").status_code == 404
