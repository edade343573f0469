"""Watch tests: `watch_helpers` importable by name (tests/ itself is on sys.path via tests/conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
