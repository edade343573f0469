"""Every discipline's rules object by its name (`DISCIPLINES`); the shared base class is in
discipline.py. decide, evolve and projection look a match's discipline up here.
"""

from __future__ import annotations

from hub.rules.chase_nine import ChaseNine
from hub.rules.chinese_eight import ChineseEight
from hub.rules.discipline import Discipline
from hub.rules.golden_nine import GoldenNine
from hub.rules.other_game import OtherGame
from hub.rules.wpa_eight import WpaEight
from hub.rules.wpa_nine import WpaNine
from hub.rules.wpa_ten import WpaTen

DISCIPLINES: dict[str, Discipline] = {
    d.name: d for d in (GoldenNine(), WpaNine(), ChineseEight(), ChaseNine(), WpaEight(), WpaTen(), OtherGame())
}
