"""What a draw format is: the one object the rest of the draw logic asks about a format.

A format (``DrawFormat``) knows its settings (``params``: whole numbers with bounds and a default,
as data the desk reads), the disciplines it plays (by the players a match has), its size (matches,
for the cap), its matches (``derive``, delegating to ``brackets``, ``round_robin``, ``chase``), its
rounds (name and side, for ``match.by_round``), whether a knockout may follow it (``next_stage``:
``then``) and who goes through, the codes of its round names (``round_label``: the words are
in the language tables, ``hub/tournaments/round_names.py`` and the pages' ``i18n.js``), and how the
pages draw it (``view``: the fans' pages read it instead of the format's name).

Pure, like the rest of ``hub.draws``: no I/O, no clock reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hub.draws import fields, race_lengths
from hub.draws.events import DrawReject
from hub.rules.disciplines import DISCIPLINES

if TYPE_CHECKING:
    from hub.draws.settle import TypeResult
    from hub.draws.state import DrawSpec, TournamentState

Params = Mapping[str, int | None]  # a draw's settings by name (``groups``, ``rounds``); None: the default
Rounds = list[tuple[str, str]]  # (round name, side) in playing order
Label = tuple[str, dict[str, Any]]  # a round name's code in the language tables, and its arguments
MAX_DRAW_MATCHES = 4096  # the most matches a draw makes (``size``; ``draw_too_large`` beyond)
SAMPLE_FIELD = 16  # the field the served race sides are read from (they are the same from 4 players on)


def players_per_match(discipline: str) -> int | None:
    """How many players a match of ``discipline`` has (None: no such discipline): its ``players``
    trait (hub/rules/traits.py), the one place the draw formats learn it."""
    if discipline not in DISCIPLINES:
        return None
    return DISCIPLINES[discipline].traits.players


@dataclass(frozen=True)
class Param:
    """A whole-number setting of a draw (``groups``, ``rounds``, a next stage's ``advance``)."""

    name: str
    minimum: int
    maximum: int | None  # None: bounded by the field, checked when the draw is made
    default: int
    about: str  # what it sets, in English (the API's description)

    def check(self, value: Any) -> int:
        """The value a draw is made with: the default when absent, else a whole number in bounds."""
        if value is None:
            return self.default
        if self.maximum is None:
            return fields.whole(value, self.name, self.minimum, 2**31 - 1)
        return fields.whole(value, self.name, self.minimum, self.maximum)

    def json(self) -> dict[str, Any]:
        return {"name": self.name, "type": "integer", "minimum": self.minimum, "maximum": self.maximum,
                "default": self.default, "about": self.about}


@dataclass(frozen=True)
class NextStage:
    """How a knockout (``then``) follows a format: its ``advance`` K, and whether K counts each group's
    best (a round robin's) or the field's last K players."""

    advance: Param
    each_group: bool


@dataclass(frozen=True)
class View:
    """How the pages draw a stage of a format and name its rounds (``view`` in ``GET /api/draw-formats``):
    what they would otherwise know by the format's name (clients/web/js/draw-formats.js reads it)."""

    layout: str  # "bracket": columns of rounds joined by lines; "groups": each group's standings and
    # rounds; "chase": one standings table (with byes) and the rounds
    losers: bool = False  # a losers bracket beside the winners: the winners' last round is the "Winners
    # final", and with no grand final the draw stopped for a next stage (its rounds named plainly)
    bracket: str = "winners"  # the ``bracket`` of a match in a round that is neither L<r> nor GF<r>
    group_in_key: bool = False  # a match's key starts with its group ("B-2-1")

    def json(self) -> dict[str, Any]:
        return {"layout": self.layout, "losers": self.losers, "bracket": self.bracket,
                "group_in_key": self.group_in_key}


def too_few(message: str) -> DrawReject:
    return DrawReject(422, "too_few_players", message)


def bad_advance(message: str) -> DrawReject:
    return DrawReject(422, "bad_advance", message)


class DrawFormat:
    """One draw format; subclasses fill in what differs (``size``, ``derive``, ``rounds`` at least)."""

    name = ""
    players_per_match = 2
    params: tuple[Param, ...] = ()
    next_stage: NextStage | None = None  # None: no ``then`` may follow this format
    knockout = False  # a ``then`` stage may be of this format (``stages`` plays it: ``K{r}`` rounds)
    forms_rounds_again = False  # a round not started is formed again without a player who withdrew
    view = View("groups", bracket="group")  # how the pages draw it
    about = ""  # one line in English (the API's description)

    def value(self, params: Params, name: str) -> int:
        """A setting's value: the draw's, else its default."""
        got = params.get(name)
        if got is not None:
            return got
        return next(p.default for p in self.params if p.name == name)

    def disciplines(self) -> list[str]:
        return [d for d in DISCIPLINES if players_per_match(d) == self.players_per_match]

    def check_field(self, active: int, params: Params) -> None:
        """Refuse (``too_few_players``) a field too small for this format and these settings."""
        least = self.players_per_match
        if active < least:
            raise too_few(f"a {self.name} draw needs at least {least} players ({active} active)")

    def size(self, players: int, params: Params) -> int:
        """How many matches (entries of ``draw.matches``) a draw of ``players`` makes at most."""
        raise NotImplementedError

    def first_stage_size(self, players: int, params: Params, advance: int) -> int:
        """``size`` when a knockout of ``advance`` follows (a format that stops early counts less)."""
        return self.size(players, params)

    def too_large_hint(self, players: int, params: Params) -> str:
        """The way out named by ``draw_too_large``."""
        return ": split the field into several tournaments"

    def derive(self, state: TournamentState, spec: DrawSpec) -> TypeResult:
        """The first stage's matches, derived from the facts."""
        raise NotImplementedError

    def rounds(self, n: int, params: Params, advance: int | None) -> Rounds:
        """Every round (name, side) of the first stage of ``n`` players (``advance``: a knockout follows)."""
        raise NotImplementedError

    def check_advance(self, advance: int, n: int, params: Params) -> int:
        """``then.advance`` checked (``bad_advance``); returns how many players the knockout has."""
        raise NotImplementedError

    def knockout_field(self, advance: int, params: Params) -> int:
        """How many players a knockout of ``advance`` after this format has."""
        return advance

    def advancers(self, state: TournamentState, spec: DrawSpec, first: TypeResult,
                  size: int) -> tuple[list[tuple[str, int]], list[str] | None]:
        """(players through so far with the version they went through at, the knockout's ``size``
        seats once every one is known) of a draw with ``then``."""
        raise NotImplementedError

    def out_in_first_stage(self, first: TypeResult) -> set[str]:
        """The players out in the first stage so far (those who went through aside)."""
        raise NotImplementedError

    def qualified(self, state: TournamentState, spec: DrawSpec, result: TypeResult) -> set[str] | None:
        """A finished draw without ``then`` that ends with players going on (``qualified``) instead of
        a champion: who goes on; None for a format with a champion."""
        return None

    def round_label(self, round_name: str, group: str | None, last: Mapping[str, int]) -> Label | None:
        """The code of a round's readable name and its arguments (``last``: each prefix's last round
        number in the draw); None: the round is shown as it is named."""
        number = round_name.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return ("round", {"r": int(number)}) if number.isdigit() else None

    def describe(self, knockouts: Sequence[str]) -> dict[str, Any]:
        """What ``GET /api/draw-formats`` says of this format (``knockouts``: the types a ``then`` may be)."""
        defaults: dict[str, int | None] = {}
        then = None
        if self.next_stage is not None:
            advance = self.next_stage.advance
            sides = race_lengths.sides_of(self.rounds(SAMPLE_FIELD, defaults, advance.default))
            then = {"types": list(knockouts), "advance": advance.json(), "each_group": self.next_stage.each_group,
                    "race_sides": sides}
        return {"name": self.name, "about": self.about, "players_per_match": self.players_per_match,
                "min_players": self.players_per_match, "disciplines": self.disciplines(),
                "params": [p.json() for p in self.params],
                "race_sides": race_lengths.sides_of(self.rounds(SAMPLE_FIELD, defaults, None)), "then": then,
                "view": self.view.json()}
