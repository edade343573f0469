"""decide / evolve / fold / projection: the rules engine's public face (see __init__.py).

The engine is split by step: decide.py (commands -> events), evolve.py (events -> state),
clock.py (the shot and match clocks, from event times), projection.py (state -> JSON), and
disciplines.py (the disciplines by name). Every name is importable from here.
"""

from __future__ import annotations

from hub.rules.clock import COUNTDOWN_MS, WARNING_MS
from hub.rules.decide import REFUSED_WHILE_PAUSED, decide
from hub.rules.disciplines import DISCIPLINES
from hub.rules.evolve import LINK_KINDS, evolve, fold, initial
from hub.rules.projection import projection, short_projection

__all__ = [
    "COUNTDOWN_MS",
    "DISCIPLINES",
    "LINK_KINDS",
    "REFUSED_WHILE_PAUSED",
    "WARNING_MS",
    "decide",
    "evolve",
    "fold",
    "initial",
    "projection",
    "short_projection",
]
