"""The group writer: moves waiting together are stored together, each with its own answer."""

from __future__ import annotations

import asyncio
import threading

import pytest

from table.server.store import ConflictError, OnlineWrite, StorageError
from table.server.store.writer import GroupWriter


def test_moves_queued_together_share_a_commit_and_keep_their_own_outcome():
    batches: list[list[int]] = []
    first_in = threading.Event()
    release = threading.Event()

    def store_many(writes: list[OnlineWrite]) -> list[StorageError | None]:
        batches.append([w.seq for w in writes])
        first_in.set()
        release.wait(5)  # the first commit is slow: the rest queue up behind it
        return [ConflictError(f"seq {w.seq} taken") if w.seq == 3 else None for w in writes]

    writer = GroupWriter(store_many)

    async def main() -> list[object]:
        first = asyncio.ensure_future(writer.write(OnlineWrite("g", 0, {})))
        await asyncio.to_thread(first_in.wait, 5)
        rest = [asyncio.ensure_future(writer.write(OnlineWrite("g", k, {}))) for k in range(1, 5)]
        await asyncio.sleep(0.05)
        release.set()
        return await asyncio.gather(first, *rest, return_exceptions=True)

    outcomes = asyncio.run(main())
    assert batches == [[0], [1, 2, 3, 4]]
    assert outcomes[:3] == [None, None, None] and outcomes[4] is None
    assert isinstance(outcomes[3], ConflictError) and "seq 3" in str(outcomes[3])


def test_a_failed_commit_fails_every_move_of_its_batch():
    def store_many(writes: list[OnlineWrite]) -> list[StorageError | None]:
        raise StorageError("the disk is full")

    writer = GroupWriter(store_many)
    with pytest.raises(StorageError, match="disk is full"):
        asyncio.run(writer.write(OnlineWrite("g", 0, {})))
