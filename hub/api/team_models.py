"""OpenAPI models of the team calls (hub/api/teams.py, PROTOCOL.md section 15)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from hub.api.model_kit import _Open


class LineupBody(BaseModel):
    rubber: int = Field(ge=1, description="The rubber, 1-based.")
    team: str = Field(description="The team (an entry of the tournament) naming its players for it.")
    members: list[str] = Field(description="The team's member ids who play it: one for singles, two for doubles.")


class TeamMatchDeskView(_Open):
    """A team match as the desk sees it: every lineup named so far (the public sees them once both are in)."""

    key: str
    players: list[str | None] = Field(description="The two teams (null: not known yet).")
    status: str
    team: dict[str, Any] = Field(description="The score in rubbers, `to_win`, and each rubber with its kind, "
                                             "lineups, status, match and result.")


class TeamPresets(_Open):
    presets: list[dict[str, Any]] = Field(description="Team events the desk sets up in a few steps (Mosconi-style, "
                                                      "World-Cup-style, a league night): each a draw body to lay "
                                                      "over the draw step.")
