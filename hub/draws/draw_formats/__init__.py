"""Every draw format by its name (``FORMATS``): the one place the draw logic learns what formats there are.

Each format is one object (``base.DrawFormat``) in a module of its own here; nothing else in the hub
names a format (``tests/draws/test_draw_formats.py`` checks).  Adding one (a Swiss system, say):

1. a module here with its ``DrawFormat`` subclass: its settings (``params``), ``size``, ``derive``
   (its matches from the facts, as ``brackets``, ``round_robin`` and ``chase`` do), ``rounds``, and
   what it changes of the defaults (``check_field``, a ``next_stage``, ``round_label``...);
2. its line in ``FORMATS`` below;
3. its names in the language tables (``dt_<name>``, ``dk_about_<name>``, ``br_type_<name>`` in
   ``clients/web/js/i18n.js``; round-name codes it adds in ``hub/tournaments/round_names.py``);
4. its tests.

The desk reads the formats, their settings and the disciplines they take from ``GET
/api/draw-formats`` (``catalogue``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hub.draws.draw_formats.base import DrawFormat, Param
from hub.draws.draw_formats.chase_groups import ChaseGroups
from hub.draws.draw_formats.double_elimination import DoubleElimination
from hub.draws.draw_formats.round_robin import RoundRobin
from hub.draws.draw_formats.single_elimination import SingleElimination

if TYPE_CHECKING:
    from hub.draws.state import TournamentState

FORMATS: dict[str, DrawFormat] = {
    f.name: f for f in (SingleElimination(), DoubleElimination(), RoundRobin(), ChaseGroups())
}
__all__ = ["DEFAULT", "FORMATS", "DrawFormat", "Param", "catalogue", "format_of", "forms_rounds_again", "knockouts",
           "names", "owners", "params", "staged"]

DEFAULT = "double_elimination"  # what the desk offers first (when the discipline fits it)


def format_of(name: str) -> DrawFormat:
    """The format of that name (KeyError when there is none: a draw is made of a known format only)."""
    return FORMATS[name]


def names() -> tuple[str, ...]:
    return tuple(FORMATS)


def params() -> dict[str, Param]:
    """Every format's settings by name, in the registry's order (a name shared by formats once)."""
    out: dict[str, Param] = {}
    for f in FORMATS.values():
        for p in f.params:
            out.setdefault(p.name, p)
    return out


def owners(param: str) -> list[str]:
    """The formats that take the setting ``param``."""
    return [f.name for f in FORMATS.values() if any(p.name == param for p in f.params)]


def knockouts() -> tuple[str, ...]:
    """The types a next stage (``then``) may be."""
    return tuple(f.name for f in FORMATS.values() if f.knockout)


def staged() -> tuple[str, ...]:
    """The formats a next stage may follow."""
    return tuple(f.name for f in FORMATS.values() if f.next_stage is not None)


def catalogue() -> dict[str, Any]:
    """``GET /api/draw-formats``: every format with the disciplines it takes and its settings."""
    return {"formats": [f.describe(knockouts()) for f in FORMATS.values()], "default": DEFAULT}


def forms_rounds_again(state: TournamentState) -> bool:
    """Whether the draw forms a round again without a player who withdrew before any of its matches
    started (``chase``): the I/O layer then takes that round's called matches off their tables."""
    return state.draw is not None and format_of(state.draw.type).forms_rounds_again
