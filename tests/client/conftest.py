"""Client tests: make ``cuehub_client`` importable from the checkout (until it is installed)."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CLIENT = _HERE.parents[1] / "clients" / "python"
for p in (str(_CLIENT), str(_HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)
