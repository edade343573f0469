"""Client tests: make ``cuehub_client`` importable from the checkout (until it is installed)."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CLIENT = _HERE.parents[1] / "clients" / "python"
for p in (str(_CLIENT), str(_HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)


import pytest  # noqa: E402
from cuehub_live_hub import ADMIN_TOKEN  # noqa: E402


@pytest.fixture
def hub_url(tmp_path: Path):
    """A hub on a real socket (SQLite file, memory bus) with the spine's fake rules: the
    client tests exercise the protocol plumbing, not billiards."""
    import fake_rules  # tests/ is on sys.path (tests/conftest.py)
    from cuehub_live_hub import serve

    from hub.app import create_app
    from hub.settings import Settings

    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'client.db'}", admin_token=ADMIN_TOKEN)
    with serve(create_app(settings, rules=fake_rules)) as url:
        yield url
