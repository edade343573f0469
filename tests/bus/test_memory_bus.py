"""memory:// and make_bus."""

from __future__ import annotations

import pytest

from hub.bus import make_bus
from hub.bus.memory import MemoryBus
from hub.bus.redis_bus import RedisBus


async def test_memory_bus_delivers_in_order() -> None:
    bus = make_bus("memory://")
    assert isinstance(bus, MemoryBus)
    got: list[bytes | None] = []
    await bus.start(got.append)
    for i in range(5):
        bus.publish(b"%d" % i)
    assert got == [b"0", b"1", b"2", b"3", b"4"]
    await bus.close()
    bus.publish(b"late")
    assert len(got) == 5


def test_bus_url_choice() -> None:
    bus = make_bus("redis://127.0.0.1:6379/0?channel=x")
    # The channel carries the deployment: Redis pub/sub ignores database numbers.
    assert isinstance(bus, RedisBus) and bus.channel == "cuehub:db0:x" and bus.url == "redis://127.0.0.1:6379/0"
    assert make_bus("redis://h:6379/8").channel == "cuehub:db8:changes"  # type: ignore[attr-defined]
    assert make_bus("redis://h:6379/9").channel == "cuehub:db9:changes"  # type: ignore[attr-defined]
    assert make_bus("redis://h:6379").channel == "cuehub:db0:changes"  # type: ignore[attr-defined]
    named = make_bus("redis://h:6379/8?channel=y", deployment="league")
    assert named.channel == "cuehub:league:y" and named.url == "redis://h:6379/8"  # type: ignore[attr-defined]
    assert make_bus("unix:///tmp/r.sock?db=3").channel == "cuehub:db3:changes"  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_bus("kafka://nope")


def test_deployment_and_heartbeat_settings() -> None:
    from hub.bus import bus_for
    from hub.settings import Settings, SettingsError

    s = Settings.from_env({"HUB_BUS_URL": "redis://h:6379/4?channel=c", "HUB_DEPLOYMENT": "league-1",
                           "HUB_BUS_HEARTBEAT_S": "0.5"})
    bus = bus_for(s)
    assert bus.channel == "cuehub:league-1:c" and bus.stale_after == 1.5  # type: ignore[attr-defined]
    assert bus_for(Settings.from_env({"HUB_BUS_URL": "redis://h:6379/4"})).channel == "cuehub:db4:changes"  # type: ignore[attr-defined]
    for bad in ({"HUB_DEPLOYMENT": "two words"}, {"HUB_DEPLOYMENT": "a:b"}, {"HUB_BUS_HEARTBEAT_S": "0"}):
        with pytest.raises(SettingsError, match=next(iter(bad))):
            Settings.from_env(bad)
