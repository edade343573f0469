"""The match projection (PROTOCOL.md section 4) and its short form (section 5), from a state."""

from __future__ import annotations

from typing import Any

from hub.rules import doubles
from hub.rules.clock import COUNTDOWN_MS, WARNING_MS
from hub.rules.disciplines import DISCIPLINES
from hub.rules.state import MatchState


def _seconds(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _shot_clock_json(st: MatchState) -> dict[str, Any] | None:
    clock = st.shot_clock
    if clock is None:
        return None
    out: dict[str, Any] = {
        "player": clock.player,
        "limit_s": _seconds(clock.limit_ms / 1000),
        "extended": clock.extended,
        "running": clock.deadline is not None,
    }
    if clock.deadline is not None:
        out["deadline"] = clock.deadline
        out["warn_at"] = clock.deadline - WARNING_MS
        out["countdown_at"] = clock.deadline - COUNTDOWN_MS
    else:
        out["remaining_ms"] = clock.remaining_ms
        out["reason"] = "pause" if st.paused else "link"
    return out


def _match_clock_json(st: MatchState) -> dict[str, Any] | None:
    mc = st.match_clock
    if mc is None:
        return None
    since = mc.running_since
    return {
        "limit_s": _seconds(mc.limit_ms / 1000),
        "remaining_ms": mc.remaining_ms,
        "running": since is not None,
        "deadline": since + mc.remaining_ms if since is not None else None,
        "official_timeout": st.official_timeout,
        "official_timeout_until": (
            st.official_timeout_since + round(st.setup.timeout_s * 1000)
            if st.official_timeout and st.official_timeout_since is not None else None
        ),
    }


def _last_json(st: MatchState) -> dict[str, Any] | None:
    if st.last is None:
        return None
    version, kind, player, fouls, notes = st.last
    out: dict[str, Any] = {
        "version": version,
        "kind": kind,
        "player": player,
        "foul": bool(fouls),
        "fouls": list(fouls),
        "notes": [n.english() for n in notes],  # the same notes in English (hub/rules/notes.py)
        "note_codes": [n.json() for n in notes],
    }
    if kind == "shot" and st.setup.traits.call_shot:
        out["called"] = st.last_called  # the ball that went in as called, or null
    return out


def projection(st: MatchState) -> dict[str, Any]:
    setup = st.setup
    discipline = DISCIPLINES[setup.discipline]
    rack = st.rack
    return {
        "id": setup.match_id,
        "tournament_id": setup.tournament_id,
        "table_id": st.table_id or setup.table_id,
        "discipline": setup.discipline,
        "draw": dict(setup.draw) if setup.draw else None,
        "doubles": setup.doubles,
        "status": st.status,
        "version": st.version,
        "format": setup.format_json(),
        "options": setup.options_json(),
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "handicap": p.handicap,
                "race_to": setup.race_of(p.id),
                "score": p.score,
                "racks_won": p.racks_won,
                "fouls_in_rack": p.fouls_in_rack,
                "consecutive_fouls": p.consecutive_fouls,
                "extensions_left": p.extensions_left,
                "group": p.group,
                "win_ball": discipline.win_ball(st, p.id),
                "warnings": p.warnings,
                "intentional_fouls": p.intentional_fouls,
                "disqualified": p.disqualified,
                "stats": dict(p.stats),
                "members": doubles.members_json(st, p.id),
            }
            for p in st.players
        ],
        "rack": {
            "number": rack.number,
            "breaker": rack.breaker,
            "shooter": rack.shooter,
            "phase": rack.phase,
            "on_table": sorted(rack.on_table),
            "ball_in_hand": rack.ball_in_hand,
            "pending": rack.pending.to_json() if rack.pending else None,
            "table_open": rack.table_open,
            "push_out_allowed": rack.push_out_allowed,
            "order": list(rack.order),
            "extra": st.extra_rack,
            "member": doubles.member_due(st, doubles.side_at_table(st)),
        },
        "racks": [dict(r, points=dict(r["points"])) for r in st.racks],
        "clock": {"shot": _shot_clock_json(st), "match": _match_clock_json(st)},
        "paused": st.paused,
        "link": {"lost": st.link_lost_since is not None, "since": st.link_lost_since},
        "winner": st.winner,
        "result": dict(st.result) if st.result else None,
        "last": _last_json(st),
    }


def short_projection(st: MatchState) -> dict[str, Any]:
    """PROTOCOL.md section 5: the short form of a match inside the tournament projection."""
    full = projection(st)
    return {
        "id": full["id"],
        "discipline": full["discipline"],
        "status": full["status"],
        "version": full["version"],
        "players": [
            {"id": p["id"], "name": p["name"], "score": p["score"], "racks_won": p["racks_won"],
             "race_to": p["race_to"], **({"members": p["members"]} if p["members"] else {})}
            for p in full["players"]
        ],
        "rack": {
            "number": full["rack"]["number"],
            "shooter": full["rack"]["shooter"],
            "phase": full["rack"]["phase"],
            "ball_in_hand": full["rack"]["ball_in_hand"],
            **({"member": full["rack"]["member"]} if full["doubles"] else {}),
        },
        "clock": full["clock"],
        "winner": full["winner"],
        "draw": full["draw"],
    }
