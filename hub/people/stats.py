"""The statistics of one match, from its stored events (PROTOCOL.md section 12). Pure.

`match_tallies(rules, setup, events)` folds the match's stream with the rules engine, event by
event, and looks at each event with the match as it was before it and after it:
- voided events and `undo` events are skipped: an undone stroke never counts;
- a result entered by hand (`result_entered` as the match's end) counts as a match and, where the
  score counts racks (a discipline whose `score` trait is `racks`), its racks by the score;
  it gives no stroke statistics at all, not even of strokes played before it;
- `break_and_runs`, `table_runs`, `golden_breaks`, `loss_of_chance` and `fouls` are the rules
  engine's own counts (RULES.md "Settled details"), read from the final state;
- a break is a turn the match was in phase `break` for: a break stroke, or a foul (a `foul`
  command, a time foul) before it, which RULES.md counts as the break. `break_balls` the object
  balls pocketed by break strokes; `dry_breaks` breaks that pocketed none; `break_fouls` breaks
  with a foul;
- `fouls_by_code`: each code of each foul event (`last.fouls`), a stroke with two codes counting
  once under each; a stalemate takes back the codes of its rack, as the engine takes back its
  fouls (so `fouls` is the engine's count of foul events and the codes stay consistent with it);
- racks from the match's `racks`: played by every player of the match, won by the winner, on its
  own break (winner = breaker) or the opponent's;
- time per stroke: from the previous event to the stroke, each at the time the referee entered it
  (`entered_at` when the event carries it, else when it was stored), the time paused (`pause` or
  `timeout` to `resume`) left out; pauses, extensions, renames, moves and link events are not
  "the event before" (they fall inside a turn);
- `intent` (PROTOCOL.md section 12): `pot` strokes, and `pot_success` those that pocketed a ball
  with no foul and kept the turn (the shooter at the table after it, or the rack won by it);
  `safety` strokes, and `safety_success` those without a foul after which the other player's next
  turn (stroke or foul) was a foul or pocketed nothing (a rack that ends first: not a success);
  `kick` strokes.
Who played a stroke is `attribution.stroke_player` (the one place that decides it). In scotch doubles
each member's own turns (`attribution.stroke_member`) are tallied again under the member's person id
(`MatchStats.members`): strokes, breaks, time, intent and fouls by code of the turns they played, and
the side's racks and match; the engine's own counts stay the side's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hub.people import tally
from hub.people.attribution import stroke_member, stroke_player
from hub.rules.state import MatchState

NOT_IN_TURN = ("pause", "timeout", "resume", "extension", "link_lost", "link_restored", "player_renamed",
               "table_moved")
ENGINE_COUNTS = ("break_and_runs", "table_runs", "golden_breaks", "loss_of_chance", "fouls")


def scores_racks(state: MatchState) -> bool:
    """The match's score counts racks (its discipline's `score` trait), not points: a hand result's
    score then gives its racks."""
    return state.setup.traits.score == "racks"


@dataclass(slots=True)
class MatchStats:
    """What a match's events say: a tally per player id, the state they fold into, and when the
    last event that changed it was stored."""

    tallies: dict[str, tally.Tally]
    state: MatchState
    at: int
    entered: bool
    members: dict[str, tally.Tally] = field(default_factory=dict)  # doubles: person id -> the member's tally


@dataclass(slots=True)
class _Walk:
    players: tuple[str, ...]
    tallies: dict[str, tally.Tally]
    fouls_by_rack: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    since: int | None = None  # when the current turn's time started
    paused_at: int | None = None
    paused_ms: int = 0
    safety: tuple[str, int] | None = None  # (player, rack number) of a safety waiting for its answer
    side_of: dict[str, str] = field(default_factory=dict)  # doubles members' walk: person id -> side

    def count(self, pid: str | None, key: str, n: int = 1) -> None:
        if pid in self.tallies:
            self.tallies[pid][key] += n

    def side(self, who: str | None) -> str | None:
        """The side a tallied id plays for (itself, but for a doubles member)."""
        return self.side_of.get(who, who) if who is not None else None


def _when(event: Any) -> int:
    entered = event.data.get("entered_at")
    return min(int(entered), event.at) if isinstance(entered, int) and not isinstance(entered, bool) else event.at


def _time(walk: _Walk, before: MatchState, event: Any, who: str | None) -> None:
    t = _when(event)
    if event.kind in ("pause", "timeout"):
        if walk.paused_at is None:
            walk.paused_at = t
        return
    if event.kind == "resume":
        if walk.paused_at is not None:
            walk.paused_ms += max(0, t - walk.paused_at)
            walk.paused_at = None
        return
    if event.kind in NOT_IN_TURN:
        return
    if event.kind == "shot" and walk.since is not None and walk.paused_at is None and who in walk.tallies:
        spent = t - walk.since - walk.paused_ms
        if spent >= 0:
            tally.add_stroke_time(walk.tallies[who], spent)
    walk.since, walk.paused_ms = t, 0


def _fouls(after: MatchState, event: Any) -> tuple[str | None, tuple[str, ...]]:
    last = after.last
    if last is None or last[0] != event.version or not last[3]:
        return None, ()
    return last[2], tuple(last[3])


def _won_rack(before: MatchState, after: MatchState, who: str | None) -> bool:
    return len(after.racks) > len(before.racks) and after.racks[-1].get("winner") == who


def _intent(walk: _Walk, before: MatchState, after: MatchState, event: Any, who: str, fouled: bool) -> None:
    intent = event.data.get("intent")
    if intent == "pot":
        walk.count(who, "pot")
        side = walk.side(who)
        kept = after.rack.shooter == side and after.rack.number == before.rack.number
        if event.data.get("pocketed") and not fouled and (kept or _won_rack(before, after, side)):
            walk.count(who, "pot_success")
    elif intent == "safety":
        walk.count(who, "safety")
        walk.safety = None if fouled else (who, before.rack.number)
    elif intent == "kick":
        walk.count(who, "kick")


def _answer_safety(walk: _Walk, before: MatchState, event: Any, who: str | None, fouled: bool) -> None:
    """A turn of another player after a safety: it succeeded if that turn fouled or pocketed nothing."""
    if walk.safety is None or who is None or walk.side(who) == walk.side(walk.safety[0]):
        return
    player, rack = walk.safety
    walk.safety = None
    if rack == before.rack.number and (fouled or not event.data.get("pocketed")):
        walk.count(player, "safety_success")


def _turn(walk: _Walk, before: MatchState, after: MatchState, event: Any, who: str | None) -> None:
    fouler, codes = _fouls(after, event)
    fouled = fouler is not None and (fouler == walk.side(who) or who is None)
    if fouled and who is not None:
        fouler = who  # a doubles member's own foul (the side's, for the side's walk)
    if event.kind in ("shot", "foul", "clock_expired"):
        _answer_safety(walk, before, event, who, fouled)
    if before.rack.phase == "break" and event.kind in ("shot", "foul", "clock_expired") and who is not None:
        balls = len(event.data.get("pocketed") or []) if event.kind == "shot" else 0
        walk.count(who, "breaks")
        walk.count(who, "break_balls", balls)
        walk.count(who, "dry_breaks", 1 if balls == 0 else 0)
        walk.count(who, "break_fouls", 1 if fouled else 0)
    if event.kind == "shot" and who is not None:
        walk.count(who, "strokes")
        _intent(walk, before, after, event, who, fouled)
    if fouler is not None:
        per_rack = walk.fouls_by_rack.setdefault((fouler, before.rack.number), {})
        for code in codes:
            per_rack[code] = per_rack.get(code, 0) + 1
    if event.kind == "stalemate":
        for key in [k for k in walk.fouls_by_rack if k[1] == before.rack.number]:
            del walk.fouls_by_rack[key]
    if walk.safety is not None and len(after.racks) > len(before.racks):
        walk.safety = None  # the rack ended before the safety was answered


def _racks(walk: _Walk, state: MatchState) -> None:
    for rack in state.racks:
        winner, breaker = rack.get("winner"), rack.get("breaker")
        for pid in walk.players:
            walk.count(pid, "racks")
        walk.count(winner, "racks_won")
        walk.count(winner, "racks_won_own_break" if winner == breaker else "racks_won_opponent_break")


def _entered(walk: _Walk, state: MatchState, finished: bool) -> None:
    """A hand result: a match, its racks by the score where the score counts racks, nothing else."""
    for p in state.players:
        t = walk.tallies[p.id]
        for key in list(t):
            t[key] = {} if isinstance(t[key], dict) else 0
        if finished:
            t["matches"], t["matches_entered"], t["matches_won"] = 1, 1, int(state.winner == p.id)
    if scores_racks(state):
        racks = sum(p.score for p in state.players)
        for p in state.players:
            walk.tallies[p.id]["racks"] = racks
            walk.tallies[p.id]["racks_won"] = p.score


def match_tallies(rules: Any, setup: Any, events: Iterable[Any]) -> MatchStats:
    """The tallies of a match's players (by the match's player ids) from its stored events, in
    version order. A match not finished counts no match (its strokes and racks so far count)."""
    state: MatchState = rules.initial(setup)
    walk = _Walk(tuple(state.setup.player_ids), {pid: tally.empty() for pid in state.setup.player_ids})
    members = _members_walk(state)
    at = 0
    for event in events:
        if event.voided or event.kind == "undo":
            continue
        before = state
        state = rules.evolve(before, event)
        at = event.at
        who = stroke_player(before, event)
        _time(walk, before, event, who)
        _turn(walk, before, state, event, who)
        if members is not None:
            member = stroke_member(before, event)
            _time(members, before, event, member)
            _turn(members, before, state, event, member)
    finished = state.status == "finished"
    entered = bool(state.result and state.result.get("entered"))
    if entered:
        _entered(walk, state, finished)
        return MatchStats(walk.tallies, state, at, True)
    member_tallies = _members_done(members, state, finished) if members is not None else {}
    _racks(walk, state)
    for (pid, _rack), codes in walk.fouls_by_rack.items():
        if pid in walk.tallies:
            tally.add(walk.tallies[pid], {"fouls_by_code": codes})
    for p in state.players:
        t = walk.tallies[p.id]
        for key in ENGINE_COUNTS:
            t[key] = int(p.stats.get(key, 0))
        if finished:
            t["matches"], t["matches_won"] = 1, int(state.winner == p.id)
    return MatchStats(walk.tallies, state, at, False, member_tallies)


def _members_walk(state: MatchState) -> _Walk | None:
    """A doubles match's second walk, by member person ids (None in singles)."""
    if not state.setup.doubles:
        return None
    side_of = {m.person: p.id for p in state.setup.players for m in p.members}
    return _Walk(tuple(side_of), {pid: tally.empty() for pid in side_of}, side_of=side_of)


def _members_done(walk: _Walk, state: MatchState, finished: bool) -> dict[str, tally.Tally]:
    """The members' tallies: their own turns, and their side's racks and match."""
    for rack in state.racks:
        winner, breaker = rack.get("winner"), rack.get("breaker")
        for pid, side in walk.side_of.items():
            walk.count(pid, "racks")
            if side == winner:
                walk.count(pid, "racks_won")
                walk.count(pid, "racks_won_own_break" if winner == breaker else "racks_won_opponent_break")
    for (pid, _rack), codes in walk.fouls_by_rack.items():
        if pid in walk.tallies:
            tally.add(walk.tallies[pid], {"fouls_by_code": codes})
    for pid, side in walk.side_of.items():
        if finished:
            walk.tallies[pid]["matches"], walk.tallies[pid]["matches_won"] = 1, int(state.winner == side)
    return walk.tallies
