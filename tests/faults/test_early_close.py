"""On a real `cuehub serve`: sockets that end before they began (a tablet losing Wi-Fi mid-handshake,
a client closing before `auth` or before its first subscribe, a frame over the cap, a compressed
frame that inflates past it) cost the hub nothing in its log: no traceback, no line at all, and
no token is needed to try. The frame over the cap closes 1009, as it does after `auth`."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import struct
import zlib

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.frames import auth_frame
from tests.hubproc import HubProcess

OVER_CAP = 2 << 20  # uvicorn's ws_max_size and the watch front's cap are 1 MiB


def _upgrade_head(path: str, port: int) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n").encode()


def _masked_frame(opcode: int, payload: bytes, rsv1: bool = False) -> bytes:
    """One final client frame (masked, as a client must), its RSV1 bit set for a compressed one."""
    head = bytes([0x80 | (0x40 if rsv1 else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _bomb() -> bytes:
    """A text message of 64 MiB of spaces, deflated to about 64 KB (permessage-deflate: raw deflate,
    the final 00 00 ff ff left off)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b" " * (1 << 20)
    body = b"".join(squeeze.compress(chunk) for _ in range(64)) + squeeze.flush(zlib.Z_SYNC_FLUSH)
    return body[:-4]


def _raw_socket(port: int, path: str) -> tuple[socket.socket, bytes]:
    """A TCP connection that asked to upgrade `path` (offering permessage-deflate): the socket and
    the response head."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(_upgrade_head(path, port))
    head = b""
    while b"\r\n\r\n" not in head:
        part = sock.recv(4096)
        if not part:
            break
        head += part
    return sock, head


def _close_code(sock: socket.socket) -> int | None:
    """Read until the server's close frame (its code) or the end of the connection (None)."""
    data = b""
    sock.settimeout(15)
    try:
        while True:
            part = sock.recv(65536)
            if not part:
                return None
            data += part
            while len(data) >= 2:
                length = data[1] & 0x7F
                start = 2 + {126: 2, 127: 8}.get(length, 0)
                if length >= 126:
                    if len(data) < start:
                        break
                    length = int.from_bytes(data[2:start], "big")
                if len(data) < start + length:
                    break
                if data[0] & 0x0F == 0x8:
                    return int.from_bytes(data[start:start + 2], "big") if length >= 2 else None
                data = data[start + length:]
    except OSError:
        return None
    finally:
        sock.close()


async def _early_ends(hub: HubProcess, path: str) -> dict[str, int | None]:
    """Every way of ending before the session began, on `path`; the close code each got."""
    codes: dict[str, int | None] = {}
    # Wi-Fi lost mid-handshake: half an upgrade request, then the connection is gone.
    half = socket.create_connection(("127.0.0.1", hub.port), timeout=5)
    half.sendall(_upgrade_head(path, hub.port)[:60])
    half.close()
    # The whole upgrade request, then the connection reset at once (the app may be accepting it).
    for _ in range(20):
        gone = socket.create_connection(("127.0.0.1", hub.port), timeout=5)
        gone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        gone.sendall(_upgrade_head(path, hub.port))
        gone.close()
    # Open, then closed cleanly before saying anything.
    async with connect(hub.ws_base + path, open_timeout=5):
        pass
    # Open, then the TCP connection dropped without a close frame.
    ws = await connect(hub.ws_base + path, open_timeout=5)
    ws.transport.abort()
    # A frame over the cap as the first frame.
    async with connect(hub.ws_base + path, open_timeout=5, max_size=None) as ws:
        await ws.send("x" * OVER_CAP)
        try:
            await asyncio.wait_for(ws.recv(), 15)
            codes["oversize"] = -1
        except ConnectionClosed as closed:
            codes["oversize"] = closed.rcvd.code if closed.rcvd else None
    # A compressed frame that inflates past the cap, if the server agreed to compression.
    sock, head = await asyncio.to_thread(_raw_socket, hub.port, path)
    assert head.startswith(b"HTTP/1.1 101"), head
    if b"permessage-deflate" in head.lower():
        sock.sendall(_masked_frame(0x1, _bomb(), rsv1=True))
        codes["bomb"] = await asyncio.to_thread(_close_code, sock)
    else:
        codes["bomb (no deflate offered back)"] = None
        sock.close()
    return codes


def test_sockets_that_end_before_they_begin_leave_no_trace(tmp_path):
    hub = HubProcess(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}", tmp_path, log_level="info")
    try:
        hub.start()
        t = hub.admin_post("/api/tournaments", {"name": "Early"})
        tb = hub.admin_post(f"/api/tournaments/{t['id']}/tables", {"name": "T1"})
        table_codes = asyncio.run(_early_ends(hub, f"/ws/tables/{tb['id']}"))
        watch_codes = asyncio.run(_early_ends(hub, "/ws/watch"))

        async def tablet_still_served() -> str:
            async with connect(f"{hub.ws_base}/ws/tables/{tb['id']}", open_timeout=5) as ws:
                await ws.send(json.dumps(auth_frame(tb["token"])))
                return str(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])

        assert asyncio.run(tablet_still_served()) == "ready"
        assert hub.get("/healthz") == {"status": "ok"}
    finally:
        hub.stop()
    log = hub.log.read_text(errors="replace")
    assert table_codes["oversize"] == 1009 and watch_codes["oversize"] == 1009, (table_codes, watch_codes)
    # uvicorn offers permessage-deflate to the tablets: the bomb is caught at the cap, before it is
    # inflated whole. The watch front compresses nothing, so it does not agree to it.
    assert table_codes.get("bomb") == 1009, table_codes
    assert "bomb" not in watch_codes, watch_codes
    assert "Traceback" not in log, log[-4000:]
    assert "Exception in ASGI application" not in log, log[-4000:]
    noisy = [line for line in log.splitlines()
             if '"level": "error"' in line or '"level": "warning"' in line or '"level": "critical"' in line]
    assert noisy == [], noisy
