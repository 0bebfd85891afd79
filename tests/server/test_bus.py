"""The event bus and command channel over Redis Streams, against a real server.

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

from table.server.bus import EventBus, Event, StaleVersion, Subscriber, NotOnBus  # noqa: E402
from table.server.partitions import partition_of  # noqa: E402

URL = os.environ.get("TABLE_TEST_REDIS_URL")

Test = Callable[[EventBus], Awaitable[None]]


@pytest.fixture
def on_bus() -> Iterator[Callable[..., None]]:
    """Run an async test body with a fresh bus (own prefix), cleaning its keys up after."""
    if not URL:
        pytest.skip("set TABLE_TEST_REDIS_URL to test the event bus on Redis")

    def run(body: Test, **options: Any) -> None:
        async def main() -> None:
            redis = redis_asyncio.Redis.from_url(URL)
            prefix = "t" + secrets.token_hex(6)
            try:
                await body(EventBus(redis, prefix=prefix, **options))
            finally:
                keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
                if keys:
                    await redis.delete(*keys)
                await redis.aclose()
        asyncio.run(main())
    yield run


def test_events_come_back_in_version_order_from_since(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        for v in range(1, 6):
            await bus.publish("t1", v, {"move": v})
        await bus.publish("t2", 1, {"other": True})
        after2 = await bus.read("t1", 2)
        assert [(e.version, e.body) for e in after2] == [(3, {"move": 3}), (4, {"move": 4}), (5, {"move": 5})]
        assert [e.version for e in await bus.read("t1", 0)] == [1, 2, 3, 4, 5]
        assert await bus.read("t1", 5) == []  # up to date
        assert await bus.read("nobody", 0) == []
        assert [e.version for e in await bus.read("t1", 1, count=2)] == [2, 3]
        assert all(e.table_id == "t1" for e in after2)
    on_bus(body)


def test_an_event_not_newer_than_the_last_is_refused(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        await bus.publish("t1", 3, {"a": 1}, after=0)  # one event, three steps
        for stale in (3, 2):
            with pytest.raises(StaleVersion, match="version order"):
                await bus.publish("t1", stale, {"a": 2})
        assert [(e.after, e.version, e.body) for e in await bus.read("t1", 0)] == [(0, 3, {"a": 1})]
        for after, version in ((-1, 0), (4, 4), (5, 4)):
            with pytest.raises(ValueError, match=f"not {after} to {version}"):
                await bus.publish("t1", version, {}, after=after)
        assert [e.version for e in await bus.read("t1", 0)] == [3]
    on_bus(body)


def test_a_since_older_than_the_kept_events_is_told_apart(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        for v in range(1, 1001):
            await bus.publish("t1", v, {"v": v})
        kept = await bus.read("t1", 990)
        assert [e.version for e in kept] == list(range(991, 1001))
        with pytest.raises(NotOnBus, match="no events from version 0 to"):
            await bus.read("t1", 0)
        events = await bus.redis.xlen(bus.events_key("t1"))
        assert 10 <= events < 1000  # trimmed, approximately to maxlen
    on_bus(body, maxlen=10)


def test_a_version_never_published_is_not_skipped_silently(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        await bus.publish("t1", 1, {})
        await bus.publish("t1", 2, {})
        # The owner persisted version 3 and died before publishing it; the next owner goes on.
        await bus.publish("t1", 4, {})
        assert [e.version for e in await bus.read("t1", 3)] == [4]
        for since in (0, 1, 2):
            with pytest.raises(NotOnBus, match="no events from version 2 to 3"):
                await bus.read("t1", since)
    on_bus(body)


def test_two_subscribers_both_see_every_event(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        seen: list[list[tuple[str, int]]] = [[], []]

        def collector(i: int) -> Callable[[Event], Awaitable[None]]:
            async def on_event(e: Event) -> None:
                seen[i].append((e.table_id, e.version))
            return on_event

        subs = [Subscriber(bus, collector(i), block_ms=50) for i in range(2)]
        for s in subs:
            await s.follow("t1", 0)
            await s.follow("t2", 0)
        runs = [asyncio.ensure_future(s.run()) for s in subs]
        await bus.publish("t1", 1, {})
        await bus.publish("t2", 1, {})
        await bus.publish("t1", 2, {})
        await bus.publish("t3", 1, {})  # nobody follows t3
        for _ in range(100):
            if all(len(events) == 3 for events in seen):
                break
            await asyncio.sleep(0.02)
        for s in subs:
            s.stop()
        await asyncio.wait_for(asyncio.gather(*runs), 2)
        for events in seen:
            assert sorted(events) == [("t1", 1), ("t1", 2), ("t2", 1)]
            assert [v for t, v in events if t == "t1"] == [1, 2]  # each table in version order
        assert subs[0].following() == {"t1": 2, "t2": 1}
    on_bus(body)


def test_a_subscriber_gets_what_it_missed_then_what_comes(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        got: list[tuple[str, int]] = []

        async def on_event(e: Event) -> None:
            got.append((e.table_id, e.version))

        sub = Subscriber(bus, on_event)
        for v in range(1, 4):
            await bus.publish("t1", v, {})
        await sub.follow("t1", 1)  # it had seen version 1 before it went away
        assert got == [("t1", 2), ("t1", 3)]
        assert await sub.poll(block_ms=10) == 0  # nothing new: nothing handed on twice
        await bus.publish("t1", 4, {})
        await bus.publish("t9", 1, {})  # not followed, whatever its partition
        assert await sub.poll(block_ms=100) == 1
        assert got[-1] == ("t1", 4)
        sub.forget("t1")
        assert sub.following() == {}
        await bus.publish("t1", 5, {})
        assert await sub.poll(block_ms=10) == 0
    on_bus(body)


def test_a_subscriber_tells_of_events_not_on_the_bus(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        got: list[int] = []
        missing: list[tuple[str, int]] = []

        async def on_event(e: Event) -> None:
            got.append(e.version)

        async def on_missing(table_id: str, version: int) -> None:
            missing.append((table_id, version))

        sub = Subscriber(bus, on_event, on_missing=on_missing)
        await bus.publish("t1", 1, {})
        await sub.follow("t1", 1)
        await bus.publish("t1", 3, {})  # version 2 was never published
        await bus.publish("t1", 4, {})
        assert await sub.poll(block_ms=100) == 1  # version 4 follows 3
        assert missing == [("t1", 1)]
        assert got == [4]
        assert sub.following() == {"t1": 4}
    on_bus(body)


def test_following_a_table_whose_past_is_gone_is_refused(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
        async def on_event(e: Event) -> None:
            raise AssertionError("nothing to hand on")

        await bus.publish("t1", 5, {}, after=3)
        sub = Subscriber(bus, on_event)
        with pytest.raises(NotOnBus, match="no events from version 0 to 3"):
            await sub.follow("t1", 0)
        assert sub.following() == {}
        assert await sub.poll(block_ms=10) == 0  # it follows no partition either
    on_bus(body)


def test_a_command_goes_to_one_owner_once(on_bus: Callable[..., None]) -> None:
    async def body(bus: EventBus) -> None:
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
    async def body(bus: EventBus) -> None:
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
    async def body(bus: EventBus) -> None:
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
        EventBus(None, maxlen=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="partitions must be at least 1, not 0"):
        EventBus(None, partitions=0)  # type: ignore[arg-type]
