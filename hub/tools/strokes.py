"""Plausible strokes for simulated tablets: what a real player could have made, read from
the match projection alone (the simulator is a protocol client; it never imports the rules).

What differs between disciplines is read from their traits as the hub serves them
(``GET /api/disciplines``: one entry, a mapping, passed as ``traits``), never from their names."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Traits = Mapping[str, Any]  # one discipline of GET /api/disciplines

NAMES = (
    "Zheng Yubo", "Yang Fan", "Shi Hantong", "Liu Haitao", "Wu Kunlin", "Chang Yu-Lung",
    "Ko Pin-Yi", "Joshua Filler", "Fedor Gorst", "Han Yu", "Chen Siming", "Fu Xiaofang",
    "Wang Xiaotong", "Kelly Fisher", "Bai Ge", "Li Hewen", "Xu Xiaotong", "Dang Jinhu",
    "Eklent Kaci", "Albin Ouschan", "Jayson Shaw", "Carlo Biado", "Aloysius Yapp", "Pin-Yi Ko",
    "Liu Shasha", "Chen Jiahua", "Wang Can", "Zhao Xintong", "Siming Chen", "Gao Yuan",
)

CALLED_FOULS = ("double_hit", "push_shot", "touched_ball", "feet_off_floor", "balls_moving", "illegal_jump", "other")
OUTSIDE_FOULS = ("touched_ball", "balls_moving", "other")


# --------------------------------------------------------------------------------------
# match setups


def judged(catalogue: Sequence[Traits]) -> list[Traits]:
    """The disciplines the hub judges stroke by stroke (the simulator's default rotation)."""
    return [t for t in catalogue if "strokes" in t["scorings"]]


def match_setup(traits: Traits, rng: random.Random, *, length: int = 3, shot_clock: bool = False,
                handicap: bool = False) -> dict[str, Any]:
    """A POST /api/matches body (minus tournament/table) for one discipline, to its usual length."""
    names = rng.sample(NAMES, traits["players"])
    players: list[dict[str, Any]] = [{"id": f"p{i + 1}", "name": n} for i, n in enumerate(names)]
    if handicap and traits["handicaps"]:
        players[1]["handicap"] = traits["handicaps"][0]
    fmt: dict[str, Any] = {traits["formats"][0]: length}
    if traits["named_game"]:
        fmt["game"] = "snooker"
    options: dict[str, Any] = {}
    if shot_clock and "strokes" in traits["scorings"]:
        if traits["timed_shot_clock"]:  # played as its timed matches are
            options["shot_clock"] = {"shot_s": 45, "extension_s": 30, **traits["timed_shot_clock"]}
        elif traits["players"] == 3:
            options["shot_clock"] = {"shot_s": 45}
        else:
            options["shot_clock"] = {"shot_s": 40, "extension_s": 25}
    return {"discipline": traits["name"], "players": players, "format": fmt, "options": options}


@dataclass
class TableSpec:
    """What one simulated table plays."""

    discipline: str
    shot_clock: bool = False
    handicap: bool = False
    length: int = 3
    name: str | None = None


def default_specs(n: int, disciplines: Sequence[Traits], length: int = 3) -> list[TableSpec]:
    """``n`` tables, the disciplines in turn; every second round with a shot clock (always for a
    discipline whose timed matches need one), and a handicap where the discipline takes one."""
    specs = []
    for i in range(n):
        d = disciplines[i % len(disciplines)]
        second = (i // len(disciplines)) % 2 == 1
        specs.append(TableSpec(d["name"], shot_clock=bool(d["timed_shot_clock"]) or second,
                               handicap=bool(d["handicaps"]) and second, length=length))
    return specs


# --------------------------------------------------------------------------------------
# what a player does, from the projection only


def player_in(m: dict[str, Any], pid: str | None) -> dict[str, Any]:
    for p in m.get("players", []):
        if p.get("id") == pid:
            return p
    return {}


def balls_on(m: dict[str, Any], shooter: str | None, traits: Traits) -> list[int]:
    """The balls the shooter may legally strike first, as a player reads the table."""
    rack = m["rack"]
    on = sorted(rack.get("on_table") or [])
    if not on:
        return []
    if traits["ball_on"] != "group":
        return [on[0]]
    black = traits["win_ball"]
    group = player_in(m, shooter).get("group")
    if rack.get("table_open", True) or group is None:
        cands = [b for b in on if b != black]
    else:
        rng_ = range(1, 8) if group == "solids" else range(9, 16)
        cands = [b for b in on if b in rng_]
    return cands or ([black] if black in on else on[:1])


def _weighted(rng: random.Random, table: Sequence[tuple[Any, float]]) -> Any:
    total = sum(w for _, w in table)
    r = rng.random() * total
    for item, w in table:
        r -= w
        if r < 0:
            return item
    return table[-1][0]


def break_shot(m: dict[str, Any], rng: random.Random, traits: Traits) -> tuple[dict[str, Any], str]:
    rack = m["rack"]
    shooter = rack["shooter"]
    on = sorted(rack.get("on_table") or [])
    grouped = traits["ball_on"] == "group"
    special = {traits["win_ball"]}
    normal = [b for b in on if b not in special]
    n = _weighted(rng, [(0, 0.3), (1, 0.4), (2, 0.22), (3, 0.08)])
    pocketed = rng.sample(normal, min(n, len(normal)))
    gold = rng.random() < (0.02 if grouped else 0.05)
    if gold and (special & set(on)):
        pocketed.append(next(iter(special)))
    cmd: dict[str, Any] = {"kind": "shot", "player": shooter, "pocketed": sorted(pocketed), "rail": True}
    if grouped:
        cmd["first_contact"] = rng.choice(on)
    else:
        cmd["first_contact"] = on[0] if rng.random() > 0.03 else rng.choice(on[1:] or on)
    label = "break"
    if rng.random() < 0.05:
        cmd["cue_ball"] = "pocketed"
        label = "break (scratch)"
    if traits["break_count"] == "break_crossings":
        if rng.random() < 0.18:  # a soft break: not enough balls across the head string
            cmd["break_crossings"] = rng.randint(0, max(0, 3 - len(pocketed)))
            label = "break (few crossings)"
        else:
            cmd["break_crossings"] = max(0, rng.randint(4, 7) - len(pocketed))
        if "weak_break" in traits["called_fouls_break"] and rng.random() < 0.03:
            cmd["called_fouls"] = ["weak_break"]
            label = "break (weak)"
        if "break_position" in traits["break_flags"] and rng.random() < 0.03:
            cmd["break_position"] = True
    else:
        cmd["break_rails"] = rng.randint(2, 7) if not pocketed else rng.randint(3, 8)
    return cmd, label


def play_shot(m: dict[str, Any], rng: random.Random, traits: Traits) -> tuple[dict[str, Any], str]:
    rack = m["rack"]
    shooter = rack["shooter"]
    on = sorted(rack.get("on_table") or [])
    cands = balls_on(m, shooter, traits)
    me = player_in(m, shooter)
    base: dict[str, Any] = {"kind": "shot", "player": shooter}
    win = traits["win_ball"]

    # a push-out on the first stroke after the break
    if traits["push_out"] and rack.get("push_out_allowed") and rng.random() < 0.25:
        cmd = dict(base, push_out=True, first_contact=rng.choice(on) if rng.random() < 0.8 else None,
                   rail=rng.random() < 0.5, pocketed=[])
        if rng.random() < 0.1:
            extra = [b for b in on if b != win]
            if extra:
                cmd["pocketed"] = [rng.choice(extra)]
        return cmd, "push-out"

    p_foul = 0.06 + 0.22 * int(me.get("consecutive_fouls") or 0)
    if traits["score"] == "points" and traits["players"] == 2:  # fouls in the rack count there: more of them
        p_foul += 0.08 * int(me.get("fouls_in_rack") or 0)
    r = rng.random()
    if r < p_foul:
        return foul_shot(m, rng, cands, traits), "foul"
    r -= p_foul
    if r < 0.08:
        cmd = dict(base, first_contact=rng.choice(cands), rail=True, pocketed=[])
        if "snooker" in traits["play_flags"]:
            if rng.random() < 0.3:
                cmd["snooker"] = True
            elif rng.random() < 0.15:
                cmd["rail_safety"] = True
        return cmd, "safety"
    if r < 0.22:
        return dict(base, first_contact=rng.choice(cands), rail=True, pocketed=[]), "miss"

    target = rng.choice(cands)
    pocketed = [target]
    label = "pot"
    if traits["ball_on"] == "group":
        if target != win:
            group = me.get("group")
            if group is None or rack.get("table_open", True):
                same = [b for b in on if b != win and b != target and (b < win) == (target < win)]
            else:
                same = [b for b in cands if b != target and b != win]
            if same and rng.random() < 0.15:
                pocketed.append(rng.choice(same))
            other = [b for b in on if b != win and b not in pocketed and (b < win) != (target < win)]
            if other and rng.random() < 0.05:
                pocketed.append(rng.choice(other))
            if win in on and rng.random() < 0.015:
                pocketed.append(win)  # the black drops too early: the rack is lost
                label = "pot (8 early)"
    else:
        free_ball = rack.get("ball_in_hand")  # no combination on the win ball from ball in hand (a foul in some)
        if target != win and win in on and not free_ball and rng.random() < 0.06:
            pocketed = [win]  # a combination on the win ball
            label = "combination"
        else:
            extra = [b for b in on if b not in (target, win)]
            if extra and rng.random() < 0.15:
                pocketed.append(rng.choice(extra))
    cmd = dict(base, first_contact=target, pocketed=sorted(pocketed), rail=rng.random() < 0.7)
    if traits["call_shot"]:
        cmd["called"] = target if target in pocketed else pocketed[0]  # the call: the ball it went in with
    return cmd, label


def foul_shot(m: dict[str, Any], rng: random.Random, cands: list[int], traits: Traits) -> dict[str, Any]:
    rack = m["rack"]
    on = sorted(rack.get("on_table") or [])
    grouped = traits["ball_on"] == "group"
    win = traits["win_ball"]
    cmd: dict[str, Any] = {"kind": "shot", "player": rack["shooter"], "first_contact": rng.choice(cands),
                           "rail": True, "pocketed": []}
    wrong = [b for b in on if b not in cands]
    if grouped and win in cands:
        wrong = [b for b in on if b != win]
    kind = _weighted(rng, [("scratch", 3), ("wrong_ball", 3 if wrong else 0), ("no_contact", 1), ("no_rail", 2),
                           ("called", 2), ("ball_off", 1), ("cue_off", 0.5)])
    if kind == "scratch":
        cmd["cue_ball"] = "pocketed"
        safe = [b for b in on if not (grouped and b == win)]
        if safe and rng.random() < 0.3:
            cmd["pocketed"] = [rng.choice(safe)]
    elif kind == "wrong_ball":
        cmd["first_contact"] = rng.choice(wrong)
    elif kind == "no_contact":
        cmd["first_contact"] = None
        cmd["rail"] = rng.random() < 0.5
    elif kind == "called":
        codes = list(CALLED_FOULS)
        codes += [c for c in traits["called_fouls_play"] if c not in codes]  # the discipline's own
        cmd["called_fouls"] = [rng.choice(codes)]
    elif kind == "ball_off":
        safe = [b for b in on if not (grouped and b == win)]
        if safe:
            cmd["off_table"] = [rng.choice(safe)]
        else:
            cmd["cue_ball"] = "pocketed"
    else:
        cmd["cue_ball"] = "off_table"
    return cmd


def rack_won(m: dict[str, Any], rng: random.Random, traits: Traits) -> tuple[dict[str, Any], str]:
    """A match scored rack by rack: who won the rack (and how, where the discipline has win types)."""
    rack = m["rack"]
    ids = [p["id"] for p in m.get("players", [])]
    winner = rng.choice(ids)
    cmd: dict[str, Any] = {"kind": "rack", "winner": winner}
    golds = [w for w in traits["win_types"] if w != "normal" and (w != "big_gold" or winner == rack.get("breaker"))]
    if golds and rng.random() < 0.15:
        cmd["win_type"] = rng.choice(golds)
    if traits["rack_paid_by"]:
        cmd["paid_by"] = rng.choice([pid for pid in ids if pid != winner])
    return cmd, f"rack to {winner}"


def next_command(m: dict[str, Any], rng: random.Random,
                 traits: Traits) -> tuple[dict[str, Any] | None, str, float]:
    """The tablet's next command for this projection: (command, label, pause before it in s at speed 1)."""
    if m.get("status") == "finished":
        return None, "finished", 0.0
    rack = m.get("rack") or {}
    ids = [p["id"] for p in m.get("players", [])]
    if m.get("status") == "scheduled" and not rack.get("pending"):
        if not traits["lag"]:
            order = ids[:]
            rng.shuffle(order)
            return {"kind": "start", "order": order}, "start", 3.0
        if rng.random() < 0.25:
            return {"kind": "lag", "winner": rng.choice(ids)}, "lag", 4.0
        return {"kind": "start", "breaker": rng.choice(ids)}, "start", 3.0
    pending = rack.get("pending")
    if pending:
        options = list(pending.get("options") or [])
        choice = rng.choice(options) if options else "play"
        return (
            {"kind": "decision", "player": pending["player"], "choice": choice},
            f"decision {choice}",
            rng.uniform(1.5, 4.0),
        )
    phase = rack.get("phase")
    if phase == "lag":
        return {"kind": "lag", "winner": rng.choice(ids)}, "lag", 4.0
    if (m.get("options") or {}).get("scoring") == "racks" and phase in ("break", "play"):
        cmd, label = rack_won(m, rng, traits)
        return cmd, label, rng.uniform(8.0, 20.0)  # a whole rack is played meanwhile
    if phase == "break":
        cmd, label = break_shot(m, rng, traits)
        return cmd, label, rng.uniform(3.0, 7.0)
    if phase == "play":
        shooter = rack.get("shooter")
        me = player_in(m, shooter)
        shot_clock = (m.get("clock") or {}).get("shot")
        if (
            shot_clock
            and not shot_clock.get("extended")
            and int(me.get("extensions_left") or 0) > 0
            and rng.random() < 0.04
        ):
            return {"kind": "extension", "player": shooter}, "extension", rng.uniform(1.0, 3.0)
        if rng.random() < 0.01:
            return (
                {"kind": "foul", "player": shooter, "reason": rng.choice(OUTSIDE_FOULS)},
                "called foul",
                rng.uniform(1.0, 3.0),
            )
        cmd, label = play_shot(m, rng, traits)
        return cmd, label, rng.uniform(2.0, 6.0)
    return None, f"phase {phase}", 0.0
