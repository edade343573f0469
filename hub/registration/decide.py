"""Registration commands -> one event (pure: the time and whether the draw is made are given).

`decide(state, command, now, draw_made)` returns `(kind, data)`, or None when there is nothing to
store (a player the desk withdrew was no entry's), or raises `RegistrationReject`.

Commands: `configure` `{"registration"}`; `sign_up` `{"name", "club"?, "contact"?, "secret_hash"}`
(the I/O layer makes the secret; entries are `e1`, `e2`, ... in order); `accept`, `reject`,
`waitlist`, `cancel`, `check_in` `{"entry", "by": "desk" | "self"}`; `player_left` `{"player"}` (the desk withdrew or
removed a player itself); `close_check_in`; and the steps that keep the tournament's players in line
with the entries, `player_added` `{"entry", "player" | null, "refused"?}`, `player_out` `{"entry", "how"}`.

Rules: registration is closed until opened, after `closes_at`, and once the draw is made. With
`auto_accept` entries are accepted in order up to `cap` and waitlisted after it (without it they
are pending). An entry that stops playing before the draw (cancelled, rejected, waitlisted or
withdrawn) gives its place to the first waitlisted entry. A player checks in with their link
inside the window; the desk from the time entries are accepted until the close.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.draws import fields
from hub.draws.events import DrawReject
from hub.people import folding
from hub.registration.state import (
    ACCEPTED,
    CANCELLED,
    CHECKED_IN,
    PENDING,
    PLAYING,
    REJECTED,
    WAITLISTED,
    Entry,
    RegistrationState,
)

MAX_CAP = 1024  # a tournament's players (hub/draws/player_commands.py)
MAX_CONTACT = 200
MAX_ENTRIES = 5000
MAX_MS = 2 ** 53

# command -> (event kind, the statuses it is taken from, its new status)
MOVES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "accept": ("entry_accepted", (PENDING, WAITLISTED, REJECTED), ACCEPTED),
    "reject": ("entry_rejected", (PENDING, WAITLISTED, ACCEPTED, CHECKED_IN), REJECTED),
    "waitlist": ("entry_waitlisted", (PENDING, ACCEPTED, REJECTED), WAITLISTED),
    "cancel": ("entry_cancelled", (PENDING, ACCEPTED, WAITLISTED, CHECKED_IN), CANCELLED),
    "check_in": ("entry_checked_in", (ACCEPTED,), CHECKED_IN),
}


class RegistrationReject(DrawReject):
    """A refused registration command: `status` and `code` are the HTTP answer's."""


def bad(message: str) -> RegistrationReject:
    return RegistrationReject(422, "bad_request", message)


def conflict(code: str, message: str) -> RegistrationReject:
    return RegistrationReject(409, code, message)


def entry_key(name: str, contact: str | None) -> str:
    """Two sign-ups are the same entry when their names and contacts fold alike (case, width,
    accents, spaces: hub/people/folding.py)."""
    return f"{folding.fold(name)}\x1f{folding.fold(contact or '')}"


def _ms(value: Any, what: str) -> int | None:
    if value is None:
        return None
    return fields.whole(value, what, 0, MAX_MS)


def _configure(state: RegistrationState, raw: Any) -> tuple[str, dict[str, Any]]:
    reg = _checked(fields.mapping(raw, "registration"), "registration")
    fields.only(reg, ("open", "closes_at", "cap", "auto_accept", "check_in"), "registration")
    now = state.settings.public()
    out: dict[str, Any] = {**now}
    if "open" in reg:
        out["open"] = fields.flag(reg["open"], "registration.open")
    if "auto_accept" in reg:
        out["auto_accept"] = fields.flag(reg["auto_accept"], "registration.auto_accept")
    if "closes_at" in reg:
        out["closes_at"] = _ms(reg["closes_at"], "registration.closes_at")
    if "cap" in reg:
        out["cap"] = None if reg["cap"] is None else fields.whole(reg["cap"], "registration.cap", 1, MAX_CAP)
    if "check_in" in reg:
        out["check_in"] = _window(state, reg["check_in"])
    return "registration_set", {"settings": out}


def _checked(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise bad(f"{what} must be an object")
    return value


def _window(state: RegistrationState, raw: Any) -> dict[str, Any] | None:
    if state.check_in_closed:
        raise conflict("check_in_closed", "the check-in has closed: its window cannot change now")
    if raw is None:
        return None
    window = _checked(raw, "registration.check_in")
    fields.only(window, ("opens_at", "closes_at"), "registration.check_in")
    opens = _ms(window.get("opens_at"), "registration.check_in.opens_at")
    closes = _ms(fields.required(window, "closes_at"), "registration.check_in.closes_at")
    if closes is None:
        raise bad("registration.check_in.closes_at must be a time (ms); null the whole check_in to remove it")
    if opens is not None and opens >= closes:
        raise bad("registration.check_in: opens_at must be before closes_at")
    return {"opens_at": opens, "closes_at": closes}


def _sign_up(state: RegistrationState, cmd: Mapping[str, Any], now: int, draw_made: bool) -> tuple[str, dict]:
    fields.only(cmd, ("kind", "name", "club", "contact", "secret_hash"))
    name = fields.text(fields.required(cmd, "name"), "name")
    club = cmd.get("club")
    club = None if club is None or (isinstance(club, str) and not club.strip()) else fields.text(club, "club")
    contact = cmd.get("contact")
    if contact is not None:
        if not isinstance(contact, str):
            raise bad("contact must be a string")
        contact = contact.strip() or None
        if contact is not None and len(contact) > MAX_CONTACT:
            raise bad(f"contact must be at most {MAX_CONTACT} characters")
        if contact is not None:
            contact = fields.text(contact, "contact", max_len=MAX_CONTACT)
    s = state.settings
    if not s.open or (s.closes_at is not None and now >= s.closes_at) or draw_made:
        raise conflict("registration_closed", "registration for this tournament is closed")
    if len(state.entries) >= MAX_ENTRIES:
        raise conflict("registration_closed", f"this tournament has taken {MAX_ENTRIES} entries")
    key = entry_key(name, contact)
    if any(e.key == key and e.status not in (CANCELLED, REJECTED) for e in state.entries.values()):
        raise conflict("already_entered", "an entry with this name and contact exists already")
    if not s.auto_accept:
        status = PENDING
    elif s.cap is None or state.playing() < s.cap:
        status = ACCEPTED
    else:
        status = WAITLISTED
    entry = {"id": f"e{len(state.entries) + 1}", "name": name, "club": club, "contact": contact, "key": key,
             "secret_hash": cmd["secret_hash"]}
    return "entry_added", {"entry": entry, "status": status}


def _known(state: RegistrationState, value: Any) -> Entry:
    eid = fields.ident(value, "entry")
    entry = state.entry(eid)
    if entry is None:
        raise RegistrationReject(404, "unknown_entry", f"no entry {eid!r} in this tournament")
    return entry


def _promoted(state: RegistrationState, leaving: Entry, draw_made: bool) -> str | None:
    """The first waitlisted entry, when `leaving` gives up a place before the draw."""
    if leaving.status not in PLAYING or draw_made:
        return None
    cap = state.settings.cap
    if cap is not None and state.playing() - 1 >= cap:
        return None  # the cap was lowered meanwhile: no place is free
    waiting = [e for e in state.waitlist() if e.id != leaving.id]
    return waiting[0].id if waiting else None


def _move(state: RegistrationState, cmd: Mapping[str, Any], now: int, draw_made: bool) -> tuple[str, dict]:
    fields.only(cmd, ("kind", "entry", "by"))
    entry = _known(state, fields.required(cmd, "entry"))
    by = cmd.get("by", "desk")
    kind, sources, status = MOVES[cmd["kind"]]
    if entry.status == status:
        raise conflict(f"already_{status}", f"entry {entry.id} is {status} already")
    if cmd["kind"] == "check_in":
        _may_check_in(state, by, now)
    if entry.status not in sources:
        raise conflict("wrong_status", f"entry {entry.id} is {entry.status}: it cannot be made {status}")
    if cmd["kind"] == "waitlist" and entry.status == ACCEPTED and draw_made:
        raise conflict("draw_made", "the draw is made: withdraw or reject the entry instead")
    promoted = _promoted(state, entry, draw_made) if status in (CANCELLED, REJECTED, WAITLISTED) else None
    return kind, {"entry": entry.id, "by": by, "promoted": promoted}


def _may_check_in(state: RegistrationState, by: Any, now: int) -> None:
    s = state.settings
    if state.check_in_closed or (s.check_in_closes_at is not None and now >= s.check_in_closes_at):
        raise conflict("check_in_closed", "the check-in has closed")
    not_yet = s.check_in_closes_at is None or (s.check_in_opens_at is not None and now < s.check_in_opens_at)
    if by == "self" and not_yet:
        raise conflict("check_in_not_open", "the check-in is not open yet")


def _player_left(state: RegistrationState, cmd: Mapping[str, Any], draw_made: bool) -> tuple[str, dict] | None:
    pid = cmd.get("player")
    entry = next((e for e in state.entries.values()
                  if e.player == pid and not e.player_out and e.status in PLAYING), None)
    if entry is None:
        return None
    return "entry_withdrawn", {"entry": entry.id, "by": "desk", "promoted": _promoted(state, entry, draw_made)}


def _close(state: RegistrationState, now: int) -> tuple[str, dict]:
    closes = state.settings.check_in_closes_at
    if state.check_in_closed:
        raise conflict("check_in_closed", "the check-in has closed already")
    if closes is None or now < closes:
        raise conflict("check_in_open", "the check-in window has not reached its close")
    return "check_in_closed", {"no_shows": [e.id for e in state.entries.values() if e.status == ACCEPTED]}


def decide(state: RegistrationState, command: Mapping[str, Any], now: int,
           draw_made: bool) -> tuple[str, dict[str, Any]] | None:
    kind = command.get("kind")
    if kind == "configure":
        return _configure(state, command.get("registration"))
    if kind == "sign_up":
        return _sign_up(state, command, now, draw_made)
    if kind in MOVES:
        return _move(state, command, now, draw_made)
    if kind == "player_left":
        return _player_left(state, command, draw_made)
    if kind == "close_check_in":
        return _close(state, now)
    if kind == "player_added":
        return "entry_player_added", {k: command.get(k) for k in ("entry", "player", "refused")}
    if kind == "player_out":
        return "entry_player_out", {"entry": command["entry"], "how": command["how"]}
    raise bad(f"unknown registration command {kind!r}")


def _step_of(entry: Entry, players: Mapping[str, bool]) -> str | None:
    held = entry.player is not None and not entry.player_out
    if entry.status in PLAYING and not held and entry.refused is None:
        return "add"
    if entry.status not in PLAYING and held:
        return "out"
    if held and entry.status in PLAYING and players.get(entry.player or "", True):
        return "gone"  # the desk removed or withdrew the player itself: nothing to take out
    return None


def next_step(state: RegistrationState, players: Mapping[str, bool]) -> tuple[str, Entry] | None:
    """What the tournament's players lack to follow the entries: ("add", entry) for a playing
    entry that is no player (yet, or again), ("out", entry) for a player whose entry stopped
    playing. `players`: the tournament's player ids -> whether they are withdrawn."""
    for entry in state.entries.values():
        how = _step_of(entry, players)
        if how is not None:
            return how, entry
    return None


def adds_in_a_row(state: RegistrationState, players: Mapping[str, bool], limit: int) -> list[Entry]:
    """The entries `next_step` would add one after another (at most `limit`), stopping before the
    first other step: adding them in one tournament command takes the steps in the same order."""
    adds: list[Entry] = []
    for entry in state.entries.values():
        how = _step_of(entry, players)
        if how is None:
            continue
        if how != "add" or len(adds) >= limit:
            break
        adds.append(entry)
    return adds
