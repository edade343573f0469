"""hub/ops/resources.py and the start-up checks: the pages and migrations are found inside an
installed package or beside it in a checkout, and a hub missing a piece (pages, migrations, a
router that cannot be imported) does not start: it says what is missing, instead of serving
500s (or no /ws/watch) while /healthz says 200."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hub.ops import resources
from hub.ops.resources import MissingPiece

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_lookups():
    resources.locate.cache_clear()
    yield
    resources.locate.cache_clear()


def test_a_checkout_finds_its_top_level_folders() -> None:
    assert resources.web_root() == ROOT / "clients" / "web"
    assert resources.migrations_dir() == ROOT / "migrations"


def test_an_installed_package_finds_them_inside_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "hub"
    (package / "web").mkdir(parents=True)
    (package / "migrations").mkdir()
    monkeypatch.setattr(resources.resources, "files", lambda name: package)
    assert resources.web_root() == package / "web" and resources.migrations_dir() == package / "migrations"


def test_neither_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "hub"
    package.mkdir(parents=True)
    monkeypatch.setattr(resources.resources, "files", lambda name: package)
    with pytest.raises(MissingPiece, match="web files are missing"):
        resources.web_root()


def test_create_app_refuses_a_missing_page_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                sqlite_settings) -> None:  # noqa: ANN001
    from hub.app import create_app

    web = tmp_path / "web"
    shutil.copytree(ROOT / "clients" / "web", web)
    (web / "js" / "watch.js").unlink()
    monkeypatch.setattr(resources, "locate", lambda name: web if name == "web" else ROOT / "migrations")
    monkeypatch.setattr("hub.ops.pages.web_root", lambda: web)
    with pytest.raises(MissingPiece, match="js/watch.js"):
        create_app(sqlite_settings)


def _broken_copy(tmp_path: Path, *, drop: str | None = None) -> Path:
    """The hub package alone, as a wheel built without its data would install it."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "hub", site / "hub", ignore=shutil.ignore_patterns("__pycache__"))
    if drop:
        shutil.rmtree(site / "hub" / drop)
    return site


def _run(site: Path, cwd: Path, *args: str, extra_path: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (extra_path, str(site)) if p),
           "HUB_DATABASE_URL": f"sqlite+aiosqlite:///{cwd / 'x.db'}"}
    return subprocess.run([sys.executable, "-m", "hub", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["migrate"]])
def test_a_wheel_without_its_data_does_not_start(tmp_path: Path, command: list[str]) -> None:
    site = _broken_copy(tmp_path)
    r = _run(site, tmp_path, *command)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and "files are missing" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "x.db").exists()


def test_a_router_that_cannot_be_imported_stops_the_start(tmp_path: Path) -> None:
    """websockets older than the floor (no websockets.asyncio): the start fails and says why, where
    the hub used to start without /ws/watch."""
    site = _broken_copy(tmp_path)
    fake = tmp_path / "old"
    (fake / "websockets").mkdir(parents=True)
    (fake / "websockets" / "__init__.py").write_text("version = '12.0'\n")
    r = _run(site, tmp_path, "serve", "--port", "0", extra_path=str(fake))
    assert r.returncode != 0 and "websockets.asyncio" in r.stderr, r.stderr[-2000:]
