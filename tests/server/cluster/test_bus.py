"""Commands to partition owners over Redis Streams, against a real server.

Needs TABLE_TEST_REDIS_URL (scripts/test starts a throwaway server and sets it;
by hand: scripts/redis-for-tests). Each test works under a key prefix of its
own and deletes its keys afterwards.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest

redis_asyncio = pytest.importorskip("redis.asyncio")

from table.server.cluster.bus import CommandBus  # noqa: E402
from table.server.cluster.partitions import partition_of  # noqa: E402

URL = os.environ.get("TABLE_TEST_REDIS_URL")

Test = Callable[[CommandBus], Awaitable[None]]


@pytest.fixture
def on_bus() -> Iterator[Callable[..., None]]:
    """Run an async test body with a fresh bus (own prefix), cleaning its keys up after."""
    if not URL:
        pytest.skip("set TABLE_TEST_REDIS_URL to test the command bus on Redis")

    def run(body: Test, **options: Any) -> None:
        async def main() -> None:
            redis = redis_asyncio.Redis.from_url(URL)
            prefix = "t" + secrets.token_hex(6)
            try:
                await body(CommandBus(redis, prefix=prefix, **options))
            finally:
                keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
                if keys:
                    await redis.delete(*keys)
                await redis.aclose()
        asyncio.run(main())
    yield run


def test_a_command_goes_to_one_owner_once(on_bus: Callable[..., None]) -> None:
    async def body(bus: CommandBus) -> None:
        p = partition_of("t1", bus.partitions)
        await bus.ensure_group(p)
        await bus.ensure_group(p)  # twice is harmless
        sent = await bus.send("t1", {"roll": True})
        first = await bus.receive(p, "worker-a")
        second = await bus.receive(p, "worker-b")
        assert [(c.entry_id, c.table_id, c.body) for c in first] == [(sent, "t1", {"roll": True})]
        assert second == []  # the group delivered it once
        assert await bus.ack(p, sent) == 1
        assert await bus.ack(p, sent) == 0  # already acknowledged
        assert await bus.receive(p, "worker-a", pending=True) == []
    on_bus(body)


def test_an_unacknowledged_command_is_delivered_again(on_bus: Callable[..., None]) -> None:
    async def body(bus: CommandBus) -> None:
        p = partition_of("t1", bus.partitions)
        await bus.ensure_group(p)
        sent = await bus.send("t1", {"move": "8/5 6/5"})
        assert [c.entry_id for c in await bus.receive(p, "worker-a")] == [sent]
        # worker-a dies before applying it. Restarted under the same name, it gets it again;
        assert [c.entry_id for c in await bus.receive(p, "worker-a", pending=True)] == [sent]
        # or another worker, once it has waited long enough, takes it over.
        await asyncio.sleep(0.05)
        assert await bus.claim(p, "worker-b", idle_ms=10_000) == []  # not idle that long yet
        claimed = await bus.claim(p, "worker-b", idle_ms=20)
        assert [(c.entry_id, c.body) for c in claimed] == [(sent, {"move": "8/5 6/5"})]
        assert await bus.ack(p, sent) == 1
        assert await bus.claim(p, "worker-c", idle_ms=0) == []
    on_bus(body)


def test_commands_of_different_partitions_stay_apart(on_bus: Callable[..., None]) -> None:
    async def body(bus: CommandBus) -> None:
        tables = [f"t{i}" for i in range(20)]
        parts = {partition_of(t, bus.partitions) for t in tables}
        assert len(parts) > 1
        for part in parts:
            await bus.ensure_group(part)
        for t in tables:
            await bus.send(t, {"for": t})
        for part in parts:
            got = await bus.receive(part, "w")
            assert sorted(c.table_id for c in got) == sorted(t for t in tables if partition_of(t, bus.partitions) == part)
            assert all(c.body == {"for": c.table_id} for c in got)
    on_bus(body, partitions=4)


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="maxlen must be at least 1, not 0"):
        CommandBus(None, maxlen=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="partitions must be at least 1, not 0"):
        CommandBus(None, partitions=0)  # type: ignore[arg-type]


def test_one_read_serves_several_partitions(on_bus: Callable[..., None]) -> None:
    async def body(bus: CommandBus) -> None:
        tables = [f"t{i}" for i in range(12)]
        parts = sorted({partition_of(t, bus.partitions) for t in tables})
        for part in parts:
            await bus.ensure_group(part)
        for t in tables:
            await bus.send(t, {"for": t})
        got = await bus.receive_many(parts[:-1], "w", block_ms=100)
        assert sorted(c.table_id for _, c in got) == sorted(t for t in tables
                                                            if partition_of(t, bus.partitions) in parts[:-1])
        assert all(p == partition_of(c.table_id, bus.partitions) for p, c in got)
        assert await bus.receive_many(parts[:-1], "w", block_ms=10) == []  # each delivered once
        assert await bus.receive_many([], "w") == []
    on_bus(body, partitions=4)
