"""Plausible strokes for simulated tablets: what a real player could have made, read from
the match projection alone (the simulator is a protocol client; it never imports the rules)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

DISCIPLINES = ("golden_nine", "chase_nine", "wpa_nine", "chinese_eight")

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


def match_setup(discipline: str, rng: random.Random, *, length: int = 3, shot_clock: bool = False,
                handicap: bool = False) -> dict[str, Any]:
    """A POST /api/matches body (minus tournament/table) for one discipline."""
    n_players = 3 if discipline == "chase_nine" else 2
    names = rng.sample(NAMES, n_players)
    players: list[dict[str, Any]] = [{"id": f"p{i + 1}", "name": n} for i, n in enumerate(names)]
    if handicap and discipline == "golden_nine":
        players[1]["handicap"] = "eight"
    if discipline in ("golden_nine", "chase_nine"):
        fmt: dict[str, Any] = {"racks": length}
    else:
        fmt = {"race_to": length}
    options: dict[str, Any] = {}
    if shot_clock:
        if discipline == "golden_nine":
            options["shot_clock"] = {"shot_s": 45, "extension_s": 30, "break_s": 30}
        elif discipline == "chase_nine":
            options["shot_clock"] = {"shot_s": 45}
        else:
            options["shot_clock"] = {"shot_s": 40, "extension_s": 25}
    return {"discipline": discipline, "players": players, "format": fmt, "options": options}


@dataclass
class TableSpec:
    """What one simulated table plays."""

    discipline: str
    shot_clock: bool = False
    handicap: bool = False
    length: int = 3
    name: str | None = None


def default_specs(n: int, length: int = 3, disciplines: Sequence[str] = DISCIPLINES) -> list[TableSpec]:
    specs = []
    for i in range(n):
        d = disciplines[i % len(disciplines)]
        specs.append(TableSpec(d, shot_clock=(d == "golden_nine") or (i // len(disciplines)) % 2 == 1,
                               handicap=(d == "golden_nine" and (i // len(disciplines)) % 2 == 1), length=length))
    return specs


# --------------------------------------------------------------------------------------
# what a player does, from the projection only


def player_in(m: dict[str, Any], pid: str | None) -> dict[str, Any]:
    for p in m.get("players", []):
        if p.get("id") == pid:
            return p
    return {}


def balls_on(m: dict[str, Any], shooter: str | None) -> list[int]:
    """The balls the shooter may legally strike first, as a player reads the table."""
    rack = m["rack"]
    on = sorted(rack.get("on_table") or [])
    if not on:
        return []
    if m["discipline"] != "chinese_eight":
        return [on[0]]
    group = player_in(m, shooter).get("group")
    if rack.get("table_open", True) or group is None:
        cands = [b for b in on if b != 8]
    else:
        rng_ = range(1, 8) if group == "solids" else range(9, 16)
        cands = [b for b in on if b in rng_]
    return cands or ([8] if 8 in on else on[:1])


def _weighted(rng: random.Random, table: Sequence[tuple[Any, float]]) -> Any:
    total = sum(w for _, w in table)
    r = rng.random() * total
    for item, w in table:
        r -= w
        if r < 0:
            return item
    return table[-1][0]


def break_shot(m: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    rack = m["rack"]
    d = m["discipline"]
    shooter = rack["shooter"]
    on = sorted(rack.get("on_table") or [])
    special = {8} if d == "chinese_eight" else {9}
    normal = [b for b in on if b not in special]
    n = _weighted(rng, [(0, 0.3), (1, 0.4), (2, 0.22), (3, 0.08)])
    pocketed = rng.sample(normal, min(n, len(normal)))
    gold = rng.random() < (0.02 if d == "chinese_eight" else 0.05)
    if gold and (special & set(on)):
        pocketed.append(next(iter(special)))
    cmd: dict[str, Any] = {"kind": "shot", "player": shooter, "pocketed": sorted(pocketed), "rail": True}
    if d == "chinese_eight":
        cmd["first_contact"] = rng.choice(on)
    else:
        cmd["first_contact"] = on[0] if rng.random() > 0.03 else rng.choice(on[1:] or on)
    label = "break"
    if rng.random() < 0.05:
        cmd["cue_ball"] = "pocketed"
        label = "break (scratch)"
    if d == "golden_nine":
        if rng.random() < 0.18:  # a soft break: not enough balls across the head string
            cmd["break_crossings"] = rng.randint(0, max(0, 3 - len(pocketed)))
            label = "break (few crossings)"
        else:
            cmd["break_crossings"] = max(0, rng.randint(4, 7) - len(pocketed))
        if rng.random() < 0.03:
            cmd["called_fouls"] = ["weak_break"]
            label = "break (weak)"
        if rng.random() < 0.03:
            cmd["break_position"] = True
    else:
        cmd["break_rails"] = rng.randint(2, 7) if not pocketed else rng.randint(3, 8)
    return cmd, label


def play_shot(m: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    rack = m["rack"]
    d = m["discipline"]
    shooter = rack["shooter"]
    on = sorted(rack.get("on_table") or [])
    cands = balls_on(m, shooter)
    me = player_in(m, shooter)
    base: dict[str, Any] = {"kind": "shot", "player": shooter}

    # wpa_nine push-out on the first stroke after the break
    if d == "wpa_nine" and rack.get("push_out_allowed") and rng.random() < 0.25:
        cmd = dict(base, push_out=True, first_contact=rng.choice(on) if rng.random() < 0.8 else None,
                   rail=rng.random() < 0.5, pocketed=[])
        if rng.random() < 0.1:
            extra = [b for b in on if b != 9]
            if extra:
                cmd["pocketed"] = [rng.choice(extra)]
        return cmd, "push-out"

    p_foul = 0.06 + 0.22 * int(me.get("consecutive_fouls") or 0)
    if d == "golden_nine":
        p_foul += 0.08 * int(me.get("fouls_in_rack") or 0)
    r = rng.random()
    if r < p_foul:
        return foul_shot(m, rng, cands), "foul"
    r -= p_foul
    if r < 0.08:
        cmd = dict(base, first_contact=rng.choice(cands), rail=True, pocketed=[])
        if d == "chase_nine":
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
    if d == "chinese_eight":
        if target != 8:
            group = me.get("group")
            if group is None or rack.get("table_open", True):
                same = [b for b in on if b != 8 and b != target and (b < 8) == (target < 8)]
            else:
                same = [b for b in cands if b != target and b != 8]
            if same and rng.random() < 0.15:
                pocketed.append(rng.choice(same))
            other = [b for b in on if b != 8 and b not in pocketed and (b < 8) != (target < 8)]
            if other and rng.random() < 0.05:
                pocketed.append(rng.choice(other))
            if 8 in on and rng.random() < 0.015:
                pocketed.append(8)  # the black drops too early: the rack is lost
                label = "pot (8 early)"
    else:
        nine_free = d == "chase_nine" and rack.get("ball_in_hand")
        if target != 9 and 9 in on and not nine_free and rng.random() < 0.06:
            pocketed = [9]  # a combination on the 9
            label = "combination"
        else:
            extra = [b for b in on if b not in (target, 9)]
            if extra and rng.random() < 0.15:
                pocketed.append(rng.choice(extra))
    return dict(base, first_contact=target, pocketed=sorted(pocketed), rail=rng.random() < 0.7), label


def foul_shot(m: dict[str, Any], rng: random.Random, cands: list[int]) -> dict[str, Any]:
    rack = m["rack"]
    d = m["discipline"]
    on = sorted(rack.get("on_table") or [])
    cmd: dict[str, Any] = {"kind": "shot", "player": rack["shooter"], "first_contact": rng.choice(cands),
                           "rail": True, "pocketed": []}
    wrong = [b for b in on if b not in cands]
    if d == "chinese_eight" and 8 in cands:
        wrong = [b for b in on if b != 8]
    kind = _weighted(rng, [("scratch", 3), ("wrong_ball", 3 if wrong else 0), ("no_contact", 1), ("no_rail", 2),
                           ("called", 2), ("ball_off", 1), ("cue_off", 0.5)])
    if kind == "scratch":
        cmd["cue_ball"] = "pocketed"
        safe = [b for b in on if not (d == "chinese_eight" and b == 8)]
        if safe and rng.random() < 0.3:
            cmd["pocketed"] = [rng.choice(safe)]
    elif kind == "wrong_ball":
        cmd["first_contact"] = rng.choice(wrong)
    elif kind == "no_contact":
        cmd["first_contact"] = None
        cmd["rail"] = rng.random() < 0.5
    elif kind == "no_rail":
        cmd["rail"] = False
    elif kind == "called":
        codes = list(CALLED_FOULS)
        if d == "chinese_eight":
            codes.append("not_trying")
        cmd["called_fouls"] = [rng.choice(codes)]
    elif kind == "ball_off":
        safe = [b for b in on if not (d == "chinese_eight" and b == 8)]
        if safe:
            cmd["off_table"] = [rng.choice(safe)]
        else:
            cmd["cue_ball"] = "pocketed"
    else:
        cmd["cue_ball"] = "off_table"
    return cmd


def next_command(m: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any] | None, str, float]:
    """The tablet's next command for this projection: (command, label, pause before it in s at speed 1)."""
    if m.get("status") == "finished":
        return None, "finished", 0.0
    rack = m.get("rack") or {}
    ids = [p["id"] for p in m.get("players", [])]
    if m.get("status") == "scheduled" and not rack.get("pending"):
        if m["discipline"] == "chase_nine":
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
    if phase == "break":
        cmd, label = break_shot(m, rng)
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
        cmd, label = play_shot(m, rng)
        return cmd, label, rng.uniform(2.0, 6.0)
    return None, f"phase {phase}", 0.0
