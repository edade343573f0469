"""The gate's check that cited files exist (.ci/cited_files.py): what it takes for a file name."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location("cited_files", Path(__file__).parent.parent / ".ci" / "cited_files.py")
assert SPEC is not None and SPEC.loader is not None
cited_files = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(cited_files)


def test_it_takes_repository_paths_and_skips_the_rest() -> None:
    line = ("see hub/wire/table.py and docs/people.md, not ../shared/PROTOCOL.md, hub/rules/*.py, "
            "clients/web/js/strings/<lang>/x.js or myhub/x.py")
    assert cited_files.CITED.findall(line) == ["hub/wire/table.py", "docs/people.md"]


def test_the_repository_cites_no_missing_file() -> None:
    assert cited_files.missing() == []
