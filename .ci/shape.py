"""Shape check for hub/: no module over 450 lines, no class over 20 methods, no function over 80 lines.

Prints one line per violation and exits 1 if there is any (the check gate calls it):
`python .ci/shape.py [package dir, default hub/]`. Methods are the functions defined in a class's
own body; a function's length runs from its `def` (decorators not counted) to its last line.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MAX_MODULE_LINES = 450
MAX_CLASS_METHODS = 20
MAX_FUNCTION_LINES = 80


def violations(root: Path) -> list[str]:
    found: list[str] = []
    for file in sorted(root.rglob("*.py")):
        text = file.read_text(encoding="utf-8")
        path = file.relative_to(root.parent) if file.is_relative_to(root.parent) else file
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{path}: module has {lines} lines (> {MAX_MODULE_LINES})")
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.ClassDef):
                methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                if len(methods) > MAX_CLASS_METHODS:
                    found.append(f"{path}:{node.lineno}: class {node.name} has {len(methods)} methods"
                                 f" (> {MAX_CLASS_METHODS})")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{path}:{node.lineno}: function {node.name} has {length} lines"
                                 f" (> {MAX_FUNCTION_LINES})")
    return found


def main() -> int:
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "hub"
    found = violations(root)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
