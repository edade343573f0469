"""OpenAPI models of the no-show calls and the tournament's settings (hub/api/no_shows.py,
hub/api/tournament_settings.py; PROTOCOL.md section 16)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hub.api.registration_models import Registration, RegistrationSettings


class TournamentSettings(BaseModel):
    no_show_minutes: float | None = Field(None, gt=0, le=1440,
                                          description="A called match not started this many minutes after its call "
                                                      "is flagged on the desk (fractions allowed; default 10).")
    registration: RegistrationSettings | None = Field(None, description="Sign-up and check-in (PROTOCOL.md "
                                                                        "section 14).")


class SettingsAnswer(BaseModel):
    id: str
    no_show_minutes: float
    registration: Registration | None = Field(None, description="The registration now, when the body changed it.")


class NoShow(BaseModel):
    key: str
    match_id: str
    table_id: str
    players: list[str]
    called_at: int = Field(description="Server ms of the call.")
    no_show_at: int = Field(description="Server ms it was flagged (the setting, or the desk's wait).")
    since_ms: int = Field(description="How long ago it was called.")


class NoShows(BaseModel):
    no_show_minutes: float
    server_time: int
    flagged: list[NoShow] = Field(description="Called matches not started in time, oldest call first.")


class Wait(BaseModel):
    minutes: float | None = Field(5, gt=0, le=120, description="How long to wait before flagging it again.")


class Waited(BaseModel):
    key: str
    no_show_at: int | None = Field(description="Server ms it is flagged again if it has not started.")
