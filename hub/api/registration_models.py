"""OpenAPI models of sign-up and check-in (PROTOCOL.md section 14): what `hub/api/registration.py`
takes and answers. Documentation only, like `models.py`: the handlers read their bodies with
`errors.read_json` and `hub/registration/decide.py` checks them. docs/registration.md says more.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from hub.api.competition_models import Club, PlayerName
from hub.api.model_kit import _Open

Status = Literal["pending", "accepted", "waitlisted", "rejected", "cancelled", "checked_in", "no_show"]
Ms = Field(ge=0, description="Server time in ms since the epoch.")


class CheckInWindow(BaseModel):
    opens_at: int | None = Field(None, ge=0, description="From when a player may check in with their link (null: "
                                 "as soon as they are accepted).")
    closes_at: int = Field(ge=0, description="When the window closes: accepted players not checked in are no-shows.")


class RegistrationSettings(BaseModel):
    """Any of the fields; the others keep their values."""

    open: bool | None = None
    closes_at: int | None = Field(None, ge=0, description="No sign-up from then on (null: until closed by hand).")
    cap: int | None = Field(None, ge=1, le=1024, description="Accepted players at most (null: no cap).")
    auto_accept: bool | None = Field(None, description="Accept in order up to `cap`, waitlist after it "
                                     "(else entries are pending until the desk decides).")
    check_in: CheckInWindow | None = None


class Registration(_Open):
    open: bool
    closes_at: int | None
    cap: int | None
    auto_accept: bool
    check_in: CheckInWindow | None
    accepting: bool = Field(description="Whether a sign-up is taken now.")
    check_in_closed: bool
    counts: dict[str, int] = Field(description="`accepted` (checked-in included), `checked_in`, `waitlisted`.")


class SignUp(BaseModel):
    name: PlayerName
    club: Club | None = None
    contact: str | None = Field(None, max_length=200, description="Phone, e-mail or chat id for the organiser: "
                                "never in a public answer, page, export or channel.")


class Entry(_Open):
    id: str
    name: str
    club: str | None
    status: Status
    place: int | None = Field(description="The place on the waitlist (1: next), or null.")
    promoted: bool = Field(description="Accepted off the waitlist.")
    player: str | None = Field(description="The tournament player it is (section 7), while it plays.")


class OwnEntry(Entry):
    tournament_id: str
    registration: Registration


class DeskEntry(Entry):
    contact: str | None
    in_play: bool = Field(description="The tournament holds the entry's player now.")
    refused: str | None = Field(description="Why the tournament refused the player (e.g. `draw_used`), or null.")


class SignedUp(BaseModel):
    entry: Entry
    secret: str = Field(description="Shown once: the link `/enter/{tid}#secret=...` sees, cancels and checks in.")
    link: str = Field(description="That link, on this hub.")


class DeskEntries(BaseModel):
    entries: list[DeskEntry]
    counts: dict[str, int] = Field(description="Entries by status, and `total`.")
    registration: Registration
    no_shows: list[str] = Field(description="The entries the check-in's close made no-shows.")
