"""People across events (PROTOCOL.md section 12): the directory, profiles, head-to-head, merges,
and the statistics of an event's entries and of a match. Mixed into :class:`AdminClient`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .types import Person


class PeopleCalls:
    """Reads are public; writes send the admin token (``AdminClient`` provides the plumbing)."""

    async def _get(self, path: str, **params: Any) -> Any:  # provided by AdminClient
        raise NotImplementedError

    async def _admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        raise NotImplementedError

    async def search_people(self, q: str | None = None, *, cursor: str | None = None,
                            limit: int | None = None) -> dict[str, Any]:
        """One page of the directory: ``{"people": [...], "next": cursor | None}``. ``q`` folds case,
        width and accents, and finds Chinese names by toneless pinyin (``wang ye`` finds 王也)."""
        return await self._get("/api/people", q=q, cursor=cursor, limit=limit)

    async def create_people(self, people: Iterable[dict[str, Any] | str]) -> list[Person]:
        """Make people (dicts with name, club?, aliases?, or plain names); the ones made."""
        batch = [{"name": p} if isinstance(p, str) else p for p in people]
        return (await self._admin("POST", "/api/people", {"people": batch}))["people"]

    async def get_person(self, person_id: str) -> dict[str, Any]:
        """The profile, or ``{"merged_into": id}`` for a person merged into another."""
        return await self._get(f"/api/people/{person_id}")

    async def update_person(self, person_id: str, **changes: Any) -> Person:
        return await self._admin("PATCH", f"/api/people/{person_id}", changes)

    async def delete_person(self, person_id: str) -> dict[str, Any]:
        return await self._admin("DELETE", f"/api/people/{person_id}")

    async def person_matches(self, person_id: str, *, cursor: str | None = None, discipline: str | None = None,
                             limit: int | None = None) -> dict[str, Any]:
        """Their finished matches and walkovers, newest first: ``{"matches": [...], "next"}``."""
        return await self._get(f"/api/people/{person_id}/matches", cursor=cursor, discipline=discipline, limit=limit)

    async def versus(self, a: str, b: str) -> dict[str, Any]:
        return await self._get(f"/api/people/{a}/versus/{b}")

    async def merge_person(self, person_id: str, into: str) -> dict[str, Any]:
        return await self._admin("POST", f"/api/people/{person_id}/merge", {"into": into})

    async def unmerge_person(self, person_id: str) -> dict[str, Any]:
        return await self._admin("POST", f"/api/people/{person_id}/unmerge", {})

    async def tournament_stats(self, tournament_id: str) -> dict[str, Any]:
        return await self._get(f"/api/tournaments/{tournament_id}/stats")

    async def match_stats(self, match_id: str) -> dict[str, Any]:
        return await self._get(f"/api/matches/{match_id}/stats")
