"""A result entered by hand (`result_entered`): the desk settles a match without its strokes.

A server-made event (`POST /api/matches/{mid}/result`): a table without a referee, a dead tablet,
players reporting their score. Taken for a scheduled, live or finished match (a finished one gets
its score corrected); the event's data is `{"winner", "score": {pid: n}, "reason"}`.

Checks (`Reject("bad_command", ...)`, the API answers 422 `bad_result`):
- `score` gives a whole number for exactly the match's players: racks won for a race (0 to the
  race), points for a match of racks or minutes (not negative, or net points that sum to zero in a
  ranked discipline: traits.py `ranked`);
- `winner` is a player with the best score, strictly (two players), and in a race the one who
  reached it; a ranked match: the sole top scorer, or null when the top is shared; a handicapped
  race (a race per player): the one who reached their own race while no one else did theirs;
- `reason`: optional, at most 200 characters (shown to every screen).

Folded: each player's `score` is the one given (and `racks_won` too in a race; a match on points
keeps its racks as played), the match is `finished` with the winner and
`result: {"entered": true, "reason": <the text or null>}` (a ranked match adds its `ranking`), no
rack is in play and every clock stops. Only the desk undoes it (a reopen, a server-made undo): a
tablet's undo of it is `not_allowed` (PROTOCOL.md section 9); the undo brings back the match as it
was before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules import notes
from hub.rules.core import stop_play
from hub.rules.events import Reject
from hub.rules.state import MatchState

KIND = "result_entered"
MAX_REASON = 200
MAX_POINTS = 100_000


def _bad(message: str) -> Reject:
    return Reject("bad_command", message)


def _scores(st: MatchState, raw: Any) -> dict[str, int]:
    ids = st.setup.player_ids
    if not isinstance(raw, Mapping) or set(raw) != set(ids):
        raise _bad(f"score must give a whole number for each player: {', '.join(ids)}")
    out: dict[str, int] = {}
    ranked = st.setup.traits.ranked
    for pid in ids:
        n = raw[pid]
        if isinstance(n, bool) or not isinstance(n, int):
            raise _bad(f"score.{pid} must be a whole number")
        low = -MAX_POINTS if ranked else 0
        own = st.setup.race_of(pid)
        high = own if own is not None else MAX_POINTS
        if not low <= n <= high:
            what = f"racks won (0 to the race to {own})" if own is not None else "points"
            raise _bad(f"score.{pid} must be {what}: {n} is out of range")
        out[pid] = n
    if ranked and sum(out.values()) != 0:
        raise _bad(f"{st.setup.discipline} scores are net points: they must sum to zero")
    return out


def _check_handicapped(st: MatchState, winner: str, score: Mapping[str, int]) -> None:
    """A handicapped race (PROTOCOL.md section 13): the winner reached their own race and no one
    else did (1 - 3 is a win racing to 1 against a race to 5); the best score need not be theirs."""
    races = dict(st.setup.races)
    if score[winner] != races[winner]:
        raise _bad(f"{winner} races to {races[winner]}: the winner must have won {races[winner]} racks, "
                   f"not {score[winner]}")
    for pid, n in score.items():
        if pid != winner and n >= races[pid]:
            raise _bad(f"{pid} reached their race to {races[pid]} too: only the winner may")


def decide(st: MatchState, command: Mapping[str, Any]) -> dict[str, Any]:
    """The event data of a result entered by hand, checked against the match (raises Reject)."""
    score = _scores(st, command.get("score"))
    reason = command.get("reason")
    if reason is not None and (not isinstance(reason, str) or len(reason) > MAX_REASON):
        raise _bad(f"reason must be a string of at most {MAX_REASON} characters")
    reason = reason.strip() or None if isinstance(reason, str) else None
    winner = command.get("winner")
    best = max(score.values())
    top = [pid for pid, n in score.items() if n == best]
    if winner is None:
        if not st.setup.traits.ranked or len(top) < 2:
            raise _bad("winner is required (null only for a ranked match whose top score is shared)")
    else:
        if winner not in score:
            raise _bad(f"winner must be one of the match's players: {', '.join(st.setup.player_ids)}")
        if st.setup.races:
            _check_handicapped(st, winner, score)
            return {"winner": winner, "score": score, "reason": reason}
        if top != [winner]:
            raise _bad(f"the winner must have the best score: {winner} has {score[winner]}, the best is {best}"
                       + (" (shared)" if winner in top else ""))
        race = st.setup.race_to
        if race is not None and score[winner] != race:
            raise _bad(f"a race to {race}: the winner must have won {race} racks, not {score[winner]}")
    return {"winner": winner, "score": score, "reason": reason}


def apply(st: MatchState, version: int, data: Mapping[str, Any]) -> None:
    """Fold a `result_entered` event into `st` (in place)."""
    race = st.setup.race_to is not None
    for p in st.players:
        p.score = int(data["score"][p.id])
        if race:
            p.racks_won = p.score
    result: dict[str, Any] = {"entered": True, "reason": data.get("reason")}
    if st.setup.traits.ranked:
        order = list(st.first_order or st.setup.player_ids)
        result["ranking"] = sorted(order, key=lambda pid: (-st.player(pid).score, order.index(pid)))
    st.status = "finished"
    st.winner = data.get("winner")
    st.result = result
    stop_play(st)
    st.paused = False
    st.shot_clock = None
    st.link_lost_since = None
    st.expired_turn = None
    if st.match_clock is not None:
        st.match_clock.running_since = None
    st.undoable.append(version)
    st.desk_only = (*st.desk_only, version)
    st.last = (version, KIND, None, (), (notes.RESULT_ENTERED(scores=[p.score for p in st.players]),))
