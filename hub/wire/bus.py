"""The bus payload between hub processes: what one stored change looks like on the wire.

    header JSON \\n projection JSON \\n event JSON

The projection and event are serialised once, in the process that stored the change, and
spliced into each channel's message by every process that receives it. The header's `k` says
what changed: absent (or "match") a match (`m`, `t`, `tb`, `v`; `from` when it moved tables),
"tour" the tournament's own stream (`t`, `v`: players, draw, queue, standings, paused tables; the
projection part is what changed in the draw's pure projection since version `v - 1` when `d` is
true (hub/tournaments/delta.py: a few hundred bytes however big the draw), else the whole pure
projection), "table" a table's current match went away (`t`,
`tb`, `m`: a scheduled match cancelled). A receiver ignores kinds it does not know.
"""

from __future__ import annotations

import json
from typing import Any

from hub.matches.writer import Change, TableNotice
from hub.tournaments.writer import TournamentChange
from hub.watch.history import dumps, short_form


def encode_change(change: Change) -> bytes:
    event = change.event
    header = {
        "m": change.match_id, "t": change.tournament_id, "tb": change.table_id, "v": change.version,
        "new": event is None, "undo": bool(event and event.get("kind") == "undo"),
        "at": event.get("at") if event else None,  # stored at (ms): the fan-out latency metric
        "short": short_form(change.projection),
    }
    if change.moved_from is not None:
        header["from"] = change.moved_from
    return "\n".join((dumps(header), dumps(change.projection), dumps(event))).encode("utf-8")


def encode_tournament(change: TournamentChange) -> bytes:
    header = {"k": "tour", "t": change.tournament_id, "v": change.version, "at": change.event.get("at"),
              "d": change.delta is not None}
    data = change.projection if change.delta is None else change.delta
    return "\n".join((dumps(header), dumps(data), dumps(change.event))).encode("utf-8")


def encode_table_notice(notice: TableNotice) -> bytes:
    header = {"k": "table", "t": notice.tournament_id, "tb": notice.table_id, "m": notice.match_id}
    return "\n".join((dumps(header), "null", "null")).encode("utf-8")


def decode(payload: bytes) -> tuple[dict[str, Any], str, str]:
    """(header, projection JSON, event JSON); raises ValueError on a malformed payload."""
    head_s, data, event = payload.decode("utf-8").split("\n", 2)
    head = json.loads(head_s)
    if not isinstance(head, dict):
        raise ValueError("bus payload header is not an object")
    return head, data, event
