"""The notes of ``last`` (PROTOCOL.md section 4): what the latest event did, for commentators, as
codes with arguments.

The rules append ``Note``s made from the kinds below (``notes.RESPOTTED(ball=9)``); the projection
gives them twice, in the same order: ``last.note_codes`` (``[{"code", "args"}]``, for the pages to say
in their language: the template ``nt_<code>`` in clients/web/js/strings/<language>/notes.js) and
``last.notes``, the same notes in English rendered here ("the 9 is respotted"), so the two never
disagree. This module is the one list of the codes, their English and their arguments; notes are
derived by the fold, never stored.

An argument's name says what its value is (``ARG_KINDS``, mirrored for the pages by
clients/web/js/strings/note-args.js): a player's id (the page names the player), a number, or a code
the pages translate (a win type, a reason, ...).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

NoteArg = str | int | list[int] | None
ArgKind = Literal["player", "winner", "number", "numbers", "win_type", "reason", "choice", "penalty", "scope",
                  "group", "loss"]

ARG_KINDS: Final[Mapping[str, ArgKind]] = {
    # a player's id
    "player": "player", "shooter": "player", "breaker": "player", "fouler": "player", "payee": "player",
    "winner": "winner",  # a player's id, or null when the top is shared
    "ball": "number", "count": "number", "rack": "number", "points": "number", "event": "number",
    "scores": "numbers",  # the players' scores in the match's player order
    "win_type": "win_type",  # big_gold, small_gold, normal (the pages' w_<code>)
    "reason": "reason",  # a rack's or the match's reason (r_<code>)
    "choice": "choice",  # a decision's option (o_<code>)
    "penalty": "penalty",  # a penalty type (pen_<code>)
    "scope": "scope",  # rack, match (scope_<code>)
    "group": "group",  # solids, stripes
    "loss": "loss",  # why a rack is lost, one of LOSSES (nt_l_<code>)
}

# The eight-ball games (solids and stripes): why a stroke or a called foul loses the rack.
LOSSES: Final[Mapping[str, str]] = {
    "not_trying": "second not-trying foul in the rack",
    "eight_foul": "the 8 pocketed on a foul",
    "eight_early": "the 8 pocketed before the group was cleared",
    "eight_off": "the 8 left the table",
    "eight_not_on": "the 8 pocketed before it was the ball-on",
    "eight_not_called": "the 8 pocketed without being called",
}


@dataclass(frozen=True, slots=True)
class NoteKind:
    """A code, its English template (``{name}`` for each argument) and its arguments' names."""

    code: str
    english: str
    args: tuple[str, ...]

    def __call__(self, **args: NoteArg) -> Note:
        return _make_note(Note, (self, args))  # tuple.__new__: half the cost of Note(self, args)


class Note(NamedTuple):  # a tuple, not a frozen dataclass: made on every event of every fold
    kind: NoteKind
    args: Mapping[str, NoteArg]

    def english(self) -> str:
        return self.kind.english.format_map({name: _english(name, value) for name, value in self.args.items()})

    def json(self) -> dict[str, Any]:
        return {"code": self.kind.code, "args": dict(self.args)}


_make_note = tuple.__new__


def _english(name: str, value: NoteArg) -> str:
    kind = ARG_KINDS[name]
    if kind == "winner" and value is None:
        return "shared top"
    if kind == "loss":
        return LOSSES[str(value)]
    if isinstance(value, list):
        return " : ".join(str(n) for n in value)
    return str(value)


NOTES: dict[str, NoteKind] = {}


def _note(code: str, english: str, *args: str) -> NoteKind:
    """Register a code. Its template names exactly its arguments, each of a known kind."""
    fields = {name for _, name, _, _ in string.Formatter().parse(english) if name}
    if code in NOTES or fields != set(args) or not set(args) <= set(ARG_KINDS):
        raise ValueError(f"note {code!r}: {english!r} does not name exactly {args} (known: {sorted(ARG_KINDS)})")
    NOTES[code] = NoteKind(code, english, args)
    return NOTES[code]


# --- every discipline ----------------------------------------------------------------------
WINS_LAG = _note("wins_lag", "{player} wins the lag", "player")
RESPOTTED = _note("respotted", "the {ball} is respotted", "ball")
RERACK = _note("rerack", "rerack: {breaker} breaks", "breaker")
STALEMATE = _note("stalemate", "stalemate: the rack is replayed")
RACK_TO = _note("rack_to", "rack {rack} to {player} ({win_type}, {reason})", "rack", "player", "win_type", "reason")
TIE = _note("tie", "tie: one extra rack decides the match (lag)")
MATCH_OVER = _note("match_over", "match over: {winner} ({reason})", "winner", "reason")
CLOCK_EXPIRED = _note("clock_expired", "shot clock expired")
VOIDED_TIME = _note("voided_time", "entered before the shot clock ran out: the time foul is taken back")
PENALTY = _note("penalty", "penalty: {penalty}", "penalty")
CONCEDES = _note("concedes", "{player} concedes the {scope}", "player", "scope")
EXTENSION = _note("extension", "extension")
MATCH_TIME_UP = _note("match_time_up", "match time is up")
CHOOSES_BREAK = _note("chooses_break", "{player} chooses to {choice}: {breaker} breaks", "player", "choice", "breaker")
CHOOSES = _note("chooses", "{player} chooses {choice}", "player", "choice")
PASSES = _note("passes", "{player} passes: {shooter} shoots", "player", "shooter")
UNDONE = _note("undone", "event {event} undone", "event")
RESULT_ENTERED = _note("result_entered", "result entered by the desk: {scores}", "scores")
WITHDREW = _note("withdrew", "{player} withdrew from the event", "player")
# --- Chinese nine-ball: golds, loss of chance ------------------------------------------------
GOLDEN_BREAK = _note("golden_break", "golden break")
BREAK_POSITION = _note("break_position", "break position: warning (next time a foul)")
LOSS_OF_CHANCE = _note("loss_of_chance", "loss of chance: fewer than four crossings")
EIGHT_GOLD = _note("eight_gold", "the 8 in a gold inning is no win: the 9 must follow")
THIRD_FOUL_RACK = _note("third_foul_rack", "third foul in this rack: the rack goes to the opponent")
SECOND_FOUL_RACK = _note("second_foul_rack", "second foul in this rack")
FOUL_GAINS = _note("foul_gains", "foul: {player} +{points}", "player", "points")
UNSPORTSMANLIKE = _note("unsportsmanlike", "unsportsmanlike conduct: warning")
# --- chase-points nine-ball: points paid -----------------------------------------------------
RAIL_SAFETY_N = _note("rail_safety_n", "rail safety {count} of 2 allowed", "count")
SNOOKER_PASS = _note("snooker_pass", "snooker: the next player may pass")
THIRD_RAIL_SAFETY = _note("third_rail_safety", "third rail safety: all three are fouls and the rack is lost")
CHASE_THIRD_FOUL = _note("chase_third_foul", "third consecutive foul: the 上家 wins the rack")
CHASE_TWO_FOULS = _note("chase_two_fouls", "warning: {player} has two consecutive fouls; a third loses the rack",
                        "player")
CHASE_PASS = _note("chase_pass", "{player} passes: {shooter} shoots again; {player} pays for that inning",
                   "player", "shooter")
FOUL_PAYS = _note("foul_pays", "foul: {fouler} pays {points} to {payee}", "fouler", "points", "payee")
# --- the eight-ball games --------------------------------------------------------------------
TAKES_GROUP = _note("takes_group", "{player} takes {group}", "player", "group")
RACK_LOST = _note("rack_lost", "{loss}: the rack is lost", "loss")
NOT_TRYING = _note("not_trying", "not trying to win: a foul and a warning")
REBREAKS_WARNED = _note("rebreaks_warned", "{player} rebreaks, warned", "player")
REBREAK_FAILED = _note("rebreak_failed", "the warned rebreak failed again: the rack is lost")
EIGHT_ON_BREAK = _note("eight_on_break",
                       "the 8 on the break: the breaker plays on with the 8 spotted, or breaks again")
# --- the push-out games ----------------------------------------------------------------------
PUSH_OUT = _note("push_out", "push-out: the opponent chooses to play or pass")
WPA_THIRD_FOUL = _note("wpa_third_foul", "third consecutive foul: the rack is lost")
WPA_TWO_FOULS = _note("wpa_two_fouls", "{player} is on two fouls: a third consecutive foul loses the rack", "player")
WRONGFULLY_POCKETED = _note("wrongfully_pocketed", "wrongfully pocketed: the opponent chooses to play or pass")
