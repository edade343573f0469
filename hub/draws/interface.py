"""What the hub asks of the draw logic, as a `typing.Protocol`: `hub.draws` (a module) is one,
matched structurally. The tournament writer, the flow, the projections and the watch side take a
`DrawRules`, so mypy and an editor follow `self._draws.fold` to here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from hub.draws import events
from hub.draws.state import TournamentState


class DrawRules(Protocol):
    """The contract of hub/draws/__init__.py's docstring: decide, evolve / fold, projection, dispatch."""

    DrawReject: type[events.DrawReject]
    TournamentEvent: type[events.TournamentEvent]

    def decide(self, state: TournamentState, command: Mapping[str, Any]) -> tuple[str, dict[str, Any]]: ...

    def initial(self, tournament_id: str) -> TournamentState: ...

    def evolve(self, state: TournamentState, event: events.TournamentEvent) -> TournamentState: ...

    def fold(self, tournament_id: str, events: Iterable[events.TournamentEvent]) -> TournamentState: ...

    def projection(self, state: TournamentState) -> dict[str, Any]: ...

    def dispatch(self, state: TournamentState, tables: Sequence[tuple[str, bool]]) -> list[tuple[str, str]]: ...

    def match_body(self, state: TournamentState, key: str) -> dict[str, Any]: ...

    def key_of_match(self, state: TournamentState, match_id: str) -> str | None: ...

    def calls(self, state: TournamentState) -> dict[str, tuple[str, str]]: ...

    def stale_calls(self, state: TournamentState) -> list[str]: ...

    def downstream(self, state: TournamentState, key: str) -> list[str]: ...

    def affected_calls(self, state: TournamentState, kind: str, data: Mapping[str, Any],
                       besides: str | None = None) -> list[tuple[str, str]]: ...

    def forms_rounds_again(self, state: TournamentState) -> bool: ...
