"""The scenario files the tests play: the public ones (`../shared/scenarios/*.json` beside the checkout,
or `HUB_SCENARIOS_DIR`) and the acceptance ones (`tests/scenarios/acceptance/*.json`, not `failing/`).

A clone that is not beside `../shared` has no public scenarios: their cases are not collected there
(pytest's header says so and why), and the acceptance cases still run, so `make test-fast` passes.
CI requires them: with `CI` set (`.ci/run` sets it) and none found, tests/conftest.py stops the run
before any test, instead of leaving them out unseen (`.ci/run` checks for `../shared` first, too)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PUBLIC_DIR = Path(os.environ.get("HUB_SCENARIOS_DIR") or REPO.parent / "shared" / "scenarios")
ACCEPTANCE_DIR = REPO / "tests" / "scenarios" / "acceptance"
PUBLIC = sorted(PUBLIC_DIR.glob("*.json"))
ACCEPTANCE = sorted(ACCEPTANCE_DIR.glob("*.json"))
FILES = PUBLIC + ACCEPTANCE
IDS = [f"acceptance/{f.stem}" if f.parent == ACCEPTANCE_DIR else f.stem for f in FILES]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def header() -> str:
    """pytest's header line: where the public scenarios came from, or why there are none."""
    if PUBLIC:
        return f"public scenarios: {len(PUBLIC)} from {PUBLIC_DIR}"
    return (f"public scenarios: none collected: no *.json under {PUBLIC_DIR} (this checkout is not beside "
            f"../shared, and no HUB_SCENARIOS_DIR names another place). CI requires them; the "
            f"{len(ACCEPTANCE)} acceptance scenarios run")


def missing_in_ci() -> str | None:
    """Why the run must stop (CI without the public scenarios), or None."""
    if PUBLIC or not in_ci():
        return None
    return (f"CI is set but no public scenarios were found under {PUBLIC_DIR}: put the shared/ folder "
            f"beside the checkout (or set HUB_SCENARIOS_DIR) rather than run without them")
