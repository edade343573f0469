"""Player commands: ``add_players``, ``update_player``, ``withdraw``, ``remove_player``.

``remove_player`` takes a player out before the draw (an entry made by mistake, someone who did
not come): they are gone, not withdrawn, and their seed is free again. After the draw it is 409
``draw_made``: the draw holds them, so they withdraw instead. Ids are never given again: the next
player added after a removal gets the next number, not the removed one's.

``add_players`` after the draw (late entries) is taken while no draw match is finished or a
walkover (409 ``draw_used`` after that); the draw is then ``stale`` until a redraw takes them in.
A player whose seed is held already (by an earlier player or one earlier in the same batch) is
added unseeded, the event's entry noting ``seed_taken`` {seed, holder}.

Player fields: ``name`` a string, stripped, 1..100 characters; ``club`` optional, at most 100
(empty means none); ``seed`` optional whole number 1..9999, unique among the tournament's
players; ``handicap`` null or ``"eight"`` (Chinese nine-ball's "8 wins, 9 golds"; only sent to
the matches of a discipline that takes it).  Ids are ``p1``, ``p2``, ... in order of addition.  At most 512 players
per call and 1024 in a tournament.

``person`` (PROTOCOL.md section 12): the id of the person of the hub's directory the entry points
at. The draw logic only carries it (a string of 1 to 64 characters, never null); the I/O layer
checks the person exists, links entries added without one (hub/people/linking.py) and stores the
link in the same transaction as the event, which then carries ``person`` and ``link`` on every
added player (``players_added``), or ``person`` in the ``changes`` of ``player_updated``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.draws import fields, teams
from hub.draws.events import DrawReject, bad, conflict
from hub.draws.state import Player, TournamentState
from hub.rules.names import refused_char

PLAYER_FIELDS = ("name", "club", "seed", "handicap", "person", "members", "captain")
HANDICAPS = ("eight",)
MAX_BATCH = 512
MAX_PLAYERS = 1024
MAX_SEED = 9999


def player_fields(raw: Mapping[str, Any], what: str, *, partial: bool) -> dict[str, Any]:
    """The normalised fields of one player (all four, or for ``partial`` only those given)."""
    fields.mapping(raw, what)
    fields.only(raw, PLAYER_FIELDS, what)
    out: dict[str, Any] = {}
    if "name" in raw or not partial:
        out["name"] = fields.text(raw.get("name"), f"{what}: name")
    if "club" in raw or not partial:
        club = raw.get("club")
        if club is not None and not isinstance(club, str):
            raise bad(f"{what}: club must be a string or null")
        blank = club is None or (not club.strip() and refused_char(club) is None)  # empty or spaces: none
        out["club"] = None if blank else fields.text(club, f"{what}: club")
    if "seed" in raw or not partial:
        seed = raw.get("seed")
        out["seed"] = None if seed is None else fields.whole(seed, f"{what}: seed", 1, MAX_SEED)
    if "handicap" in raw or not partial:
        handicap = raw.get("handicap")
        if handicap is not None and handicap not in HANDICAPS:
            raise bad(f"{what}: handicap must be null or \"eight\"")
        out["handicap"] = handicap
    if "person" in raw:
        out["person"] = fields.ident(raw["person"], f"{what}: person")
    if raw.get("members") is not None:  # a team (hub/draws/teams.py): its members are people, it is not one
        if "person" in raw:
            raise bad(f"{what}: a team has members, not a person")
        out["members"] = teams.member_fields(raw["members"], f"{what}: members", 1)
    if raw.get("captain") is not None:
        count = len(out["members"]) if "members" in out else None
        out["captain"] = teams.captain_field(raw["captain"], count if count is not None else teams.MAX_MEMBERS)
    return out


def known_player(state: TournamentState, value: Any, what: str = "player") -> str:
    pid = fields.ident(value, what)
    if pid not in state.player_by_id:
        raise DrawReject(404, "unknown_player", f"no player {pid!r} in this tournament")
    return pid


def _seed_holder(state: TournamentState, seed: int, besides: str | None = None) -> str | None:
    for p in state.players:
        if p.seed == seed and p.id != besides:
            return p.name
    return None


def add_players(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "players"))
    raw = fields.required(cmd, "players")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_BATCH:
        raise bad(f"players must be a list of 1 to {MAX_BATCH} players")
    if state.draw is not None:
        used = next((m for m in state.derived.matches if m.status in ("finished", "walkover")), None)
        if used is not None:
            raise conflict("draw_used", f"the draw has a result ({used.key} is {used.status}): "
                                        "late entries are taken only before any result or walkover")
    if len(state.players) + len(raw) > MAX_PLAYERS:
        raise bad(f"a tournament takes at most {MAX_PLAYERS} players ({len(state.players)} already)")
    new: list[dict[str, Any]] = []
    seeds: dict[int, str] = {}
    for i, entry in enumerate(raw):
        player = player_fields(entry, f"players[{i}]", partial=False)
        seed = player["seed"]
        if seed is not None:
            holder = _seed_holder(state, seed) or seeds.get(seed)
            if holder is not None:
                # Added unseeded rather than lost: the answer says whose seed it was (`seed_taken`).
                player = {**player, "seed": None, "seed_taken": {"seed": seed, "holder": holder}}
            else:
                seeds[seed] = player["name"]
        pid = f"p{state.entered + i + 1}"
        if "members" in player:
            player["members"] = teams.with_member_ids(pid, player["members"])
        elif "captain" in player:
            raise bad(f"players[{i}]: captain is for a team (with members)")
        new.append({"id": pid, **player})
    return "players_added", {"players": new}


def update_player(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "player", "changes"))
    pid = known_player(state, fields.required(cmd, "player"))
    changes = player_fields(fields.required(cmd, "changes"), "changes", partial=True)
    if not changes:
        raise bad(f"changes must name at least one of {', '.join(PLAYER_FIELDS)}")
    player = state.player(pid)
    if "members" in changes or "captain" in changes:
        _team_changes(state, player, changes)
    if "seed" in changes and changes["seed"] != player.seed:
        if state.draw is not None:
            raise conflict("draw_made",
                           f"the draw is made and uses the seeding: {player.name}'s seed cannot change now")
        holder = _seed_holder(state, changes["seed"], besides=pid) if changes["seed"] is not None else None
        if holder is not None:
            raise conflict("seed_taken", f"seed {changes['seed']} is already {holder}'s")
    return "player_updated", {"player": pid, "changes": changes}


def withdraw(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "player"))
    pid = known_player(state, fields.required(cmd, "player"))
    player = state.player(pid)
    if player.withdrawn:
        raise conflict("withdrawn", f"{player.name} has already withdrawn")
    if state.draw is not None and state.derived.finished:
        raise conflict("draw_finished", "the draw is over: nobody can withdraw from it now")
    return "player_withdrawn", {"player": pid}


def remove_player(state: TournamentState, cmd: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    fields.only(cmd, ("kind", "player"))
    pid = known_player(state, fields.required(cmd, "player"))
    name = state.player(pid).name
    if state.draw is not None:
        raise conflict("draw_made", f"the draw is made and holds {name}: withdraw them instead")
    return "player_removed", {"player": pid, "name": name}  # the name: what the stream says was removed


def _team_changes(state: TournamentState, player: Player, changes: dict[str, Any]) -> None:
    """A team changes its members or captain until it has played; a player does not become a team."""
    if not player.team:
        raise bad(f"{player.name} is a player, not a team: members and captain are for teams")
    if "members" in changes:
        if teams.has_played(state, player.id):
            raise conflict("team_played", f"{player.name} has played: its members stand")
        changes["members"] = teams.with_member_ids(player.id, [
            {**m, "n": m["n"] - 1 + teams.next_member_number(player)} for m in changes["members"]])
    count = len(changes["members"]) if "members" in changes else len(player.members)
    if changes.get("captain") is not None and changes["captain"] >= count:
        raise bad(f"captain must be between 0 and {count - 1}")
