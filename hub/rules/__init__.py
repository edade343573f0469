"""The pure rules engine: no I/O, no asyncio, no clock reads.

The contract the rest of the hub uses (and nothing else from this package):

- ``validate_setup(body: Mapping, *, match_id, tournament_id, table_id) -> MatchSetup``
  checks a ``POST /api/matches`` body (discipline, players, format, options) and fills the
  defaults; raises ``SetupError(message)`` on bad input (the API answers 422).
- ``initial(setup) -> MatchState``: the match before any event (status ``scheduled``, version 0).
- ``decide(state, command: Mapping, *, server=False) -> tuple[str, dict]``: validate a command
  (the ``command`` object of an envelope) against the current state; return the event
  ``(kind, data)`` to store, or raise ``Reject(code, message)``.  Server-made kinds
  (``clock_expired``, ``match_time_expired``, ``link_lost``, ``link_restored``) are only accepted
  with ``server=True``.
  For ``undo`` the returned data is ``{"target": V}``: the store must mark event V voided in
  the same transaction as it appends the undo event; the new state is then
  ``fold(setup, events)`` over the whole stream. A turn command whose ``entered_at`` precedes the
  ``clock_expired`` that ended that turn (and follows the turn's start) is judged as if the expiry
  had not happened; its data then carries ``"voids": V`` (the expiry), which the store voids the
  same way. A turn command (``shot``, ``foul``, ``extension``, ``concede``, ``decision``) that
  names no player is taken for the player at the table.
  Server-made ``link_lost`` (``since``: ms the table's tablets were last heard) and
  ``link_restored`` pause and resume the shot clock; they are never undone and leave ``last``.
- ``evolve(state, event: Event) -> MatchState``: the state after one more stored event (not an undo).
- ``fold(setup, events: Iterable[Event]) -> MatchState``: voided events and ``undo`` events
  advance the version but change nothing else.  Deterministic.
- ``projection(state) -> dict``: the PROTOCOL.md section 4 JSON object, with ``last.note_codes``
  (the notes as codes with arguments, ``notes.py``) beside ``last.notes`` (the same in English).
- ``short_projection(state) -> dict``: the short form of PROTOCOL.md section 5.

Time only enters through ``Event.at`` (server ms); the shot/match clock deadlines in the
projection are computed from those.
"""

from hub.rules.engine import decide, evolve, fold, initial, projection, short_projection
from hub.rules.events import Event, Reject, SetupError
from hub.rules.setup import MatchSetup, validate_setup
from hub.rules.state import MatchState

__all__ = [
    "Event",
    "MatchSetup",
    "MatchState",
    "Reject",
    "SetupError",
    "decide",
    "evolve",
    "fold",
    "initial",
    "projection",
    "short_projection",
    "validate_setup",
]
