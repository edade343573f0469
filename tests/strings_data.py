"""The pages' language tables read as data, without a browser: clients/web/js/strings/<language>/<area>.js
(and js/strings/note-args.js, how the notes' arguments are shown).

Each file is an ES module holding only a plain object: `export default {...};` where the object is
JSON (double-quoted keys, one `"key": "text"` a line, no trailing comma) and whole-line `//` comments
may stand between the lines. js/i18n.js imports every area of both languages; the tests read the same
files here with `json` (a file that breaks the format fails to load, a key written twice too)."""

from __future__ import annotations

import json
from pathlib import Path

STRINGS_DIR = Path(__file__).resolve().parents[1] / "clients" / "web" / "js" / "strings"
LANGUAGES = ("en", "zh-CN")
PREFIX = "export default "


def areas(language: str = "en") -> list[str]:
    """The areas of one language's tables (file names without `.js`), sorted."""
    return sorted(p.stem for p in (STRINGS_DIR / language).glob("*.js"))


def _once(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"{key!r} is written twice")
        out[key] = value
    return out


def load(language: str, area: str) -> dict[str, str]:
    """One area's strings in one language: key -> text."""
    return load_file(STRINGS_DIR / language / f"{area}.js")


def load_file(path: Path) -> dict[str, str]:
    """One data file: its object (js/strings/note-args.js too, which is no language's)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    body = "\n".join(line for line in lines if not line.lstrip().startswith("//")).strip()
    if not (body.startswith(PREFIX + "{") and body.endswith("};")):
        raise ValueError(f"{path}: not `export default {{...}};` with JSON inside")
    table = json.loads(body[len(PREFIX):-1], object_pairs_hook=_once)
    if not all(isinstance(v, str) for v in table.values()):
        raise ValueError(f"{path}: every value must be a string")
    return table  # type: ignore[return-value]


def table(language: str) -> dict[str, str]:
    """Every string of one language (the areas merged, as js/i18n.js does)."""
    out: dict[str, str] = {}
    for area in areas(language):
        out.update(load(language, area))
    return out
