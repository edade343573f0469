"""A test client of `tournament:{tid}`: keeps the whole projection from a snapshot and the updates'
deltas, written from docs/tournament-channel.md alone (not the hub's own hub/tournaments/delta.py),
so a test comparing it with the hub's snapshot checks the format, not the code against itself."""

from __future__ import annotations

import copy
from typing import Any

LISTS = {"tables": "id", "players": "id"}


def _upsert(entries: list[Any], changed: list[Any], ident: str) -> list[Any]:
    out = list(entries)
    for entry in changed:
        at = next((i for i, e in enumerate(out) if e.get(ident) == entry.get(ident)), None)
        if at is None:
            out.append(entry)
        else:
            out[at] = entry
    return out


def apply_delta(proj: dict[str, Any], data: dict[str, Any], version: int) -> dict[str, Any]:
    out = copy.deepcopy(proj)
    for name, value in data.get("set", {}).items():
        out[name] = copy.deepcopy(value)
    for name in data.get("unset", []):
        out.pop(name, None)
    for name, ident in LISTS.items():
        if name in data:
            out[name] = _upsert(out.get(name) or [], copy.deepcopy(data[name]), ident)
    if "draw" in data:
        out["draw"].update(copy.deepcopy(data["draw"]))
    if "matches" in data:
        out["draw"]["matches"] = _upsert(out["draw"]["matches"], copy.deepcopy(data["matches"]), "key")
    out["version"] = version
    return out


class TournamentView:
    """Feed it every message of the channel (`take`); `proj` is the projection now, `gaps` counts
    updates whose `base` was not the version held (the client would subscribe again)."""

    def __init__(self) -> None:
        self.proj: dict[str, Any] | None = None
        self.gaps = 0
        self.updates = 0

    def take(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        if msg.get("type") == "snapshot":
            self.proj = msg["data"]
            return self.proj
        if msg.get("type") != "update":
            return self.proj
        assert "base" in msg, msg
        if self.proj is None or msg["base"] != self.proj["version"]:
            self.gaps += 1
            self.proj = None
            return None
        self.updates += 1
        self.proj = apply_delta(self.proj, msg["data"], msg["version"])
        return self.proj
