"""The registration stream of a tournament and its pure fold.

Events (`{"version", "kind", "data", "at"}` like the other streams):

- `registration_set` `{"settings"}`: the whole settings after a PATCH (open, closes_at, cap,
  auto_accept, check_in);
- `entry_added` `{"entry": {id, name, club, contact, key, secret_hash}, "status"}`: a sign-up;
- `entry_accepted`, `entry_rejected`, `entry_waitlisted`, `entry_cancelled`, `entry_checked_in`,
  `entry_withdrawn` `{"entry", "by", "promoted"}`: a change of status (`promoted`: the waitlisted
  entry accepted in the place this one left, or null);
- `check_in_closed` `{"no_shows": [entry ids]}`: the window's close; those entries are `no_show`;
- `entry_player_added` `{"entry", "player", "refused"?}` and `entry_player_out` `{"entry", "how"}`:
  the tournament's players following the entries (stored in the same transaction as the
  tournament's own event that adds, removes or withdraws the player).

The contact and the secret's hash live here only: no public read shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

PENDING, ACCEPTED, WAITLISTED, REJECTED = "pending", "accepted", "waitlisted", "rejected"
CANCELLED, CHECKED_IN, NO_SHOW = "cancelled", "checked_in", "no_show"
STATUSES = (PENDING, ACCEPTED, WAITLISTED, REJECTED, CANCELLED, CHECKED_IN, NO_SHOW)
PLAYING = (ACCEPTED, CHECKED_IN)  # the statuses of an entry that is a tournament player
STATUS_OF = {"entry_accepted": ACCEPTED, "entry_rejected": REJECTED, "entry_waitlisted": WAITLISTED,
             "entry_cancelled": CANCELLED, "entry_checked_in": CHECKED_IN, "entry_withdrawn": CANCELLED}


@dataclass(frozen=True, slots=True)
class Event:
    version: int
    kind: str
    data: dict[str, Any]
    at: int


@dataclass(frozen=True, slots=True)
class Settings:
    open: bool = False
    closes_at: int | None = None
    cap: int | None = None
    auto_accept: bool = False
    check_in_opens_at: int | None = None
    check_in_closes_at: int | None = None

    def public(self) -> dict[str, Any]:
        window = None
        if self.check_in_closes_at is not None:
            window = {"opens_at": self.check_in_opens_at, "closes_at": self.check_in_closes_at}
        return {"open": self.open, "closes_at": self.closes_at, "cap": self.cap,
                "auto_accept": self.auto_accept, "check_in": window}


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    seq: int
    name: str
    club: str | None
    contact: str | None
    key: str  # the folded name and contact: a second sign-up with the same key is refused
    secret_hash: str
    at: int
    status: str
    status_at: int
    player: str | None = None  # the tournament player it is (or was)
    player_out: bool = False  # that player was removed or withdrawn since
    refused: str | None = None  # the tournament refused the player (e.g. draw_used): not retried
    promoted: bool = False  # accepted off the waitlist
    queued: int = 0  # the version that waitlisted it: the waitlist is in that order


@dataclass(frozen=True, slots=True)
class RegistrationState:
    tournament_id: str
    version: int = 0
    settings: Settings = Settings()
    entries: Mapping[str, Entry] = field(default_factory=dict)  # in order of sign-up
    check_in_closed: bool = False
    no_shows: tuple[str, ...] = ()

    def entry(self, eid: str) -> Entry | None:
        return self.entries.get(eid)

    def playing(self) -> int:
        return sum(1 for e in self.entries.values() if e.status in PLAYING)

    def waitlist(self) -> list[Entry]:
        return sorted((e for e in self.entries.values() if e.status == WAITLISTED), key=lambda e: (e.queued, e.seq))

    def place(self, eid: str) -> int | None:
        """The entry's place on the waitlist (1 = next to be promoted), or None."""
        for i, e in enumerate(self.waitlist(), 1):
            if e.id == eid:
                return i
        return None

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for e in self.entries.values():
            out[e.status] += 1
        return {**out, "total": len(self.entries)}


def _settings(raw: Mapping[str, Any]) -> Settings:
    window = raw.get("check_in") or {}
    return Settings(open=bool(raw.get("open")), closes_at=raw.get("closes_at"), cap=raw.get("cap"),
                    auto_accept=bool(raw.get("auto_accept")), check_in_opens_at=window.get("opens_at"),
                    check_in_closes_at=window.get("closes_at"))


def _with(state: RegistrationState, *changed: Entry) -> Mapping[str, Entry]:
    entries = dict(state.entries)
    for e in changed:
        entries[e.id] = e
    return entries


def evolve(state: RegistrationState, event: Event) -> RegistrationState:
    """The state after `event` (pure; an unknown kind only advances the version)."""
    d, at = event.data, event.at
    state = replace(state, version=event.version)
    if event.kind == "registration_set":
        return replace(state, settings=_settings(d["settings"]))
    if event.kind == "entry_added":
        e = d["entry"]
        entry = Entry(id=e["id"], seq=len(state.entries) + 1, name=e["name"], club=e.get("club"),
                      contact=e.get("contact"), key=e["key"], secret_hash=e["secret_hash"], at=at,
                      status=d["status"], status_at=at, queued=event.version)
        return replace(state, entries=_with(state, entry))
    if event.kind in STATUS_OF:
        entry = replace(state.entries[d["entry"]], status=STATUS_OF[event.kind], status_at=at, queued=event.version)
        if event.kind == "entry_withdrawn":  # the desk withdrew or removed the player itself
            entry = replace(entry, player_out=True)
        changed = [entry]
        if d.get("promoted"):
            changed.append(replace(state.entries[d["promoted"]], status=ACCEPTED, status_at=at, promoted=True))
        return replace(state, entries=_with(state, *changed))
    if event.kind == "check_in_closed":
        gone = [replace(state.entries[eid], status=NO_SHOW, status_at=at) for eid in d["no_shows"]]
        return replace(state, entries=_with(state, *gone), check_in_closed=True, no_shows=tuple(d["no_shows"]))
    if event.kind == "entry_player_added":
        entry = state.entries[d["entry"]]
        if d.get("player") is None:  # the tournament refused it (e.g. draw_used): not tried again
            entry = replace(entry, refused=d.get("refused") or "refused")
        else:
            entry = replace(entry, player=d["player"], player_out=False, refused=None)
        return replace(state, entries=_with(state, entry))
    if event.kind == "entry_player_out":
        return replace(state, entries=_with(state, replace(state.entries[d["entry"]], player_out=True)))
    return state


def fold(tournament_id: str, events: Iterable[Event]) -> RegistrationState:
    state = RegistrationState(tournament_id)
    for event in events:
        state = evolve(state, event)
    return state


def public_entry(state: RegistrationState, entry: Entry) -> dict[str, Any]:
    """What the entry's own holder sees (no contact: a link may be shared or shown on a screen)."""
    return {"id": entry.id, "name": entry.name, "club": entry.club, "status": entry.status,
            "place": state.place(entry.id), "promoted": entry.promoted,
            "player": entry.player if entry.status in PLAYING and not entry.player_out else None,
            "at": entry.at, "status_at": entry.status_at}


def desk_entry(state: RegistrationState, entry: Entry) -> dict[str, Any]:
    """The desk's row: with the contact, and whether the tournament holds the player."""
    in_play = entry.player is not None and not entry.player_out
    return {**public_entry(state, entry), "contact": entry.contact, "in_play": in_play,
            "refused": entry.refused}


def public_registration(state: RegistrationState, now: int) -> dict[str, Any]:
    """The registration as anyone may read it (the sign-up page, the board): settings and counts."""
    s = state.settings
    accepting = s.open and (s.closes_at is None or now < s.closes_at)
    counts = state.counts()
    return {**s.public(), "accepting": accepting, "check_in_closed": state.check_in_closed,
            "counts": {"accepted": counts[ACCEPTED] + counts[CHECKED_IN], "checked_in": counts[CHECKED_IN],
                       "waitlisted": counts[WAITLISTED]}}
