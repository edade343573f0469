"""Several hub processes behave as one over the Redis bus, whatever the network does.

Real `cuehub serve` / `cuehub gateway` subprocesses, the machine's PostgreSQL (a fresh schema per
test, migrated by `cuehub migrate`) and Redis (a channel name of its own per test):

- a silent Redis connection (tests/faults/silent_proxy.py: open, nothing forwarded, for 20 s)
  between hub A (and a gateway process) and Redis, while hub B stores strokes: A notices
  (`/readyz` 503 with the reason), resyncs, reconnects; its watchers reach the store's head within
  10 s of the proxy forwarding again, every version once and in order;
- `/readyz` is 200 with `?channel=` on HUB_BUS_URL;
- two deployments on one Redis (/8 and /9, the same `?channel=`) see nothing of each other;
- a tablet on process B gets `state` for every stroke sent over HTTP to process A, in order.

"Every version once, in order", for a watcher of `match:{id}` (PROTOCOL.md section 2): after its
first snapshot, each message is an update of version previous+1, or a snapshot of a version
above the previous one (a watcher that fell QUEUE_LIMIT behind during a resync skips to the
latest state); no version is ever sent twice or out of order. What the hub does (and this test
requires): a resync replays the missed versions from the store as updates (up to
feeds.RESYNC_REPLAY of them, not counted against the watcher's live limit), so a watcher that
keeps up sees one snapshot (its first) and then every version as an update.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from spine_helpers import ADMIN, PG_URL, admin, make_match, make_table
from websockets.asyncio.client import connect

from tests.faults.silent_proxy import SilentProxy
from tests.frames import auth_frame, subscribe_frame
from tests.hubproc import HubProcess
from tests.production.test_multiprocess import Hub
from tests.production.test_observability import sample
from tests.services import REDIS_HOST, REDIS_PORT, require_redis
from tests.watch.watch_helpers import Play

ROOT = Path(__file__).resolve().parents[2]
SILENCE_S = 20.0


def _redis(port: int = REDIS_PORT, db: int = 0, channel: str | None = None) -> str:
    return f"redis://{REDIS_HOST}:{port}/{db}" + (f"?channel={channel}" if channel else "")


def _migrate(env: dict[str, str]) -> None:
    r = subprocess.run([sys.executable, "-m", "hub.cli", "migrate"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def _env(schema: str, bus_url: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "HUB_DATABASE_URL": PG_URL, "HUB_DATABASE_SCHEMA": schema, "HUB_BUS_URL": bus_url,
            "HUB_ADMIN_TOKEN": ADMIN, "HUB_AUTO_MIGRATE": "false", **extra}


class Gateway(HubProcess):
    """A `cuehub gateway` process (watchers only, fed by the bus), launched at once."""

    def __init__(self, env: dict[str, str], logdir: Path) -> None:
        super().__init__(None, logdir, command="gateway", name="gateway", log_level=None, env=env, ready="/readyz")
        self.launch()


@pytest.fixture
def procs() -> Iterator[list[Any]]:
    running: list[Any] = []
    yield running
    for p in running:
        p.stop()


def _start(procs: list[Any], p: Any) -> Any:
    procs.append(p)
    p.wait_ready()
    return p


class Watcher:
    """One /ws/watch socket on one channel: every message, with the time it came."""

    def __init__(self, url: str, channel: str) -> None:
        self.url, self.channel = url, channel
        self.msgs: list[tuple[float, dict[str, Any]]] = []
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(self._run())
        while not self.msgs:
            assert not self.task.done(), self.task
            await asyncio.sleep(0.02)

    async def _run(self) -> None:
        async with connect(self.url, open_timeout=10) as ws:
            await ws.send(json.dumps(subscribe_frame(self.channel)))
            async for text in ws:
                self.msgs.append((time.monotonic(), json.loads(text)))

    @property
    def version(self) -> int:
        return self.msgs[-1][1]["version"] if self.msgs else -1

    async def reach(self, version: int, timeout: float) -> float:
        """Wait until the last message is at `version` or above; when that happened (monotonic)."""
        deadline = time.monotonic() + timeout
        while self.version < version:
            assert time.monotonic() < deadline, f"{self.channel} stuck at v{self.version}, head v{version}"
            assert self.task is not None and not self.task.done(), self.task
            await asyncio.sleep(0.01)
        return next(t for t, m in self.msgs if m.get("version", -1) >= version)

    def check_order(self) -> dict[str, int]:
        """Every version once, in order (see the module's docstring); the counts of each kind."""
        kinds = {"snapshot": 0, "update": 0}
        last = None
        for _, m in self.msgs:
            assert m["type"] in kinds, m
            assert m["channel"] == self.channel
            v = m["version"]
            if last is not None:
                if m["type"] == "update":
                    assert v == last + 1, (last, v)
                else:
                    assert v > last, (last, v)
            kinds[m["type"]] += 1
            last = v
        assert self.msgs[0][1]["type"] == "snapshot"
        return kinds

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib_suppress():
                await self.task


class contextlib_suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return True


@pytest.mark.parametrize("mode", ["pause", "blackhole"])
def test_a_silent_redis_connection_is_noticed_and_watchers_reach_the_head(
        mode: str, pg_schema: str, tmp_path: Path, procs: list[Any]) -> None:
    require_redis()
    channel = "rel-" + uuid.uuid4().hex[:10]
    proxy = SilentProxy(REDIS_HOST, REDIS_PORT, mode=mode)
    proxy.start()
    procs.append(proxy)
    direct, silent = _redis(channel=channel), _redis(proxy.port, channel=channel)
    _migrate(_env(pg_schema, direct))
    a = _start(procs, Hub("a", _env(pg_schema, silent), tmp_path))  # behind the proxy
    b = _start(procs, Hub("b", _env(pg_schema, direct), tmp_path))  # straight to Redis
    gw = _start(procs, Gateway(_env(pg_schema, silent), tmp_path))  # a gateway process behind it too
    assert httpx.get(a.url + "/readyz").json()["checks"]["bus"] == "ok"  # ?channel= on HUB_BUS_URL is fine

    http_b = httpx.Client(base_url=b.url, timeout=10)
    table = make_table(http_b)  # type: ignore[arg-type]
    mid = make_match(http_b, table)["id"]  # type: ignore[arg-type]
    play = Play(http_b, table, mid)
    figures: dict[str, Any] = {"mode": mode}

    async def run() -> None:
        wa = Watcher(a.url.replace("http", "ws") + "/ws/watch", f"match:{mid}")
        wg = Watcher(f"ws://127.0.0.1:{gw.port}/ws/watch", f"match:{mid}")
        wt = Watcher(a.url.replace("http", "ws") + "/ws/watch", f"table:{table['table_id']}")
        watchers = (wa, wg, wt)
        for w in watchers:
            await w.start()
        tablet_states: list[tuple[float, int]] = []
        tablet_ready = asyncio.Event()

        async def tablet() -> None:  # a tablet on A, behind the proxy too
            url = a.url.replace("http", "ws") + f"/ws/tables/{table['table_id']}"
            async with connect(url, open_timeout=10) as ws:
                await ws.send(json.dumps(auth_frame(table["token"])))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "ready"
                tablet_ready.set()
                async for text in ws:
                    msg = json.loads(text)
                    assert msg["type"] == "state", msg
                    tablet_states.append((time.monotonic(), msg["match"]["version"]))

        tablet_task = asyncio.create_task(tablet())
        await asyncio.wait_for(tablet_ready.wait(), 10)
        await asyncio.to_thread(play.start)
        for _ in range(9):
            await asyncio.to_thread(play.shot)
        for w in watchers:
            await w.reach(10, 10)

        async def poll_ready(url: str, key: str) -> None:
            async with httpx.AsyncClient(timeout=3) as c:
                while True:
                    try:
                        r = await c.get(url + "/readyz")
                        if r.status_code == 503 and key + "_503_after_s" not in figures:
                            figures[key + "_503_after_s"] = round(time.monotonic() - t_silent, 2)
                            figures[key + "_reason"] = r.json()["checks"]["bus"]
                        if r.status_code == 200 and key + "_503_after_s" in figures and t_resumed \
                                and key + "_200_after_resume_s" not in figures:
                            figures[key + "_200_after_resume_s"] = round(time.monotonic() - t_resumed, 2)
                    except httpx.HTTPError:
                        pass
                    await asyncio.sleep(0.1)

        t_resumed = 0.0
        proxy.silence()
        t_silent = time.monotonic()
        pollers = [asyncio.create_task(poll_ready(a.url, "a")), asyncio.create_task(poll_ready(gw.url, "gateway"))]
        strokes = 0
        during: Watcher | None = None
        while time.monotonic() - t_silent < SILENCE_S:
            await asyncio.to_thread(play.shot)
            strokes += 1
            if during is None and time.monotonic() - t_silent > 8:
                # A new subscriber on A while its bus is silent: served from the store, not from
                # the last thing A heard.
                head_then = (await asyncio.to_thread(play.projection))["version"]
                during = Watcher(a.url.replace("http", "ws") + "/ws/watch", f"match:{mid}")
                await during.start()
                figures["subscribed_while_silent"] = {"head": head_then, "snapshot": during.msgs[0][1]["version"]}
                assert during.msgs[0][1]["version"] >= head_then, figures
                await during.close()
            await asyncio.sleep(0.1)
        at_resume = {w.channel + ("@gw" if w is wg else ""): w.version for w in watchers}
        proxy.resume()
        t_resumed = time.monotonic()
        head = (await asyncio.to_thread(play.projection))["version"]
        for w in watchers:
            t = await w.reach(head, 10)
            figures.setdefault("head_after_resume_s", {})[w.channel + ("@gw" if w is wg else "")] = \
                round(t - t_resumed, 2)
        deadline = time.monotonic() + 10
        while not tablet_states or tablet_states[-1][1] < head:
            assert time.monotonic() < deadline and not tablet_task.done(), (tablet_task, tablet_states[-3:])
            await asyncio.sleep(0.01)
        tv = [v for _, v in tablet_states]
        assert tv == sorted(set(tv)), tv  # never a state twice, never an older one after a newer
        assert tv[:10] == list(range(1, 11))  # before the silence: every stroke
        figures["tablet_head_after_resume_s"] = round(
            next(t for t, v in tablet_states if v >= head) - t_resumed, 2)
        figures["tablet_states"] = len(tv)
        tablet_task.cancel()
        # Readiness comes back too.
        deadline = time.monotonic() + 10
        while ("a_200_after_resume_s" not in figures or "gateway_200_after_resume_s" not in figures) \
                and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for p in pollers:
            p.cancel()
        figures.update(strokes_while_silent=strokes, head=head, watchers_at_resume=at_resume)
        # A new subscriber on A gets the head at once.
        fresh = Watcher(a.url.replace("http", "ws") + "/ws/watch", f"match:{mid}")
        await fresh.start()
        assert fresh.msgs[0][1]["version"] == head
        for w in (*watchers, fresh):
            figures.setdefault("kinds", {})[
                w.channel + ("@gw" if w is wg else "") + ("-fresh" if w is fresh else "")
            ] = w.check_order()
            await w.close()
        final = await asyncio.to_thread(play.projection)
        assert wa.msgs[-1][1]["data"] == final and wg.msgs[-1][1]["data"] == final

    asyncio.run(run())
    http_b.close()
    metrics = httpx.get(a.url + "/metrics").text
    for name, kinds in figures["kinds"].items():
        assert kinds["snapshot"] == 1, (name, kinds)  # every version as an update, none skipped
    figures["a_resyncs"] = {
        c: sample(metrics, "cuehub_bus_resyncs_total", cause=c) for c in ("silence", "reconnect", "gap")
    }
    figures["a_bus_up"] = sample(metrics, "cuehub_bus_subscription_up")
    gmetrics = httpx.get(gw.url + "/metrics").text
    figures["gateway_resyncs"] = {
        c: sample(gmetrics, "cuehub_bus_resyncs_total", cause=c) for c in ("silence", "reconnect")
    }
    print(f"\n[bus-silence] {json.dumps(figures)}")
    assert figures["a_503_after_s"] < 8 and "silent" in figures["a_reason"], figures
    assert figures["gateway_503_after_s"] < 8, figures
    assert figures["a_resyncs"]["silence"] >= 1 and figures["a_resyncs"]["reconnect"] >= 1, figures
    assert figures["gateway_resyncs"]["silence"] >= 1 and figures["gateway_resyncs"]["reconnect"] >= 1, figures
    assert figures["a_bus_up"] == 1.0
    assert "a_200_after_resume_s" in figures and "gateway_200_after_resume_s" in figures, figures


# --- deployments sharing one Redis ---------------------------------------------------------------


@pytest.mark.parametrize("apart_by", ["database number", "HUB_DEPLOYMENT"])
def test_two_deployments_on_one_redis_see_nothing_of_each_other(
        apart_by: str, pg_schema: str, tmp_path: Path, procs: list[Any]) -> None:
    """Each deployment has its own PostgreSQL schema; both talk to one Redis with the same
    `?channel=`. Apart by the URL's database number (/8, /9: the default deployment `db<N>`) or by
    HUB_DEPLOYMENT on the same database number. A match of one is never served to watchers of the
    other, before or after its changes went over Redis."""
    require_redis()
    from tests.services import pg_execute

    other = "t_" + uuid.uuid4().hex[:12]
    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")
    pg_execute(dsn, f'CREATE SCHEMA "{other}"')
    try:
        channel = "dep-" + uuid.uuid4().hex[:10]
        if apart_by == "database number":
            envs = [_env(pg_schema, _redis(db=8, channel=channel)), _env(other, _redis(db=9, channel=channel))]
        else:
            envs = [_env(pg_schema, _redis(channel=channel), HUB_DEPLOYMENT=f"{channel}-one"),
                    _env(other, _redis(channel=channel), HUB_DEPLOYMENT=f"{channel}-two")]
        for env in envs:
            _migrate(env)
        hubs = [_start(procs, Hub(f"d{i}", env, tmp_path)) for i, env in enumerate(envs)]
        clients = [httpx.Client(base_url=h.url, timeout=10) for h in hubs]
        tables = [make_table(c) for c in clients]  # type: ignore[arg-type]
        mids = [make_match(c, t)["id"] for c, t in zip(clients, tables, strict=True)]  # type: ignore[arg-type]
        plays = [Play(c, t, m) for c, t, m in zip(clients, tables, mids, strict=True)]
        for i in (0, 1):  # each hub's REST knows only its own
            assert clients[i].get(f"/api/matches/{mids[1 - i]}").status_code == 404

        async def answer(hub: Hub, channel_name: str) -> dict[str, Any]:
            async with connect(hub.url.replace("http", "ws") + "/ws/watch", open_timeout=10) as ws:
                await ws.send(json.dumps(subscribe_frame(channel_name)))
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

        async def run() -> list[Watcher]:
            own = [
                Watcher(h.url.replace("http", "ws") + "/ws/watch", f"match:{m}")
                for h, m in zip(hubs, mids, strict=True)
            ]
            for w in own:
                await w.start()
            for i in (0, 1):
                assert (await answer(hubs[i], f"match:{mids[1 - i]}"))["error"]["code"] == "unknown_channel"
            for _ in range(10):  # both deployments' changes go over the one Redis
                for p in plays:
                    await asyncio.to_thread(p.start if p.projection()["status"] == "scheduled" else p.shot)
            for w in own:
                await w.reach(10, 10)
            await asyncio.sleep(0.5)
            for i in (0, 1):  # still nothing of the other's, now that its messages went by
                for ch in (f"match:{mids[1 - i]}", f"table:{tables[1 - i]['table_id']}"):
                    got = await answer(hubs[i], ch)
                    assert got["type"] == "error" and got["error"]["code"] == "unknown_channel", (ch, got)
            for w in own:
                await w.close()
            return own

        own = asyncio.run(run())
        for w, m in zip(own, mids, strict=True):
            assert {msg["channel"] for _, msg in w.msgs} == {f"match:{m}"}
            assert [msg["version"] for _, msg in w.msgs] == list(range(0, 11))
        print(f"\n[deployments] apart by {apart_by}: each watcher saw only its own match, v0..v10; "
              "the other's match and table: unknown_channel on both")
        for c in clients:
            c.close()
    finally:
        for p in procs:
            p.stop()
        pg_execute(dsn, f'DROP SCHEMA "{other}" CASCADE')


# --- a tablet on one process, strokes through another --------------------------------------------


def test_a_tablet_on_process_b_gets_state_for_every_stroke_sent_to_process_a(
        pg_schema: str, tmp_path: Path, procs: list[Any]) -> None:
    require_redis()
    env = _env(pg_schema, _redis(channel="tab-" + uuid.uuid4().hex[:10]))
    _migrate(env)
    a = _start(procs, Hub("a", env, tmp_path))
    b = _start(procs, Hub("b", env, tmp_path))
    assert httpx.get(b.url + "/readyz").status_code == 200  # ?channel= on HUB_BUS_URL
    http_a = httpx.Client(base_url=a.url, timeout=10)
    table = make_table(http_a)  # type: ignore[arg-type]
    mid = make_match(http_a, table)["id"]  # type: ignore[arg-type]
    play = Play(http_a, table, mid)
    strokes = 60

    async def tablet(hub: Hub, out: list[dict[str, Any]], ready: asyncio.Event) -> None:
        url = hub.url.replace("http", "ws") + f"/ws/tables/{table['table_id']}"
        async with connect(url, open_timeout=10) as ws:
            await ws.send(json.dumps(auth_frame(table["token"])))
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["type"] == "ready" and first["match"]["version"] == 0, first
            ready.set()
            while not out or (out[-1]["match"] or {}).get("version", 0) < strokes:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 15))
                assert msg["type"] == "state", msg
                out.append(msg)

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], float]:
        on_b: list[dict[str, Any]] = []
        on_a: list[dict[str, Any]] = []
        ready_b, ready_a = asyncio.Event(), asyncio.Event()
        tasks = [asyncio.create_task(tablet(b, on_b, ready_b)), asyncio.create_task(tablet(a, on_a, ready_a))]
        await asyncio.wait_for(asyncio.gather(ready_a.wait(), ready_b.wait()), 10)
        await asyncio.to_thread(play.start)
        for _ in range(strokes - 1):
            await asyncio.to_thread(play.shot)
        t0 = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        return on_b, on_a, time.monotonic() - t0

    on_b, on_a, lag = asyncio.run(run())
    final = play.projection()
    http_a.close()
    for name, states in (("B", on_b), ("A", on_a)):
        versions = [s["match"]["version"] for s in states]
        assert versions == list(range(1, strokes + 1)), (name, versions)  # every stroke once, in order
        assert states[-1]["match"] == final, name
    print(f"\n[tablet-across] tablet on B: {len(on_b)}/{strokes} states in order; on A (local): "
          f"{len(on_a)}/{strokes}; last state {lag * 1000:.0f} ms after the last ack")


def test_tablets_on_process_b_follow_moves_new_matches_and_cancels_made_through_a(
        pg_schema: str, tmp_path: Path, procs: list[Any]) -> None:
    """The table's match changing under it, through another process: moved away (the tablet gets
    what is on its table now, null), moved onto it, a new match put on it, that match cancelled."""
    require_redis()
    env = _env(pg_schema, _redis(channel="mv-" + uuid.uuid4().hex[:10]))
    _migrate(env)
    a = _start(procs, Hub("a", env, tmp_path))
    b = _start(procs, Hub("b", env, tmp_path))
    http_a = httpx.Client(base_url=a.url, timeout=10, headers=admin())
    t1 = make_table(http_a)  # type: ignore[arg-type]
    tb2 = http_a.post(f"/api/tournaments/{t1['tid']}/tables", json={"name": "Table 2"}).json()
    t2 = {"tid": t1["tid"], "table_id": tb2["id"], "token": tb2["token"]}
    mid = make_match(http_a, t1)["id"]  # type: ignore[arg-type]

    async def run() -> list[str]:
        socks = {}
        for name, t in (("t1", t1), ("t2", t2)):
            ws = await connect(b.url.replace("http", "ws") + f"/ws/tables/{t['table_id']}", open_timeout=10)
            await ws.send(json.dumps(auth_frame(t["token"])))
            ready = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert ready["type"] == "ready", ready
            socks[name] = (ws, ready)
        assert socks["t1"][1]["match"]["id"] == mid and socks["t2"][1]["match"] is None

        async def state(name: str) -> Any:
            msg = json.loads(await asyncio.wait_for(socks[name][0].recv(), 10))
            assert msg["type"] == "state", msg
            return msg["match"]

        async def left(name: str) -> Any:
            msg = json.loads(await asyncio.wait_for(socks[name][0].recv(), 10))
            assert msg["type"] == "match_left", msg
            return msg

        seen = []
        r = await asyncio.to_thread(http_a.patch, f"/api/matches/{mid}", json={"table_id": t2["table_id"]})
        assert r.status_code == 200, r.text
        on_t2 = await state("t2")
        assert on_t2["id"] == mid and on_t2["table_id"] == t2["table_id"], on_t2
        gone = await left("t1")  # the old table is told where its match went, then what it has now
        assert gone["match_id"] == mid and gone["to"]["table_id"] == t2["table_id"], gone
        assert await state("t1") is None
        seen.append("moved: T2 got the match, T1 null")
        new = await asyncio.to_thread(make_match, http_a, t1)  # type: ignore[arg-type]
        got = await state("t1")
        assert got["id"] == new["id"] and got["version"] == 0, got
        seen.append("new match on T1: T1 got it")
        r = await asyncio.to_thread(http_a.delete, f"/api/matches/{new['id']}")
        assert r.status_code == 200, r.text
        gone = await left("t1")
        assert gone["match_id"] == new["id"] and gone["to"] is None, gone
        assert await state("t1") is None
        seen.append("cancelled: T1 null")
        for ws, _ in socks.values():
            await ws.close()
        return seen

    seen = asyncio.run(run())
    http_a.close()
    print(f"\n[tablet-across-moves] tablets on B, changes through A: {'; '.join(seen)}")
