"""Teams and team matches (PROTOCOL.md section 15): pure, like the rest of the draw logic.

Teams
-----
A team is a player with ``members`` (1 to ``MAX_MEMBERS``: ``{"person": id}`` or ``{"name", "club"?}``)
and optionally ``captain`` (an index into them).  Every draw type takes teams as it takes players: a
team is an entrant.  Each member gets an id ``{team id}.{n}`` (``p3.1``, ``p3.2``, ...; never given
again in that team); the I/O layer (hub/people/linking.py) links each member to a person of the
directory (a person is in one team of a tournament at most: ``409 person_entered``) and the stored
``players_added`` / ``player_updated`` carry ``members: [{id, person, name, club, link}]``.  A team
changes its members (``update_player`` ``changes.members``, ``changes.captain``) until it has played:
409 ``team_played`` once one of its draw matches or rubbers has been called.

Team matches
------------
A draw's ``match`` may carry ``team: {"rubbers": [{"kind": "singles" | "doubles", "format"?}], "to_win": K}``
(and ``doubles: true``: each match is scotch doubles between two-member teams).  A draw match between
two teams is then a team match of rubbers, keyed ``{key}/{i}`` (i from 1).  Each rubber is an
ordinary match: singles between one member of each team (the match's player ids are the member ids),
doubles between the teams (player ids the team ids, ``members`` the two named).  Facts and events:

| command kind | fields | event kind {data} |
| --- | --- | --- |
| name_lineup | key, rubber, team, members | lineup_named {rubber: "{key}/{i}", team, members} |
| call_rubber | rubber, match_id, table_id | rubber_called {rubber, match_id, table_id, players} |
| uncall_rubber | rubber, requeue? | rubber_uncalled {rubber, match_id, requeued?} |
| take_rubber | rubber, match_id, winner, scores, match_version? | rubber_result_taken {the same, decides?, reopens?} |
| void_rubber | rubber, match_id | rubber_result_voided {rubber, match_id, decides?, reopens?} |

``winner`` and the keys of ``scores`` are the match's player ids (member ids of a singles rubber) or
team ids; the event stores team ids.  When a rubber's result brings a team to ``to_win``, the event
carries ``decides: {winner, scores}`` and the fold stores that as the draw match's result (scores
in rubbers won): the draw advances the team as it would a player.  Rubbers not yet called are then
not played; the I/O layer takes off its table a called rubber that has not started.  A rubber being
played when the team match is decided is played out; its result is recorded and changes nothing.
``take_rubber`` and ``void_rubber`` live in hub/draws/team_corrections.py (a rubber's result taken,
corrected or voided re-derives the team match's outcome).

While a rubber of it is called, the team match is ``called`` (with no table of its own).
``dispatch_rubbers`` gives free tables the rubbers of team matches that are ready or called, in
rubber order (a rubber the desk requeued, ``requeue: true``, after the others, oldest requeue first),
each once both lineups are named and none of its members is in another live rubber.

Reject codes: 422 ``not_member`` (a lineup naming someone not in the team), ``lineup_size`` (1 a
side for singles, 2 for doubles), ``doubles_pairs`` (a doubles draw whose entrants are not all
teams of two), ``not_team_match``; 409 ``rubber_called`` (a lineup for a rubber called already),
``team_decided``, ``team_played``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from hub.draws import fields
from hub.draws.events import DrawReject, bad, conflict
from hub.draws.settle import DrawMatch
from hub.draws.state import Member, Player, TournamentState

MAX_MEMBERS = 16
MAX_RUBBERS = 64
KINDS = {"singles": 1, "doubles": 2}  # kind -> members a side
MEMBER_FIELDS = ("person", "name", "club")


# --- teams ----------------------------------------------------------------------------------------

def member_fields(raw: Any, what: str, first_n: int) -> list[dict[str, Any]]:
    """The members of a team as the command gives them, with ids from ``{team}.{first_n}`` on (the
    team id is filled by the caller)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_MEMBERS:
        raise bad(f"{what} must be a list of 1 to {MAX_MEMBERS} members")
    out: list[dict[str, Any]] = []
    persons: set[str] = set()
    for i, entry in enumerate(raw):
        fields.mapping(entry, f"{what}[{i}]")
        fields.only(entry, MEMBER_FIELDS, f"{what}[{i}]")
        member: dict[str, Any] = {"n": first_n + i}
        if entry.get("person") is not None:
            person = fields.ident(entry["person"], f"{what}[{i}].person")
            if person in persons:
                raise DrawReject(422, "member_twice", f"{what}: person {person} is named twice")
            persons.add(person)
            member["person"] = person
        else:
            member["name"] = fields.text(entry.get("name"), f"{what}[{i}].name")
            club = entry.get("club")
            member["club"] = fields.text(club, f"{what}[{i}].club") if isinstance(club, str) and club.strip() else None
        out.append(member)
    return out


def captain_field(raw: Any, members: int) -> int | None:
    return None if raw is None else fields.whole(raw, "captain", 0, members - 1)


def with_member_ids(pid: str, members: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": f"{pid}.{m.pop('n')}", **m} for m in members]


def next_member_number(player: Player) -> int:
    return 1 + max((int(m.id.rsplit(".", 1)[1]) for m in player.members), default=0)


def has_played(state: TournamentState, pid: str) -> bool:
    """A draw match or rubber of the team has been called (or decided)."""
    if any(pid in c.players for c in state.calls.values()):
        return True
    if any(m.status in ("finished", "walkover") and pid in m.players for m in state.derived.matches):
        return True
    return any(pid in state.derived.by_key[rubber_parent(k)].players
               for k in state.rubber_calls if rubber_parent(k) in state.derived.by_key)


def members_of(raw: Sequence[Mapping[str, Any]]) -> tuple[Member, ...]:
    return tuple(Member(m["id"], m.get("person"), m.get("name") or m.get("person") or m["id"], m.get("club"))
                 for m in raw)


def member_json(m: Member) -> dict[str, Any]:
    return {"id": m.id, "person": m.person, "name": m.name, "club": m.club}


# --- the team spec of a draw's match ---------------------------------------------------------------

def check_team_spec(raw: Any, what: str = "match.team") -> dict[str, Any]:
    raw = fields.mapping(raw, what)
    fields.only(raw, ("rubbers", "to_win"), what)
    rubbers = raw.get("rubbers")
    if not isinstance(rubbers, list) or not 1 <= len(rubbers) <= MAX_RUBBERS:
        raise bad(f"{what}.rubbers must be a list of 1 to {MAX_RUBBERS} rubbers")
    out = []
    for i, rubber in enumerate(rubbers):
        fields.mapping(rubber, f"{what}.rubbers[{i}]")
        fields.only(rubber, ("kind", "format"), f"{what}.rubbers[{i}]")
        if rubber.get("kind") not in KINDS:
            raise bad(f"{what}.rubbers[{i}].kind must be \"singles\" or \"doubles\"")
        entry: dict[str, Any] = {"kind": rubber["kind"]}
        if rubber.get("format") is not None:
            entry["format"] = copy.deepcopy(dict(fields.mapping(rubber["format"], f"{what}.rubbers[{i}].format")))
        out.append(entry)
    to_win = fields.whole(fields.required(raw, "to_win"), f"{what}.to_win", 1, len(out))
    return {"rubbers": out, "to_win": to_win}


def check_doubles_entrants(state: TournamentState, template: Mapping[str, Any]) -> None:
    """A scotch-doubles draw (``doubles: true`` without rubbers) is played by teams of two."""
    if not template.get("doubles") or template.get("team"):
        return
    odd = next((p for p in state.players if not p.withdrawn and len(p.members) != 2), None)
    if odd is not None:
        raise DrawReject(422, "doubles_pairs", f"a doubles draw is played by teams of two: {odd.name} has "
                                               f"{len(odd.members)} members")


def template_of(state: TournamentState, stage: int) -> Mapping[str, Any]:
    spec = state.draw
    assert spec is not None
    return spec.then["match"] if stage == 2 and spec.then is not None else spec.match


def team_spec(state: TournamentState, match: DrawMatch) -> Mapping[str, Any] | None:
    """The rubbers of a draw match between two teams, or None (not a team match)."""
    if state.draw is None:
        return None
    spec: Mapping[str, Any] | None = template_of(state, match.stage).get("team")
    if spec is None:
        return None
    players = match.known_players
    if players and not all(state.player_by_id[p].team for p in players if p in state.player_by_id):
        return None
    return spec


def rubber_key(key: str, i: int) -> str:
    return f"{key}/{i}"


def rubber_parent(rkey: str) -> str:
    return rkey.rsplit("/", 1)[0]


def rubber_index(rkey: str) -> int:
    return int(rkey.rsplit("/", 1)[1])


def is_team_match(state: TournamentState, key: str) -> bool:
    match = state.derived.by_key.get(key)
    return match is not None and team_spec(state, match) is not None


def rubber_score(state: TournamentState, key: str, teams: Sequence[str]) -> dict[str, int]:
    prefix = key + "/"
    score = dict.fromkeys(teams, 0)
    for k, result in state.rubber_results.items():
        if k.startswith(prefix) and result.winner in score:
            score[result.winner] += 1
    return score


# --- commands --------------------------------------------------------------------------------------

def _team_match(state: TournamentState, key_value: Any) -> tuple[DrawMatch, Mapping[str, Any]]:
    from hub.draws.match_commands import draw_match  # noqa: PLC0415 (match_commands imports this module)

    match = draw_match(state, {"key": key_value})
    spec = team_spec(state, match)
    if spec is None:
        raise DrawReject(422, "not_team_match", f"{match.key} is not a match between teams")
    return match, spec


def rubber_at(state: TournamentState, value: Any) -> tuple[DrawMatch, Mapping[str, Any], int]:
    """The team match, its rubbers and the index of the rubber key ``value`` (404 ``unknown_key``)."""
    rkey = fields.ident(value, "rubber")
    if "/" not in rkey or not rkey.rsplit("/", 1)[1].isdigit():
        raise DrawReject(404, "unknown_key", f"no rubber {rkey!r}")
    match, spec = _team_match(state, rubber_parent(rkey))
    i = rubber_index(rkey)
    if not 1 <= i <= len(spec["rubbers"]):
        raise DrawReject(404, "unknown_key", f"{match.key} has no rubber {i}")
    return match, spec, i


def name_lineup(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "key", "rubber", "team", "members"))
    match, spec = _team_match(state, fields.required(cmd, "key"))
    i = fields.whole(fields.required(cmd, "rubber"), "rubber", 1, len(spec["rubbers"]))
    team = fields.ident(fields.required(cmd, "team"), "team")
    if team not in match.known_players:
        raise DrawReject(422, "not_in_match", f"{state.name(team)} does not play {match.key}")
    rkey = rubber_key(match.key, i)
    if rkey in state.rubber_calls:
        raise conflict("rubber_called", f"rubber {i} of {match.key} is called already: its lineup stands")
    if match.key in state.results:
        raise conflict("team_decided", f"{match.key} is decided")
    raw = fields.required(cmd, "members")
    want = KINDS[spec["rubbers"][i - 1]["kind"]]
    if not isinstance(raw, list) or len(raw) != want:
        raise DrawReject(422, "lineup_size", f"rubber {i} is {spec['rubbers'][i - 1]['kind']}: "
                                             f"{want} member{'s' if want > 1 else ''} a side")
    player = state.player(team)
    by_ref = {m.id: m.id for m in player.members} | {m.person: m.id for m in player.members if m.person}
    members = []
    for value in raw:
        mid = by_ref.get(value) if isinstance(value, str) else None
        if mid is None:
            raise DrawReject(422, "not_member", f"{str(value)[:64]!r} is not a member of {player.name}")
        if mid in members:
            raise DrawReject(422, "lineup_size", f"{mid} is named twice")
        members.append(mid)
    return "lineup_named", {"rubber": rkey, "team": team, "members": members}


def call_rubber(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "rubber", "match_id", "table_id"))
    match, _spec, i = rubber_at(state, fields.required(cmd, "rubber"))
    rkey = rubber_key(match.key, i)
    if rkey not in callable_rubbers(state, match):
        raise conflict("not_ready", f"rubber {i} of {match.key} cannot be called now")
    match_id = fields.ident(fields.required(cmd, "match_id"), "match_id")
    if match_id in state.match_keys or match_id in state.rubber_matches:
        raise conflict("match_taken", f"match {match_id} plays another key")
    table_id = fields.ident(fields.required(cmd, "table_id"), "table_id")
    if table_id in busy_tables(state):
        raise conflict("table_busy", f"table {table_id} has a match on it")
    return "rubber_called", {"rubber": rkey, "match_id": match_id, "table_id": table_id,
                             "players": rubber_players(state, rkey)}


def uncall_rubber(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "rubber", "requeue"))
    rkey = fields.ident(fields.required(cmd, "rubber"), "rubber")
    requeue = cmd.get("requeue", False)
    if not isinstance(requeue, bool):
        raise bad("requeue must be true or false")
    call = state.open_rubbers.get(rkey)
    if call is None:
        raise conflict("not_called", f"rubber {rkey} is not called")
    data: dict[str, Any] = {"rubber": rkey, "match_id": call.match_id}
    if requeue:  # the desk's no-show choice: the other rubbers ready go before it
        data["requeued"] = True
    return "rubber_uncalled", data


# --- dispatch --------------------------------------------------------------------------------------

def busy_tables(state: TournamentState) -> set[str]:
    """Tables holding a call (a draw match's or a rubber's) still waiting for its result."""
    return {c.table_id for c in state.open_calls.values()} | {c.table_id for c in state.open_rubbers.values()}


def busy_members(state: TournamentState) -> set[str]:
    """Member ids in a called rubber without a result (the whole team for a doubles rubber's ids)."""
    out: set[str] = set()
    for rkey, call in state.open_rubbers.items():
        out.update(call.players)
        for members in state.lineups.get(rkey, {}).values():
            out.update(members)
    return out


def callable_rubbers(state: TournamentState, match: DrawMatch) -> list[str]:
    """The rubbers of a team match that may be called now, in rubber order: not called, lineups both in."""
    spec = team_spec(state, match)
    if spec is None or match.status not in ("ready", "called") or match.key in state.results:
        return []
    teams = match.known_players
    if len(teams) != 2:
        return []
    out = []
    for i in range(1, len(spec["rubbers"]) + 1):
        rkey = rubber_key(match.key, i)
        if rkey in state.rubber_calls:
            continue
        if all(t in state.lineups.get(rkey, {}) for t in teams):
            out.append(rkey)
    return out


def team_matches_in_play(state: TournamentState) -> list[DrawMatch]:
    """Team matches ready or called, in queue order then structural order."""
    by_key = state.derived.by_key
    queue = [by_key[k] for k in state.derived.queue]
    called = [m for m in state.derived.matches if m.status == "called" and m.key not in state.calls]
    return [m for m in [*called, *queue] if team_spec(state, m) is not None]


def dispatch_rubbers(state: TournamentState, tables: Sequence[tuple[str, bool]]) -> list[tuple[str, str]]:
    """[(rubber key, table id)]: each free table (not paused, listed once, not holding a call still
    waiting for its result) takes the first callable rubber none of whose members is in a live rubber."""
    candidates = [rkey for m in team_matches_in_play(state) for rkey in callable_rubbers(state, m)]
    # a requeued rubber (a no-show) waits behind the rubbers not requeued; stable, so rubber order holds
    candidates.sort(key=lambda rkey: state.uncalled_at.get(rkey, 0))
    if not candidates:
        return []
    busy = busy_members(state)
    taken = busy_tables(state) | set(state.paused_tables)
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for table_id, free in tables:
        if table_id in seen or not free or table_id in taken:
            seen.add(table_id)
            continue
        seen.add(table_id)
        for rkey in candidates:
            members = lineup_members(state, rkey)
            if not busy.intersection(members):
                out.append((rkey, table_id))
                busy.update(members)
                candidates.remove(rkey)
                break
        if not candidates:
            break
    return out


def lineup_members(state: TournamentState, rkey: str) -> set[str]:
    return {m for members in state.lineups.get(rkey, {}).values() for m in members}


def rubber_players(state: TournamentState, rkey: str) -> list[str]:
    """The match's player ids: the member ids of a singles rubber, the team ids of a doubles one."""
    match = state.derived.by_key[rubber_parent(rkey)]
    lineups = state.lineups.get(rkey, {})
    teams = list(match.known_players)
    if all(len(lineups.get(t, ())) == 1 for t in teams):
        return [lineups[t][0] for t in teams]
    return teams


def rubber_body(state: TournamentState, rkey: str) -> dict[str, Any]:
    """The ``POST /api/matches`` body of a rubber (without ``tournament_id`` / ``table_id``)."""
    from hub.draws import rounds  # noqa: PLC0415 (rounds imports the state, which is fine; kept local for clarity)

    match, spec, i = rubber_at(state, rkey)
    template = template_of(state, match.stage)
    rubber = spec["rubbers"][i - 1]
    fmt = {**rounds.match_format(state, match.stage, match.round), **rubber.get("format", {})}
    lineups = state.lineups.get(rkey, {})
    members = {m.id: m for p in state.players for m in p.members}
    players: list[dict[str, Any]] = []
    for team in match.known_players:
        named = [members[mid] for mid in lineups.get(team, ())]
        if rubber["kind"] == "singles":
            players.append({"id": named[0].id, "name": named[0].name, "team": team})
        else:
            players.append({"id": team, "name": state.name(team),
                            "members": [{"person": m.person, "name": m.name, "id": m.id} for m in named]})
    body: dict[str, Any] = {"discipline": template["discipline"], "players": players, "format": fmt,
                            "options": copy.deepcopy(dict(template.get("options", {}))),
                            "draw": {"tournament_id": state.tournament_id, "key": rkey, "round": match.round}}
    if rubber["kind"] == "doubles":
        body["doubles"] = True
    return body


def doubles_entries(state: TournamentState, pids: Sequence[str]) -> list[list[dict[str, Any]]]:
    """The members of each side of a scotch-doubles draw match, in the team's order."""
    return [[{"name": m.name, "id": m.id, **({"person": m.person} if m.person is not None else {})}
             for m in state.player(p).members[:2]] for p in pids]
