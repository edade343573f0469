"""hub.rules and hub.draws provide what their Protocols (MatchRules, DrawRules) promise the hub: every
attribute, and every function with the Protocol's parameters (names, kinds, defaults)."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest

import hub.draws
import hub.rules
from hub.draws.interface import DrawRules
from hub.rules.interface import MatchRules


def _mismatches(module: ModuleType, protocol: type) -> list[str]:
    out = []
    for name in protocol.__annotations__:
        if not isinstance(getattr(module, name, None), type):
            out.append(f"{name}: not a class")
    for name, member in vars(protocol).items():
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        impl = getattr(module, name, None)
        if not callable(impl):
            out.append(f"{name}: missing")
            continue
        want = [(p.name, p.kind, p.default) for p in list(inspect.signature(member).parameters.values())[1:]]
        got = [(p.name, p.kind, p.default) for p in inspect.signature(impl).parameters.values()]
        if want != got:
            out.append(f"{name}: {got} != {want}")
    return out


@pytest.mark.parametrize(("module", "protocol"), [(hub.rules, MatchRules), (hub.draws, DrawRules)])
def test_the_pure_cores_match_their_protocols(module: ModuleType, protocol: type) -> None:
    assert len([n for n in vars(protocol) if not n.startswith("_")]) >= 7  # the check has something to check
    assert _mismatches(module, protocol) == []
