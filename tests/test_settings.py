"""hub/settings.py: one pydantic-settings class read from HUB_*; a bad value is one line naming the
variable, and every entry point exits with it (status 2) instead of a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hub.settings import Settings, SettingsError, env_names

ROOT = Path(__file__).resolve().parents[1]


def test_defaults_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in env_names().values():
        monkeypatch.delenv(var, raising=False)
    assert Settings.from_env() == Settings()
    assert Settings().port == 8000 and Settings().allowed_origins == ("*",) and Settings().log_format == "json"
    monkeypatch.setenv("HUB_PORT", "9001")
    monkeypatch.setenv("HUB_TABLE_RATE", "2.5")
    monkeypatch.setenv("HUB_ALLOWED_ORIGINS", "https://a.example/, https://b.example")
    monkeypatch.setenv("HUB_AUTO_MIGRATE", "false")
    monkeypatch.setenv("HUB_WATCH_PORT", "")  # empty counts as unset
    monkeypatch.setenv("HUB_LOG_FORMAT", "TEXT")
    s = Settings.from_env()
    assert (s.port, s.table_rate_per_s, s.auto_migrate, s.watch_port, s.log_format) == (9001, 2.5, False, None, "text")
    assert s.allowed_origins == ("https://a.example", "https://b.example")


def test_a_mapping_instead_of_the_environment() -> None:
    s = Settings.from_env({"HUB_PORT": "1234", "HUB_TABLE_BURST": "7", "HUB_DATABASE_SCHEMA": ""})
    assert (s.port, s.table_rate_burst, s.database_schema) == (1234, 7, None)


def test_with_validates_and_keeps_the_rest() -> None:
    s = Settings(database_url="sqlite+aiosqlite:///x.db", admin_token="t")
    t = s.with_(port=9000, table_rate_per_s=1.0)
    assert (t.port, t.table_rate_per_s, t.database_url, t.admin_token) == (9000, 1.0, s.database_url, "t")
    assert s.port == 8000  # frozen: the original is unchanged
    with pytest.raises(ValueError):
        s.with_(port=70000)
    with pytest.raises(ValueError):
        s.with_(no_such_field=1)


@pytest.mark.parametrize("var, value, words", [
    ("HUB_PORT", "abc", "valid integer"),
    ("HUB_PORT", "70000", "less than or equal to 65535"),
    ("HUB_TABLE_RATE", "fast", "valid number"),
    ("HUB_AUTO_MIGRATE", "perhaps", "valid boolean"),
    ("HUB_LOG_FORMAT", "xml", "'json' or 'text'"),
    ("HUB_MAX_BODY_BYTES", "12", "greater than or equal to 1024"),
])
def test_a_bad_value_names_its_variable(var: str, value: str, words: str) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_env({var: value})
    message = str(err.value)
    assert f"{var}={value!r}" in message and words in message and "\n" not in message


def test_secrets_are_not_echoed() -> None:
    # The admin token is a plain string (nothing to fail), but an error about it must not show it.
    from pydantic import ValidationError

    from hub.settings import describe

    try:
        Settings.model_validate({"admin_token": 12345})
    except ValidationError as exc:
        assert "12345" not in describe(exc) and "HUB_ADMIN_TOKEN" in describe(exc)
    else:  # pragma: no cover - pydantic refuses an int for a str field
        pytest.fail("an int was accepted as the admin token")


ENTRY_POINTS = {
    "serve": [sys.executable, "-m", "hub", "serve"],
    "demo": [sys.executable, "-m", "hub", "demo", "--no-progress"],
    "gateway": [sys.executable, "-m", "hub", "gateway", "--bus-url", "redis://127.0.0.1:6379/0"],
    "migrate": [sys.executable, "-m", "hub", "migrate"],
    "simulate": [sys.executable, "-m", "hub", "simulate", "--help"],
    "replay": [sys.executable, "-m", "hub", "replay"],
    "uvicorn --factory": [sys.executable, "-m", "uvicorn", "--factory", "hub.app:create_app", "--port", "0"],
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_every_entry_point_exits_with_one_line(name: str, tmp_path: Path) -> None:
    env = {**os.environ, "HUB_PORT": "abc", "HUB_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"}
    r = subprocess.run(ENTRY_POINTS[name], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert "HUB_PORT='abc'" in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "x.db").exists()  # nothing was started


def test_a_bad_option_is_one_line_too(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "hub", "serve", "--port", "70000"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "--port" in r.stderr, r.stderr


def test_every_variable_is_in_the_settings_reference() -> None:
    """docs/operations.md has the settings tables; the bounds (docs/security.md) and the desk's
    settings (docs/competition.md) sit with what they bound."""
    reference = "".join(p.read_text() for p in sorted((ROOT / "docs").glob("*.md")))
    for var in env_names().values():
        assert f"`{var}`" in reference, f"{var} is not in the settings tables under docs/"
