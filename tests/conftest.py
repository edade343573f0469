"""Shared fixtures: a hub app on a real SQLite file or a fresh PostgreSQL schema; and the markers
every test gets from where it lives and what it uses (`make test-fast` leaves `browser` and
`process` out). Plain helpers (tokens, envelopes, tables, matches) are in spine_helpers.py."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, ModuleType

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fake_rules  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from spine_helpers import ADMIN, PG_URL, require_pg  # noqa: E402

from hub.app import create_app  # noqa: E402
from hub.settings import Settings  # noqa: E402
from tests import hubproc  # noqa: E402

TESTS = Path(__file__).parent
# Modules that start hub processes without tests/hubproc.py: the demo is its own program (its
# output is what the test reads).
OWN_PROCESSES = {TESTS / "tools" / "test_demo.py"}


def _names(code: CodeType) -> set[str]:
    """Every global or attribute name a function's code (nested functions included) refers to."""
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            out |= _names(const)
    return out


def _code(obj: object) -> CodeType | None:
    func = getattr(obj, "__wrapped__", obj)
    return getattr(func, "__code__", None)


def _launchers(module: ModuleType) -> frozenset[str]:
    """The module's names that start hub processes: HubProcess (and subclasses of it), the hubproc
    module, and every function of the module that uses one of them, to a fixed point."""
    found = {name for name, value in vars(module).items()
             if value is hubproc or (isinstance(value, type) and issubclass(value, hubproc.HubProcess))}
    functions = {name: code for name, value in vars(module).items() if (code := _code(value)) is not None}
    grew = True
    while grew:
        grew = False
        for name, code in functions.items():
            if name not in found and _names(code) & found:
                found.add(name)
                grew = True
    return frozenset(found)


def _starts_processes(item: pytest.Item) -> bool:
    """The test, or one of its fixtures, uses one of its module's launchers (a fixture of another
    module counts when it uses one of that module's)."""
    funcs = [getattr(item, "function", None)]
    fixtures = getattr(item, "_fixtureinfo", None)
    if fixtures is not None:
        funcs += [d.func for defs in fixtures.name2fixturedefs.values() for d in defs]
    for func in funcs:
        code = _code(func)
        module = sys.modules.get(getattr(func, "__module__", "") or "")
        if code is not None and module is not None and _names(code) & _launchers(module):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`browser`: everything in tests/web (Chromium, and a hub process behind it). `process`: a
    test that starts hub processes through tests/hubproc.py, itself or in a fixture; plus
    OWN_PROCESSES."""
    for item in items:
        path = Path(str(item.path))
        if TESTS / "web" in path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.process)
            continue
        if path in OWN_PROCESSES or _starts_processes(item):
            item.add_marker(pytest.mark.process)


@pytest.fixture
def sqlite_settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", admin_token=ADMIN)


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema for one test, dropped afterwards."""
    require_pg()
    import asyncio

    import asyncpg

    schema = "t_" + uuid.uuid4().hex[:12]
    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run(f'CREATE SCHEMA "{schema}"'))
    yield schema
    asyncio.run(run(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def pg_settings(pg_schema: str) -> Settings:
    return Settings(database_url=PG_URL, database_schema=pg_schema, admin_token=ADMIN)


@pytest.fixture
def client(sqlite_settings: Settings) -> Iterator[TestClient]:
    """The hub on the fake rules (spine tests)."""
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as c:
        yield c
