"""The webhooks' rows (hub/webhooks/): receivers, and their deliveries queued in order per hook."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub.store.schema import webhook_deliveries as deliveries
from hub.store.schema import webhooks as hooks

PENDING, DELIVERED, FAILED, DROPPED = "pending", "delivered", "failed", "dropped"


async def create(engine: AsyncEngine, hook_id: str, url: str, events: list[str], secret: str, now: int) -> None:
    async with engine.begin() as conn:
        await conn.execute(hooks.insert().values(id=hook_id, url=url, events=events, secret=secret, created_at=now))


async def every(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(sa.select(hooks).order_by(hooks.c.created_at, hooks.c.id))).all())


async def get(engine: AsyncEngine, hook_id: str) -> Any | None:
    async with engine.connect() as conn:
        return (await conn.execute(sa.select(hooks).where(hooks.c.id == hook_id))).first()


async def delete(engine: AsyncEngine, hook_id: str) -> bool:
    async with engine.begin() as conn:
        await conn.execute(deliveries.delete().where(deliveries.c.hook_id == hook_id))
        return bool((await conn.execute(hooks.delete().where(hooks.c.id == hook_id))).rowcount)


async def enqueue(engine: AsyncEngine, rows: Sequence[dict[str, Any]], now: int, max_pending: int) -> list[str]:
    """Store deliveries ({id, hook_id, event, body}) in order; a hook with `max_pending` waiting
    already gets the new one as `dropped` (its queue is bounded). The hook ids with new pending ones."""
    woken: list[str] = []
    async with engine.begin() as conn:
        waiting: dict[str, int] = {}
        for row in rows:
            hook = row["hook_id"]
            if hook not in waiting:
                waiting[hook] = int((await conn.execute(
                    sa.select(sa.func.count()).where(deliveries.c.hook_id == hook, deliveries.c.status == PENDING)
                )).scalar_one())
            status = PENDING if waiting[hook] < max_pending else DROPPED
            waiting[hook] += status == PENDING
            await conn.execute(deliveries.insert().values(
                id=row["id"], hook_id=hook, event=row["event"], body=row["body"], status=status, attempts=0,
                created_at=now, next_at=now, done_at=None if status == PENDING else now))
            if status == PENDING and hook not in woken:
                woken.append(hook)
    return woken


async def claim(engine: AsyncEngine, hook_id: str, holder: str, now: int, lease_ms: int) -> bool:
    """Take (or keep) the lease on delivering a hook's queue: one process at a time keeps its order."""
    async with engine.begin() as conn:
        done = await conn.execute(
            hooks.update()
            .where(hooks.c.id == hook_id, sa.or_(hooks.c.holder == holder, hooks.c.holder.is_(None),
                                                 hooks.c.lease_until < now))
            .values(holder=holder, lease_until=now + lease_ms))
        return bool(done.rowcount)


async def release(engine: AsyncEngine, hook_id: str | None, holder: str) -> None:
    """Let go of a hook's lease (None: of every hook this holder has: a hub stopping)."""
    query = hooks.update().where(hooks.c.holder == holder)
    if hook_id is not None:
        query = query.where(hooks.c.id == hook_id)
    async with engine.begin() as conn:
        await conn.execute(query.values(holder=None, lease_until=0))


async def head(engine: AsyncEngine, hook_id: str) -> Any | None:
    """The hook's oldest pending delivery: nothing after it goes out before it is settled."""
    async with engine.connect() as conn:
        return (await conn.execute(
            sa.select(deliveries).where(deliveries.c.hook_id == hook_id, deliveries.c.status == PENDING)
            .order_by(deliveries.c.seq).limit(1))).first()


async def settle(engine: AsyncEngine, delivery_id: str, **values: Any) -> None:
    async with engine.begin() as conn:
        await conn.execute(deliveries.update().where(deliveries.c.id == delivery_id).values(**values))


async def with_pending(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(deliveries.c.hook_id).where(deliveries.c.status == PENDING).distinct())
        return [r[0] for r in rows]


async def recent(engine: AsyncEngine, hook_id: str, limit: int = 100) -> list[Any]:
    """The hook's latest deliveries, newest first."""
    async with engine.connect() as conn:
        return list((await conn.execute(
            sa.select(deliveries).where(deliveries.c.hook_id == hook_id)
            .order_by(deliveries.c.seq.desc()).limit(limit))).all())
