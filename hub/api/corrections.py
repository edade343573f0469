"""Corrections during a live event (PROTOCOL.md section 9): every one an admin call.

- `POST /api/matches/{mid}/result` `{"winner", "score": {pid: n}, "reason"?}`: a result entered by
  hand, stored as a `result_entered` event of the match (hub/rules/entered.py says what it checks;
  a refusal is 422 `bad_result`). For a draw match the draw takes it as any result (the flow, when
  it was scheduled or live; here at once, when a finished match's score is corrected), always the
  match's own latest (hub/tournaments/draw_results.py). `409 result_used` when the corrected result
  would change a match that has started. A rubber of a team match is corrected the same way: the
  flow takes its new result and the team match's score in rubbers and outcome are derived again
  (hub/draws/team_corrections.py: reopened, or won by the other team, the draw following). The
  result is stored only while the draw is as that check read it (checked in the append's
  transaction; judged again when it moved, and `409 draw_moved` when it kept moving), so two desks
  entering results at once on two processes cannot leave the bracket with another winner than the match's.
- `POST /api/tournaments/{tid}/draw/{key}/reopen`: a walkover given by the desk is undone (the
  match is ready again, at the end of the queue); a finished match is opened again: its finishing
  event is undone (a result entered by hand, else the last stroke: the match is live again on its
  table, as the tablet's undo would make it), or, when its table or one of its players is in a
  match that has started since, the draw lets the match go and the key goes back to the queue to
  be played again. A walkover made by a withdrawal is undone by reinstating the player. A team match
  decided by its rubbers is not reopened as one (409 `team_match`): a rubber's result is corrected.
- `POST /api/tournaments/{tid}/players/{pid}/reinstate`: a withdrawal undone.
- `DELETE /api/tournaments/{tid}/players/{pid}`: before the draw the player is gone (not withdrawn:
  a `player_removed` event, hub/draws/player_commands.py); after it `409 draw_made` (withdraw).
- `DELETE /api/tournaments/{tid}`: while none of its matches has started and the draw has no result
  or walkover (`409 has_results`); its tables, matches and events go with it.
- `POST /api/tournaments/{tid}/archive`, `/unarchive`: the public list leaves archived ones out.
- `DELETE /api/sessions`: every desk session ends (sign out everywhere); 204.

Every correction that would change the players of a match that has started (live, or finished, or
given as a walkover) is refused `409 result_used`, the message naming that match; matches called
but not started are taken off their tables by the flow (their players changed).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy.ext.asyncio import AsyncConnection

from hub import draws
from hub.api import correction_models as xm
from hub.api import deps, models
from hub.api.errors import ApiError
from hub.api.tournaments import _apply, _body, _entry, _flow_idle, _players, _projection, _state, tournaments
from hub.matches.writer import Ack, Answer, MatchWriter, Rejected
from hub.store import catalog, match_events, removal, tournament_events
from hub.tournaments.flow import draw_entries

router = APIRouter(prefix="/api", tags=["corrections"], responses=models.errors(503))
ADMIN = [Depends(deps.require_admin)]
WRITE_ERRORS = models.errors(401, 403, 404, 409, 413, 422)
PROJECTION = models.ok(xm.CompetitionProjection, "The tournament projection, after the flow has acted on it.")
STARTED = ("live", "finished")


async def refuse_started(request: Request, state: Any, kind: str, data: dict[str, Any],
                         besides: str | None = None) -> None:
    """409 `result_used` when the correction would change a match that has started (the draw's own
    refusal for finished matches and walkovers; the store's status for the called ones)."""
    try:
        called = draws.affected_calls(state, kind, data, besides=besides)
    except draws.DrawReject as r:
        raise ApiError(r.status, r.code, r.message) from None
    statuses = await catalog.match_statuses(deps.engine(request), [mid for _, mid in called])
    entries = draw_entries(draws.projection(state))
    for key, mid in called:
        if statuses.get(mid) in STARTED:
            names = " v ".join(state.name(p) for p in entries[key]["players"] if p)
            raise ApiError(409, "result_used", f"{key} ({names}) has started since: it depends on this")


# --- a result by hand ---------------------------------------------------------------------------


def _result_command(body: dict[str, Any]) -> dict[str, Any]:
    extra = set(body) - {"winner", "score", "reason"}
    if extra:
        raise ApiError(422, "bad_request", f"unknown field {sorted(extra)[0]!r} (the body is winner, score, reason)")
    if "score" not in body or "winner" not in body:
        raise ApiError(422, "bad_request", 'the body is {"winner": pid, "score": {pid: n, ...}, "reason"?}')
    return {"kind": "result_entered", "winner": body["winner"], "score": body["score"], "reason": body.get("reason")}


# A draw match's result is stored only while the draw is as the desk's check read it; the draw moving
# meanwhile (another process took this match's result, say) makes the check run again, this often.
DRAW_ATTEMPTS = 5
DRAW_MOVED = "draw_moved"


def _draw_unmoved(tid: str, version: int) -> catalog.InTransaction:
    """The result's append checks, in its transaction, that the tournament's stream is still at
    `version`, the one `refuse_started` judged: a take of this match's result locks the match row
    (hub/tournaments/draw_results.py), so it cannot commit between this check and the append's commit."""
    async def check(conn: AsyncConnection) -> None:
        if await tournament_events.head_in(conn, tid) != version:
            raise match_events.CheckFailed(DRAW_MOVED, "the draw changed meanwhile")

    return check


async def _enter_once(request: Request, row: catalog.MatchRow, command: dict[str, Any]) -> Answer:
    """Judge the result on the match and the draw as they are now, and store it if neither moved."""
    writer: MatchWriter = deps.writer(request)
    rules = deps.services(request).rules
    match_state = await writer.state(row.id)
    if match_state is None:
        raise ApiError(404, "not_found", f"no match {row.id!r}")
    try:
        checked = rules.decide(match_state, command, server=True)[1]
    except rules.Reject as r:
        raise ApiError(422, "bad_result", r.message) from None
    check = None
    if row.draw_key is not None:
        state = await _state(request, row.tournament_id)
        taken = state.results.get(row.draw_key)
        if taken is not None and taken.match_id == row.id:  # a correction of a result the draw holds
            correction = {"key": row.draw_key, "match_id": row.id, "winner": checked["winner"],
                          "scores": checked["score"], "ranking": None}
            await refuse_started(request, state, "result_taken", correction, besides=row.draw_key)
        held = state.rubber_results.get(row.draw_key)
        if held is not None and held.match_id == row.id:  # a team match's rubber: its outcome derived again
            await _refuse_rubber_used(request, state, {"kind": "take_rubber", "rubber": row.draw_key,
                                                       "match_id": row.id, "winner": checked["winner"],
                                                       "scores": checked["score"]})
        check = _draw_unmoved(row.tournament_id, state.version)
    return await writer.submit(row.id, None, command, server=True, check=check)


async def _refuse_rubber_used(request: Request, state: Any, command: dict[str, Any]) -> None:
    """409 `result_used` when a rubber's corrected result would change the team match's outcome and a
    match that depends on it has been played or has started (hub/draws/team_corrections.py)."""
    try:
        kind, data = draws.decide(state, command)
    except draws.DrawReject as r:
        if r.code == "already_decided":
            return
        raise ApiError(r.status, r.code, r.message) from None
    await refuse_started(request, state, kind, data)


@router.post("/matches/{mid}/result", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(xm.ResultEntry),
             responses=models.ok(models.MatchProjection, "The match, finished, its result entered by hand.")
             | WRITE_ERRORS)
async def enter_result(mid: str, request: Request) -> dict[str, Any]:
    command = _result_command(await _body(request))
    writer: MatchWriter = deps.writer(request)
    row = await writer.match_row(mid)
    if row is None:
        raise ApiError(404, "not_found", f"no match {mid!r}")
    if row.status == catalog.CANCELLED:
        raise ApiError(409, "cancelled", "this match was taken off its table: it has no result to enter")
    for _ in range(DRAW_ATTEMPTS):
        answer = await _enter_once(request, row, command)
        if not (isinstance(answer, Rejected) and answer.code == DRAW_MOVED):
            break
    if not isinstance(answer, Ack):
        status = 422 if answer.code == "bad_command" else 409
        raise ApiError(status, "bad_result" if status == 422 else answer.code, answer.message)
    proj = await writer.projection(mid)
    assert proj is not None
    if row.draw_key is not None:
        tid = row.tournament_id
        taken = (await _state(request, tid)).results.get(row.draw_key)
        if taken is not None and taken.match_id == mid:  # the draw holds this match's result: the new one now
            try:
                await deps.services(request).flow.results.take(tid, row.draw_key, mid)
            except draws.DrawReject as r:
                raise ApiError(r.status, r.code, r.message) from None
        await _flow_idle(request, tid)
    return proj


# --- reopen, reinstate ----------------------------------------------------------------------------


async def _blocked(request: Request, tid: str, state: Any, row: catalog.MatchRow) -> bool:
    """The match's table, or one of its players, is in another match that has started."""
    engine = deps.engine(request)
    holders = set()
    table_open = (await catalog.open_matches(engine, tid)).get(row.table_id)
    if table_open is not None and table_open != row.id:
        holders.add(table_open)
    players = {p.get("id") for p in row.setup.get("players") or []}
    for call in state.open_calls.values():
        if call.match_id != row.id and players & set(call.players):
            holders.add(call.match_id)
    statuses = await catalog.match_statuses(engine, sorted(holders))
    return any(s in STARTED for s in statuses.values())


async def _reopen_match(request: Request, tid: str, key: str, mid: str) -> None:
    """Undo the events that finished the match (an entered result over a played one: both)."""
    writer: MatchWriter = deps.writer(request)
    for _ in range(3):
        proj = await writer.projection(mid)
        if proj is None or proj["status"] != "finished":
            return
        # the desk's own undo (server): it may undo the desk's decisions, which a tablet may not
        answer = await writer.submit(mid, f"reopen:{key}:{proj['version']}", {"kind": "undo"}, server=True)
        if not isinstance(answer, Ack):
            code = "result_used" if answer.code == "not_allowed" else answer.code
            raise ApiError(409, code, answer.message)


@router.post("/tournaments/{tid}/draw/{key}/reopen", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False), responses=PROJECTION | WRITE_ERRORS)
async def reopen(tid: str, key: str, request: Request) -> dict[str, Any]:
    state, entry = await _entry(request, tid, key)
    status = entry["status"]
    if status == "walkover":
        if key in state.walkovers:
            await refuse_started(request, state, "walkover_voided", {"key": key}, besides=key)
        await _apply(request, tid, {"kind": "void_walkover", "key": key})
    elif status == "finished" and entry.get("team"):  # decided by its rubbers: their results are what to correct
        raise ApiError(409, "team_match", f"{key} is a team match: correct the result of one of its rubbers, or "
                                          "undo it on its tablet, and the team match follows")
    elif status == "finished":
        mid = entry["match_id"]
        data = {"key": key, "match_id": mid}
        await refuse_started(request, state, "result_voided", data, besides=key)
        row = await deps.writer(request).match_row(mid)
        if row is None or await _blocked(request, tid, state, row):
            flow = deps.services(request).flow
            for down in draws.downstream(state, key):  # called since, not started: off their tables first
                if down in state.open_calls:
                    await flow.take_off(tid, down, state.open_calls[down].match_id)
            await _apply(request, tid, {"kind": "void_result", **data, "requeue": True})
        else:
            await _reopen_match(request, tid, key, mid)
    else:
        raise ApiError(409, "not_finished", f"{key} is {status}: there is no result to reopen")
    await _flow_idle(request, tid)
    return await _projection(request, tid)


@router.post("/tournaments/{tid}/players/{pid}/reinstate", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(xm.Player, "The player, active again.") | WRITE_ERRORS)
async def reinstate(tid: str, pid: str, request: Request) -> dict[str, Any]:
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    state = await _state(request, tid)
    if pid in state.player_by_id:
        await refuse_started(request, state, "player_reinstated", {"player": pid})
    await _apply(request, tid, {"kind": "reinstate", "player": pid})
    await _flow_idle(request, tid)
    return _players(await _state(request, tid))[pid]


# --- delete, archive --------------------------------------------------------------------------------


@router.delete("/tournaments/{tid}/players/{pid}", dependencies=ADMIN, response_model=None,
               responses=models.ok(xm.PlayerRemoved, "The player is gone (before the draw; after it "
                                                     "409 `draw_made`: withdraw instead).")
               | models.errors(401, 403, 404, 409))
async def remove_player(tid: str, pid: str, request: Request) -> dict[str, Any]:
    _, event = await _apply(request, tid, {"kind": "remove_player", "player": pid})
    return {"id": pid, "name": event.data["name"], "removed": True}


@router.delete("/tournaments/{tid}", dependencies=ADMIN, response_model=None,
               responses=models.ok(xm.Deleted, "The tournament is gone, with its tables and matches.")
               | models.errors(401, 403, 404, 409))
async def delete_tournament(tid: str, request: Request) -> dict[str, Any]:
    engine = deps.engine(request)
    if await catalog.get_tournament(engine, tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    state = await _state(request, tid)
    decided = next((m for m in state.derived.matches if m.status in ("finished", "walkover")), None)
    if decided is not None:
        raise ApiError(409, "has_results", f"{decided.key} is {decided.status}: archive the tournament instead")
    try:
        table_ids = await removal.delete_tournament(engine, tid)
    except removal.HasResults:
        raise ApiError(409, "has_results", "a match of this tournament has started: archive it instead") from None
    if table_ids is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    deps.services(request).flow.forget(tid)
    tournaments(request).forget(tid)
    registration = deps.services(request).registration
    if registration is not None:  # its sign-ups went with it (section 14)
        registration.forget(tid)
    exports = deps.services(request).exports
    if exports is not None:
        exports.forget(tid)
    writer = deps.writer(request)
    for table_id in table_ids:  # screens of its tables look again (nothing there now)
        writer.table_changed(table_id, tid)
    return {"id": tid, "deleted": True}


async def _archive(request: Request, tid: str, kind: str) -> dict[str, Any]:
    if await catalog.get_tournament(deps.engine(request), tid) is None:
        raise ApiError(404, "not_found", f"no tournament {tid!r}")
    state = await _state(request, tid)
    if state.archived != (kind == "archive"):  # already so: nothing to store
        await _apply(request, tid, {"kind": kind})
        listed = deps.services(request).tournament_list
        if listed is not None:  # the public list shows it at once
            listed.invalidate()
    return {"id": tid, "archived": kind == "archive"}


@router.post("/tournaments/{tid}/archive", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(xm.Archived, "Archived: left out of the public list; its pages still answer.")
             | WRITE_ERRORS)
async def archive(tid: str, request: Request) -> dict[str, Any]:
    return await _archive(request, tid, "archive")


@router.post("/tournaments/{tid}/unarchive", dependencies=ADMIN, response_model=None,
             openapi_extra=models.body(models.Empty, required=False),
             responses=models.ok(xm.Archived, "Listed again.") | WRITE_ERRORS)
async def unarchive(tid: str, request: Request) -> dict[str, Any]:
    return await _archive(request, tid, "unarchive")


# --- sign out everywhere --------------------------------------------------------------------------


SIGNED_OUT_EVERYWHERE: dict[int | str, dict[str, Any]] = {
    204: {"description": "Every desk session has ended (this one too)."}}


@router.delete("/sessions", dependencies=ADMIN, status_code=204, response_class=Response,
               responses=SIGNED_OUT_EVERYWHERE | models.errors(401, 403))
async def sign_out_everywhere(request: Request) -> Response:
    await removal.end_every_session(deps.engine(request))
    response = Response(status_code=204, headers={"Cache-Control": "no-store"})
    response.delete_cookie(deps.SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return response
