"""The groups of the eight-ball disciplines (traits ``groups``): solids 1-7, stripes 9-15,
the 8 black; an open table until a stroke gives the groups."""

from __future__ import annotations

from hub.rules import notes
from hub.rules.notes import Note
from hub.rules.state import MatchState

SOLIDS = frozenset(range(1, 8))
STRIPES = frozenset(range(9, 16))
GROUPS = {"solids": SOLIDS, "stripes": STRIPES}


def group_of(ball: int | None) -> str | None:
    if ball in SOLIDS:
        return "solids"
    if ball in STRIPES:
        return "stripes"
    return None


def other_group(group: str) -> str:
    return "stripes" if group == "solids" else "solids"


def own_balls(st: MatchState, pid: str) -> set[int] | None:
    """The balls of ``pid``'s group still on the table; None while the table is open."""
    group = st.player(pid).group
    if st.rack.table_open or group is None:
        return None
    return st.rack.on_table & GROUPS[group]


def assign(st: MatchState, pid: str, opponent: str, group: str, note: list[Note]) -> None:
    """``pid`` takes ``group`` and the opponent the other: the table is closed."""
    st.player(pid).group = group
    st.player(opponent).group = other_group(group)
    st.rack.table_open = False
    note.append(notes.TAKES_GROUP(player=pid, group=group))
