"""Every public scenario of ../shared/scenarios, and every tests/scenarios/acceptance/*.json (not
acceptance/failing/), through the pure engine (no HTTP). Which files, and why a clone without
../shared plays only the acceptance ones: tests/public_scenarios.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hub.rules import Reject
from tests.public_scenarios import ACCEPTANCE, FILES, IDS, PUBLIC
from tests.rules.harness import Match, subset_match


def test_scenarios_found() -> None:
    assert len(ACCEPTANCE) > 100 and FILES == PUBLIC + ACCEPTANCE


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
