"""hub/ops/heap.py: the startup heap is frozen once per process, and only once."""

import gc

from hub.ops.heap import freeze_startup_heap


def test_the_startup_heap_is_frozen_once() -> None:
    freeze_startup_heap()
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the imports' objects are out of the collector's sight
    later = [[i] for i in range(1000)]  # objects made after startup stay collectable
    freeze_startup_heap()
    assert gc.get_freeze_count() == frozen
    assert all(gc.is_tracked(x) for x in later)
