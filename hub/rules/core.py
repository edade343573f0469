"""The shared core of the rulesets: balls, fact-derived fouls, innings, racks, match end. What
differs between disciplines it reads from the match's traits (``st.setup.traits``, traits.py).

Every function here changes the working ``MatchState`` it is given (see state.py for why
that is safe) and reads no clock: times come in through the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.rules import notes
from hub.rules.notes import Note
from hub.rules.state import MatchState, Pending, PlayerState, RackState

CALLED_FOULS = (
    "double_hit",
    "push_shot",
    "touched_ball",
    "feet_off_floor",
    "balls_moving",
    "illegal_jump",
    "weak_break",
    "not_trying",
    "out_of_turn",  # scotch doubles: a stroke by the member who was not due (doubles.py)
    "other",
)
CUE_BALL_STATES = ("table", "pocketed", "off_table")


# --- strokes -----------------------------------------------------------------------------


def fact_fouls(
    shot: Mapping[str, Any],
    legal_first: Iterable[int] | None,
    *,
    is_break: bool,
    rail_required: bool = True,
) -> list[str]:
    """The fouls the tablet's facts show (RULES.md "Fouls a tablet's facts show").

    ``legal_first`` is the set of balls the cue ball may strike first, or None when any
    ball will do.  ``no_rail`` applies only after a contact, never on a break.
    """
    fouls: list[str] = []
    first = shot["first_contact"]
    if first is None:
        fouls.append("no_contact")
    elif legal_first is not None and first not in legal_first:
        fouls.append("wrong_ball_first")
    if rail_required and not is_break and first is not None and not shot["pocketed"] and not shot["rail"]:
        fouls.append("no_rail")
    if shot["cue_ball"] == "pocketed":
        fouls.append("scratch")
    elif shot["cue_ball"] == "off_table":
        fouls.append("cue_ball_off_table")
    if shot["off_table"]:
        fouls.append("ball_off_table")
    fouls.extend(code for code in shot["called_fouls"] if code not in fouls)
    return fouls


BREAK_RAILS = 4  # a ball pocketed or four object balls to a cushion (break_count "break_rails")


def break_requirement_met(shot: Mapping[str, Any]) -> bool:
    """The break requirement of the disciplines that count balls to a rail on a break."""
    return bool(shot["pocketed"]) or shot["break_rails"] >= BREAK_RAILS


def rails_break(st: MatchState, shot: Mapping[str, Any]) -> tuple[list[str], set[int]]:
    """The break stroke's facts of a rotation game that counts rails: the 1 first, the rails-or-pocket
    requirement (else ``bad_break``); the balls leave the table. Returns the fouls and the balls down."""
    fouls = fact_fouls(shot, {1}, is_break=True)
    if not break_requirement_met(shot):
        fouls.insert(0, "bad_break")
    down = clear_balls(st.rack, shot)
    st.rack.after_break = True
    return fouls, down


def nine_ball_rails_break(st: MatchState, shot: Mapping[str, Any], note: list[Note]) -> list[str]:
    """``rails_break`` in a nine-ball game: a 9 down on a foul comes back."""
    fouls, down = rails_break(st, shot)
    if fouls and 9 in down:
        respot(st.rack, 9, note)
    return fouls


def shooter(st: MatchState) -> str:
    pid = st.rack.shooter
    assert pid is not None, "a stroke needs a shooter (decide() checked it)"
    return pid


def clear_balls(rack: RackState, shot: Mapping[str, Any]) -> set[int]:
    """Take the stroke's pocketed and off-table balls off the table; returns them."""
    down = set(shot["pocketed"]) | set(shot["off_table"])
    rack.on_table.difference_update(down)
    return down


def respot(rack: RackState, ball: int, note: list[Note]) -> None:
    if ball not in rack.on_table:
        rack.on_table.add(ball)
        note.append(notes.RESPOTTED(ball=ball))


# --- turns and innings -------------------------------------------------------------------


def next_in_order(st: MatchState, pid: str) -> str:
    order = st.rack.order
    return order[(order.index(pid) + 1) % len(order)]


def previous_in_order(st: MatchState, pid: str) -> str:
    order = st.rack.order
    return order[(order.index(pid) - 1) % len(order)]


def start_inning(st: MatchState, pid: str, *, ball_in_hand: str | None = None) -> None:
    """``pid`` comes to the table: a new inning begins (RULES.md: an inning is one player's
    unbroken stay at the table)."""
    rack = st.rack
    rack.shooter = pid
    rack.phase = "play"
    rack.pending = None
    rack.ball_in_hand = ball_in_hand
    rack.inning_player = pid
    rack.inning_is_break = False
    rack.gold_inning = False
    rack.inning_start_full = len(rack.on_table) == len(st.setup.traits.balls)
    rack.inning_start_one_and_nine = 1 in rack.on_table and 9 in rack.on_table
    rack.inning_first = pid not in rack.innings_had
    rack.snooker_passer = None
    rack.innings_had.add(pid)


def continue_inning(st: MatchState) -> None:
    """The shooter stays at the table after a legal pocketing stroke."""
    st.rack.ball_in_hand = None
    st.rack.phase = "play"


def ask(st: MatchState, player: str, options: Iterable[str], context: str) -> None:
    st.rack.phase = "decision"
    st.rack.shooter = None
    st.rack.ball_in_hand = None
    st.rack.pending = Pending(player, tuple(options), context)


# --- racks -------------------------------------------------------------------------------

def rack_order(st: MatchState, breaker: str) -> tuple[str, ...]:
    ids = st.ids()
    if len(ids) == 2:
        return (breaker, ids[1] if ids[0] == breaker else ids[0])
    order = st.rack.order or tuple(ids)
    i = order.index(breaker)
    return order[i:] + order[:i]


def begin_rack(st: MatchState, number: int, breaker: str, order: tuple[str, ...] | None = None) -> None:
    """A fresh rack: every ball on the table, the breaker to break."""
    old = st.rack
    rack = RackState(number=number)
    rack.order = order or rack_order(st, breaker)
    same_number = old.number == number
    if same_number:
        # a rerack keeps what a stalemate may have to take back
        rack.foul_points = old.foul_points
        rack.foul_counts = old.foul_counts
        rack.loss_of_chance = old.loss_of_chance
        rack.points = old.points
    else:
        rack.points = {pid: 0 for pid in st.ids()}
    rack.breaker = breaker
    rack.shooter = breaker
    rack.phase = "break"
    rack.on_table = set(st.setup.traits.balls)
    rack.table_open = True
    rack.inning_player = breaker
    rack.inning_is_break = True
    rack.inning_start_full = True
    rack.inning_start_one_and_nine = True
    rack.inning_first = True
    rack.innings_had = {breaker}
    st.rack = rack
    per_rack = st.setup.shot_clock.extensions_per_rack if st.setup.shot_clock else 0
    for p in st.players:
        p.fouls_in_rack = 0
        p.consecutive_fouls = 0
        p.extensions_left = per_rack
        p.not_trying_in_rack = 0
        p.rail_safeties_in_rack = 0
        if st.setup.traits.groups:
            p.group = None  # solids and stripes are given again at every rack


def rerack(st: MatchState, breaker: str, note: list[Note]) -> None:
    """RULES.md "rerack": every ball back, counts back to 0; points stand, same rack number."""
    begin_rack(st, st.rack.number, breaker)
    note.append(notes.RERACK(breaker=breaker))


# --- points and fouls --------------------------------------------------------------------


def give(st: MatchState, gains: Mapping[str, int], *, foul: bool = False) -> None:
    """Apply point changes (gains may be negative) to scores and to this rack's points."""
    for pid, amount in gains.items():
        if not amount:
            continue
        st.player(pid).score += amount
        st.rack.points[pid] = st.rack.points.get(pid, 0) + amount
        if foul:
            st.rack.foul_points.append((pid, amount))


def count_foul(st: MatchState, pid: str, n: int = 1) -> PlayerState:
    p = st.player(pid)
    p.fouls_in_rack += n
    p.stats["fouls"] += n
    st.rack.foul_counts[pid] = st.rack.foul_counts.get(pid, 0) + n
    return p


def stalemate(st: MatchState, note: list[Note]) -> None:
    """RULES.md: the rack is replayed with the same breaker and number; its foul points, foul
    counts and loss-of-chance statistics are taken back; extensions are given again."""
    rack = st.rack
    for pid, amount in rack.foul_points:
        st.player(pid).score -= amount
        rack.points[pid] = rack.points.get(pid, 0) - amount
    for pid, n in rack.foul_counts.items():
        st.player(pid).stats["fouls"] -= n
    for pid, n in rack.loss_of_chance.items():
        st.player(pid).stats["loss_of_chance"] -= n
    rack.foul_points = []
    rack.foul_counts = {}
    rack.loss_of_chance = {}
    breaker = rack.breaker
    assert breaker is not None
    begin_rack(st, rack.number, breaker, rack.order)
    note.append(notes.STALEMATE())


# --- winning ------------------------------------------------------------------------------


def finish_rack(
    st: MatchState,
    winner: str,
    win_type: str,
    reason: str,
    gains: Mapping[str, int],
    note: list[Note],
    *,
    next_order: tuple[str, ...] | None = None,
    by_break_stroke: bool = False,
) -> None:
    """The rack is won: points, statistics, the record in ``racks``, then the next rack or the end."""
    rack = st.rack
    give(st, gains)
    w = st.player(winner)
    w.racks_won += 1
    if reason == "win_ball" and winner == rack.inning_player and not st.setup.by_racks:
        if by_break_stroke:
            w.stats["golden_breaks"] += 1
        elif rack.inning_is_break:
            w.stats["break_and_runs"] += 1
        elif rack.inning_first:
            w.stats["table_runs"] += 1
    st.racks.append(
        {
            "number": rack.number,
            "breaker": rack.breaker,
            "winner": winner,
            "win_type": win_type,
            "reason": reason,
            "points": {pid: rack.points.get(pid, 0) for pid in st.ids()},
        }
    )
    note.append(notes.RACK_TO(rack=rack.number, player=winner, win_type=win_type, reason=reason))
    if not _match_ends_after_rack(st, note):
        _next_rack(st, winner, next_order)


def _match_ends_after_rack(st: MatchState, note: list[Note]) -> bool:
    """True when no ordinary next rack follows (the match is over or goes to the extra rack)."""
    setup = st.setup
    if st.extra_rack:
        end_match(st, st.racks[-1]["winner"], "time" if setup.minutes is not None else "racks", note)
        return True
    if setup.race_to is not None:
        for p in st.players:
            if p.racks_won >= (setup.race_of(p.id) or setup.race_to):
                end_match(st, p.id, "race", note)
                return True
        return False
    if setup.racks is not None and len(st.racks) >= setup.racks:
        settle_on_points(st, "racks", note)
        return True  # over, or the extra rack's lag has begun
    return False


def settle_on_points(st: MatchState, reason: str, note: list[Note]) -> bool:
    """End a racks/minutes match on points; a two-player tie goes to one extra rack (a ranked match
    has none). Returns False when the match goes on (extra rack)."""
    if st.setup.traits.ranked:
        end_match(st, None, "points", note)
        return True
    a, b = st.players
    if a.score == b.score:
        st.extra_rack = True
        begin_lag(st, len(st.racks) + 1)
        note.append(notes.TIE())
        return False
    end_match(st, a.id if a.score > b.score else b.id, reason, note)
    return True


def begin_lag(st: MatchState, number: int) -> None:
    rack = RackState(number=number, phase="lag", order=st.rack.order)
    rack.points = {pid: 0 for pid in st.ids()}
    st.rack = rack


def _next_rack(st: MatchState, winner: str, next_order: tuple[str, ...] | None) -> None:
    number = st.rack.number + 1
    if st.setup.traits.ranked:
        order = next_order or rack_order(st, winner)
        begin_rack(st, number, order[0], order)
        return
    if st.setup.break_mode == "alternate":
        first = st.first_order[0]  # rack 1's breaker at the start, whatever a rerack did
        other = next(pid for pid in st.ids() if pid != first)
        breaker = first if number % 2 == 1 else other
    else:
        breaker = winner
    begin_rack(st, number, breaker)
    # The official timeout lasts until the next break stroke: a match scored by racks has none to end it.
    every = st.setup.timeout_every_racks
    if st.match_clock is not None and len(st.racks) % every == 0 and not st.setup.by_racks:
        st.official_timeout = True


def ranking(st: MatchState) -> list[str]:
    """A ranked match's players by score, highest first; ties keep the rack-1 order; disqualified last."""
    first_order = list(st.first_order or st.ids())
    return sorted(
        first_order, key=lambda pid: (st.player(pid).disqualified, -st.player(pid).score, first_order.index(pid))
    )


def end_match(st: MatchState, winner: str | None, reason: str, note: list[Note]) -> None:
    st.status = "finished"
    result: dict[str, Any] = {"reason": reason}
    if st.setup.traits.ranked:
        order = ranking(st)
        result["ranking"] = order
        top = [pid for pid in order if not st.player(pid).disqualified]
        scores = [st.player(pid).score for pid in top]
        winner = top[0] if top and (len(scores) < 2 or scores[0] > scores[1]) else None
    st.winner = winner
    st.result = result
    stop_play(st)
    note.append(notes.MATCH_OVER(winner=winner or None, reason=reason))


def stop_play(st: MatchState) -> None:
    """The match is over: nobody is at the table and nothing is owed (a pending choice, ball in hand,
    an official's time-out)."""
    st.rack.phase = "over"
    st.rack.shooter = None
    st.rack.pending = None
    st.rack.ball_in_hand = None
    st.official_timeout = False


def lose_match(st: MatchState, loser: str, reason: str, note: list[Note]) -> None:
    """A penalty or concession that loses the match: it ends at once, scores stand."""
    winner = next(pid for pid in st.ids() if pid != loser)
    end_match(st, winner, reason, note)
