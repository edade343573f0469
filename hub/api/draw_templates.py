"""The draw body's match templates checked by the rules engine before the draw logic sees them.

A draw's ``match`` (and its ``then.match``) is what each of its matches will be created with: the
rules check it now, with every ``by_round`` format merged over ``match.format`` as the round would
play it, so a bad format is a 422 at the draw and never a stuck queue later.  Which rounds a
``by_round`` may name is the draw logic's check (``hub.draws.race_lengths``).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from hub.api import deps
from hub.api.errors import ApiError
from hub.rules.disciplines import DISCIPLINES

DUMMY = [{"id": "x1", "name": "x"}, {"id": "x2", "name": "y"}, {"id": "x3", "name": "z"}]
FIELDS = ("discipline", "format", "options", "by_round", "handicap", "team", "doubles")


def check_template(request: Request, match: Any, what: str = "match") -> dict[str, Any]:
    if not isinstance(match, dict):
        raise ApiError(422, "bad_request", f"{what} must be an object: {{discipline, format, options}}")
    extra = set(match) - set(FIELDS)
    if extra:
        raise ApiError(422, "bad_request", f"{what}: unknown field {sorted(extra)[0]!r}")
    fmt = match.get("format") or {}
    _validate(request, match, fmt, what)
    by_round = match.get("by_round")
    if by_round is not None:
        if not isinstance(by_round, dict):
            raise ApiError(422, "bad_request", f"{what}.by_round must be an object: {{round: {{format}}}}")
        for name, entry in by_round.items():
            entry_format = entry.get("format") if isinstance(entry, dict) else None
            if not isinstance(fmt, dict) or not isinstance(entry_format, dict):
                raise ApiError(422, "bad_request", f"{what}.by_round.{str(name)[:20]} must be {{\"format\": {{...}}}}")
            _validate(request, match, {**fmt, **entry_format}, f"{what}.by_round.{str(name)[:20]}")
    out = {"discipline": match["discipline"], "format": fmt, "options": match.get("options") or {}}
    if by_round is not None:
        out["by_round"] = by_round
    if match.get("handicap") is not None:
        out["handicap"] = match["handicap"]  # checked by the draw logic (hub/draws/handicaps.py)
    team = match.get("team")
    if isinstance(team, dict) and isinstance(team.get("rubbers"), list):  # each rubber's format, as it plays
        for i, rubber in enumerate(team["rubbers"]):
            rubber_format = rubber.get("format") if isinstance(rubber, dict) else None
            if isinstance(rubber_format, dict) and isinstance(fmt, dict):
                _validate(request, match, {**fmt, **rubber_format}, f"{what}.team.rubbers[{i}]")
    for name in ("team", "doubles"):  # their shape is the draw logic's to check (hub/draws/teams.py)
        if match.get(name) is not None:
            out[name] = match[name]
    return out


def _validate(request: Request, match: dict[str, Any], fmt: Any, what: str) -> None:
    rules = deps.services(request).rules
    name = match.get("discipline")
    discipline = DISCIPLINES.get(name) if isinstance(name, str) else None  # validate_setup names a bad one
    players = DUMMY[: discipline.traits.players if discipline is not None else 2]
    setup = {"discipline": match.get("discipline"), "format": fmt, "options": match.get("options"),
             "players": players}
    if "doubles" in match:  # checked with two members a side: the entries' own come with the teams
        setup["doubles"] = match["doubles"]
        setup["players"] = [{**p, "members": [{"name": "m"}, {"name": "n"}]} if match["doubles"] is True else p
                            for p in players]
    if setup["options"] is None:
        del setup["options"]
    try:
        rules.validate_setup(setup, match_id="m", tournament_id="t", table_id="tb")
    except rules.SetupError as exc:
        raise ApiError(422, exc.code, f"{what}: {exc.message}") from None


def check_then(request: Request, then: Any) -> Any:
    """``then`` with its ``match`` checked (when given); the rest is the draw logic's to check."""
    if not isinstance(then, dict) or then.get("match") is None:
        return then
    return {**then, "match": check_template(request, then["match"], "then.match")}
