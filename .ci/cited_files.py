"""Every repository file a docstring or comment names exists: a moved module's old path left behind in a
docstring after a move sends the next reader nowhere.

Scans the Python files of hub/, clients/python/, tests/, bench/ and .ci/ and the JS of
clients/web/js for paths that start with one of the repository's top-level directories
(`hub/...`, `docs/...`, ...) and end in a file suffix, and fails listing those that do not exist.
A glob (`*`) or a placeholder (`<...>`, `{...}`) is not a file name and is skipped.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("hub", "clients", "tests", "bench", "docs", "deploy", "migrations", ".ci")
SUFFIXES = ("py", "md", "js", "css", "html", "json", "toml", "conf", "yml", "yaml", "sh", "c", "ini", "txt", "csv")
_TOP = "|".join(re.escape(t) for t in TOPS)
_SUFFIX = "|".join(SUFFIXES)
CITED = re.compile(rf"(?<![\w./-])((?:{_TOP})/[\w./-]*?\.(?:{_SUFFIX}))(?![\w/-])")
SCANNED = [("hub", "*.py"), ("clients/python", "*.py"), ("tests", "*.py"), ("bench", "*.py"), (".ci", "*.py"),
           ("clients/web/js", "*.js")]


def missing() -> list[str]:
    found = []
    for folder, pattern in SCANNED:
        for path in sorted((ROOT / folder).rglob(pattern)):
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                for cited in CITED.findall(line):
                    if not (ROOT / cited).exists():
                        found.append(f"{path.relative_to(ROOT)}:{number}: {cited}")
    return found


def main() -> int:
    found = missing()
    for line in found:
        print(f"cited file does not exist: {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
