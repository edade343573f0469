"""What listens to a match's stored changes (`MatchWriter.subscribe`): the one list.

Each listener attaches when its part starts (a listener must attach at a precise moment of its own
start: the clocks before they re-arm the live matches, so no change falls between), but only under
a role named here, and the writer calls the roles in this order whatever the order they attached
in. A new listener is a new line here; tests/matches/test_match_listeners.py asserts that a hub
running with everything on has every role attached, each heard once per stored change.
"""

from __future__ import annotations

MATCH_LISTENERS: tuple[str, ...] = (
    "listings",  # hub/matches/listings.py: the short listings of each tournament's matches
    "presence",  # hub/matches/presence.py: which tablet is at which match (the clocks ask it)
    "clocks",  # hub/matches/clocks.py: shot and time-out clocks re-armed, expiries stored
    "flow",  # hub/tournaments/flow.py: a finished match advances its draw, calls the next
    "webhooks",  # hub/webhooks/sources.py: match.called, match.started, match.finished
    "people",  # hub/people/keeper.py: people's histories (off with HUB_PEOPLE_KEEPER=0)
    "ratings",  # hub/ratings/keeper.py: ratings refitted (off with HUB_PEOPLE_KEEPER=0)
    "watch",  # hub/watch/core.py: the watch socket's match:, table: and tournament: feeds
    "tournament_list",  # hub/tournaments/summary.py: GET /api/tournaments (made at its first call)
    "table_socket",  # hub/api/table_socket.py: each open tablet socket (one per socket)
)
