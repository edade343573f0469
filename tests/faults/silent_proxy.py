"""A TCP proxy that can go silent: connections stay open, nothing is forwarded either way.

    proxy = SilentProxy("127.0.0.1", 6379, mode="pause")   # its own thread and event loop
    proxy.start(); url = f"redis://127.0.0.1:{proxy.port}/0"
    proxy.silence()   # from now on nothing crosses (new connections are accepted and held too)
    proxy.resume()    # forwarding again
    proxy.cut()       # the server went down: open connections dropped, new ones refused
    proxy.reopen()    # listening again on the same port
    proxy.stop()

What silence means for the connections open when it began (`mode`):
- "pause": a partition that heals: bytes wait (in the kernel's buffers and the proxy's hands) and
  flow again, late and in order, on resume, as TCP retransmission would have it;
- "blackhole": a NAT or load balancer that forgot them: they stay open and silent for good, no
  reset, no FIN; only connections made after silence() began forward after resume().
No reset is ever sent to either side while silent: that is the point (a reset is easy to notice).
`cut()` is the other kind of outage (a database restarting): every connection is closed and the
port refuses new ones until `reopen()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any


class SilentProxy:
    def __init__(self, host: str, port: int, *, mode: str = "pause") -> None:
        assert mode in ("pause", "blackhole")
        self.target = (host, port)
        self.mode = mode
        self.port = 0
        self.connections = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="silent-proxy", daemon=True)
        self._flowing: asyncio.Event | None = None
        self._epoch = 0  # bumped by silence() in blackhole mode: older connections are dead
        self._server: asyncio.base_events.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    # --- control (any thread) ----------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)

    def silence(self) -> None:
        self._call(self._silence)

    def resume(self) -> None:
        self._call(self._resume)

    def cut(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)

    def reopen(self) -> None:
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _call(self, fn: Any) -> None:
        done = threading.Event()

        def run() -> None:
            fn()
            done.set()

        self._loop.call_soon_threadsafe(run)
        done.wait(5)

    # --- the loop's side ---------------------------------------------------------------------

    async def _start(self) -> None:
        self._flowing = asyncio.Event()
        self._flowing.set()
        await self._listen()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    def _silence(self) -> None:
        assert self._flowing is not None
        self._flowing.clear()
        if self.mode == "blackhole":
            self._epoch += 1

    def _resume(self) -> None:
        assert self._flowing is not None
        self._flowing.set()

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for w in list(self._writers):
            with contextlib.suppress(Exception):
                w.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        epoch = self._epoch
        self._writers.add(writer)
        assert self._flowing is not None
        await self._flowing.wait()  # a connection made while silent: held, not refused
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers.add(up_w)
        await asyncio.gather(self._pipe(reader, up_w, epoch), self._pipe(up_r, writer, epoch),
                             return_exceptions=True)
        for w in (writer, up_w):
            self._writers.discard(w)
            with contextlib.suppress(Exception):
                w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, epoch: int) -> None:
        assert self._flowing is not None
        while True:
            await self._wait(epoch)
            data = await reader.read(65536)  # read while flowing...
            if not data:
                break
            await self._wait(epoch)  # ...but what was read when silence began is held, not sent
            writer.write(data)
            await writer.drain()
        with contextlib.suppress(Exception):
            writer.write_eof()

    async def _wait(self, epoch: int) -> None:
        assert self._flowing is not None
        await self._flowing.wait()
        while epoch != self._epoch:  # blackholed: silent for good (open, never a reset)
            await asyncio.Event().wait()
