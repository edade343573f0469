"""A table tablet's session over ``/ws/tables/{table_id}`` (PROTOCOL.md section 2)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ._util import backoff_delays, ws_url
from .errors import AuthError, CommandRejected, SessionClosed
from .types import Ack, Match

log = logging.getLogger("cuehub_client.session")

AUTH_CLOSE_CODE = 4401


@dataclass
class _Pending:
    envelope: dict[str, Any]
    future: asyncio.Future
    sends: int = 0


class TableSession:
    """One table's tablet.

    ``await session.connect()`` authenticates and returns the table's current match (or
    None). ``await session.send({...})`` wraps the command in an envelope with a fresh uuid
    id and waits for its ``ack`` (returned) or ``reject`` (raises :class:`CommandRejected`).
    Commands that are not answered yet when the socket drops are kept and sent again, with
    the same ids, as soon as the session is back (the hub answers a repeated id with its
    first answer, so nothing is applied twice). ``session.match`` is the latest projection
    from ``ready``/``state``.
    """

    def __init__(
        self,
        base_url: str,
        table_id: str,
        token: str,
        *,
        reconnect: bool = True,
        on_state: Callable[[Match], Any] | None = None,
        open_timeout: float = 10.0,
    ) -> None:
        self.url = ws_url(base_url, f"/ws/tables/{table_id}")
        self.table_id = table_id
        self.token = token
        self.reconnect = reconnect
        self.on_state = on_state
        self.open_timeout = open_timeout
        self.match: Match | None = None
        self.server_time_offset_ms: float = 0.0  # server_time - local time, from the last message
        self.reconnects = 0
        self._pending: OrderedDict[str, _Pending] = OrderedDict()
        self._ws: ClientConnection | None = None
        self._lock = asyncio.Lock()
        self._runner: asyncio.Task | None = None
        self._closed = False
        self._ready: asyncio.Future | None = None
        self._changed = asyncio.Event()
        self._fatal: BaseException | None = None

    # -- lifecycle ----------------------------------------------------------------------
    async def __aenter__(self) -> TableSession:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return self._ws is not None

    async def connect(self, timeout: float | None = 10.0) -> Match | None:
        """Open the socket, authenticate, and wait for ``ready``."""
        if self._runner is None:
            self._ready = asyncio.get_running_loop().create_future()
            self._runner = asyncio.create_task(self._run(), name=f"table-session-{self.table_id}")
        assert self._ready is not None
        await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        return self.match

    async def close(self) -> None:
        self._closed = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._fail_pending(SessionClosed("session closed"))

    async def drop_connection(self) -> None:
        """Close the current socket as if the network failed; the session reconnects."""
        ws = self._ws
        if ws is not None:
            await ws.close(code=1001, reason="client drop")

    # -- commands -----------------------------------------------------------------------
    @property
    def unacked(self) -> list[dict[str, Any]]:
        """Envelopes sent (or queued) and not answered yet, oldest first."""
        return [p.envelope for p in self._pending.values()]

    def submit(
        self,
        command: dict[str, Any],
        *,
        match_id: str | None = None,
        expected_version: int | None = None,
        id: str | None = None,
    ) -> tuple[str, asyncio.Future]:
        """Queue a command and return ``(id, future)`` without waiting for the answer."""
        if self._closed:
            raise SessionClosed("session closed")
        if self._fatal is not None:
            raise self._fatal
        mid = match_id or (self.match or {}).get("id")
        if not mid:
            raise ValueError("no match_id given and the table has no match")
        cid = id or str(uuid.uuid4())
        env: dict[str, Any] = {"id": cid, "match_id": mid, "command": command}
        if expected_version is not None:
            env["expected_version"] = expected_version
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        existing = self._pending.get(cid)
        if existing is not None:
            return cid, existing.future
        self._pending[cid] = _Pending(env, fut)
        asyncio.get_running_loop().create_task(self._write_if_connected(cid))
        return cid, fut

    async def send(
        self,
        command: dict[str, Any],
        *,
        match_id: str | None = None,
        expected_version: int | None = None,
        id: str | None = None,
        timeout: float | None = None,
    ) -> Ack:
        """Send one command and wait for its ack (returned) or reject (raised)."""
        _, fut = self.submit(command, match_id=match_id, expected_version=expected_version, id=id)
        return await asyncio.wait_for(asyncio.shield(fut), timeout)

    async def _write_if_connected(self, cid: str) -> None:
        async with self._lock:
            p = self._pending.get(cid)
            ws = self._ws
            if p is None or ws is None or p.sends > 0:
                return
            try:
                await ws.send(json.dumps(p.envelope))
                p.sends += 1
            except ConnectionClosed:
                pass  # the runner reconnects and resends

    # -- state --------------------------------------------------------------------------
    async def wait_for(self, predicate: Callable[[Match | None], bool], timeout: float | None = None) -> Match | None:
        """Wait until ``predicate(session.match)`` is true."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not predicate(self.match):
            if self._fatal is not None:
                raise self._fatal
            if self._closed:
                raise SessionClosed("session closed")
            ev = self._changed
            remaining = None if deadline is None else max(0.0, deadline - loop.time())
            await asyncio.wait_for(ev.wait(), remaining)
        return self.match

    async def wait_version(self, version: int, timeout: float | None = None) -> Match | None:
        """Wait until the table's match projection has reached ``version``."""
        return await self.wait_for(lambda m: m is not None and int(m.get("version", 0)) >= version, timeout)

    def _set_match(self, match: Match | None, server_time: Any) -> None:
        self.match = match
        if isinstance(server_time, (int, float)):
            self.server_time_offset_ms = server_time - time.time() * 1000
        old, self._changed = self._changed, asyncio.Event()
        old.set()
        if self.on_state is not None and match is not None:
            try:
                self.on_state(match)
            except Exception:  # a callback must not kill the session
                log.exception("on_state callback failed")

    # -- the connection loop ------------------------------------------------------------
    def _fail_pending(self, exc: BaseException) -> None:
        for p in self._pending.values():
            if not p.future.done():
                p.future.set_exception(exc)
                p.future.exception()  # mark retrieved: nobody may be awaiting it
        self._pending.clear()

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "ack":
            p = self._pending.pop(str(msg.get("id")), None)
            if p is not None and not p.future.done():
                p.future.set_result(msg)
        elif kind == "reject":
            p = self._pending.pop(str(msg.get("id")), None)
            err = msg.get("error") or {}
            if p is not None and not p.future.done():
                p.future.set_exception(
                    CommandRejected(str(msg.get("id")), str(err.get("code")), str(err.get("message", "")))
                )
            elif p is None:
                log.warning("reject for unknown command %s: %s", msg.get("id"), err)
        elif kind in ("state", "ready"):
            self._set_match(msg.get("match"), msg.get("server_time"))
        else:
            log.debug("ignored message %r", kind)

    async def _run(self) -> None:
        delays = backoff_delays()
        while not self._closed:
            try:
                async with connect(self.url, open_timeout=self.open_timeout, proxy=None) as ws:
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                    first = json.loads(await ws.recv())
                    if first.get("type") != "ready":
                        raise RuntimeError(f"expected ready, got {first.get('type')!r}")
                    self._set_match(first.get("match"), first.get("server_time"))
                    async with self._lock:
                        for p in list(self._pending.values()):
                            await ws.send(json.dumps(p.envelope))
                            p.sends += 1
                        self._ws = ws
                    delays = backoff_delays()
                    if self._ready is not None and not self._ready.done():
                        self._ready.set_result(None)
                    async for raw in ws:
                        try:
                            msg = json.loads(raw)
                        except ValueError:
                            log.warning("non-JSON message ignored")
                            continue
                        self._handle(msg)
            except asyncio.CancelledError:
                raise
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code == AUTH_CLOSE_CODE:
                    self._fatal = AuthError(f"table {self.table_id}: token refused (4401)")
                else:
                    log.info("table %s socket closed (%s); reconnecting", self.table_id, code)
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError, RuntimeError, ValueError) as exc:
                log.info("table %s connection failed: %s", self.table_id, exc)
                if isinstance(exc, InvalidURI):
                    self._fatal = exc
            finally:
                self._ws = None
            if self._fatal is not None or not self.reconnect:
                exc = self._fatal or SessionClosed("connection lost")
                if self._ready is not None and not self._ready.done():
                    self._ready.set_exception(exc)
                    self._ready.exception()
                self._fail_pending(exc)
                old, self._changed = self._changed, asyncio.Event()
                old.set()
                return
            if self._closed:
                return
            self.reconnects += 1
            await asyncio.sleep(next(delays))
