"""hub/rules/notes.py: the notes of `last` as codes with arguments.

Random matches of every discipline and scoring (table commands and the hub's own: expired clocks,
time foul taken back, match time, results entered, withdrawals, the desk's undo) emit only codes of
the registry, with the arguments each declares, of the kind each argument is, `last.notes` being
the same notes in English; every code is emitted by some match; and the pages' language data
(clients/web/js/strings, read as data) says every code and every loss in English and Chinese with
exactly its arguments, and shows each argument by the kind the registry gives it."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.rules import Reject
from hub.rules.notes import ARG_KINDS, LOSSES, NOTES
from tests.rules.harness import Match
from tests.rules.random_play import random_command
from tests.rules.test_properties import GAMES
from tests.strings_data import LANGUAGES, STRINGS_DIR, load, load_file

# (discipline, scoring, timed): GAMES, and the timed matches of the points disciplines.
PLAYS = [(d, s, False) for d, s in GAMES] + [("golden_nine", "strokes", True), ("chase_nine", "strokes", True),
                                              ("golden_nine", "racks", True)]
TERMS = {"win_type": {"normal", "small_gold", "big_gold"}, "scope": {"rack", "match"},
         "group": {"solids", "stripes"}, "loss": set(LOSSES)}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def new_match(discipline: str, scoring: str, timed: bool, rnd: random.Random) -> Match:
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
    if discipline == "chase_nine":
        players.append({"id": "c", "name": "C"})
    elif discipline == "golden_nine" and rnd.random() < 0.3:
        players[1]["handicap"] = "eight"
    fmt: dict[str, Any] = {"race_to": 3}
    if discipline in ("golden_nine", "chase_nine"):
        fmt = {"minutes": 2} if timed else {"racks": 3}
    if discipline == "other":
        fmt["game"] = "one_pocket"
    return Match(discipline, players, fmt, {"shot_clock": {"shot_s": 30}, "scoring": scoring}, t0=0)


def server_command(proj: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """One of the hub's own commands: an expired clock, match time, a result entered at the desk, a
    withdrawn player's forfeit, the desk's undo (some refused, as a real hub's may be)."""
    ids = [p["id"] for p in proj["players"]]
    roll = rnd.random()
    shot = proj["clock"]["shot"]
    if roll < 0.45 and shot is not None:
        return {"kind": "clock_expired", "player": shot["player"]}
    if roll < 0.6:
        return {"kind": "match_time_expired"}
    if roll < 0.75:
        winner = rnd.choice(ids)
        race = proj["format"].get("race_to")
        if len(ids) == 3:
            score = {pid: 2 if pid == winner else -1 for pid in ids}
        else:
            score = {pid: (race or 5) if pid == winner else 0 for pid in ids}
        return {"kind": "result_entered", "winner": winner, "score": score, "reason": rnd.choice([None, "reported"])}
    if roll < 0.9:
        return {"kind": "penalty", "player": rnd.choice(ids), "type": "forfeit_match", "withdrawn": True}
    return {"kind": "undo"}


def table_command(proj: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A random table command; now and then a foul the referee calls outside a stroke (not_trying
    twice in a rack is how a chinese_eight rack is lost that way), and more chase_nine rail
    safeties (a third in a rack is a note of its own)."""
    if rnd.random() < 0.05 and proj["rack"]["shooter"] is not None:
        return {"kind": "foul", "player": proj["rack"]["shooter"], "reason": rnd.choice(["not_trying", "other"])}
    command = random_command(proj, rnd)
    if command.get("rail_safety") is False and rnd.random() < 0.3:
        command["rail_safety"] = True
    return command


def play(m: Match, rnd: random.Random, steps: int) -> list[dict[str, Any]]:
    """Random commands on `m`; the `last` of every accepted one."""
    lasts = []
    expired: tuple[dict[str, Any], int] | None = None  # the match before an expiry, and its time
    for _ in range(steps):
        before = m.proj
        server = rnd.random() < 0.12
        command = server_command(before, rnd) if server else table_command(before, rnd)
        at = m.now + rnd.randint(1, 40_000)
        if expired is not None and rnd.random() < 0.5:
            # a stroke entered before the clock ran out, by the player whose time it was
            command = {**random_command(expired[0], rnd), "entered_at": expired[1] - 1}
        try:
            proj = m.send(command, at=at, server=server)
        except Reject:
            continue
        expired = (before, at) if command["kind"] == "clock_expired" else None
        if proj["last"] is not None:
            lasts.append(proj["last"])
    return lasts


def check_notes(last: dict[str, Any], ids: list[str]) -> None:
    """Each code is the registry's, with its arguments, each of its kind; `notes` says the same."""
    codes = last["note_codes"]
    assert len(codes) == len(last["notes"])
    for note, english in zip(codes, last["notes"], strict=True):
        assert set(note) == {"code", "args"}
        kind = NOTES[note["code"]]
        assert set(note["args"]) == set(kind.args), note
        for name, value in note["args"].items():
            what = ARG_KINDS[name]
            if what == "player":
                assert value in ids, note
            elif what == "winner":
                assert value is None or value in ids, note
            elif what == "number":
                assert isinstance(value, int) and not isinstance(value, bool), note
            elif what == "numbers":
                assert isinstance(value, list) and len(value) == len(ids), note
                assert all(isinstance(n, int) and not isinstance(n, bool) for n in value), note
            elif what in TERMS:
                assert value in TERMS[what], note
            else:  # reason, choice, penalty: a code the pages translate
                assert isinstance(value, str) and re.fullmatch(r"[a-z_]+", value), note
        assert english == kind.english.format_map(
            {k: ("shared top" if v is None else LOSSES[v] if ARG_KINDS[k] == "loss"
                 else " : ".join(map(str, v)) if isinstance(v, list) else str(v)) for k, v in note["args"].items()})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(PLAYS), seed=st.integers(0, 2**32), steps=st.integers(1, 200))
def test_random_matches_emit_only_the_registrys_codes(game: tuple[str, str, bool], seed: int, steps: int) -> None:
    rnd = random.Random(seed)
    m = new_match(*game, rnd)
    ids = list(m.setup.player_ids)
    for last in play(m, rnd, steps):
        check_notes(last, ids)
    # the notes are the fold's, never stored: the events hold none
    assert "note" not in repr([e.data for e in m.events])


def test_every_code_and_every_loss_is_emitted() -> None:
    """The registry lists no code the rules never emit (and the random matches reach them all)."""
    seen: set[str] = set()
    losses: set[str] = set()
    for seed in range(1000):
        rnd = random.Random(seed)
        m = new_match(*PLAYS[seed % len(PLAYS)], rnd)
        for last in play(m, rnd, 150):
            for note in last["note_codes"]:
                seen.add(note["code"])
                if "loss" in note["args"]:
                    losses.add(note["args"]["loss"])
        if seen == set(NOTES) and losses == set(LOSSES):
            break
    assert sorted(set(NOTES) - seen) == [] and sorted(set(LOSSES) - losses) == []


def test_the_pages_say_every_code_and_loss_in_both_languages() -> None:
    """clients/web/js/strings/<language>/notes.js: `nt_<code>` for every code with exactly its
    arguments, `nt_l_<loss>` for every loss, and no template for a code the hub does not have."""
    for language in LANGUAGES:
        said = load(language, "notes")
        for code, kind in NOTES.items():
            template = said.get(f"nt_{code}")
            assert template, f"{language}: no template nt_{code}"
            assert set(PLACEHOLDER.findall(template)) == set(kind.args), (language, code, template)
        for loss in LOSSES:
            assert said.get(f"nt_l_{loss}"), f"{language}: no nt_l_{loss}"
        known = {f"nt_{c}" for c in NOTES} | {f"nt_l_{loss}" for loss in LOSSES}
        assert sorted(set(said) - known) == [], language


def test_the_pages_show_each_argument_by_its_kind() -> None:
    """clients/web/js/strings/note-args.js is the registry's ARG_KINDS, and every argument a code
    declares has its kind there."""
    assert load_file(STRINGS_DIR / "note-args.js") == dict(ARG_KINDS)
    assert {name for kind in NOTES.values() for name in kind.args} == set(ARG_KINDS)


def test_the_english_of_a_note() -> None:
    """The English `last.notes` as they were written before the codes (stored matches replay to the
    same text)."""
    from hub.rules import notes

    assert notes.FOUL_PAYS(fouler="b", points=1, payee="a").english() == "foul: b pays 1 to a"
    assert notes.MATCH_OVER(winner=None, reason="points").english() == "match over: shared top (points)"
    assert notes.RACK_LOST(loss="eight_foul").english() == "the 8 pocketed on a foul: the rack is lost"
    assert notes.RESULT_ENTERED(scores=[2, 1]).english() == "result entered by the desk: 2 : 1"
    assert notes.UNDONE(event=7).json() == {"code": "undone", "args": {"event": 7}}
