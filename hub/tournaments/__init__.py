"""The tournament engine around the pure draw logic (`hub/draws/`): PROTOCOL.md section 7.

    REST / dispatcher ──command──▶ TournamentWriter (one writer per tournament: lock + schema)
                                      │ decide(state, command) -> event | DrawReject     ← hub/draws (pure)
                                      │ append(event, version+1) [+ the match it calls, same transaction]
                                      │ state = evolve(state, event)
                                      ▼
                               TournamentChange listeners (the watch core → tournament:{tid})

    match writer Change (a draw match finished, reopened) ─┐
    table notice (a scheduled match cancelled)             ├─▶ TournamentFlow.kick(tid) ─▶ reconcile:
    tournament change, a new table, start-up, a sweep      ─┘   results in, stale calls out,
                                                               withdrawn players' matches, free tables fed

- `store.py`: the `tournament_events` stream (append with optimistic concurrency, read back).
- `writer.py`: `TournamentWriter`, serialising each tournament's commands.
- `flow.py`: `TournamentFlow`, the hub's side of the flow ("the flow is the hub's, not the organiser's").
- `projection.py`: the whole tournament projection (the pure part plus tables and their matches).
- `delta.py`: what changed between two tournament projections (`diff`) and how it is applied (`apply`):
  the `tournament:{tid}` channel's updates and the bus's tournament payloads carry these.
- `results.py`: placings, standings and every draw match for export (JSON, CSV).
- `summary.py`: the home page's line per tournament in `GET /api/tournaments` (live, next, champion).
"""
