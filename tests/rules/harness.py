"""A tiny driver for rules tests: commands in, projection out, no store (pure engine)."""

from __future__ import annotations

from typing import Any

from hub.rules import Event, Reject, decide, fold, initial, projection, validate_setup
from hub.rules.engine import evolve


class Match:
    """Applies commands the way the hub's writer does: decide, store (a list), evolve."""

    def __init__(self, discipline: str, players: list[dict[str, Any]] | None = None, fmt: dict | None = None,
                 options: dict | None = None, t0: int = 1_000_000, doubles: bool = False) -> None:
        if players is None:
            players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
            if discipline == "chase_nine":
                players.append({"id": "c", "name": "C"})
        if fmt is None:
            fmt = {"racks": 5} if discipline in ("golden_nine", "chase_nine") else {"race_to": 5}
            if discipline == "other":
                fmt["game"] = "snooker"
        body = {"discipline": discipline, "players": players, "format": fmt, "options": options or {}}
        if doubles:
            body["doubles"] = True
        self.setup = validate_setup(body, match_id="m1", tournament_id="t1", table_id="tb1")
        self.state = initial(self.setup)
        self.events: list[Event] = []
        self.now = t0

    def send(self, command: dict[str, Any], *, at: int | None = None, server: bool = False) -> dict[str, Any]:
        kind, data = decide(self.state, command, server=server)
        self.now = at if at is not None else self.now + 1000
        ev = Event(len(self.events) + 1, kind, data, self.now, None, False)
        # An undo voids its target; a stroke entered before the shot clock ran out voids the expiry.
        target = data["target"] if kind == "undo" else data.get("voids")
        if target is not None:
            self.events = [
                Event(e.version, e.kind, e.data, e.at, e.command_id, True) if e.version == target else e
                for e in self.events
            ]
            self.events.append(ev)
            self.state = fold(self.setup, self.events)
        else:
            self.events.append(ev)
            self.state = evolve(self.state, ev)
        return self.proj

    def reject(self, command: dict[str, Any], **kw: Any) -> str:
        before = self.proj
        try:
            self.send(command, **kw)
        except Reject as r:
            assert self.proj == before
            return r.code
        raise AssertionError(f"{command} was accepted")

    def shot(self, player: str, first: int | None, pocketed: list[int] | None = None, *, at: int | None = None,
             **kw: Any) -> dict[str, Any]:
        return self.send(
            {"kind": "shot", "player": player, "first_contact": first, "pocketed": pocketed or [], **kw}, at=at
        )

    @property
    def proj(self) -> dict[str, Any]:
        return projection(self.state)

    def p(self, pid: str) -> dict[str, Any]:
        return next(p for p in self.proj["players"] if p["id"] == pid)


def subset_match(expected: Any, actual: Any, path: str = "", key: str = "") -> None:
    """The scenario README's subset matching (multisets for on_table, options, fouls)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for k, v in expected.items():
            assert k in actual, f"{path}.{k} missing"
            subset_match(v, actual[k], f"{path}.{k}", k)
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: {actual!r} != {expected!r}"
        if key in ("on_table", "options", "fouls"):
            assert sorted(map(repr, actual)) == sorted(map(repr, expected)), f"{path}: {actual!r} != {expected!r}"
        else:
            for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
                subset_match(e, a, f"{path}[{i}]")
    else:
        assert type(expected) is type(actual) or (
            isinstance(expected, (int, float))
            and isinstance(actual, (int, float))
            and not isinstance(actual, bool)
            and not isinstance(expected, bool)
        ), f"{path}: {actual!r} != {expected!r}"
        assert expected == actual, f"{path}: {actual!r} != {expected!r}"
