"""Shape check (the check gate): sizes of the hub's modules, the tests' modules and the pages' JS modules.

- hub/: no module over 450 lines, no class over 20 methods, no function over 80 lines;
- tests/: no module over 750 lines, no class over 20 methods, no function over 250 lines (a browser
  test is one scenario told step by step: longer than a function of the hub, still one screen or four);
- clients/web/js/: no module over 450 lines (the language tables under js/strings/ over 400: the same
  limit tests/web/test_strings.py holds them to). Two modules older than the limit are held at the
  size they had when it came (JS_OVER_LIMIT): they may shrink, not grow; split one, then drop its line.

Prints one line per violation and exits 1 if there is any: `python .ci/shape.py` checks all three;
`python .ci/shape.py DIR` checks the Python modules under DIR with the hub's limits. Methods are the
functions defined in a class's own body; a function's length runs from its `def` (decorators not
counted) to its last line.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Limits:
    module_lines: int
    class_methods: int
    function_lines: int


HUB = Limits(module_lines=450, class_methods=20, function_lines=80)
TESTS = Limits(module_lines=750, class_methods=20, function_lines=250)
JS_MODULE_LINES = 450
JS_STRINGS_LINES = 400
# path (from the repo) -> the most lines it may have until it is split.
JS_OVER_LIMIT = {
    "clients/web/js/live.js": 522,
}


def _shown(file: Path, root: Path) -> Path:
    return file.relative_to(root.parent) if file.is_relative_to(root.parent) else file


def violations(root: Path, limits: Limits = HUB) -> list[str]:
    """The Python modules under `root` against `limits`."""
    found: list[str] = []
    for file in sorted(root.rglob("*.py")):
        text = file.read_text(encoding="utf-8")
        path = _shown(file, root)
        lines = len(text.splitlines())
        if lines > limits.module_lines:
            found.append(f"{path}: module has {lines} lines (> {limits.module_lines})")
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.ClassDef):
                methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                if len(methods) > limits.class_methods:
                    found.append(f"{path}:{node.lineno}: class {node.name} has {len(methods)} methods"
                                 f" (> {limits.class_methods})")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limits.function_lines:
                    found.append(f"{path}:{node.lineno}: function {node.name} has {length} lines"
                                 f" (> {limits.function_lines})")
    return found


def js_violations(root: Path, repo: Path = REPO) -> list[str]:
    """The JS modules under `root` (the pages' clients/web/js): lines per module."""
    found: list[str] = []
    for file in sorted(root.rglob("*.js")):
        key = file.relative_to(repo).as_posix() if file.is_relative_to(repo) else file.as_posix()
        limit = JS_STRINGS_LINES if "strings" in file.relative_to(root).parts else JS_MODULE_LINES
        limit = JS_OVER_LIMIT.get(key, limit)
        lines = len(file.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{key}: module has {lines} lines (> {limit})")
    return found


def main() -> int:
    if len(sys.argv) > 1:
        found = violations(Path(sys.argv[1]).resolve())
    else:
        found = [*violations(REPO / "hub"), *violations(REPO / "tests", TESTS),
                 *js_violations(REPO / "clients" / "web" / "js")]
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
