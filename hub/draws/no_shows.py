"""No-shows on the day (PROTOCOL.md section 16): a called match not started within the tournament's
``no_show_minutes`` of its call is flagged on the desk, which may give a walkover, requeue it, or wait.

Pure, as the rest of the package: the facts are the call's stored time (``Call.at``, the ``at`` of
its ``match_called``), the setting and the desk's waits, all from stored events; whether a match has
*started* and what time it is now are the I/O layer's (``flagged`` takes both as arguments). So a
flag needs nothing kept in memory: a restarted hub flags the same matches at the same moments.

| command kind | fields | event kind {data} |
| --- | --- | --- |
| set_no_show_minutes | minutes (a number > 0, at most 1440; fractions allowed) | no_show_minutes_set {minutes} |
| wait_no_show | key (called match or rubber), minutes? (default 5, > 0, at most 120) | no_show_waited {key, minutes} |

A wait runs from the moment it is stored: the flag comes back ``minutes`` after it (or at the
deadline of the setting, whichever is later). A new call of the key forgets its wait.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from hub.draws.events import DrawReject, bad, conflict
from hub.draws.teams import rubber_at

if TYPE_CHECKING:
    from hub.draws.state import TournamentState

DEFAULT_MINUTES = 10.0
MAX_MINUTES = 24 * 60.0
WAIT_MINUTES = 5.0
MAX_WAIT_MINUTES = 120.0
MINUTE_MS = 60_000


def _minutes(value: Any, name: str, most: float) -> float:
    # bool is an int in Python: true is not a number of minutes
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value > most:
        raise bad(f"{name} must be a number of minutes above 0 and at most {most:g}")
    return float(value)


def set_no_show_minutes(state: TournamentState, command: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    return "no_show_minutes_set", {"minutes": _minutes(command.get("minutes"), "no_show_minutes", MAX_MINUTES)}


def wait_no_show(state: TournamentState, command: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    key = command.get("key")
    if not isinstance(key, str):
        raise bad("key must be a draw match's key")
    minutes = _minutes(command.get("minutes", WAIT_MINUTES), "minutes", MAX_WAIT_MINUTES)
    if key not in state.open_calls and key not in state.open_rubbers:  # a rubber's key (W1-1/2) too
        if "/" in key:
            rubber_at(state, key)  # 404 unknown_key for no such rubber
            raise conflict("not_called", f"rubber {key} is not on a table")
        if state.draw is None or key not in {m.key for m in state.derived.matches}:
            raise DrawReject(404, "unknown_key", f"no draw match {key!r}")
        raise conflict("not_called", f"{key} is not on a table")
    return "no_show_waited", {"key": key, "minutes": minutes}


def no_show_at(state: TournamentState, key: str) -> int | None:
    """When the called match of `key` (a draw key, or a rubber's ``W1-1/2``) is flagged if it has not
    started (server ms), or None when the key is not called. Calls stored before calls had a time
    (``at`` 0) are never flagged."""
    call = state.open_calls.get(key) or state.open_rubbers.get(key)
    if call is None or not call.at:
        return None
    due = call.at + round(state.no_show_minutes * MINUTE_MS)
    return max(due, state.no_show_waits.get(key, 0))


def flagged(state: TournamentState, started: Iterable[str], now: int) -> list[dict[str, Any]]:
    """The called matches past their no-show time whose match has not started (`started`: match
    ids that have), oldest call first: {key, match_id, table_id, players, called_at, no_show_at, since_ms}.
    A called rubber of a team match is one of them, its key the rubber's (``W1-1/2``)."""
    begun = set(started)
    out: list[dict[str, Any]] = []
    for key, call in {**state.open_calls, **state.open_rubbers}.items():
        due = no_show_at(state, key)
        if due is None or due > now or call.match_id in begun:
            continue
        out.append({"key": key, "match_id": call.match_id, "table_id": call.table_id, "players": list(call.players),
                    "called_at": call.at, "no_show_at": due, "since_ms": now - call.at})
    out.sort(key=lambda f: f["called_at"])
    return out


def _minutes_set(work: Any, data: dict[str, Any], version: int) -> None:
    work.set("no_show_minutes", float(data["minutes"]))


def _waited(work: Any, data: dict[str, Any], version: int) -> None:
    work.mut("no_show_waits")[data["key"]] = work.at + round(float(data["minutes"]) * MINUTE_MS)


APPLY = {"no_show_minutes_set": _minutes_set, "no_show_waited": _waited}
HANDLERS = {"set_no_show_minutes": set_no_show_minutes, "wait_no_show": wait_no_show}
