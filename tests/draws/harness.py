"""Helpers for the draw tests: a recorded stream of accepted commands, and random play."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hub.draws import (
    DrawReject,
    TournamentEvent,
    TournamentState,
    calls,
    decide,
    dispatch,
    evolve,
    initial,
    projection,
    stale_calls,
)

TEMPLATES = {
    "golden_nine": {"discipline": "golden_nine", "format": {"racks": 5}, "options": {}},
    "wpa_nine": {"discipline": "wpa_nine", "format": {"race_to": 5}, "options": {}},
    "chase_nine": {"discipline": "chase_nine", "format": {"racks": 4}, "options": {}},
}


@dataclass
class Stream:
    """A tournament driven through decide/evolve, keeping every stored event."""

    state: TournamentState = field(default_factory=lambda: initial("t1"))
    events: list[TournamentEvent] = field(default_factory=list)

    def do(self, command: Mapping[str, Any]) -> TournamentEvent:
        kind, data = decide(self.state, command)
        event = TournamentEvent(len(self.events) + 1, kind, data, 1000 * (len(self.events) + 1))
        self.events.append(event)
        self.state = evolve(self.state, event)
        return event

    def reject(self, command: Mapping[str, Any]) -> DrawReject:
        before = projection(self.state)
        try:
            decide(self.state, command)
        except DrawReject as r:
            assert projection(self.state) == before
            return r
        raise AssertionError(f"accepted: {command}")

    @property
    def view(self) -> dict[str, Any]:
        return projection(self.state)

    def match(self, key: str) -> dict[str, Any]:
        return next(m for m in self.view["draw"]["matches"] if m["key"] == key)

    def add(self, n: int, *, seeded: bool = False, **extra: Any) -> list[str]:
        players = [{"name": f"Player {i}", **({"seed": i} if seeded else {})} for i in range(1, n + 1)]
        event = self.do({"kind": "add_players", "players": players, **extra})
        return [p["id"] for p in event.data["players"]]

    def draw(self, kind: str, *, seeding: str = "seeded", seed: int = 1, **extra: Any) -> TournamentEvent:
        discipline = "chase_nine" if kind == "chase_groups" else "golden_nine"
        return self.do({"kind": "make_draw", "type": kind, "seeding": seeding, "seed": seed,
                        "match": TEMPLATES[discipline], **extra})

    def call(self, key: str, table: str = "tb1") -> TournamentEvent:
        return self.do({"kind": "call", "key": key, "match_id": f"m-{key}-{len(self.events)}", "table_id": table})

    def result(self, key: str, winner: str | None, scores: Mapping[str, int] | None = None) -> TournamentEvent:
        match_id, _ = calls(self.state)[key]
        players = self.state.calls[key].players
        if scores is None:
            scores = {p: (3 if p == winner else 1) for p in players}
        return self.do({"kind": "take_result", "key": key, "match_id": match_id, "winner": winner,
                        "scores": dict(scores)})

    def play(self, key: str, winner: str | None, scores: Mapping[str, int] | None = None) -> None:
        self.call(key)
        self.result(key, winner, scores)


def random_scores(players: Iterable[str], rnd: random.Random) -> tuple[str | None, dict[str, int]]:
    """A plausible result: two players (winner, scores) or a chase trio (net scores summing to 0)."""
    players = list(players)
    if len(players) == 2:
        winner = rnd.choice(players)
        return winner, {p: (rnd.randint(5, 9) if p == winner else rnd.randint(0, 4)) for p in players}
    a, b = rnd.randint(-20, 20), rnd.randint(-20, 20)
    scores = dict(zip(players, (a, b, -a - b), strict=True))
    top = max(scores.values())
    leaders = [p for p, s in scores.items() if s == top]
    return (leaders[0] if len(leaders) == 1 else None), scores


def check_invariants(stream: Stream) -> None:
    """Nobody is in two called matches; no table holds two called matches; no call is stale."""
    open_calls = stream.state.open_calls.values()
    players = [p for c in open_calls for p in c.players]
    assert len(players) == len(set(players)), players
    tables = [c.table_id for c in open_calls]
    assert len(tables) == len(set(tables)), tables
    assert stale_calls(stream.state) == []


def drive(stream: Stream, rnd: random.Random, tables: list[str], *, extra: bool = True, limit: int = 20000) -> None:
    """Play the draw to its end with dispatch + take_result, with random interruptions when
    ``extra``: withdrawals, walkovers, uncalls, voided results, paused tables."""
    steps = 0
    while not stream.state.derived.finished:
        steps += 1
        assert steps < limit, "the draw does not end"
        check_invariants(stream)
        st = stream.state
        paused = set(st.paused_tables)
        free = [(t, not any(c.table_id == t for c in st.open_calls.values())) for t in tables]
        for key, table in dispatch(st, free):
            assert table not in paused
            stream.call(key, table)
        open_calls = calls(stream.state)
        if extra:
            roll = rnd.random()
            if roll < 0.03:
                active = [p.id for p in stream.state.players if not p.withdrawn]
                if active:
                    stream.do({"kind": "withdraw", "player": rnd.choice(active)})
                continue
            if roll < 0.06 and open_calls:
                stream.do({"kind": "uncall", "key": rnd.choice(sorted(open_calls))})
                continue
            if roll < 0.09:
                ready = list(stream.state.derived.queue)
                if ready:
                    key = rnd.choice(ready)
                    players = [p for p in stream.state.derived.by_key[key].known_players]
                    stream.do({"kind": "walkover", "key": key, "winner": rnd.choice(players)})
                continue
            if roll < 0.12:
                finished = [m for m in stream.state.derived.matches if m.status == "finished"]
                if finished:
                    m = rnd.choice(finished)
                    try:
                        stream.do({"kind": "void_result", "key": m.key, "match_id": m.match_id})
                    except DrawReject as r:
                        assert r.code in ("downstream_started", "table_busy", "player_busy")
                continue
            if roll < 0.14:
                table = rnd.choice(tables)
                kind = "resume_table" if table in stream.state.paused_tables else "pause_table"
                stream.do({"kind": kind, "table_id": table})
                continue
        if not open_calls:
            if stream.state.paused_tables and not stream.state.derived.finished:
                stream.do({"kind": "resume_table", "table_id": stream.state.paused_tables[0]})
            continue
        key = rnd.choice(sorted(open_calls))
        winner, scores = random_scores(stream.state.calls[key].players, rnd)
        stream.result(key, winner, scores)
