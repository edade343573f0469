"""The table simulator: plausible, well-formed, deterministic strokes; matches that finish."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

_ROOT = Path(__file__).resolve().parents[2]
for _p in (_ROOT / "clients" / "python", _ROOT / "tests" / "client"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from hub.rules.disciplines import catalogue  # noqa: E402
from hub.tools import simulate, simulate_tables  # noqa: E402
from hub.tools.simulate import next_command  # noqa: E402

CALLED = set(simulate.CALLED_FOULS) | {"weak_break", "not_trying"}
# What the hub serves at GET /api/disciplines (the simulator reads it there).
TRAITS = {d["name"]: d for d in catalogue()}
DISCIPLINES = [name for name, t in TRAITS.items() if "strokes" in t["scorings"]]  # every judged one


def fake_projection(discipline: str, rng: random.Random) -> dict[str, Any]:
    """A random but consistent projection, as the hub could send it."""
    traits = TRAITS[discipline]
    n_players = traits["players"]
    ids = [f"p{i}" for i in range(1, n_players + 1)]
    balls = list(traits["balls"])
    phase = rng.choice(["break", "play", "play", "play", "decision", "lag"])
    if phase == "break":
        on = balls
    else:
        keep = {traits["win_ball"]}
        on = sorted(b for b in balls if b in keep or rng.random() < 0.5)
    group = None
    table_open = True
    if traits["groups"] and phase == "play" and rng.random() < 0.6:
        table_open = False
        group = rng.choice(["solids", "stripes"])
    shooter = None if phase in ("decision", "lag") else rng.choice(ids)
    players = [
        {
            "id": pid,
            "name": pid.upper(),
            "score": 0,
            "consecutive_fouls": rng.randint(0, 2),
            "fouls_in_rack": rng.randint(0, 2),
            "extensions_left": rng.randint(0, 1),
            "group": (group if pid == shooter else ("stripes" if group == "solids" else "solids") if group else None),
        }
        for pid in ids
    ]
    pending = {"player": rng.choice(ids), "options": rng.sample(["play", "pass", "rerack_self", "rerack_other"], 2)} \
        if phase == "decision" else None
    return {
        "id": "m1", "discipline": discipline, "status": "live", "version": 3, "players": players,
        "rack": {"number": 1, "breaker": ids[0], "shooter": shooter, "phase": phase, "on_table": on,
                 "ball_in_hand": rng.choice([None, "anywhere"]), "pending": pending, "table_open": table_open,
                 "push_out_allowed": traits["push_out"] and rng.random() < 0.5, "order": ids},
        "clock": {"shot": {"player": shooter, "extended": False} if rng.random() < 0.5 else None, "match": None},
    }


@pytest.mark.parametrize("discipline", DISCIPLINES)
def test_commands_are_well_formed(discipline: str) -> None:
    rng = random.Random(7)
    seen: set[str] = set()
    early_eights = called = 0
    for _ in range(3000):
        m = fake_projection(discipline, rng)
        cmd, label, pause = next_command(m, rng, TRAITS[discipline])
        assert cmd is not None and pause >= 0
        seen.add(label.split(" ")[0])
        rack = m["rack"]
        if cmd["kind"] == "decision":
            assert cmd["player"] == rack["pending"]["player"]
            assert cmd["choice"] in rack["pending"]["options"]
            continue
        if cmd["kind"] == "lag":
            assert cmd["winner"] in [p["id"] for p in m["players"]]
            continue
        assert cmd["player"] == rack["shooter"]
        if cmd["kind"] != "shot":
            assert cmd["kind"] in ("extension", "foul")
            continue
        on = set(rack["on_table"])
        down = list(cmd.get("pocketed", [])) + list(cmd.get("off_table", []))
        assert len(down) == len(set(down)), cmd
        assert set(down) <= on, (cmd, on)
        assert cmd["first_contact"] is None or cmd["first_contact"] in on
        assert cmd.get("cue_ball", "table") in ("table", "pocketed", "off_table")
        assert set(cmd.get("called_fouls", [])) <= CALLED
        if rack["phase"] == "break":
            key = "break_crossings" if discipline == "golden_nine" else "break_rails"
            assert isinstance(cmd[key], int) and cmd[key] >= 0
        if "called" in cmd:  # the call: one of the balls that went in, on a stroke after the break
            assert TRAITS[discipline]["call_shot"] and cmd["called"] in cmd["pocketed"], cmd
            called += 1
        # a legal-looking stroke never pockets the 8 unless the 8 is the ball-on
        if TRAITS[discipline]["groups"] and rack["phase"] == "play" and not cmd.get("called_fouls") \
                and cmd.get("cue_ball", "table") == "table" and cmd["first_contact"] is not None \
                and 8 in cmd.get("pocketed", []) and simulate.balls_on(m, rack["shooter"], TRAITS[discipline]) != [8]:
            early_eights += 1  # rare on purpose: the black dropped early loses the rack
    assert early_eights < 40
    assert {"pot", "miss", "safety", "foul", "break", "decision"} <= seen
    if TRAITS[discipline]["push_out"]:
        assert "push-out" in seen
    assert (called > 100) == TRAITS[discipline]["call_shot"]


def test_same_seed_same_strokes() -> None:
    def run(seed: int) -> list[Any]:
        rng = random.Random(f"cuehub-sim/{seed}/0")
        prng = random.Random(1)
        return [next_command(fake_projection(d, prng), rng, TRAITS[d])[0] for d in DISCIPLINES * 50]

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate.main(["--url", "http://127.0.0.1:9", "--admin-token", "x", "--speed", "0"]) == 2
    assert "--speed must be > 0" in capsys.readouterr().err
    assert simulate.main(["--url", "http://127.0.0.1:9"]) in (1, 2)  # no token, or unreachable hub


# ---------------------------------------------------------------------------------------
# against a real in-process hub with the real rules


def _real_hub_app(tmp_path: Path, admin: str):
    from hub.app import create_app
    from hub.settings import Settings
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'sim.db'}", admin_token=admin)
    return create_app(settings)


def test_simulated_matches_finish_with_a_result(tmp_path: Path) -> None:
    from cuehub_client import AdminClient
    from cuehub_live_hub import serve

    admin = "sim-admin"
    app = _real_hub_app(tmp_path, admin)
    with serve(app) as url:
        async def go() -> tuple[simulate.Stats, list[dict[str, Any]]]:
            sim = simulate.Simulator(url, admin, tables=8, matches=2, speed=5000, seed=11, length=2)
            stats = await asyncio.wait_for(sim.run(), 240)
            async with AdminClient(url) as c:
                ms = [await c.get_match(mid) for slot in sim.slots for mid in slot.match_ids]
            return stats, ms

        stats, matches = asyncio.run(go())
    assert not stats.errors, stats.errors
    assert len(matches) == 16
    assert {m["discipline"] for m in matches} == set(DISCIPLINES)
    for m in matches:
        assert m["status"] == "finished", (m["id"], m["discipline"], m.get("rack"))
        assert m["result"] is not None and m["result"].get("reason"), m
        if m["discipline"] != "chase_nine":
            assert m["winner"] in [p["id"] for p in m["players"]]
        else:
            assert m["result"]["reason"] == "points" and len(m["result"]["ranking"]) == 3
            assert sum(p["score"] for p in m["players"]) == 0
    assert stats.acks > 100
    assert stats.percentile(50) is not None


def test_same_seed_plays_the_same_matches(tmp_path: Path) -> None:
    from cuehub_client import AdminClient
    from cuehub_live_hub import serve

    admin = "sim-admin"
    runs = []
    for i in range(2):
        (tmp_path / str(i)).mkdir(exist_ok=True)
        app = _real_hub_app(tmp_path / str(i), admin)
        with serve(app) as url:
            async def go() -> list[list[tuple[str, Any]]]:
                sim = simulate.Simulator(url, admin, tables=4, matches=1, speed=5000, seed=5, length=2)
                await asyncio.wait_for(sim.run(), 120)
                async with AdminClient(url) as c:
                    return [[(e["kind"], e["data"]) for e in await c.get_events(mid)]
                            for slot in sim.slots for mid in slot.match_ids]

            runs.append(asyncio.run(go()))
    assert runs[0] == runs[1]
    assert all(len(events) > 10 for events in runs[0])


def test_rejects_are_logged_and_the_table_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cuehub_client import AdminClient
    from cuehub_live_hub import serve

    real = simulate.next_command
    calls = {"n": 0}

    def flaky(m: dict[str, Any], rng: random.Random, traits: Any):
        calls["n"] += 1
        if calls["n"] in (3, 4):  # a tablet out of step: a stroke by someone not at the table
            others = [p["id"] for p in m["players"] if p["id"] != (m.get("rack") or {}).get("shooter")]
            return {"kind": "shot", "player": others[0], "first_contact": None}, "stale", 0.0
        return real(m, rng, traits)

    monkeypatch.setattr(simulate_tables, "next_command", flaky)  # what the tablets call
    admin = "sim-admin"
    logged: list[str] = []
    with serve(_real_hub_app(tmp_path, admin)) as url:
        async def go():
            sim = simulate.Simulator(url, admin, matches=1, speed=5000, seed=2, length=1,
                                     specs=[simulate.TableSpec("wpa_nine", length=1)], log=logged.append)
            stats = await asyncio.wait_for(sim.run(), 60)
            async with AdminClient(url) as c:
                return stats, await c.get_match(sim.slots[0].match_ids[0])

        stats, m = asyncio.run(go())
    assert stats.rejects == 2 and stats.reject_codes["not_your_turn"] == 2
    assert any("rejected (not_your_turn" in line for line in logged)
    assert m["status"] == "finished" and m["result"]


@pytest.mark.parametrize("plan", [
    simulate.DrawPlan("single_elimination", players=5, tables=2, discipline="wpa_nine", length=1),
    simulate.DrawPlan("round_robin", players=4, tables=2, discipline="chinese_eight", length=1, groups=1),
    simulate.DrawPlan("chase_groups", players=7, tables=2, discipline="chase_nine", length=1, rounds=2),
    simulate.DrawPlan("single_elimination", players=4, tables=2, discipline="wpa_eight", length=1),
    simulate.DrawPlan("double_elimination", players=4, tables=2, discipline="wpa_ten", length=1),
    simulate.DrawPlan("round_robin", players=3, tables=1, discipline="other", length=2, groups=1),
], ids=lambda p: f"{p.type}-{p.discipline}")
def test_a_whole_draw_is_played_to_its_end(tmp_path: Path, plan: simulate.DrawPlan) -> None:
    """Only the setup is admin calls: the hub calls every match, the tablets play them, to the end."""
    from cuehub_live_hub import serve

    admin = "sim-admin"
    with serve(_real_hub_app(tmp_path, admin)) as url:
        async def go() -> tuple[simulate.DrawSimulator, dict[str, Any]]:
            sim = simulate.DrawSimulator(url, admin, plan, speed=5000, seed=3)
            await sim.setup()
            await asyncio.wait_for(sim.run(), 240)
            async with httpx.AsyncClient(base_url=url) as c:
                return sim, (await c.get(f"/api/tournaments/{sim.tournament['id']}")).json()

        sim, tour = asyncio.run(go())
    assert sim.finished and not sim.stats.errors, sim.stats.errors
    draw = tour["draw"]
    assert draw["status"] == "finished" and sim.champion == draw["champion"]
    played = [m for m in draw["matches"] if m["status"] == "finished"]
    assert sim.stats.matches_finished == len(played) > 0
    if plan.type == "chase_groups":
        assert tour["standings"] and draw["champion"] == next(s["player"] for s in tour["standings"] if s["rank"] == 1)
    else:
        assert draw["champion"] in {p["id"] for p in tour["players"]}
