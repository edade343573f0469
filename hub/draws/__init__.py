"""The pure draw logic of a tournament: players, the draw, the queue of matches.

No I/O, no asyncio, no clock reads, deterministic: a tournament's stored events fold into a
``TournamentState`` of facts, and everything shown about the draw is derived from those facts
(once per state, cached).  PROTOCOL.md section 7 fixes the names; this docstring and the
modules' own (``draw_formats``, ``brackets``, ``round_robin``, ``chase``, ``derive``, ``dispatch``,
``player_commands``, ``draw_commands``) are the documentation of what it leaves open.

Interface (nothing else is for the rest of the hub):

- ``initial(tournament_id)``; ``decide(state, command) -> (kind, data)`` or ``DrawReject``;
  ``evolve(state, event)``; ``fold(tournament_id, events)``; ``projection(state)``.
- ``dispatch(state, [(table_id, free)]) -> [(key, table_id)]``; ``match_body(state, key)``;
  ``key_of_match(state, match_id)``; ``calls(state)``; ``stale_calls(state)``;
  ``downstream(state, key)``; ``affected_calls(state, kind, data, besides=key)``;
  ``forms_rounds_again(state)``.
- ``draw_formats``: the formats by name (``format_of``; ``catalogue()`` is ``GET /api/draw-formats``).

Commands and the events they make
---------------------------------

| command kind | fields | event kind {data} |
| --- | --- | --- |
| add_players | players [{name, club?, seed?, handicap?, person?}] | players_added {players: [{id, name, club, ...}]}|
| update_player | player, changes {name?, club?, seed?, handicap?, person?} | player_updated {player, changes} |
| withdraw | player | player_withdrawn {player} |
| remove_player | player (before the draw only: else 409 draw_made) | player_removed {player, name} |
| make_draw | type, seeding?, seed, match, groups?, rounds?, redraw?, then? | draw_made {the same, entrants} |
| walkover | key, winner | walkover {key, winner} |
| call | key, match_id, table_id | match_called {key, match_id, table_id, players} |
| uncall | key | match_uncalled {key, match_id} |
| move_call | key, table_id | call_moved {key, match_id, table_id} |
| order_queue | keys | queue_ordered {keys} |
| take_result | key, match_id, winner, scores, ranking?, entered?, match_version?, withdrawn? | result_taken {same} |
| void_result | key, match_id | result_voided {key, match_id} |
| pause_table / resume_table | table_id | table_paused / table_resumed {table_id} |
| reinstate | player | player_reinstated {player} |
| void_walkover | key | walkover_voided {key} |
| archive / unarchive | | tournament_archived / tournament_unarchived {} |
| (none: written by the upgrade to people) | | players_linked {links: {pid: person}, created: [pid]} |

``person`` (PROTOCOL.md section 12) is carried, never judged: the I/O layer links the players an
event adds (hub/people/linking.py) and the stored ``players_added`` has ``person`` and ``link`` on each;
``Player.person`` and the projection's ``players[].person`` follow the stream.

Corrections (``reinstate``, ``void_walkover``, a ``take_result`` that replaces a finished key's
result, ``void_result`` with ``requeue``) are described in ``corrections``; ``affected_calls``
lists the called matches a correction would change (the I/O layer checks they have not started).

- ``add_players``: 1 to 512 players a call.
- ``draw_made`` stores ``match``, ``groups``, ``rounds``, ``redraw``, ``entrants`` and, with a next
  stage, ``then`` ({type, advance, seeding, match}); ``match`` may carry ``by_round`` (``race_lengths``).
- ``make_draw``: ``seed`` a whole number 0..2**63-1 (the API picks one when the client gives
  none); ``seeding`` ``random`` (default) or ``seeded`` (see ``draw_commands``); the
  ``entrants`` (active players in seeding order) are stored, so a replay never runs the random
  generator.  ``groups`` (round_robin, 1..26, default 1, two players a group at least),
  ``rounds`` (chase_groups, 1..50, default 3).  ``redraw: true`` replaces a draw (its calls,
  results, queue order) while no result or walkover is recorded; the I/O layer cancels the old
  draw's scheduled matches (``calls`` of the state before) and refuses a redraw while one is live.
- ``call`` is what the I/O layer stores after creating a match for a key ``dispatch`` gave it.
  ``uncall`` takes a called key back (its scheduled match cancelled): the key is ``ready``
  again at the END of the queue (or a walkover, if a player has withdrawn meanwhile).
  ``move_call`` follows a scheduled match moved to another table (``PATCH /api/matches``).
- ``order_queue``: the given ready keys first, in that order, then the rest in the natural
  order; it replaces the previous explicit order (``keys: []`` clears it).
- ``take_result``: from the match that finished: ``winner`` (null only for a three-player match
  whose top score is shared), ``scores`` {pid: the match ``score``} for exactly its players,
  ``ranking`` optional (its players, highest first), ``entered`` (a score entered by hand: the
  draw match shows ``entered: true``), ``withdrawn`` (the match's players who withdrew from the
  event while it was played: it was forfeited; the draw match shows ``withdrawn: [ids]``),
  ``match_version`` (the match's stream version the result was read at: the I/O layer takes the
  result again when the match has moved on since).
  ``void_result``: the finished match was reopened by an undo: the key is ``called`` again on
  its table; refused while a key downstream of it is called, finished or given an explicit
  walkover (``downstream_started``), or while its table or one of its players is in another
  called match (``table_busy``, ``player_busy``): the I/O layer should refuse such an undo (its
  reopen guard).
- A withdrawn player comes back with ``reinstate``; after the draw only name, club and handicap
  change; players added after the draw are late entries (``player_commands``).
- Events of other kinds in the stream (the I/O layer's own) only advance the version.
- ``move_call`` / ``call_moved`` is an addition to the brief's list: without it a scheduled
  match moved by ``PATCH /api/matches`` would still show its old table in the draw.

Reject codes (``DrawReject.status`` / ``.code``)
------------------------------------------------

- 422 ``bad_request``: a field missing, of the wrong type, out of range, unknown (named), an
  unknown command kind or draw type, a discipline that does not fit the draw type.
- 422 ``too_few_players``: fewer than 2 active players (3 for chase_groups), or fewer than two a
  group.  422 ``not_in_match``: the named player does not play that match.
- 404 ``unknown_player``, ``unknown_key``.
- 409 ``draw_made`` (players join before the draw; seeds cannot change after it),
  ``draw_exists``, ``draw_started``, ``no_draw``, ``draw_finished`` (withdrawing after the end),
  ``seed_taken`` (names the holder), ``withdrawn`` (already withdrawn), ``not_ready`` (a
  waiting match), ``already_decided`` (finished, walkover, bye), ``match_called`` (a walkover or
  call for a called key), ``not_called``,
  ``wrong_match`` (another match plays that key), ``match_taken`` (a match id already used),
  ``not_finished`` (void of a key without a result), ``downstream_started``,
  ``table_paused``, ``table_not_paused``, ``table_busy`` (a called key holds that table),
  ``player_busy`` (a player of the key is in another called match).

Keys, rounds, brackets: ``brackets`` (``W{r}-{i}``, ``L{r}-{i}``, ``GF``, ``GF2``; the drop order
of ``drop_order``), ``round_robin`` (``{A..Z}-{n}``; ranking in ``tie_breaks``), ``chase``
(``C{r}-{i}``), a knockout stage (``K{r}-{i}``, ``stages``; the seats of several groups' players:
``apart``).  Race lengths per round: ``race_lengths`` and ``rounds``; the checks of ``then`` and
``by_round``: ``stage_setup``.  Each match has ``stage`` (1, or 2 in the knockout); an empty slot
(a bye) is ``"bye"`` in ``players``, ``None`` a player not known yet.

Statuses of a draw match (``derive``): ``waiting`` (a player not known yet), ``ready`` (in the
queue), ``called`` (a match exists on a table: ``match_id``, ``table_id``), ``finished`` (a
result: ``winner``, ``scores``), ``walkover`` (explicit, or derived from a withdrawal), ``bye``
(an empty slot, never played).  A finished key keeps the ``match_id``/``table_id`` it was
played as.  Each match also carries ``bracket`` (``winners``, ``losers``, ``final``, ``group``,
``chase``), ``group`` (round robin only), ``winner_to``/``loser_to`` (the key the winner /
loser goes to, null when out or champion; null in round robin and chase).

Queue (``queue``): keys of the ``ready`` matches in call order: the explicit ``order_queue``
keys first, in their order; then by the version at which each became ready (its last source
resolved, an uncall counting as becoming ready again then); then structural order (winners
before losers bracket, round, index; round robin: round, group, index; chase: round, index).

The draw is ``finished`` when every match is resolved (finished, walkover or bye); then
``champion`` is: single elimination the final's winner; double elimination ``GF``'s winner
(``GF2``'s when the reset was played); round robin with one group and chase groups the
best-ranked player not withdrawn; round robin with several groups null (final standings); with a
next stage, the knockout's winner.
Player ``status``: ``withdrawn``; ``champion``; ``eliminated`` (single elimination: lost once;
double: lost twice; round robin with one group and chase: every other player once the draw is
finished); ``qualified`` (a finished round robin of several groups with no next stage: each group's
winner, the others ``eliminated``); else ``active``.  Two stages: see ``stages``.
Standings and their tie-breaks: ``round_robin``, ``chase``.

Projection (the I/O layer adds ``id``, ``name``, ``tables``)::

    {"players": [{"id", "name", "club", "seed", "handicap", "status", "person"}],
     "draw": null | {"type", "status", "champion", "seeding", "seed", "groups", "rounds",
                     "match", "entrants", "stages": [{"stage", "type", "status", "groups",
                     "advance", "seeding", "entrants", "advanced", "rounds"}],
                     "matches": [{"key", "round", "stage", "group"?, "bracket",
                     "players", "status", "match_id", "table_id", "winner", "winner_to",
                     "loser_to", "scores", "races"?}]},
     "queue": [keys], "standings": null | [...], "paused_tables": [...], "version": V}
"""

from hub.draws.corrections import affected_calls
from hub.draws.decide import decide
from hub.draws.dispatch import calls, dispatch, downstream, key_of_match, match_body, stale_calls
from hub.draws.draw_formats import forms_rounds_again
from hub.draws.events import DrawReject, TournamentEvent
from hub.draws.evolve import evolve, fold, initial
from hub.draws.projection import count_entries, projection
from hub.draws.state import TournamentState

__all__ = [
    "DrawReject",
    "TournamentEvent",
    "TournamentState",
    "affected_calls",
    "calls",
    "count_entries",
    "decide",
    "dispatch",
    "downstream",
    "evolve",
    "fold",
    "forms_rounds_again",
    "initial",
    "key_of_match",
    "match_body",
    "projection",
    "stale_calls",
]
