"""The shot clock and the match clock, evolved: deadlines computed from event times only
(`Event.at`), never from a clock read. evolve.py calls these as events are applied; projection.py
publishes the result (with `warn_at` / `countdown_at` WARNING_MS and COUNTDOWN_MS before a deadline).
"""

from __future__ import annotations

from hub.rules.state import MatchState, ShotClock

WARNING_MS = 10_000
COUNTDOWN_MS = 5_000


def turn_limit_ms(st: MatchState) -> int | None:
    cfg = st.setup.shot_clock
    rack = st.rack
    if cfg is None or st.status != "live" or rack.phase not in ("break", "play") or rack.shooter is None:
        return None
    if st.setup.by_racks:
        return None  # no strokes are reported, so no stroke is timed
    if rack.phase == "break":
        seconds = cfg.break_s
    elif rack.after_break:
        seconds = cfg.first_shot_s
    else:
        seconds = cfg.shot_s
    return round(seconds * 1000)


def reset_shot_clock(st: MatchState, at: int) -> None:
    limit = turn_limit_ms(st)
    if limit is None:
        st.shot_clock = None
        return
    assert st.rack.shooter is not None
    if st.official_timeout and st.official_timeout_since is not None:
        # the break after an official timeout: its clock runs once the timeout is over
        at = max(at, st.official_timeout_since + round(st.setup.timeout_s * 1000))
    if st.paused or st.link_lost_since is not None:
        st.shot_clock = ShotClock(st.rack.shooter, limit, None, limit, started_at=at)
    else:
        st.shot_clock = ShotClock(st.rack.shooter, limit, at + limit, None, started_at=at)



def extend(st: MatchState, pid: str) -> None:
    cfg = st.setup.shot_clock
    assert cfg is not None
    st.player(pid).extensions_left -= 1
    clock = st.shot_clock
    if clock is None:
        return
    ext = round(cfg.extension_s * 1000)
    if clock.deadline is not None:
        clock.deadline += ext
    elif clock.remaining_ms is not None:
        clock.remaining_ms += ext
    clock.extended = True


def pause_shot_clock(st: MatchState, at: int) -> None:
    clock = st.shot_clock
    if clock is not None and clock.deadline is not None:
        clock.remaining_ms = max(0, clock.deadline - at)
        clock.deadline = None


def resume_shot_clock(st: MatchState, at: int) -> None:
    clock = st.shot_clock
    if clock is not None and clock.remaining_ms is not None:
        clock.deadline = at + clock.remaining_ms
        clock.remaining_ms = None


def advance_match_clock(st: MatchState, at: int) -> None:
    mc = st.match_clock
    if mc is not None and mc.running_since is not None:
        mc.remaining_ms = mc.remaining_at(at)
        mc.running_since = at


def sync_match_clock(st: MatchState, at: int) -> None:
    """Timed match: starts with the first break stroke and runs while racks are played; stops
    when paused, in a lag, at the end and for the official timeout after every
    ``timeout_every_racks``-th rack until the next rack's break stroke."""
    mc = st.match_clock
    if mc is None:
        return
    running = (
        st.status == "live"
        and (st.first_break_played or st.setup.by_racks)  # by racks: the clock runs from the start
        and not st.paused
        and not st.official_timeout
        and not st.extra_rack
        and st.rack.phase not in ("lag", "over")
        and mc.remaining_ms > 0
    )
    if running and mc.running_since is None:
        mc.running_since = at
    elif not running:
        mc.running_since = None
