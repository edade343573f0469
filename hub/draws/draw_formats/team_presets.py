"""Team events the desk sets up in a few steps (PROTOCOL.md section 15): data, served as
``GET /api/team-presets``. Each preset is what the draw step merges into its body: the draw ``type``,
a ``format`` laid over the discipline's (the race length), and the match's ``team`` (rubbers, to_win)
or ``doubles``. ``members``: how many members a team of it has at least and at most. A page shows a
preset by its ``name`` (``tm_preset_{name}`` in the language tables) and never branches on it.
"""

from __future__ import annotations

from typing import Any

# The Mosconi Cup's shape: doubles and singles rubbers, first team to 11 of up to 21, races to 5.
_MOSCONI_KINDS = ["doubles"] * 3 + ["singles"] * 3 + ["doubles"] * 3 + ["singles"] * 12

PRESETS: tuple[dict[str, Any], ...] = (
    {"name": "mosconi", "type": "single_elimination", "format": {"race_to": 5}, "members": {"min": 2, "max": 8},
     "team": {"rubbers": [{"kind": k} for k in _MOSCONI_KINDS], "to_win": 11}},
    {"name": "world_cup", "type": "single_elimination", "format": {"race_to": 7}, "members": {"min": 2, "max": 2},
     "doubles": True},
    {"name": "league", "type": "round_robin", "format": {"race_to": 3}, "members": {"min": 3, "max": 8},
     "team": {"rubbers": [{"kind": "singles"}] * 5, "to_win": 3}},
)


def catalogue() -> dict[str, Any]:
    return {"presets": [dict(p) for p in PRESETS]}
