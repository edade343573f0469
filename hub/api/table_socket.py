"""/ws/tables/{table_id}: a tablet's session (PROTOCOL.md section 2).

auth -> ready -> envelopes answered by ack/reject; `state` pushed after every change of the
table's match, whoever made it and whichever hub process stored it: this process's writer tells
of its own changes at once, and the watch gateway's feeds (fed by the bus, gaps and bus losses
filled from the store) of every change; each version is pushed once, never an older one after a
newer. Everything the socket sends goes through one queue drained by
one sender task, so answers and pushes keep the order in which they happened.

Presence (hub/matches/presence.py): every frame is a sign that the tablet is there;
`{"type": "ping"}` is answered `{"type": "pong", "server_time"}` and nothing else. Before `ready`,
a match whose link was lost gets its `link_restored`, so the clock runs again for the strokes the
tablet queued while it was away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hub.api.commands import answer_json
from hub.api.envelope import BadEnvelope, parse_envelope
from hub.guards import access
from hub.guards.edge_json import strict_loads
from hub.guards.rate import rate_of
from hub.matches.departures import STAYED, departure
from hub.matches.presence import Presence, Tablet, restore
from hub.matches.tablet_links import tablet_ident
from hub.matches.writer import Change, MatchWriter, TableNotice, TokenRevoked
from hub.ops.logbudget import LogBudget, suppressed
from hub.ops.metrics import metrics_of
from hub.services import services_of
from hub.store import catalog
from hub.store.outage import describe, store_failed
from hub.wire import table as wire_table

log = logging.getLogger(__name__)
# Failure lines are bounded: per table for a bug, and for all tables together when the store fails
# (an outage is one fact, however many tablets reconnect through it).
_LOG_BUDGET = LogBudget(lines=3, window_s=60.0)
_STORE_LOG_BUDGET = LogBudget(lines=5, window_s=60.0)

router = APIRouter()

AUTH_TIMEOUT_S = 10.0
CLOSE_AUTH = 4401
# A tablet that stops reading this far behind is closed; its pushes must not pile up forever.
QUEUE_LIMIT = 256
CLOSE_SLOW = 4408
# Over the command rate (HUB_TABLE_RATE / HUB_TABLE_BURST; one budget per table, shared with HTTP
# commands: hub/guards/rate.py) a frame is answered `rate_limited` and not run (send it again later,
# same id); a socket that keeps flooding past a whole burst is closed 4429.
CLOSE_FLOOD = 4429
# How often an idle socket re-checks that its token is still the table's (rotation in another
# process). Commands do not wait for it: each is stored only if the token it was let in with is
# still the table's, checked in the storing transaction (writer.submit(token=...)), else 4401.
TOKEN_RECHECK_S = 5.0


def _reject(cid: str | None, code: str, message: str) -> wire_table.Reject:
    return wire_table.reject(cid, code, message)


async def _authenticate(ws: WebSocket, table_id: str) -> catalog.TableRow | None:
    try:
        text = await asyncio.wait_for(ws.receive_text(), AUTH_TIMEOUT_S)
        msg = strict_loads(text)
    except (TimeoutError, ValueError, KeyError, TypeError, RuntimeError):
        return None
    if not isinstance(msg, dict) or msg.get("type") != "auth" or not isinstance(msg.get("token"), str):
        return None
    table = await catalog.table_by_token(services_of(ws.app).engine, msg["token"])
    ws.scope["cuehub.tablet"] = tablet_ident(msg)  # which tablet, for the desk (hub/matches/tablet_links.py)
    return table if table is not None and table.id == table_id else None


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    await TableSession(ws, table_id).run()


class TableSession:
    """One tablet's socket, step by step: authenticate -> register (so a rotation finds it) ->
    follow the table's changes -> `ready` -> receive frames until the socket ends -> close.

    Every frame sent goes through `outbox` (drained by `_send_loop`); a close code put there ends
    the session (`close_with`), after which no more frames are run."""

    def __init__(self, ws: WebSocket, table_id: str) -> None:
        self.ws = ws
        self.table_id = table_id
        self.services = services_of(ws.app)
        self.settings = self.services.settings
        self.writer: MatchWriter = self.services.writer
        self.limit: int = self.settings.max_body_bytes
        self.outbox: asyncio.Queue[Mapping[str, Any] | str | int | None] = asyncio.Queue()
        self.closing: int | None = None  # set once a close code is queued: no more frames are run
        self.table: catalog.TableRow | None = None
        self.tablet: Tablet | None = None
        # Changes seen while `ready` is being built wait here, so `ready` is always the first message:
        # (match id, version, projection as a dict from this process's writer or JSON from the bus).
        self.early: list[tuple[str, int, Any]] | None = []
        # The last version of each match pushed as `state` (`ready` included): the writer here and
        # the bus both tell of a change stored here; whichever comes second is dropped, and a state
        # older than one already sent is never pushed after it.
        self.sent: dict[str, int] = {}
        self.last_null = False  # the last state pushed said "no match on the table"
        self.shown: str | None = None  # the match the tablet was last shown (`ready` or `state`)
        self.switching = asyncio.Lock()  # one look at the table's match at a time: one `match_left`
        self._forget: Callable[[], None] | None = None
        self._unsubscribes: list[Callable[[], None]] = []

    # --- the steps ------------------------------------------------------------------------------

    async def run(self) -> None:
        """The whole session. A tablet that goes away at any step (Wi-Fi lost mid-handshake, a frame
        over the cap, a compressed frame that inflates past it) ends it without a word in the log;
        a store that fails at any step closes it 1011 (reconnect and resend: command ids make that
        safe) with one short line, a few a minute for all tablets together."""
        try:
            try:
                await self.ws.accept()
            except OSError:  # gone before the handshake was answered (uvicorn's ClientDisconnected)
                return
            if not access.websocket_origin_allowed(self.ws.scope, self.settings):
                await self.ws.close(code=access.CLOSE_FORBIDDEN_ORIGIN)
                return
            if await self.authenticate() and await self.register():
                await self.serve()
        except WebSocketDisconnect:
            pass  # the tablet went away: nobody to tell, nothing to log
        except Exception as exc:
            await self.fail(exc)
        finally:
            if self._forget is not None:  # out of the rotation registry, whatever step it ended at
                self._forget()

    async def serve(self) -> None:
        """Authenticated: be present, follow the table, `ready`, then the frames until the end."""
        self.tablet = _present(self.ws, self.table_id)
        # Subscribe before reading the current match, so no change falls between `ready` and the pushes.
        self.subscribe()
        sender = asyncio.create_task(_send_loop(self.ws, self.outbox))
        metrics = metrics_of(self.ws)
        metrics.table_socket_opened()  # cuehub_table_sockets_connected: authenticated sessions
        try:
            await self.follow()
            await self.send_ready()
            await self.receive_loop()
        finally:
            metrics.table_socket_closed()
            await self.close(sender)

    async def fail(self, exc: Exception) -> None:
        """A failure that is not the tablet's: close 1011 so it reconnects and resends. The store
        failing is one line (no traceback: every reconnecting tablet would write one), bounded for
        all tables together; anything else is a bug, logged with its traceback, bounded per table."""
        if store_failed(exc):
            dropped = _STORE_LOG_BUDGET.allow("store")
            if dropped is not None:
                log.error("table socket %s: the store failed (%s); closed 1011%s", self.table_id,
                          describe(exc), suppressed(dropped))
        else:
            dropped = _LOG_BUDGET.allow(self.table_id)
            if dropped is not None:
                log.exception("table socket %s failed%s", self.table_id, suppressed(dropped))
        with contextlib.suppress(Exception):
            await self.ws.close(code=1011)

    async def authenticate(self) -> bool:
        """The first frame must be `auth` with this table's token; else the socket is closed."""
        self.table = await _authenticate(self.ws, self.table_id)
        if self.table is None:
            await self.ws.close(code=CLOSE_AUTH)
            return False
        return True

    async def register(self) -> bool:
        """Be findable by a token rotation in this process (which closes the session), then check
        the token again: a rotation between the first check and the registration found nothing."""
        assert self.table is not None
        self._forget = access.register_table_session(self.ws.app, self.table_id, self.close_with)
        again = await catalog.get_table(self.services.engine, self.table_id)
        if again is None or again.token_hash != self.table.token_hash:
            await self.ws.close(code=CLOSE_AUTH)
            return False
        return True

    def subscribe(self) -> None:
        """This process's writer: its match changes, and the table notices (a match left the table)."""
        self._unsubscribes += [
            self.writer.subscribe(self.on_change, "table_socket"),
            self.writer.subscribe(self.on_table_change, "table_socket"),
            self.writer.subscribe_tables(self.on_table_notice),
        ]

    async def follow(self) -> None:
        """The watch side: changes of the table's match stored by any process (bus + store)."""
        watch = self.services.watch
        if watch is not None:
            self._unsubscribes.append(await watch.follow_table(self.table_id, _Follower(self)))

    async def send_ready(self) -> None:
        """`ready` with the table's match now (its link restored if it was lost), then the changes
        held while it was being read."""
        current = await restore(self.writer, await self.writer.table_projection(self.table_id))  # presence: back
        self.outbox.put_nowait(wire_table.ready(current))
        if current is not None:
            self.sent[current["id"]] = current["version"]
            self.shown = current["id"]
        else:
            self.last_null = True
        held, self.early = self.early, None
        for mid, version, projection in held or ():
            self.push_state(mid, version, projection)

    async def receive_loop(self) -> None:
        """Frames until the socket ends or a close is queued: rate budget, ping, token re-check, command."""
        ws, table_id, table = self.ws, self.table_id, self.table
        assert table is not None
        loop = asyncio.get_running_loop()
        rate, burst = self.settings.table_rate_per_s, self.settings.table_rate_burst
        budget = rate_of(ws.app)
        flooded = 0
        checked = loop.time()
        while self.closing is None:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect" or self.closing is not None:
                break
            text = message.get("text")
            if text is None and message.get("bytes") is not None:
                text = message["bytes"].decode("utf-8", errors="replace")
            now = loop.time()
            if await budget.take(table_id) > 0:
                flooded += 1
                if flooded > burst:
                    self.close_with(CLOSE_FLOOD)
                    break
                self.outbox.put_nowait(_reject(_peek_id(text or "", self.limit), "rate_limited",
                                               f"over {rate:g} commands/s; send it again later with the same id"))
                continue
            flooded = 0
            if _heard(ws, self.tablet, text or ""):
                self.outbox.put_nowait(wire_table.pong())
                continue
            if now - checked > TOKEN_RECHECK_S:
                checked = now
                current_row = await catalog.get_table(self.services.engine, table_id)
                if current_row is None or current_row.token_hash != table.token_hash:
                    self.close_with(CLOSE_AUTH)  # the token was rotated (maybe by another process)
                    break
            try:
                self.outbox.put_nowait(await _handle_frame(self.writer, table_id, text or "", self.limit,
                                                           table.token_hash))
            except TokenRevoked:
                self.close_with(CLOSE_AUTH)  # rotated (maybe in another process): nothing was stored
                break

    async def close(self, sender: asyncio.Task[None]) -> None:
        """Leave presence and every subscription; let the sender finish."""
        _absent(self.ws, self.tablet)
        for unsubscribe in self._unsubscribes:
            unsubscribe()
        if self.closing is not None:  # let the sender reach the close code before it is stopped
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(sender), 2.0)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender

    # --- what the session is told ---------------------------------------------------------------

    def close_with(self, code: int) -> None:
        """Queue a close code (once): the sender closes the socket with it, no more frames are run."""
        if self.closing is None:
            self.closing = code
            self.outbox.put_nowait(code)

    def push_state(self, mid: str, version: int, projection: Any, switched: bool = False) -> None:
        """`state` of the table's match; another match than the one shown goes through
        `push_current` first (`switched` once it has), so `match_left` comes before it."""
        if self.early is not None:
            self.early.append((mid, version, projection))
            return
        if self.closing is not None or version <= self.sent.get(mid, -1):
            return
        if not switched and self.shown is not None and mid != self.shown:
            asyncio.ensure_future(self.push_current())
            return
        if self.outbox.qsize() >= QUEUE_LIMIT:
            self.close_with(CLOSE_SLOW)
            return
        self.sent[mid] = version
        self.shown = mid
        self.last_null = False
        if isinstance(projection, str):  # JSON already (the bus): spliced, not parsed again
            self.outbox.put_nowait(wire_table.state_text(projection))
        else:
            self.outbox.put_nowait(wire_table.state(projection))

    async def push_current(self) -> None:
        """`state` with whatever is on the table now (maybe null, sent once in a row), after
        `match_left` when the match shown has left the table (PROTOCOL.md section 9; where it went
        is read from the store: hub/matches/departures.py)."""
        async with self.switching:
            with contextlib.suppress(Exception):  # a failed read: the next change pushes again
                current = await self.writer.table_projection(self.table_id)
                if self.closing is not None:
                    return
                left = False
                if self.shown is not None and (current is None or current["id"] != self.shown):
                    gone = await departure(self.services.engine, self.shown, self.table_id)
                    if gone is not STAYED and self.closing is None:
                        self.outbox.put_nowait(gone)
                        left = True
                if current is not None:
                    if left:  # the table's state follows `match_left`, even a version sent before
                        if self.sent.get(current["id"], -1) <= current["version"]:
                            self.sent.pop(current["id"], None)
                        else:  # a newer one is out already: it is what the tablet shows now
                            self.shown = current["id"]
                    self.push_state(current["id"], current["version"], current, switched=True)
                elif not self.last_null or left:
                    self.last_null = True
                    self.shown = None
                    self.outbox.put_nowait(wire_table.state(None))

    def look_again(self) -> None:
        """The table's match may have changed: push what is on it now (once `ready` is out)."""
        if self.early is None and self.closing is None:
            asyncio.ensure_future(self.push_current())

    def on_change(self, change: Change) -> None:
        """A change stored by this process's writer."""
        if change.table_id == self.table_id:
            self.push_state(change.match_id, change.version, change.projection)

    def on_table_change(self, change: Change) -> None:
        """A match moved off this table (`table_moved`): the tablet gets what is on the table now."""
        if change.moved_from == self.table_id:
            self.look_again()

    def on_table_notice(self, notice: TableNotice) -> None:
        """A table notice from the writer (the table's scheduled match was cancelled, or the table
        was made or renamed): the tablet gets `state` with whatever is on the table now (maybe null).
        Notices meant for the tablet itself (not just a new `state`) belong here."""
        if notice.table_id == self.table_id:
            self.look_again()


class _Follower:
    """The watch side's view of a session: changes of the table's match stored by any process."""

    def __init__(self, session: TableSession) -> None:
        self._session = session

    def changed(self, mid: str, version: int, data: str) -> None:
        self._session.push_state(mid, version, data)

    def switched(self, mid: str | None) -> None:
        self._session.look_again()


async def _send_loop(ws: WebSocket, outbox: asyncio.Queue[Mapping[str, Any] | str | int | None]) -> None:
    try:
        while True:
            msg = await outbox.get()
            if msg is None or isinstance(msg, int):
                await ws.close(code=CLOSE_SLOW if msg is None else msg)
                return
            if isinstance(msg, str):
                await ws.send_text(msg)
            else:
                await ws.send_json(msg)
    except (WebSocketDisconnect, RuntimeError):
        return


def _peek_id(text: str, limit: int) -> str | None:
    """The frame's envelope id, if it has a usable one (for the rate_limited reject)."""
    if len(text) > limit:
        return None
    try:
        raw = strict_loads(text)
    except ValueError:
        return None
    cid = raw.get("id") if isinstance(raw, dict) else None
    return cid if isinstance(cid, str) and 1 <= len(cid) <= 64 else None


async def _handle_frame(writer: MatchWriter, table_id: str, text: str, limit: int,
                        token: str | None = None) -> Mapping[str, Any]:
    """One inbound frame -> its ack or reject. Malformed frames get bad_command, never a crash."""
    if len(text) > limit:
        return _reject(None, "bad_command", f"frame over {limit} bytes")
    try:
        raw = strict_loads(text)
    except ValueError:
        return _reject(None, "bad_command", "malformed JSON")
    try:
        env = parse_envelope(raw)
    except BadEnvelope as exc:
        return _reject(exc.id, "bad_command", exc.message)
    match = await writer.match_row(env.match_id)
    if match is None or match.table_id != table_id:
        return _reject(env.id, "unknown_match", f"no match {env.match_id!r} on this table")
    answer = await writer.submit(env.match_id, env.id, env.command, env.expected_version, token=token)
    return answer_json(answer, env.id)


# --- presence: who is at the table, for the clocks ----------------------------------------------

PING = wire_table.PING_TEXT


def _presence_of(ws: WebSocket) -> Presence | None:
    return services_of(ws.app).presence


def _present(ws: WebSocket, table_id: str) -> Tablet | None:
    presence = _presence_of(ws)
    return None if presence is None else presence.open(table_id, ws.scope.get("cuehub.tablet"))


def _heard(ws: WebSocket, tablet: Tablet | None, text: str) -> bool:
    """Note the tablet as heard; True when the frame is a ping (answered with a pong only)."""
    ping = text.replace(" ", "") == PING
    presence = _presence_of(ws)
    if presence is not None and tablet is not None:
        presence.heard(tablet, ping=ping)
    return ping


def _absent(ws: WebSocket, tablet: Tablet | None) -> None:
    presence = _presence_of(ws)
    if presence is not None and tablet is not None:
        presence.close(tablet)
