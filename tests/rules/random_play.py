"""Random command sequences for property tests and the fold benchmark.

Commands are drawn from the projection, mostly ones the rules accept, some they refuse."""

from __future__ import annotations

import random
from typing import Any

CALLED = ["double_hit", "push_shot", "touched_ball", "other", "weak_break", "not_trying"]


def random_command(proj: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    rack = proj["rack"]
    ids = [p["id"] for p in proj["players"]]
    if proj["status"] == "scheduled" and rack["phase"] == "lag":
        if len(ids) == 3:
            order = ids[:]
            rnd.shuffle(order)
            return {"kind": "start", "order": order}
        return rnd.choice([{"kind": "start", "breaker": rnd.choice(ids)}, {"kind": "lag", "winner": rnd.choice(ids)}])
    if rack["phase"] == "lag":
        return {"kind": "lag", "winner": rnd.choice(ids)}
    if proj["options"].get("scoring") == "racks" and proj["status"] == "live" and not rack["pending"] \
            and rnd.random() < 0.85:
        return random_rack(proj, rnd)
    roll = rnd.random()
    if roll < 0.03:
        return {"kind": "undo"}
    if roll < 0.05:
        return rnd.choice([
            {"kind": "stalemate"},
            {"kind": "pause"},
            {"kind": "resume"},
            {"kind": "penalty", "player": rnd.choice(ids), "type": rnd.choice(
                ["intentional_foul", "unsportsmanlike", "device", "forfeit_rack", "forfeit_match"])},
            {"kind": "concede", "player": rnd.choice(ids), "scope": rnd.choice(["rack", "match"])},
            {"kind": "foul", "player": rack["shooter"] or ids[0], "reason": "touched_ball"},
            {"kind": "extension", "player": rack["shooter"] or ids[0]},
            {"kind": "shot", "player": rnd.choice(ids), "first_contact": rnd.randint(0, 16)},
        ])
    if proj.get("paused"):
        return {"kind": "resume"}
    if rack["pending"]:
        return {
            "kind": "decision",
            "player": rack["pending"]["player"],
            "choice": rnd.choice(rack["pending"]["options"]),
        }
    on = rack["on_table"]
    if not on or rack["shooter"] is None:
        return {"kind": "undo"}
    legal = min(on)
    if proj["discipline"] in ("chinese_eight", "wpa_eight"):
        me = next(p for p in proj["players"] if p["id"] == rack["shooter"])
        group = {"solids": range(1, 8), "stripes": range(9, 16)}.get(me["group"] or "", [])
        mine = [b for b in on if b in group] or ([b for b in on if b != 8] if rack["table_open"] else [8])
        legal = rnd.choice(mine or on)
    first = legal if rnd.random() < 0.85 else rnd.choice(on + [None])
    k = rnd.choice([0, 0, 0, 1, 1, 2]) if rnd.random() < 0.9 else rnd.randint(0, len(on))
    pocketed = rnd.sample(on, min(k, len(on)))
    rest = [b for b in on if b not in pocketed]
    shot: dict[str, Any] = {
        "kind": "shot",
        "player": rack["shooter"],
        "first_contact": first,
        "pocketed": pocketed,
        "rail": rnd.random() < 0.85,
        "break_rails": rnd.randint(0, 7),
        "break_crossings": rnd.randint(0, 7),
    }
    if rnd.random() < 0.05 and rest:
        shot["off_table"] = [rnd.choice(rest)]
    if rnd.random() < 0.06:
        shot["cue_ball"] = rnd.choice(["pocketed", "off_table"])
    if rnd.random() < 0.04:
        shot["called_fouls"] = [rnd.choice(CALLED)]
    if rack["push_out_allowed"] and rnd.random() < 0.3:
        shot["push_out"] = True
    if proj["discipline"] == "chase_nine":
        shot["snooker"] = rnd.random() < 0.1
        shot["rail_safety"] = rnd.random() < 0.1
    if proj["discipline"] == "golden_nine" and rack["phase"] == "break":
        shot["break_position"] = rnd.random() < 0.05
    if proj["discipline"] in ("wpa_eight", "wpa_ten"):
        shot["called"] = random_call(proj, pocketed, legal, rnd)
    return shot


def random_call(proj: dict[str, Any], pocketed: list[int], legal: int, rnd: random.Random) -> int | None:
    """wpa_eight, wpa_ten: mostly a pocketed ball (the one aimed at when it went in), sometimes none
    (a safety or a missed call), now and then a ball not pocketed (refused: bad_command)."""
    roll = rnd.random()
    if roll < 0.03:
        return rnd.randint(1, 15)
    if not pocketed or roll < 0.25:
        return None
    if legal in pocketed and roll < 0.8:
        return legal
    return rnd.choice(pocketed)


def random_rack(proj: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A rack reported won (scoring by racks): any winner, any win type, a payer or none."""
    ids = [p["id"] for p in proj["players"]]
    winner = rnd.choice(ids)
    cmd: dict[str, Any] = {"kind": "rack", "winner": winner}
    if proj["discipline"] in ("golden_nine", "chase_nine") and rnd.random() < 0.5:
        cmd["win_type"] = rnd.choice(["normal", "small_gold", "big_gold"])
    if len(ids) == 3 or rnd.random() < 0.1:
        cmd["paid_by"] = rnd.choice([p for p in ids if p != winner] + ([winner] if rnd.random() < 0.1 else []))
    return cmd
