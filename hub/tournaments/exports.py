"""The tournament's exports (results.json, results.csv, placings.csv: hub/tournaments/results.py),
cached per tournament version and language.

A big draw's export is megabytes made from thousands of matches: anonymous clients polling it used
to have it built on the event loop at every request (a table's acks waited meanwhile) and sent
whole every time. Here each (tournament, file, language) is built once per version, in a thread (the
event loop goes on serving tables), once however many clients ask for it at that moment, and kept
(the latest version of each, within MAX_BYTES in all). Its ETag comes from what the file is made
of, not from its bytes: the tournament's version (catalog.tournament_version, which grows with
every change of the tournament and of each of its matches), its name and its tables' names (a table
renamed changes no version), the file, the language and the hub's own version. So a client that
sends `If-None-Match` with the current one gets 304 without the hub building or sending anything,
and every new version has a new ETag; two hub processes at one version give the same ETag.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import hub

MAX_BYTES = 64 * 2**20  # every export kept, together (a 4,096-match draw's results.json is a few MB)


@dataclass(frozen=True, slots=True)
class Export:
    etag: str
    body: bytes
    version: int = 0  # the tournament's


def etag_of(proj: dict[str, Any], kind: str, lang: str | None) -> str:
    """The ETag of export `kind` of the tournament projection `proj` in `lang`."""
    names = [(t["id"], t["name"]) for t in proj.get("tables") or []]
    made_of = [hub.__version__, proj["id"], proj["name"], proj["version"], kind, lang or "", names]
    digest = hashlib.sha256(json.dumps(made_of, ensure_ascii=False).encode("utf-8")).hexdigest()
    return f'"x{proj["version"]}-{digest[:24]}"'


class ExportCache:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[tuple[str, str, str], Export] = OrderedDict()  # least recently used first
        self._bytes = 0
        self._building: dict[str, asyncio.Future[bytes]] = {}  # etag -> the build under way
        self.builds = 0  # exports built (tests, diagnostics)

    async def get(self, proj: dict[str, Any], kind: str, lang: str | None,
                  build: Callable[[], bytes]) -> Export:
        """Export `kind` of `proj`: kept if it is of this version, else `build()` run in a thread
        (once for every request that wants it meanwhile). `build` only reads `proj`."""
        etag = etag_of(proj, kind, lang)
        key = (proj["id"], kind, lang or "")
        kept = self._kept.get(key)
        if kept is not None and kept.etag == etag:
            self._kept.move_to_end(key)
            return kept
        pending = self._building.get(etag)
        if pending is None:
            self.builds += 1
            pending = asyncio.get_running_loop().run_in_executor(None, build)
            self._building[etag] = pending
            version = int(proj["version"])
            pending.add_done_callback(lambda done: self._built(key, Export(etag, b"", version), done))
        body = await asyncio.shield(pending)  # a client that goes away does not stop the build
        return Export(etag, body, int(proj["version"]))

    def _built(self, key: tuple[str, str, str], made: Export, done: asyncio.Future[bytes]) -> None:
        self._building.pop(made.etag, None)
        if done.cancelled() or done.exception() is not None:
            return
        body = done.result()
        old = self._kept.get(key)
        if old is not None and old.version > made.version:
            return  # a later version was built first: it stays
        if old is not None:
            self._bytes -= len(self._kept.pop(key).body)
        if len(body) > self.max_bytes:
            return  # larger than the whole cache: built for each request that misses
        self._kept[key] = Export(made.etag, body, made.version)
        self._bytes += len(body)
        while self._bytes > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= len(dropped.body)

    def forget(self, tid: str) -> None:
        """The tournament was deleted: its exports go."""
        for key in [k for k in self._kept if k[0] == tid]:
            self._bytes -= len(self._kept.pop(key).body)

    def __len__(self) -> int:
        return len(self._kept)
