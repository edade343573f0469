"""Running a competition over REST (PROTOCOL.md section 7): players, the draw, the queue, tables.

Every write is a command of the tournament's writer (`hub/tournaments/writer.py`), decided by the pure
draw logic (`hub/draws/`); its refusals (`DrawReject`) answer with their own status and code. The
flow (`hub/tournaments/flow.py`) then does what follows by itself: results, walkovers, calls to free
tables. Beyond the fixed names of section 7 the organiser also has:

- `POST /api/tournaments/{tid}/draw/{key}/call` `{"table_id"?}`: call a ready match now (to that
  table, or to the first free one);
- `POST /api/tournaments/{tid}/draw/{key}/requeue`: take a called match that has not started off its
  table; it goes back to the end of the queue (the next ready match takes the table);
- a rubber of a team match (key `W1-1/2`, docs/teams.md) called and not started: `.../walkover`
  `{"winner": its side there}` (its match's result entered for that side; the team match's score follows) and
  `.../requeue` (called again after the team match's other rubbers ready); those two routes take the
  key with its slash (`{key:path}`);
- `POST /api/tournaments/{tid}/queue` `{"keys": [...]}`: those ready matches are called first, in that order.

The results for export are `hub/api/tournament_exports.py`'s.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from hub import draws
from hub.api import competition_models as cm
from hub.api import deps, draw_templates, models, rubber_no_shows
from hub.api.errors import ApiError, read_json
from hub.draws.state import TournamentState
from hub.matches.writer import Ack, MatchWriter
from hub.people import linking as people_linking
from hub.ratings import store as ratings_store
from hub.store import catalog
from hub.tournaments.flow import draw_entries
from hub.tournaments.projection import page_matches, tournament_projection
from hub.tournaments.writer import NotStored, TournamentWriter

router = APIRouter(prefix="/api", tags=["running a competition"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)
PROJECTION = models.ok(cm.CompetitionProjection, "The tournament projection, after the flow has acted on the change.")


def tournaments(request: Request) -> TournamentWriter:
    return deps.services(request).tournaments


async def _body(request: Request) -> dict[str, Any]:
    body = await read_json(request, deps.settings(request).max_body_bytes)
    if not isinstance(body, dict):
        raise ApiError(422, "bad_request", "the body must be a JSON object")
    return body


async def _apply(request: Request, tid: str, command: dict[str, Any], **kw: Any) -> tuple[Any, Any]:
    """Run a tournament command; its refusal is the answer."""
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    try:
        return await tournaments(request).apply(tid, command, **kw)
    except draws.DrawReject as r:
        raise ApiError(r.status, r.code, r.message) from None
    except catalog.TableBusy as busy:
        raise ApiError(409, "table_busy", f"table {busy.args[0]!r} has an open match") from None
    except NotStored:
        raise ApiError(409, "conflict", "the match changed meanwhile (it started?): look again") from None


async def whole_projection(request: Request, tid: str) -> dict[str, Any]:
    proj = await tournament_projection(deps.services(request).listings, tournaments(request), draws, tid)
    if proj is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    return proj


async def _projection(request: Request, tid: str) -> dict[str, Any]:
    """What a write answers: the projection with the first page of the draw's matches (as the GET)."""
    return page_matches(await whole_projection(request, tid))


async def _state(request: Request, tid: str) -> TournamentState:
    """The tournament's draw state (404 when there is no such tournament)."""
    state = await tournaments(request).state(tid)
    if state is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    return state


def _players(state: TournamentState) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in draws.projection(state)["players"]}


async def _flow_idle(request: Request, tid: str) -> None:
    """Let the flow act on a change before answering, so the answer shows its consequences
    (the first matches called after a draw, a walkover's winner moved on)."""
    flow = deps.services(request).flow
    flow.kick(tid)
    await flow.idle(tid)


# --- players ----------------------------------------------------------------------------------


@router.get("/tournaments/{tid}/players", response_model=None,
            responses=models.ok(cm.PlayerList, "The tournament's players, in order of entry.") | models.errors(404))
async def list_players(tid: str, request: Request) -> dict[str, Any]:
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    state = await _state(request, tid)
    return {"players": draws.projection(state)["players"]}


async def _with_people(request: Request, batch: Any) -> Any:
    """Players that name a `person` get its name and club where they give none (section 12); an
    unknown person is 404 `unknown_person` (the link itself is made with the event: hub/people/linking.py)."""
    if not isinstance(batch, list):
        return batch
    wanted = {p["person"] for p in batch if isinstance(p, dict) and isinstance(p.get("person"), str)}
    if not wanted:
        return batch
    async with deps.engine(request).connect() as conn:
        found = {pid: await people_linking.resolve(conn, pid) for pid in sorted(wanted) if len(pid) <= 64}
    out = []
    for p in batch:
        person = found.get(p.get("person")) if isinstance(p, dict) and isinstance(p.get("person"), str) else None
        if person is not None:
            p = {"name": person.name, **({} if "club" in p else {"club": person.club}), **p}
        out.append(p)
    return out


@router.post("/tournaments/{tid}/players", status_code=201, dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(cm.PlayersAdd),
             responses=models.ok(cm.AddedPlayers, "The players added, each with its person and whether that "
                                 "person was `linked` or `created`.", 201) | WRITE_ERRORS)
async def add_players(tid: str, request: Request) -> JSONResponse:
    body = await _body(request)
    batch = body["players"] if set(body) == {"players"} else [body]
    try:
        batch = await _with_people(request, batch)
    except draws.DrawReject as r:
        raise ApiError(r.status, r.code, r.message) from None
    state, event = await _apply(request, tid, {"kind": "add_players", "players": batch})
    known = _players(state)
    answer: dict[str, Any] = {"players": [{**known[p["id"]], "link": p.get("link")} for p in event.data["players"]]}
    # A seed held already: the player was added unseeded; the desk says whose seed it was.
    taken = [{"id": p["id"], "name": p["name"], **p["seed_taken"]} for p in event.data["players"] if "seed_taken" in p]
    if taken:
        answer["seed_taken"] = taken
    return JSONResponse(answer, status_code=201)


@router.patch("/tournaments/{tid}/players/{pid}", dependencies=ADMIN, response_model=None,
              openapi_extra=models.body(cm.PlayerChanges),
              responses=models.ok(cm.Player, "The player, changed.") | WRITE_ERRORS)
async def update_player(tid: str, pid: str, request: Request) -> dict[str, Any]:
    changes = await _body(request)
    state, event = await _apply(request, tid, {"kind": "update_player", "player": pid, "changes": changes})
    player = _players(state)[pid]
    if "name" in event.data.get("changes", {}):
        await _rename_everywhere(request, tid, pid, player["name"], event.version)
    return player


async def _rename_everywhere(request: Request, tid: str, pid: str, name: str, version: int) -> None:
    """A rename shows on every screen, past matches too: each draw match of the player gets a
    `player_renamed` event (its watchers see it like any change). Matches made by hand have ids of
    their own and are left alone."""
    writer: MatchWriter = deps.writer(request)
    for row in await catalog.draw_matches(deps.engine(request), tid):
        if any(p.get("id") == pid for p in row.setup.get("players") or []):
            await writer.submit(row.id, f"rename:{pid}:{version}",
                                {"kind": "player_renamed", "player": pid, "name": name}, server=True)


@router.post("/tournaments/{tid}/players/{pid}/withdraw", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(cm.Player, "The player, withdrawn.") | WRITE_ERRORS)
async def withdraw_player(tid: str, pid: str, request: Request) -> dict[str, Any]:
    await _apply(request, tid, {"kind": "withdraw", "player": pid})
    await _flow_idle(request, tid)
    return _players(await _state(request, tid))[pid]


# --- the draw ---------------------------------------------------------------------------------

_check_template = draw_templates.check_template


@router.post("/tournaments/{tid}/draw", status_code=201, dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(cm.DrawCreate),
             responses=models.ok(cm.CompetitionProjection,
                                 "The tournament with its draw; the first matches are on their tables.", 201)
             | WRITE_ERRORS)
async def make_draw(tid: str, request: Request) -> JSONResponse:
    body = await _body(request)
    command = {**body, "kind": "make_draw", "match": _check_template(request, body.get("match"))}
    if body.get("then") is not None:
        command["then"] = draw_templates.check_then(request, body["then"])
    if command.get("seed") is None:
        command["seed"] = secrets.randbelow(2**31)  # stored in the event: the draw replays exactly
    engine = deps.engine(request)
    command.pop("ratings", None)  # only the hub says what the ratings are: read now, stored in draw_made
    if body.get("seeding") == "rating" or command["match"].get("handicap") is not None:
        command["ratings"] = await ratings_store.entry_ratings(engine, tid, command["match"]["discipline"])
    if body.get("redraw") is True:
        played = [r for r in await catalog.draw_matches(engine, tid) if r.status in ("live", "finished")]
        if played:
            raise ApiError(409, "draw_started", f"a match of the draw has started ({played[0].draw_key}): no redraw")

    async def store_with(append: catalog.InTransaction) -> Any:
        # A redraw takes the old draw's called matches off their tables in the same transaction.
        return await deps.writer(request).cancel_draw_matches(tid, also=append)

    await _apply(request, tid, command, store_with=store_with)
    await _flow_idle(request, tid)
    return JSONResponse(await _projection(request, tid), status_code=201)


async def _entry(request: Request, tid: str, key: str) -> tuple[Any, dict[str, Any]]:
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    state = await _state(request, tid)
    entry = draw_entries(draws.projection(state)).get(key)
    if entry is None:
        raise ApiError(404, "unknown_key", f"no draw match {key!r}")
    return state, entry


async def _off_table_with(request: Request, tid: str, entry: dict[str, Any], command: dict[str, Any]) -> None:
    """Store `command` together with taking the entry's called match off its table (refused once
    the match has started: it is then the match's business, concede or forfeit on the tablet)."""
    mid = entry["match_id"]
    status = (await catalog.match_statuses(deps.engine(request), [mid])).get(mid)
    if status != "scheduled":
        raise ApiError(409, "match_started",
                       f"{entry['key']} is being played: settle it on the table (concede, forfeit)")

    async def store_with(append: catalog.InTransaction) -> Any:
        return await deps.writer(request).cancel_match(mid, also=append)

    await _apply(request, tid, command, store_with=store_with)


@router.post("/tournaments/{tid}/draw/{key:path}/walkover", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(cm.Walkover), responses=PROJECTION | WRITE_ERRORS)
async def walkover(tid: str, key: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    if rubber_no_shows.is_rubber(key):  # a called rubber (a no-show): its result to the side there
        await rubber_no_shows.walkover(request, tid, key, body.get("winner"))
        await _flow_idle(request, tid)
        return await _projection(request, tid)
    _, entry = await _entry(request, tid, key)
    command = {"kind": "walkover", "key": key, "winner": body.get("winner")}
    if entry["status"] == "called" and entry.get("team"):  # its rubbers: the flow takes them off, or has them forfeited
        await _apply(request, tid, {**command, "uncall": True})
    elif entry["status"] == "called":
        await _off_table_with(request, tid, entry, {**command, "uncall": True})
    else:
        await _apply(request, tid, command)
    await _flow_idle(request, tid)
    return await _projection(request, tid)


@router.post("/tournaments/{tid}/draw/{key:path}/requeue", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False), responses=PROJECTION | WRITE_ERRORS)
async def requeue(tid: str, key: str, request: Request) -> dict[str, Any]:
    if rubber_no_shows.is_rubber(key):  # off its table; called after the team's other rubbers ready
        _, call = await rubber_no_shows.called_rubber(request, tid, key)
        await _off_table_with(request, tid, {"key": key, "match_id": call.match_id},
                              {"kind": "uncall_rubber", "rubber": key, "requeue": True})
        await _flow_idle(request, tid)
        return await _projection(request, tid)
    _, entry = await _entry(request, tid, key)
    if entry["status"] != "called":
        raise ApiError(409, "not_called", f"{key} is {entry['status']}, not on a table")
    await _off_table_with(request, tid, entry, {"kind": "uncall", "key": key})
    await _flow_idle(request, tid)
    return await _projection(request, tid)


@router.post("/tournaments/{tid}/draw/{key}/call", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(cm.CallNow, required=False), responses=PROJECTION | WRITE_ERRORS)
async def call_now(tid: str, key: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    state, entry = await _entry(request, tid, key)
    if entry["status"] != "ready":
        raise ApiError(409, "not_ready", f"{key} is {entry['status']}, not waiting in the queue")
    try:  # before any table is looked at: a team match is refused as such (409 team_match), whatever is free
        body_ = draws.match_body(state, key)
    except draws.DrawReject as r:
        raise ApiError(r.status, r.code, r.message) from None
    engine = deps.engine(request)
    tables = await catalog.list_tables(engine, tid)
    busy = await catalog.open_matches(engine, tid)
    paused = set(draws.projection(state)["paused_tables"])
    wanted = body.get("table_id")
    if wanted is not None:
        if wanted not in {t.id for t in tables}:
            raise ApiError(404, "not_found", f"no table {wanted!r} in this tournament")
        if wanted in paused:
            raise ApiError(409, "table_paused", "the table is paused: resume it first")
        if wanted in busy:
            raise ApiError(409, "table_busy", "the table has an open match")
        table_id = wanted
    else:
        free = [t.id for t in tables if t.id not in busy and t.id not in paused]
        if not free:
            raise ApiError(409, "no_free_table", "no table is free")
        table_id = free[0]
    flow = deps.services(request).flow
    match_id = catalog.new_id("m")

    async def store_with(append: catalog.InTransaction) -> Any:
        return await deps.writer(request).create_match(
            body_, tournament_id=tid, table_id=table_id, match_id=match_id, draw_key=key, also=append
        )

    await _apply(request, tid, {"kind": "call", "key": key, "match_id": match_id, "table_id": table_id},
                 store_with=store_with)
    flow.kick(tid)
    return await _projection(request, tid)


@router.post("/tournaments/{tid}/queue", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(cm.QueueOrder), responses=PROJECTION | WRITE_ERRORS)
async def order_queue(tid: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    await _apply(request, tid, {"kind": "order_queue", "keys": body.get("keys")})
    await _flow_idle(request, tid)
    return await _projection(request, tid)


# --- tables -----------------------------------------------------------------------------------


async def _table(request: Request, table_id: str) -> catalog.TableRow:
    table = await catalog.get_table(deps.engine(request), table_id)
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    return table


@router.post("/tables/{table_id}/pause", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(cm.TableState, "The table, paused: it is given no new match.") | WRITE_ERRORS)
async def pause_table(table_id: str, request: Request) -> dict[str, Any]:
    table = await _table(request, table_id)
    await _apply(request, table.tournament_id, {"kind": "pause_table", "table_id": table_id})
    return {"id": table_id, "name": table.name, "status": "paused"}


@router.post("/tables/{table_id}/resume", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(cm.TableState, "The table, resumed (with the match the queue gave it).")
             | WRITE_ERRORS)
async def resume_table(table_id: str, request: Request) -> dict[str, Any]:
    table = await _table(request, table_id)
    await _apply(request, table.tournament_id, {"kind": "resume_table", "table_id": table_id})
    await _flow_idle(request, table.tournament_id)
    proj = await _projection(request, table.tournament_id)
    return next(t for t in proj["tables"] if t["id"] == table_id)


# --- matches: move, cancel --------------------------------------------------------------------


@router.patch("/matches/{mid}", dependencies=ADMIN, response_model=None,
              openapi_extra=models.body(cm.MoveMatch),
              responses=models.ok(models.MatchProjection, "The match, on its new table.") | WRITE_ERRORS)
async def move_match(mid: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    if set(body) != {"table_id"} or not isinstance(body["table_id"], str):
        raise ApiError(422, "bad_request", 'the body is {"table_id": "<table id>"}')
    writer: MatchWriter = deps.writer(request)
    row = await writer.match_row(mid)
    if row is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    target = await catalog.get_table(deps.engine(request), body["table_id"])
    if target is None or target.tournament_id != row.tournament_id:
        raise ApiError(404, "not_found", f"no table {body['table_id']!r} in this match's tournament")
    if target.id == row.table_id:
        return await writer.projection(mid)  # type: ignore[return-value]
    if row.draw_key is not None:  # the draw's call follows it: refused first if the table is paused
        state = await _state(request, row.tournament_id)
        if target.id in draws.projection(state)["paused_tables"]:
            raise ApiError(409, "table_paused", "the table is paused: resume it first")
    answer = await writer.submit(mid, None, {"kind": "table_moved", "table_id": target.id}, server=True)
    if not isinstance(answer, Ack):
        code = "table_busy" if answer.code == "not_allowed" else answer.code
        raise ApiError(409, code, answer.message)
    if row.draw_key is not None:
        await _apply(request, row.tournament_id, {"kind": "move_call", "key": row.draw_key, "table_id": target.id})
        await _flow_idle(request, row.tournament_id)  # the table it left is free: the queue feeds it
    return await writer.projection(mid)  # type: ignore[return-value]


@router.delete("/matches/{mid}", dependencies=ADMIN, response_model=None,
               responses=models.ok(cm.MatchCancelled, "The match is off its table (its events are kept).")
               | models.errors(401, 403, 404, 409))
async def delete_match(mid: str, request: Request) -> dict[str, Any]:
    writer: MatchWriter = deps.writer(request)
    row = await writer.match_row(mid)
    if row is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    if row.draw_key is not None:
        raise ApiError(409, "held_by_draw",
                       f"this match is {row.draw_key} of the draw: use walkover or requeue on the draw instead")
    if await writer.cancel_match(mid) is None:
        raise ApiError(409, "already_started", "only a match that has not started can be deleted")
    return {"id": mid, "status": "cancelled", "table_id": row.table_id}
