"""The hub's layers import one way: hub/api (the REST routes) may use the watch side, the services
and the guards, never the reverse (issue 30: the guards lived in hub/api and the watch side and
the services imported them, a circle). Imports are read with ast, so one under TYPE_CHECKING or
inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Every module `path` imports, relative imports resolved; `from a import b` gives a.b as well
    as a (b may be a module)."""
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _files(*places: str) -> list[Path]:
    out: list[Path] = []
    for place in places:
        target = ROOT / place
        out.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    return out


def _api_imports(path: Path) -> list[str]:
    return sorted(m for m in imported_modules(path) if m == "hub.api" or m.startswith("hub.api."))


def test_the_watch_side_the_services_and_the_guards_import_nothing_from_the_api() -> None:
    files = _files("hub/watch", "hub/services.py", "hub/guards")
    assert len(files) > 10  # the places exist (a moved package would pass this test vacuously)
    offenders = {str(p.relative_to(ROOT)): _api_imports(p) for p in files if _api_imports(p)}
    assert offenders == {}


def test_the_reader_sees_every_form_of_import(tmp_path: Path) -> None:
    # The check above is only as good as this reader: each form an import of hub/api could take.
    pkg = ROOT / "hub" / "watch"
    sample = pkg / "__init__.py"
    assert "hub.api.peer" in _as_if(sample, tmp_path, "from hub.api.peer import address_keys")
    assert "hub.api.access" in _as_if(sample, tmp_path, "from hub.api import access")
    assert "hub.api.rate" in _as_if(sample, tmp_path, "import hub.api.rate as r")
    assert "hub.api.rate" in _as_if(pkg / "core.py", tmp_path, "from ..api import rate")
    inside = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hub.api.throttle import Guard"
    assert "hub.api.throttle" in _as_if(sample, tmp_path, inside)


def _as_if(path: Path, tmp_path: Path, source: str) -> set[str]:
    """The imports `source` would have if it were the file at `path` (written under tmp_path)."""
    copy = tmp_path / path.relative_to(ROOT)
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text(source, encoding="utf-8")
    return imported_modules(copy, tmp_path)
