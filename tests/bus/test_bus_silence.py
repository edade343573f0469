"""The Redis bus notices a silent connection, in process, through tests/faults/silent_proxy.py.

A subscriber behind the proxy: health() turns to the reason within 3 heartbeats of the silence,
the handler is told to resync (None) at once and again when the new subscription is up. A
publisher behind it: what it published while silent reaches the other processes after the proxy
forwards again, in order (a resend after a silent publish may repeat some: receivers drop the
versions they have)."""

from __future__ import annotations

import asyncio
import time

import pytest

from hub.bus.redis_bus import RedisBus
from tests.faults.silent_proxy import SilentProxy
from tests.services import REDIS_HOST, REDIS_PORT

BEAT = 0.5


async def _until(cond, timeout: float) -> float:  # type: ignore[no-untyped-def]
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, "timed out"
        await asyncio.sleep(0.01)
    return time.monotonic() - t0


@pytest.mark.parametrize("mode", ["pause", "blackhole"])
async def test_a_silent_subscription_is_noticed_resynced_and_replaced(bus_url: str, mode: str) -> None:
    channel = bus_url.split("channel=")[1]
    proxy = SilentProxy(REDIS_HOST, REDIS_PORT, mode=mode)
    proxy.start()
    behind = RedisBus(f"redis://127.0.0.1:{proxy.port}/0?channel={channel}", heartbeat_s=BEAT)
    direct = RedisBus(bus_url, heartbeat_s=BEAT)
    got: list[bytes | None] = []
    events: list[str] = []
    behind.on_event = events.append
    await behind.start(got.append)
    await direct.start(lambda _p: None)
    try:
        direct.publish(b"before")
        await _until(lambda: b"before" in got, 5)
        await asyncio.sleep(3 * BEAT)  # quiet but healthy: the PONGs keep it alive
        assert behind.health() is None and behind.silences == 0
        await asyncio.to_thread(proxy.silence)
        stale = await _until(lambda: behind.health() is not None, 10)  # /readyz's view
        assert "silent" in (behind.health() or "")
        noticed = await _until(lambda: None in got, 10)  # resync at once, not only after the reconnect
        assert "silent" in (behind.health() or "")
        direct.publish(b"while silent")  # lost for `behind` (pub/sub keeps nothing): the resync covers it
        await asyncio.sleep(4 * BEAT)
        assert behind.health() is not None
        await asyncio.to_thread(proxy.resume)
        back = await _until(lambda: behind.health() is None, 10)
        assert got.count(None) == 2 and behind.silences == 1 and behind.reconnects == 1
        assert events == ["silence", "reconnect"]
        direct.publish(b"after")
        await _until(lambda: b"after" in got, 5)
        print(f"\n[bus-silence/{mode}] health() stale after {stale:.2f}s, resync {noticed:.2f}s later "
              f"(heartbeat {BEAT}s); healthy "
              f"{back:.2f}s after forwarding resumed")
        assert noticed < 3 * BEAT + 2.0
        assert back < 3 * BEAT + 2.0
    finally:
        await behind.close()
        await direct.close()
        proxy.stop()


@pytest.mark.parametrize("mode", ["pause", "blackhole"])
async def test_what_a_silent_publisher_sent_arrives_in_order_after_the_network_returns(
        bus_url: str, mode: str) -> None:
    channel = bus_url.split("channel=")[1]
    proxy = SilentProxy(REDIS_HOST, REDIS_PORT, mode=mode)
    proxy.start()
    behind = RedisBus(f"redis://127.0.0.1:{proxy.port}/0?channel={channel}", heartbeat_s=BEAT)
    direct = RedisBus(bus_url, heartbeat_s=BEAT)
    got: list[bytes | None] = []
    await behind.start(lambda _p: None)
    await direct.start(got.append)
    try:
        await asyncio.to_thread(proxy.silence)
        sent = [b"p%03d" % i for i in range(50)]
        for item in sent:
            behind.publish(item)
            await asyncio.sleep(0.05)
        await asyncio.sleep(3 * BEAT + 1.5)
        assert behind.health() is not None  # the subscription (and the publisher) behind the same proxy
        assert not [p for p in got if p is not None]  # nothing crossed
        await asyncio.to_thread(proxy.resume)
        took = await _until(lambda: set(sent) <= set(got), 15)
        firsts = list(dict.fromkeys(p for p in got if p is not None))
        assert firsts == sent  # in order (repeats only of what was sent already)
        print(f"\n[bus-silent-publisher/{mode}] {len(sent)} published while silent, all delivered "
              f"{took:.2f}s after forwarding resumed, {len([p for p in got if p]) - len(sent)} repeats")
        await _until(lambda: behind.health() is None, 10)
    finally:
        await behind.close()
        await direct.close()
        proxy.stop()
