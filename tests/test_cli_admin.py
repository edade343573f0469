"""`cuehub serve` says where the desk is; `cuehub reset-admin-token` replaces a lost admin token
(printed once) and ends every desk session."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hub.app import create_app
from hub.cli import desk_address, main
from hub.settings import Settings
from tests.hubproc import HubProcess


def test_desk_address() -> None:
    assert desk_address("127.0.0.1", 8000) == "http://127.0.0.1:8000/desk"
    assert desk_address("0.0.0.0", 9000) == "http://127.0.0.1:9000/desk"
    assert desk_address("::1", 80) == "http://[::1]:80/desk"


def test_reset_admin_token(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HUB_ADMIN_TOKEN", raising=False)
    url = f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}"
    with TestClient(create_app(Settings(database_url=url, admin_token="the-old-token"))) as c:
        assert c.post("/api/session", json={"token": "the-old-token"}).status_code == 204
    assert main(["reset-admin-token", "--database-url", url]) == 0
    out = capsys.readouterr()
    token = out.out.strip().rsplit(" ", 1)[-1]
    assert "shown once" in out.out and len(token) >= 24 and "restart" in out.err
    with TestClient(create_app(Settings(database_url=url))) as c:  # no HUB_ADMIN_TOKEN: the stored one
        headers = {"Authorization": f"Bearer {token}"}
        assert c.post("/api/tournaments", json={"name": "T"}, headers=headers).status_code == 201
        old = {"Authorization": "Bearer the-old-token"}
        assert c.post("/api/tournaments", json={"name": "T"}, headers=old).status_code == 403


def test_reset_admin_token_help_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "reset-admin-token" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["reset-admin-token", "--help"])
    assert "Reset the admin token" in capsys.readouterr().out


def test_serve_prints_the_desk_address(tmp_path: Path) -> None:
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path)
    hub.start()
    try:
        assert f"http://127.0.0.1:{hub.port}/desk" in hub.log.read_text()
    finally:
        hub.stop()
