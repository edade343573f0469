"""Bounds on real `cuehub serve` processes: no client can wear a hub down.

- 1,100 idle TCP connections under `ulimit -n 1024` do not lock out a new tablet;
- idle and slow (slowloris) clients are closed on the hub's port, idle ones on the gateway's port;
- 300 refused HTTP commands in a burst meet the table's rate limit, another table is unaffected;
- the same refused command id sent to two processes on one PostgreSQL gets one answer;
- a token rotated on one process stops the other process's socket at its next command.

Figures are printed (run with -s).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from spine_helpers import PG_URL
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.frames import auth_frame, subscribe_frame
from tests.hubproc import ADMIN, HubProcess

H = {"Authorization": f"Bearer {ADMIN}"}
BREAK_SHOT = {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [], "rail": True, "break_crossings": 5}
START = {"kind": "start", "breaker": "a"}


class LimitedHub(HubProcess):
    """A HubProcess given more time to start: these tests load the box (thousands of sockets)."""

    def start(self, timeout: float = 30.0) -> None:
        super().start(timeout)


def _table_and_match(base: str, name: str = "T1") -> dict[str, str]:
    t = httpx.post(base + "/api/tournaments", json={"name": "Bounds"}, headers=H, timeout=10).json()
    tb = httpx.post(base + f"/api/tournaments/{t['id']}/tables", json={"name": name}, headers=H, timeout=10).json()
    m = httpx.post(base + "/api/matches", headers=H, timeout=10, json={
        "tournament_id": t["id"], "table_id": tb["id"], "discipline": "golden_nine",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 3}}).json()
    return {"tid": t["id"], "table_id": tb["id"], "token": tb["token"], "mid": m["id"]}


def _env(mid: str, command: dict[str, Any], cid: str | None = None) -> dict[str, Any]:
    return {"id": cid or uuid.uuid4().hex, "match_id": mid, "command": command}


def _sqlite_hub(tmp_path: Path, **kwargs: Any) -> LimitedHub:
    return LimitedHub(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path, **kwargs)


async def _tablet_stroke(ws_base: str, table: dict[str, str], cid: str) -> dict[str, Any]:
    async with connect(f"{ws_base}/ws/tables/{table['table_id']}", open_timeout=10) as ws:
        await ws.send(json.dumps(auth_frame(table["token"])))
        ready = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert ready["type"] == "ready", ready
        await ws.send(json.dumps(_env(table["mid"], START, cid)))
        while True:
            got = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if got["type"] in ("ack", "reject"):
                return got


def _open_idle(port: int, n: int, wait_s: float = 10.0) -> tuple[list[socket.socket], int]:
    """n TCP connections that send nothing; (sockets, how many got established within wait_s)."""
    import selectors

    socks, sel = [], selectors.DefaultSelector()
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            s.connect(("127.0.0.1", port))
        socks.append(s)
        sel.register(s, selectors.EVENT_WRITE)
    established, deadline = 0, time.monotonic() + wait_s
    while established < n and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=0.5):
            sel.unregister(key.fileobj)
            if key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:  # type: ignore[union-attr]
                established += 1
    sel.close()
    return socks, established


# --- 1,100 idle connections, 1,024 descriptors ----------------------------------------------


def test_idle_connections_do_not_lock_out_a_new_tablet(tmp_path: Path) -> None:
    hub = _sqlite_hub(tmp_path, nofile=1024)
    hub.start()
    idle: list[socket.socket] = []
    try:
        table = _table_and_match(hub.base)
        t0 = time.monotonic()
        idle, established = _open_idle(hub.port, 1100)
        opened_s = time.monotonic() - t0
        assert established == 1100
        time.sleep(1.0)  # let the hub accept what it will
        t1 = time.monotonic()
        got = asyncio.run(_tablet_stroke(hub.ws_base, table, "first-stroke"))
        tablet_s = time.monotonic() - t1
        assert got["type"] == "ack" and got["version"] == 1, got
        closed = 0
        for s in idle:
            try:
                if s.recv(1) == b"":
                    closed += 1
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        assert hub.proc is not None and hub.proc.poll() is None
        print(f"\n1,100 idle connections (opened in {opened_s:.2f} s) under ulimit -n 1024: a new tablet "
              f"connected, authenticated and had its stroke acked in {tablet_s:.3f} s; the hub shed {closed} idle ones")
        assert tablet_s < 5.0
        assert closed >= 1100 - 1024  # the guard made room (or the header timeout did)
    finally:
        for s in idle:
            s.close()
        hub.stop()


def test_idle_connections_on_the_gateway_port_do_not_lock_out_either_port(tmp_path: Path) -> None:
    """The hub's port and its watch gateway share the process's descriptors (and one guard)."""
    from tests.services import free_port

    watch_port = free_port()
    hub = _sqlite_hub(tmp_path, nofile=1024, extra_args=["--watch-port", str(watch_port)])
    hub.start()
    idle: list[socket.socket] = []
    try:
        table = _table_and_match(hub.base)
        idle, established = _open_idle(watch_port, 1100)
        assert established == 1100
        time.sleep(1.0)

        async def watcher() -> dict[str, Any]:
            async with connect(f"ws://127.0.0.1:{watch_port}/ws/watch", open_timeout=10) as ws:
                await ws.send(json.dumps(subscribe_frame(f"match:{table['mid']}")))
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

        t1 = time.monotonic()
        got = asyncio.run(_tablet_stroke(hub.ws_base, table, "first-stroke"))
        tablet_s = time.monotonic() - t1
        t2 = time.monotonic()
        snap = asyncio.run(watcher())
        watcher_s = time.monotonic() - t2
        assert got["type"] == "ack" and snap["type"] == "snapshot", (got, snap)
        print(f"\n1,100 idle connections ({established} established) on the gateway port under ulimit -n 1024: "
              f"a tablet's stroke acked in "
              f"{tablet_s:.3f} s on the hub's port, a watcher's snapshot in {watcher_s:.3f} s on the gateway's")
        assert tablet_s < 5.0 and watcher_s < 5.0
    finally:
        for s in idle:
            s.close()
        hub.stop()


# --- idle and slow clients time out ----------------------------------------------------------


def test_idle_and_slow_clients_are_closed_on_both_ports(tmp_path: Path) -> None:
    from tests.services import free_port

    watch_port = free_port()
    hub = _sqlite_hub(tmp_path, env={"HUB_HEADER_TIMEOUT_S": "1.5", "HUB_BODY_TIMEOUT_S": "1.5"},
                      extra_args=["--watch-port", str(watch_port)])
    hub.start()
    socks: dict[str, list[socket.socket]] = {"idle": [], "slowloris": [], "slow body": [], "gateway idle": []}
    try:
        for kind, port in (("idle", hub.port), ("slowloris", hub.port), ("slow body", hub.port),
                           ("gateway idle", watch_port)):
            for _ in range(50):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                if kind == "slowloris":
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                elif kind == "slow body":
                    s.sendall(b"POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 1000\r\n\r\n{")  # read before anything is checked
                s.setblocking(False)
                socks[kind].append(s)
        t0 = time.monotonic()
        open_ = {k: set(range(len(v))) for k, v in socks.items()}
        closed_at: dict[str, float] = {}
        while any(open_.values()) and time.monotonic() - t0 < 15:
            for kind, left in open_.items():
                for i in list(left):
                    s = socks[kind][i]
                    try:
                        if kind == "slowloris":
                            s.send(b"X")  # a byte at a time: never a whole head
                        data = s.recv(4096)
                        assert data == b"", (kind, data[:200])  # closed, never answered
                        left.discard(i)
                    except BlockingIOError:
                        pass
                    except OSError:
                        left.discard(i)
                if not left and kind not in closed_at:
                    closed_at[kind] = time.monotonic() - t0
            time.sleep(0.2)
        print("\nclosed within (s, header/body timeout 1.5 s): "
              + ", ".join(f"{k} x50: {v:.1f}" for k, v in closed_at.items()))
        assert not any(open_.values()), {k: len(v) for k, v in open_.items()}
        assert httpx.get(hub.base + "/healthz", timeout=5).status_code == 200
    finally:
        for group in socks.values():
            for s in group:
                s.close()
        hub.stop()


# --- a burst of refused HTTP commands meets the rate limit -------------------------------------


def test_a_burst_of_300_refused_commands_meets_the_rate_limit(tmp_path: Path, pg_schema: str) -> None:
    hub = LimitedHub(PG_URL, tmp_path, schema=pg_schema)
    hub.start()
    try:
        rogue, other = _table_and_match(hub.base, "rogue"), _table_and_match(hub.base, "other")

        async def run() -> tuple[dict[int, int], float, list[float]]:
            async def burst() -> list[int]:
                """300 requests at once, one per connection, with a raw client (httpx's own cost
                would spread the burst out)."""
                async def conn(ids: list[int]) -> list[int]:
                    reader, writer = await asyncio.open_connection("127.0.0.1", hub.port)
                    out = []
                    for i in ids:
                        body = json.dumps(_env(rogue["mid"], BREAK_SHOT, f"r{i}")).encode()
                        writer.write(
                            f"POST /api/matches/{rogue['mid']}/commands HTTP/1.1\r\nHost: x\r\n"
                            f"Authorization: Bearer {rogue['token']}\r\nContent-Type: application/json\r\n"
                            f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                        head = (await reader.readuntil(b"\r\n\r\n")).decode()
                        status = int(head.split(" ", 2)[1])
                        length = int(next(line.split(":", 1)[1] for line in head.split("\r\n")
                                          if line.lower().startswith("content-length")))
                        answer = json.loads(await reader.readexactly(length))
                        if status == 429:
                            assert answer["error"]["code"] == "rate_limited" and "retry-after: " in head.lower()
                        out.append(status)
                    writer.close()
                    return out

                got = await asyncio.gather(*(conn([k]) for k in range(300)))
                return [code for codes in got for code in codes]

            async def other_table() -> list[float]:
                async with httpx.AsyncClient(base_url=hub.base, timeout=30) as c:
                    times = []
                    for _ in range(5):
                        t = time.perf_counter()
                        r = await c.get(f"/api/matches/{other['mid']}")
                        assert r.status_code == 200
                        times.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    r = await c.post(f"/api/matches/{other['mid']}/commands", json=_env(other["mid"], START),
                                     headers={"Authorization": f"Bearer {other['token']}"})
                    assert r.status_code == 200, r.text
                    times.append(time.perf_counter() - t)
                    return times

            t0 = time.perf_counter()
            statuses, times = await asyncio.gather(burst(), other_table())
            elapsed = time.perf_counter() - t0
            return {k: statuses.count(k) for k in sorted(set(statuses))}, elapsed, times

        codes, elapsed, other_times = asyncio.run(run())
        admitted = 300 - codes.get(429, 0)
        print(f"\n300 refused commands in {elapsed:.2f} s: {codes}; admitted {admitted} "
              f"(bound: burst 100 + 50/s x {elapsed:.2f} s = {100 + 50 * elapsed:.0f}); the other table's "
              f"reads and command during the burst: max {max(other_times) * 1000:.0f} ms")
        assert admitted <= 100 + 50 * elapsed + 2
        assert codes.get(429, 0) >= 300 - (100 + 50 * elapsed + 2)
        assert set(codes) <= {409, 429}
    finally:
        hub.stop()


# --- two processes, one PostgreSQL --------------------------------------------------------------


def test_the_same_refused_id_on_two_processes_gets_one_answer(tmp_path: Path, pg_schema: str) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = LimitedHub(PG_URL, tmp_path / "a", schema=pg_schema)
    b = LimitedHub(PG_URL, tmp_path / "b", schema=pg_schema)
    a.start()
    b.start()
    try:
        t = _table_and_match(a.base)
        auth = {"Authorization": f"Bearer {t['token']}"}
        mid = t["mid"]
        rounds = 20
        same = 0
        for i in range(rounds):
            if i:  # a fresh match for every round, on a fresh table
                t = _table_and_match(a.base, f"T{i}")
                auth, mid = {"Authorization": f"Bearer {t['token']}"}, t["mid"]
            assert httpx.get(b.base + f"/api/matches/{mid}", timeout=10).status_code == 200  # b holds it in memory
            first = httpx.post(a.base + f"/api/matches/{mid}/commands", json=_env(mid, BREAK_SHOT, "X"), headers=auth,
                               timeout=10)
            assert first.status_code == 409  # a break shot before the start: refused, remembered
            # b stores the start itself (its memory is current), then gets X: the stroke would be legal now.
            assert httpx.post(b.base + f"/api/matches/{mid}/commands", json=_env(mid, START), headers=auth,
                              timeout=10).status_code == 200
            again = [httpx.post(h.base + f"/api/matches/{mid}/commands", json=_env(mid, BREAK_SHOT, "X"),
                                headers=auth, timeout=10) for h in (b, a)]
            assert [(r.status_code, r.json()) for r in again] == [(409, first.json())] * 2
            assert httpx.get(a.base + f"/api/matches/{mid}", timeout=10).json()["version"] == 1
            same += 1
        print(f"\nthe same refused id sent to both processes: one answer in {same} of {rounds} rounds")
    finally:
        a.stop()
        b.stop()


def test_a_rotation_on_one_process_stops_the_others_socket_at_once(tmp_path: Path, pg_schema: str) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = LimitedHub(PG_URL, tmp_path / "a", schema=pg_schema)
    b = LimitedHub(PG_URL, tmp_path / "b", schema=pg_schema)
    a.start()
    b.start()
    try:
        t = _table_and_match(a.base)

        async def authenticated_then_rotated() -> tuple[int | None, float]:
            async with connect(f"{a.ws_base}/ws/tables/{t['table_id']}") as ws:
                await ws.send(json.dumps(auth_frame(t["token"])))
                assert json.loads(await ws.recv())["type"] == "ready"
                async with httpx.AsyncClient() as c:
                    r = await c.post(b.base + f"/api/tables/{t['table_id']}/token", headers=H)
                    assert r.status_code == 200
                    t["token"] = r.json()["token"]
                t0 = time.perf_counter()
                await ws.send(json.dumps(_env(t["mid"], START)))
                try:
                    while True:
                        got = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        assert got["type"] != "ack", got
                except ConnectionClosed as closed:
                    return (closed.rcvd.code if closed.rcvd else None), time.perf_counter() - t0

        async def authenticating_while_rotated(rounds: int) -> int:
            """In one process: the rotation lands while the socket's auth is being checked."""
            closed = 0
            for _ in range(rounds):
                async with connect(f"{a.ws_base}/ws/tables/{t['table_id']}") as ws:
                    async with httpx.AsyncClient() as c:
                        await ws.send(json.dumps(auth_frame(t["token"])))
                        r = await c.post(a.base + f"/api/tables/{t['table_id']}/token", headers=H)
                        t["token"] = r.json()["token"]
                    try:
                        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        await ws.send(json.dumps(_env(t["mid"], START)))
                        while True:
                            got = json.loads(await asyncio.wait_for(ws.recv(), 10))
                            assert got["type"] != "ack", (first, got)
                    except ConnectionClosed as exc:
                        assert exc.rcvd is not None and exc.rcvd.code == 4401
                        closed += 1
            return closed

        code, took = asyncio.run(authenticated_then_rotated())
        assert code == 4401
        closed = asyncio.run(authenticating_while_rotated(20))
        assert closed == 20
        assert httpx.get(a.base + f"/api/matches/{t['mid']}", timeout=10).json()["version"] == 0  # nothing stored
        print(f"\nrotated on process B: A's authenticated socket closed 4401 {took * 1000:.0f} ms after its next "
              f"command (nothing stored); 20 of 20 sockets authenticating during a rotation closed 4401, none stored")
    finally:
        a.stop()
        b.stop()

