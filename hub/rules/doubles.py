"""Scotch doubles (PROTOCOL.md section 15): sides of two members who take turns stroke by stroke.

Shared by every two-player discipline: the discipline judges the side (a `shot` names the side in
`player`), this module only says which member of a side is due. The member due is a pure fold of
the events: a side's turns (`shot`, `foul`, `clock_expired`: a stroke, or the foul that takes a
stroke's place) go member 1, member 2, member 1, ... across its innings and racks, in the order the
side gave at `start` (or `lag`), by default the setup's. A break is a stroke like any other. A stroke
by the wrong member is the called foul `out_of_turn`: a foul of the side like any called foul, and
the turn still counts as the due member's (the side's order goes on as if it had been kept), so an
undo or a correction never has to ask who really shot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hub.rules.events import Reject, SetupError
from hub.rules.names import BadName, clean_name

if TYPE_CHECKING:
    from hub.rules.state import MatchState

OUT_OF_TURN = "out_of_turn"
MEMBERS = 2
# The events that are a side's turn at the table: each takes one member's turn.
TURN_KINDS = ("shot", "foul", "clock_expired")
MAX_NAME = 100
MAX_ID = 64


@dataclass(frozen=True, slots=True)
class Member:
    person: str  # a person id of the directory, or the side's own stand-in `<side>.<n>` when none is named
    name: str

    def to_json(self) -> dict[str, str]:
        return {"person": self.person, "name": self.name}


def parse_members(raw: Any, side: str, index: int) -> tuple[Member, ...]:
    """A doubles side's `members`: exactly two {"person"?, "name"}, in the side's order."""
    if not isinstance(raw, list) or len(raw) != MEMBERS:
        raise SetupError(f"player {index + 1}: a doubles side needs members, a list of exactly {MEMBERS}",
                         code="doubles_members")
    out: list[Member] = []
    for n, entry in enumerate(raw, start=1):
        if not isinstance(entry, Mapping):
            raise SetupError(f"player {index + 1}: each member must be an object {{person?, name}}",
                             code="doubles_members")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise SetupError(f"player {index + 1}, member {n}: name must be a non-empty string "
                             f"of at most {MAX_NAME} characters", code="doubles_members")
        try:
            name = clean_name(name, f"player {index + 1}, member {n}: name")
        except BadName as exc:
            raise SetupError(str(exc), code="doubles_members") from None
        person = entry.get("person", f"{side}.{n}")
        if not isinstance(person, str) or not person or len(person) > MAX_ID:
            raise SetupError(f"player {index + 1}, member {n}: person must be a string of 1 to {MAX_ID} "
                             "characters", code="doubles_members")
        out.append(Member(person, name))
    return tuple(out)


def check_allowed(player_count: int, discipline: str) -> None:
    """A doubles match is of two sides: a two-player discipline's."""
    if player_count != MEMBERS:
        raise SetupError(f"{discipline} is a {player_count}-player game: scotch doubles is for two sides",
                         code="doubles_not_allowed")


def check_distinct(players: tuple[Any, ...]) -> None:
    """No person plays on both sides, or twice on one."""
    persons = [m.person for p in players for m in p.members]
    if len(set(persons)) != len(persons):
        raise SetupError("a person plays for one side once: member persons must differ", code="doubles_members")


def doubles_flag(body: Mapping[str, Any]) -> bool:
    value = body.get("doubles", False)
    if not isinstance(value, bool):
        raise SetupError("doubles must be true or false", code="doubles_members")
    return value


# --- commands ---------------------------------------------------------------------------------


def start_members(st: MatchState, cmd: Mapping[str, Any]) -> dict[str, Any]:
    """`members` of a `start` (or the first `lag`): {side: [m1, m2]}, each a person id or {"person"},
    the side's two members in the order they will play; a side left out keeps the setup's order."""
    raw = cmd.get("members")
    if raw is None:
        return {}
    setup = st.setup
    if not setup.doubles:
        raise Reject("bad_command", "members are for a doubles match")
    if st.status != "scheduled":
        raise Reject("bad_command", "members are given when the match begins: the order is kept to its end")
    if not isinstance(raw, Mapping):
        raise Reject("bad_command", "members must be an object: {side: [person, person]}")
    out: dict[str, list[str]] = {}
    for side, order in raw.items():
        if side not in setup.player_index:
            raise Reject("bad_command", f"members: unknown side {str(side)[:64]!r}")
        ids = [m.get("person") if isinstance(m, Mapping) else m for m in order] if isinstance(order, list) else []
        named = [i for i in ids if isinstance(i, str)]
        known = sorted(m.person for m in setup.players[setup.player_index[side]].members)
        if len(named) != len(ids) or sorted(named) != known:
            raise Reject("bad_command", f"members.{side[:64]} must list the side's two members once each")
        out[side] = named
    return {"members": out}


def check_called(st: MatchState, kind: str, data: Mapping[str, Any]) -> None:
    """`out_of_turn` is a called foul of a doubles match only."""
    codes = data.get("called_fouls", ()) if kind == "shot" else (data.get("reason"),) if kind == "foul" else ()
    if OUT_OF_TURN in codes and not st.setup.doubles:
        raise Reject("not_allowed", "out_of_turn is a foul of a doubles match only")


# --- the fold ---------------------------------------------------------------------------------


def apply_start(st: MatchState, data: Mapping[str, Any]) -> None:
    """The sides' orders, as `start` (or `lag`) gave them."""
    for side, order in (data.get("members") or {}).items():
        st.player(side).member_order = tuple(order)


def count_turn(st: MatchState, kind: str, data: Mapping[str, Any]) -> None:
    """One more turn for the side at the table: its next member is due."""
    side = data.get("player")
    if st.setup.doubles and kind in TURN_KINDS and isinstance(side, str):
        st.player(side).member_turns += 1


def order_of(st: MatchState, side: str) -> tuple[str, ...]:
    p = st.player(side)
    return p.member_order or tuple(m.person for m in st.setup.players[st.setup.player_index[side]].members)


def member_due(st: MatchState, side: str | None) -> str | None:
    """The person id of the member of ``side`` due to play its next turn (None in singles)."""
    if not st.setup.doubles or side is None:
        return None
    order = order_of(st, side)
    return order[st.player(side).member_turns % len(order)]


def side_at_table(st: MatchState) -> str | None:
    """The side whose turn it is: the one choosing, else the shooter; none once the match is over."""
    if st.status != "live" or st.rack.phase == "lag":
        return None
    pending = st.rack.pending
    return pending.player if pending is not None else st.rack.shooter


def members_json(st: MatchState, side: str) -> list[dict[str, str]] | None:
    """`players[].members`: the side's members in its order (None in singles)."""
    if not st.setup.doubles:
        return None
    by_person = {m.person: m for m in st.setup.players[st.setup.player_index[side]].members}
    return [by_person[pid].to_json() for pid in order_of(st, side)]
