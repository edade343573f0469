"""Shared fixtures: a hub app on a real SQLite file or a fresh PostgreSQL schema; and the markers
every test gets from where it lives and what it uses (`make test-fast` leaves `browser` and
`process` out). Plain helpers (tokens, envelopes, tables, matches) are in spine_helpers.py. The
header says where the public scenarios came from, and a CI run without them stops here
(tests/public_scenarios.py)."""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fake_rules  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from spine_helpers import ADMIN, PG_URL, require_pg  # noqa: E402

from hub.app import create_app  # noqa: E402
from hub.settings import Settings  # noqa: E402
from hub.store.db import make_engine, migrate  # noqa: E402
from tests import hubproc, public_scenarios  # noqa: E402

TESTS = Path(__file__).parent


def pytest_report_header(config: pytest.Config) -> str:
    return public_scenarios.header()


def pytest_configure(config: pytest.Config) -> None:
    why = public_scenarios.missing_in_ci()
    if why is not None:
        raise pytest.UsageError(why)


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


def _starts_by_itself(value: object) -> bool:
    """hubproc, HubProcess and its subclasses, the subprocess module and what it defines."""
    if value is hubproc or value is subprocess:
        return True
    if isinstance(value, type) and issubclass(value, hubproc.HubProcess):
        return True
    return callable(value) and getattr(value, "__module__", None) == "subprocess"


def _is_test_module(name: object) -> bool:
    module = sys.modules.get(name) if isinstance(name, str) else None
    return module is not None and TESTS.resolve() in Path(getattr(module, "__file__", None) or "/").resolve().parents


_VISITING: set[str] = set()  # modules whose launchers are being found (imports may go both ways)


@functools.cache
def _launchers(module_name: str) -> frozenset[str]:
    """The names of a module that start processes: the starters above, the functions imported from
    another module of tests/ that are launchers there, and every function of the module that uses
    one of them, to a fixed point. A function that imports subprocess itself counts too."""
    module = sys.modules.get(module_name)
    if module is None or module_name in _VISITING:
        return frozenset()
    _VISITING.add(module_name)
    found = {"subprocess", "create_subprocess_exec", "create_subprocess_shell"}
    functions: dict[str, CodeType] = {}
    for name, value in vars(module).items():
        home = getattr(value, "__module__", None)
        if _starts_by_itself(value):
            found.add(name)
        elif (code := _code(value)) is not None:
            if home == module_name:
                functions[name] = code
            elif _is_test_module(home) and getattr(value, "__name__", name) in _launchers(str(home)):
                found.add(name)
    grew = True
    while grew:
        grew = False
        for name, code in functions.items():
            if name not in found and _names(code) & found:
                found.add(name)
                grew = True
    _VISITING.discard(module_name)
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
        module = getattr(func, "__module__", None)
        if code is not None and isinstance(module, str) and _names(code) & _launchers(module):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`browser`: everything in tests/web (Chromium, and a hub process behind it). `process`: a
    test that starts processes, itself or in a fixture: a hub through tests/hubproc.py, the demo,
    the CLI run to its end, any program through subprocess (directly or through a helper function
    of any module)."""
    for item in items:
        path = Path(str(item.path))
        if TESTS / "web" in path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.process)
            continue
        if _starts_processes(item):
            item.add_marker(pytest.mark.process)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per run (per worker under xdist), with nothing else
    in it: `sqlite_settings` gives every test a copy of its own, so alembic's upgrade runs once
    instead of once per test (the hub's start still runs `upgrade head`, a no-op on the copy,
    as on a restart). Tests of the migrations themselves start from an empty file."""
    import asyncio

    path = tmp_path_factory.mktemp("migrated") / "hub.db"

    async def run() -> None:
        engine = make_engine(Settings(database_url=f"sqlite+aiosqlite:///{path}"))
        try:
            await migrate(engine)
        finally:
            await engine.dispose()  # the last connection checkpoints and removes the WAL

    asyncio.run(run())
    return path


@pytest.fixture
def sqlite_settings(tmp_path: Path, migrated_sqlite: Path) -> Settings:
    """The hub's settings on a SQLite file of this test's own, already migrated."""
    shutil.copyfile(migrated_sqlite, tmp_path / "hub.db")
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
def fake_rules_client(sqlite_settings: Settings) -> Iterator[TestClient]:
    """The hub on the fake rules (tests/fake_rules.py: the spine tests, about the API, not the games)."""
    with TestClient(create_app(sqlite_settings, rules=fake_rules)) as c:
        yield c


@pytest.fixture
def real_rules_client(sqlite_settings: Settings) -> Iterator[TestClient]:
    """The hub on the real rules (every discipline of hub/rules/), on a fresh SQLite file."""
    with TestClient(create_app(sqlite_settings)) as c:
        yield c
