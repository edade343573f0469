"""REST setup calls (PROTOCOL.md section 1)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

import httpx

from ._util import http_url
from .errors import CommandRejected, HubError
from .people import PeopleCalls
from .types import Ack, DisciplineTraits, Match, PlayerSpec, StoredEvent, Table, Tournament


class AdminClient(PeopleCalls):
    """Async client for the hub's REST API (people across events: :class:`PeopleCalls`).

    Write calls send ``admin_token``; reads are public. Use as an async context manager
    or call :meth:`aclose`. ``transport`` lets tests plug an ``httpx.ASGITransport``.
    """

    def __init__(
        self,
        base_url: str,
        admin_token: str | None = None,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = http_url(base_url)
        self.admin_token = admin_token
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> AdminClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # -- plumbing ---------------------------------------------------------------------
    def _admin_headers(self) -> dict[str, str]:
        if not self.admin_token:
            raise ValueError("this call needs an admin token")
        return {"Authorization": f"Bearer {self.admin_token}"}

    @staticmethod
    def _check(resp: httpx.Response) -> Any:
        try:
            body = resp.json()
        except ValueError:
            body = None
        if resp.status_code >= 400:
            err = body.get("error") if isinstance(body, dict) else None
            if isinstance(err, dict):
                raise HubError(resp.status_code, str(err.get("code")), str(err.get("message")), body)
            detail = body.get("detail") if isinstance(body, dict) else resp.text
            raise HubError(resp.status_code, "http_error", str(detail), body)
        return body

    async def _get(self, path: str, **params: Any) -> Any:
        params = {k: v for k, v in params.items() if v is not None}
        return self._check(await self._http.get(path, params=params))

    async def _post_admin(self, path: str, body: dict[str, Any]) -> Any:
        return self._check(await self._http.post(path, json=body, headers=self._admin_headers()))

    # -- setup --------------------------------------------------------------------------
    async def create_tournament(self, name: str) -> Tournament:
        return await self._post_admin("/api/tournaments", {"name": name})

    async def create_table(self, tournament_id: str, name: str) -> Table:
        """Returns ``{"id", "name", "token"}``; the table token is shown only this once."""
        return await self._post_admin(f"/api/tournaments/{tournament_id}/tables", {"name": name})

    async def create_match(
        self,
        tournament_id: str,
        table_id: str,
        discipline: str,
        players: Iterable[PlayerSpec | dict[str, Any]],
        format: dict[str, Any],
        options: dict[str, Any] | None = None,
    ) -> Match:
        body: dict[str, Any] = {
            "tournament_id": tournament_id,
            "table_id": table_id,
            "discipline": discipline,
            "players": list(players),
            "format": format,
        }
        if options is not None:
            body["options"] = options
        return await self._post_admin("/api/matches", body)

    # -- running a competition (PROTOCOL.md section 7) --------------------------------------
    async def _admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._check(await self._http.request(method, path, json=body, headers=self._admin_headers()))

    async def add_players(self, tournament_id: str, players: Iterable[dict[str, Any] | str]) -> list[dict[str, Any]]:
        """Add players (dicts with name, club?, seed?, handicap?, person?, or plain names); the ones added, each with
        its ``person`` and whether that person was ``linked`` or ``created`` (``link``)."""
        batch = [{"name": p} if isinstance(p, str) else p for p in players]
        return (await self._post_admin(f"/api/tournaments/{tournament_id}/players", {"players": batch}))["players"]

    async def list_players(self, tournament_id: str) -> list[dict[str, Any]]:
        return (await self._get(f"/api/tournaments/{tournament_id}/players"))["players"]

    async def update_player(self, tournament_id: str, player_id: str, **changes: Any) -> dict[str, Any]:
        return await self._admin("PATCH", f"/api/tournaments/{tournament_id}/players/{player_id}", changes)

    async def withdraw_player(self, tournament_id: str, player_id: str) -> dict[str, Any]:
        return await self._admin("POST", f"/api/tournaments/{tournament_id}/players/{player_id}/withdraw", {})

    async def make_draw(self, tournament_id: str, type: str, match: dict[str, Any], *, seeding: str = "random",
                        seed: int | None = None, **extra: Any) -> dict[str, Any]:
        """POST the draw; extra: groups (round_robin), rounds (chase_groups), redraw, then (a next stage). Returns the
        tournament projection."""
        body: dict[str, Any] = {"type": type, "seeding": seeding, "match": match, **extra}
        if seed is not None:
            body["seed"] = seed
        return await self._post_admin(f"/api/tournaments/{tournament_id}/draw", body)

    async def walkover(self, tournament_id: str, key: str, winner: str) -> dict[str, Any]:
        return await self._admin("POST", f"/api/tournaments/{tournament_id}/draw/{key}/walkover", {"winner": winner})

    async def name_lineup(self, tournament_id: str, key: str, rubber: int, team: str,
                          members: list[str]) -> dict[str, Any]:
        """A team's players for one rubber of a team match (PROTOCOL.md section 15); the desk's view of it."""
        body = {"rubber": rubber, "team": team, "members": members}
        return await self._admin("POST", f"/api/tournaments/{tournament_id}/draw/{key}/lineup", body)

    async def pause_table(self, table_id: str) -> dict[str, Any]:
        return await self._admin("POST", f"/api/tables/{table_id}/pause", {})

    async def resume_table(self, table_id: str) -> dict[str, Any]:
        return await self._admin("POST", f"/api/tables/{table_id}/resume", {})

    async def move_match(self, match_id: str, table_id: str) -> Match:
        return await self._admin("PATCH", f"/api/matches/{match_id}", {"table_id": table_id})

    async def delete_match(self, match_id: str) -> dict[str, Any]:
        return await self._admin("DELETE", f"/api/matches/{match_id}")

    # -- reads --------------------------------------------------------------------------
    async def disciplines(self) -> list[DisciplineTraits]:
        """Every discipline the hub plays, with its traits (GET /api/disciplines, hub/rules/traits.py)."""
        return (await self._get("/api/disciplines"))["disciplines"]

    async def list_tournaments(self) -> list[Tournament]:
        return (await self._get("/api/tournaments"))["tournaments"]

    async def get_tournament(self, tournament_id: str) -> dict[str, Any]:
        return await self._get(f"/api/tournaments/{tournament_id}")

    async def list_matches(self, status: str | None = None) -> list[dict[str, Any]]:
        return (await self._get("/api/matches", status=status))["matches"]

    async def get_match(self, match_id: str) -> Match:
        return await self._get(f"/api/matches/{match_id}")

    async def get_events(self, match_id: str, since: int = 0) -> list[StoredEvent]:
        return (await self._get(f"/api/matches/{match_id}/events", since=since))["events"]

    # -- commands over HTTP -------------------------------------------------------------
    async def send_command(
        self,
        match_id: str,
        table_token: str,
        command: dict[str, Any],
        *,
        id: str | None = None,
        expected_version: int | None = None,
    ) -> Ack:
        """POST a command envelope with the table token; returns the ack or raises
        :class:`CommandRejected` (for reject codes) / :class:`HubError` (auth, other)."""
        cid = id or str(uuid.uuid4())
        env: dict[str, Any] = {"id": cid, "match_id": match_id, "command": command}
        if expected_version is not None:
            env["expected_version"] = expected_version
        resp = await self._http.post(
            f"/api/matches/{match_id}/commands",
            json=env,
            headers={"Authorization": f"Bearer {table_token}"},
        )
        if resp.status_code in (404, 409, 422):
            try:
                err = resp.json().get("error", {})
            except ValueError:
                err = {}
            if err.get("code"):
                raise CommandRejected(cid, err["code"], err.get("message", ""))
        body = self._check(resp)
        if isinstance(body, dict) and body.get("type") == "reject":
            err = body.get("error", {})
            raise CommandRejected(cid, err.get("code", "?"), err.get("message", ""))
        return body
