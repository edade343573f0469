"""OpenAPI models of the corrections during a live event (PROTOCOL.md section 9, hub/api/corrections.py).

Documentation only, like `competition_models.py`: the handlers read their bodies with
`errors.read_json`, and the rules (`hub/rules/entered.py`) and the draw logic check them.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from hub.api.competition_models import CompetitionProjection, Player
from hub.api.models import _Open

__all__ = ["Archived", "CompetitionProjection", "Deleted", "Player", "PlayerRemoved", "ResultEntry"]


class ResultEntry(BaseModel):
    winner: str | None = Field(description="The winner's id: the best score (in a race, the race reached); "
                                           "null only for a ranked match whose top score is shared.")
    score: dict[str, int] = Field(description="Every player's score: racks won in a race, points in a match of "
                                              "racks or minutes (net points summing to zero in a ranked discipline: "
                                              "`ranked` in GET /api/disciplines).")
    reason: str | None = Field(None, max_length=200, description="Why it was entered by hand; shown on every screen.")


class Deleted(_Open):
    id: str
    deleted: bool


class PlayerRemoved(_Open):
    """A player taken out before the draw: gone from the tournament, not withdrawn."""

    id: str
    name: str
    removed: bool


class Archived(_Open):
    id: str
    archived: bool
