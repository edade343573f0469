"""Every public scenario of ../shared/scenarios, and every acceptance-style one of tests/scenarios/acceptance
(not acceptance/failing/), through the pure engine (no HTTP; tests/scenarios runs them over HTTP and the socket)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hub.rules import Reject
from tests.rules.harness import Match, subset_match

# HUB_SCENARIOS_DIR: where the public scenarios are (default ../shared/scenarios beside the checkout).
SCENARIOS = Path(os.environ.get("HUB_SCENARIOS_DIR") or Path(__file__).resolve().parents[3] / "shared" / "scenarios")
ACCEPTANCE = Path(__file__).resolve().parents[1] / "scenarios" / "acceptance"
FILES = sorted(SCENARIOS.glob("*.json")) + sorted(ACCEPTANCE.glob("*.json"))
IDS = [f"acceptance/{f.stem}" if f.parent == ACCEPTANCE else f.stem for f in FILES]


def test_scenarios_found() -> None:
    assert FILES, f"no scenarios under {SCENARIOS}"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_scenario(path: Path) -> None:
    sc = json.loads(path.read_text())
    m = Match(sc["discipline"], sc["players"], sc["format"], sc.get("options"))
    for i, step in enumerate(sc["steps"]):
        if "command" in step:
            if "reject" in step:
                assert m.reject(step["command"]) == step["reject"], f"step {i}"
            else:
                try:
                    m.send(step["command"])
                except Reject as r:  # pragma: no cover - shown on failure
                    pytest.fail(f"step {i}: {step['command']} rejected: {r}")
        if "expect" in step:
            subset_match(step["expect"], m.proj, f"step{i}")
    if "expect" in sc:
        subset_match(sc["expect"], m.proj, "end")
