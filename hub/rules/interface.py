"""What the hub asks of a rules engine, as a `typing.Protocol`: `hub.rules` (a module) is one,
matched structurally; the tests pass a small fake. The match writer, its cache, the listings and
the watch side take a `MatchRules`, so mypy and an editor follow `self._rules.fold` to here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from hub.rules import events
from hub.rules.setup import MatchSetup
from hub.rules.state import MatchState


class MatchRules(Protocol):
    """The contract of hub/rules/__init__.py's docstring: setup, decide, evolve / fold, projections."""

    Event: type[events.Event]
    Reject: type[events.Reject]
    SetupError: type[events.SetupError]

    def validate_setup(self, body: Mapping[str, Any], *, match_id: str, tournament_id: str,
                       table_id: str) -> MatchSetup: ...

    def initial(self, setup: MatchSetup) -> MatchState: ...

    def decide(self, st: MatchState, command: Mapping[str, Any], *,
               server: bool = False) -> tuple[str, dict[str, Any]]: ...

    def evolve(self, st: MatchState, event: events.Event) -> MatchState: ...

    def fold(self, setup: MatchSetup, events: Iterable[events.Event]) -> MatchState: ...

    def projection(self, st: MatchState) -> dict[str, Any]: ...

    def short_projection(self, st: MatchState) -> dict[str, Any]: ...
