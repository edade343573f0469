"""The registry: every discipline's rules object by its name (`DISCIPLINES`), one line each; the
shared base class is in discipline.py, what a discipline is as data in traits.py. decide, evolve,
projection and setup look a match's discipline up here, and every list of discipline names in the
hub is read from here (a new discipline is its module, its line below, its names in the pages'
language tables and its test).
"""

from __future__ import annotations

from hub.rules.chase_nine import ChaseNine
from hub.rules.chinese_eight import ChineseEight
from hub.rules.discipline import Discipline
from hub.rules.golden_nine import GoldenNine
from hub.rules.other_game import OtherGame
from hub.rules.traits import Traits
from hub.rules.wpa_eight import WpaEight
from hub.rules.wpa_nine import WpaNine
from hub.rules.wpa_ten import WpaTen

DISCIPLINES: dict[str, Discipline] = {
    d.name: d
    for d in (
        GoldenNine(),
        WpaNine(),
        ChineseEight(),
        ChaseNine(),
        WpaEight(),
        WpaTen(),
        OtherGame(),
    )
}


def names() -> tuple[str, ...]:
    """Every discipline's name, in the registry's order."""
    return tuple(DISCIPLINES)


def traits_of(name: str) -> Traits:
    return DISCIPLINES[name].traits


def catalogue() -> list[dict[str, object]]:
    """``GET /api/disciplines``'s list: every discipline's traits as JSON, in the registry's order."""
    return [d.traits.to_json() for d in DISCIPLINES.values()]
